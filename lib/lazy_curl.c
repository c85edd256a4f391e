/*
 * lazy_curl.c — the libcurl functions pouch calls, loading libcurl on the
 * first call (lazylib.h). Each definition repeats the prototype of
 * libcurl's header, which the compiler holds it to.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <curl/curl.h>

#include "lazylib.h"

#ifndef POUCH_CURL_SONAME
#error "POUCH_CURL_SONAME (libcurl's soname) is set by the Makefile"
#endif

struct lazylib lazy_curl = { POUCH_CURL_SONAME, "to send mail by SMTP and to renew OAuth 2.0 tokens", NULL };

#define LAZY(ret, name, params, args) LAZYLIB_FN(lazy_curl, ret, name, params, args)
#define LAZY_VOID(name, params, args) LAZYLIB_VOID(lazy_curl, name, params, args)

LAZY(CURLcode, curl_global_init, (long flags), (flags))
LAZY_VOID(curl_global_cleanup, (void), ())
LAZY(struct curl_slist *, curl_slist_append, (struct curl_slist *list, const char *data),
    (list, data))
LAZY_VOID(curl_slist_free_all, (struct curl_slist *list), (list))
LAZY(const char *, curl_easy_strerror, (CURLcode code), (code))
LAZY(CURL *, curl_easy_init, (void), ())
LAZY(CURLcode, curl_easy_perform, (CURL *curl), (curl))
LAZY_VOID(curl_easy_cleanup, (CURL *curl), (curl))
LAZY(CURLcode, curl_easy_send, (CURL *curl, const void *buffer, size_t buflen, size_t *n),
    (curl, buffer, buflen, n))
LAZY(CURLcode, curl_easy_recv, (CURL *curl, void *buffer, size_t buflen, size_t *n),
    (curl, buffer, buflen, n))

/*
 * curl_easy_setopt takes one argument after the option, whose type the
 * option's number gives (curl.h's CURLOPTTYPE_*): passed on as that type.
 * Callbacks have a type each: the ones pouch sets are listed.
 */
CURLcode(curl_easy_setopt)(CURL *curl, CURLoption option, ...)
{
	static CURLcode (*fn)(CURL *, CURLoption, ...);
	CURLcode r;
	va_list ap;

	LAZYLIB_RESOLVE(lazy_curl, fn, "curl_easy_setopt");
	va_start(ap, option);
	if (option < CURLOPTTYPE_OBJECTPOINT) {
		r = fn(curl, option, va_arg(ap, long));
	} else if (option < CURLOPTTYPE_FUNCTIONPOINT) {
		r = fn(curl, option, va_arg(ap, void *));
	} else if (option < CURLOPTTYPE_OFF_T) {
		switch (option) {
		case CURLOPT_READFUNCTION:
			r = fn(curl, option, va_arg(ap, curl_read_callback));
			break;
		case CURLOPT_WRITEFUNCTION:
			r = fn(curl, option, va_arg(ap, curl_write_callback));
			break;
		case CURLOPT_DEBUGFUNCTION:
			r = fn(curl, option, va_arg(ap, curl_debug_callback));
			break;
		default:
			fprintf(stderr, "pouch: lazy_curl.c does not pass on callback option %d\n",
			    (int)option);
			abort();
		}
	} else if (option < CURLOPTTYPE_BLOB) {
		r = fn(curl, option, va_arg(ap, curl_off_t));
	} else {
		r = fn(curl, option, va_arg(ap, struct curl_blob *));
	}
	va_end(ap);
	return r;
}

/*
 * curl_easy_getinfo takes a pointer after the info, whose target's type
 * the info's number gives (CURLINFO_LONG, _STRING, ...): a pointer either way.
 */
CURLcode(curl_easy_getinfo)(CURL *curl, CURLINFO info, ...)
{
	static CURLcode (*fn)(CURL *, CURLINFO, ...);
	CURLcode r;
	va_list ap;

	LAZYLIB_RESOLVE(lazy_curl, fn, "curl_easy_getinfo");
	va_start(ap, info);
	r = fn(curl, info, va_arg(ap, void *));
	va_end(ap);
	return r;
}

const char *
lazy_curl_version(void)
{
	static curl_version_info_data *(*fn)(CURLversion);

	LAZYLIB_RESOLVE(lazy_curl, fn, "curl_version_info");
	return fn(CURLVERSION_NOW)->version;
}
