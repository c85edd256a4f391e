POUCH_SRCS += \
	spool/maildir.c \
	spool/spool.c
