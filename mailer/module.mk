POUCH_SRCS += \
	mailer/message.c
