#include "log.h"

#include <stdarg.h>
#include <stdio.h>

static enum log_level current = LOG_WARN;

void
log_set_level(enum log_level level)
{
	current = level;
}

static void
emit(enum log_level level, const char *fmt, va_list ap)
{
	static const char *const tag[] = { "error: ", "warning: ", "", "debug: " };

	if (level > current)
		return;
	fprintf(stderr, "pouch: %s", tag[level]);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

#define LOG_FN(name, level)                      \
	void name(const char *fmt, ...)          \
	{                                        \
		va_list ap;                      \
		va_start(ap, fmt);               \
		emit(level, fmt, ap);            \
		va_end(ap);                      \
	}

LOG_FN(log_error, LOG_ERROR)
LOG_FN(log_warn, LOG_WARN)
LOG_FN(log_info, LOG_INFO)
LOG_FN(log_debug, LOG_DEBUG)
