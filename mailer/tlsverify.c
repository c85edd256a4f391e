/*
 * tlsverify.c — certificate chain and host name verification with GnuTLS.
 */
#include "tlsverify.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <libetpan/libetpan.h>

#include "../lib/xalloc.h"

#define MAX_CHAIN 16

int
tls_verify_chain(const struct tls_der *chain, size_t n, const char *host, const char *cafile,
    struct buf *err)
{
	gnutls_x509_trust_list_t tl = NULL;
	gnutls_x509_crt_t crts[MAX_CHAIN];
	gnutls_typed_vdata_st vdata[1];
	unsigned status = 0;
	size_t i, ncrt = 0;
	int r, res = -1;

	if (n == 0) {
		buf_printf(err, "%s: the server sent no certificate\n", host);
		return -1;
	}
	if (n > MAX_CHAIN)
		n = MAX_CHAIN;
	for (i = 0; i < n; i++) {
		gnutls_datum_t d;

		d.data = (unsigned char *)(uintptr_t)chain[i].data;
		d.size = (unsigned)chain[i].len;
		if (gnutls_x509_crt_init(&crts[ncrt]) < 0)
			goto out;
		if (gnutls_x509_crt_import(crts[ncrt], &d, GNUTLS_X509_FMT_DER) < 0) {
			gnutls_x509_crt_deinit(crts[ncrt]);
			buf_printf(err, "%s: the server's certificate %zu cannot be read\n", host, i);
			goto out;
		}
		ncrt++;
	}
	if (gnutls_x509_trust_list_init(&tl, 0) < 0)
		goto out;
	if (cafile != NULL) {
		r = gnutls_x509_trust_list_add_trust_file(tl, cafile, NULL, GNUTLS_X509_FMT_PEM, 0, 0);
		if (r <= 0) {
			buf_printf(err, "%s: no CA certificate could be read from %s\n", host, cafile);
			goto out;
		}
	} else {
		r = gnutls_x509_trust_list_add_system_trust(tl, 0, 0);
		if (r <= 0) {
			buf_printf(err, "%s: the system's CA certificates cannot be read\n", host);
			goto out;
		}
	}
	memset(vdata, 0, sizeof vdata);
	vdata[0].type = GNUTLS_DT_DNS_HOSTNAME;
	vdata[0].data = (unsigned char *)(uintptr_t)host;
	vdata[0].size = 0;
	r = gnutls_x509_trust_list_verify_crt2(tl, crts, (unsigned)ncrt, vdata, 1, 0, &status, NULL);
	if (r < 0) {
		buf_printf(err, "%s: certificate verification failed: %s\n", host, gnutls_strerror(r));
		goto out;
	}
	if (status != 0) {
		gnutls_datum_t why = { NULL, 0 };
		size_t wl;
		gnutls_certificate_verification_status_print(status, GNUTLS_CRT_X509, &why, 0);
		wl = why.data ? strlen((const char *)why.data) : 0;
		while (wl > 0 && (why.data[wl - 1] == ' ' || why.data[wl - 1] == '\n'))
			wl--;
		buf_printf(err, "%s: the server's certificate is refused: %.*s\n", host, (int)wl,
		    why.data ? (const char *)why.data : "");
		gnutls_free(why.data);
		goto out;
	}
	res = 0;
out:
	for (i = 0; i < ncrt; i++)
		gnutls_x509_crt_deinit(crts[i]);
	if (tl != NULL)
		gnutls_x509_trust_list_deinit(tl, 1);
	return res;
}

int
tls_verify_mailstream(void *stream, const char *host, const char *cafile, struct buf *err)
{
	carray *certs = mailstream_get_certificate_chain(stream);
	struct tls_der *chain;
	unsigned i, n;
	int r;

	if (certs == NULL) {
		buf_printf(err, "%s: no TLS certificate chain (is the connection encrypted?)\n", host);
		return -1;
	}
	n = carray_count(certs);
	chain = xcalloc(n ? n : 1, sizeof *chain);
	for (i = 0; i < n; i++) {
		MMAPString *s = carray_get(certs, i);
		chain[i].data = (const unsigned char *)s->str;
		chain[i].len = s->len;
	}
	r = tls_verify_chain(chain, n, host, cafile, err);
	free(chain);
	mailstream_certificate_chain_free(certs);
	return r;
}
