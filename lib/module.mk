POUCH_SRCS += \
	lib/buf.c \
	lib/crash.c \
	lib/diag.c \
	lib/fsio.c \
	lib/lazy_curl.c \
	lib/lazy_xml2.c \
	lib/lazylib.c \
	lib/log.c \
	lib/monotime.c \
	lib/scan.c \
	lib/sha256.c \
	lib/str.c \
	lib/strset.c \
	lib/strv.c \
	lib/tz.c \
	lib/xalloc.c
