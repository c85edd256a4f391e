POUCH_SRCS += \
	spool/index.c \
	spool/maildir.c \
	spool/spool.c
