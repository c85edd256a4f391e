POUCH_SRCS += \
	mailer/address.c \
	mailer/charset.c \
	mailer/codec.c \
	mailer/compose.c \
	mailer/config.c \
	mailer/header.c \
	mailer/html.c \
	mailer/mailer.c \
	mailer/message.c \
	mailer/mime.c \
	mailer/oauth.c \
	mailer/outbox.c \
	mailer/sink.c \
	mailer/sink_smtp.c \
	mailer/source.c \
	mailer/source_imap.c \
	mailer/source_maildir.c \
	mailer/tlsverify.c
