POUCH_SRCS += \
	judge/adjudicate.c \
	judge/board.c \
	judge/cli_oauth.c \
	judge/cli_run.c \
	judge/cli_render.c \
	judge/cli_tools.c \
	judge/conf.c \
	judge/datc.c \
	judge/doctor.c \
	judge/game.c \
	judge/gamerec.c \
	judge/gm.c \
	judge/judge.c \
	judge/map.c \
	judge/muna.c \
	judge/order.c \
	judge/play.c \
	judge/report.c \
	judge/rules.c \
	judge/run.c \
	judge/secret.c \
	judge/store.c \
	judge/transcript.c \
	judge/turn.c \
	judge/varcache.c \
	judge/webpages.c
