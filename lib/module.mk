POUCH_SRCS += \
	lib/buf.c \
	lib/diag.c \
	lib/fsio.c \
	lib/log.c \
	lib/str.c \
	lib/strset.c \
	lib/tz.c \
	lib/xalloc.c
