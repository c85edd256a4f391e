POUCH_SRCS += \
	mailer/address.c \
	mailer/charset.c \
	mailer/codec.c \
	mailer/compose.c \
	mailer/config.c \
	mailer/header.c \
	mailer/html.c \
	mailer/message.c \
	mailer/mime.c
