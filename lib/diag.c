#include "diag.h"

void
diag_vreport(struct diag *d, int line, const char *fmt, va_list ap)
{
	if (d->count++ >= DIAG_MAX) {
		if (d->count == DIAG_MAX + 1)
			buf_printf(d->out, "%s: too many errors, giving up\n", d->fname);
		return;
	}
	if (line > 0)
		buf_printf(d->out, "%s:%d: ", d->fname, line);
	else
		buf_printf(d->out, "%s: ", d->fname);
	buf_vprintf(d->out, fmt, ap);
	buf_putc(d->out, '\n');
}

void
diag_report(struct diag *d, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vreport(d, line, fmt, ap);
	va_end(ap);
}
