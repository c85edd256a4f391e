/*
 * tlsverify.h — checking a server's certificate ourselves.
 *
 * Debian's libetpan (GnuTLS build) completes TLS handshakes without
 * verifying anything. After every handshake the IMAP source therefore
 * takes the chain the server sent (mailstream_get_certificate_chain) and
 * verifies it here with GnuTLS: signatures up to a trusted root (the
 * system's CAs, or the configured CA file), validity dates, and that the
 * certificate names the host we connected to (DNS name or IP address).
 */
#ifndef POUCH_TLSVERIFY_H
#define POUCH_TLSVERIFY_H

#include <stddef.h>

#include "../lib/buf.h"

struct tls_der {
	const unsigned char *data;	/* one DER certificate, the server's first */
	size_t len;
};

/* Verify a chain for host against cafile (PEM; NULL: the system's trust
 * store). Returns 0, or -1 with a one-line reason in err that names the
 * host and what is wrong. */
int tls_verify_chain(const struct tls_der *chain, size_t n, const char *host, const char *cafile,
    struct buf *err);

/* Verify the chain of an established libetpan TLS stream (a mailstream *,
 * passed as void * to keep libetpan out of this header). Returns 0 or -1
 * (reason in err; also when the stream has no certificate). */
int tls_verify_mailstream(void *stream, const char *host, const char *cafile, struct buf *err);

#endif
