#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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

	char line[4096];
	int n;

	if (level > current)
		return;
	/* One write a line: threads' lines do not mix. */
	n = snprintf(line, sizeof line, "pouch: %s", tag[level]);
	vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
	n = (int)strlen(line);
	line[n++] = '\n';
	fwrite(line, 1, (size_t)n, stderr);
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
