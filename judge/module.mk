POUCH_SRCS += \
	judge/adjudicate.c \
	judge/board.c \
	judge/cli_render.c \
	judge/cli_tools.c \
	judge/datc.c \
	judge/gamerec.c \
	judge/map.c \
	judge/order.c \
	judge/play.c \
	judge/report.c \
	judge/rules.c
