/*
 * verify.c — passwords checked ahead of the judge (verify.h).
 *
 * One lock guards everything: the table of verdicts (open addressing by
 * digest, at most half full; a slot's state says whether the check is
 * queued, under way, or decided) and the ring of queued checks, which
 * alone holds passwords. A check the caller of verifier_check takes over
 * (queued, not begun) is marked under way: the worker that later takes it
 * from the ring finds it so and only wipes it. A check is made outside the
 * lock, always by secret_check.
 */
#define _DEFAULT_SOURCE
#include "verify.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../lib/log.h"
#include "../../lib/sha256.h"
#include "../../lib/str.h"
#include "../../lib/xalloc.h"
#include "../secret.h"
#include "scratch.h"

#define SECRET_LEN_MAX 256
#define WORKERS_MAX 4

enum vstate { V_EMPTY, V_QUEUED, V_WORKING, V_OK, V_BAD };

struct known {
	unsigned char d[SHA256_SIZE];
	unsigned char state;		/* enum vstate */
};

struct job {
	unsigned char d[SHA256_SIZE];
	char secret[SECRET_LEN_MAX + 1];
	char hash[SECRET_HASH_MAX];
};

struct verifier {
	pthread_mutex_t mu;
	pthread_cond_t work;		/* a check queued, or stop */
	pthread_cond_t done;		/* a verdict made */
	struct known *tab;
	size_t cap, n;
	struct job *ring;		/* VERIFY_QUEUE_MAX */
	size_t head, len;
	size_t waiting;			/* verdicts queued, not begun */
	size_t added, made;		/* checks queued; made by the workers */
	pthread_t th[WORKERS_MAX];
	int nth;
	bool stop;
};

static void
digest(const char *secret, const char *hash, unsigned char d[SHA256_SIZE])
{
	struct sha256 c;

	sha256_init(&c);
	sha256_add(&c, hash, strlen(hash) + 1);	/* the NUL parts the two */
	sha256_add(&c, secret, strlen(secret));
	sha256_end(&c, d);
}

/* The slot of d, or the empty one it would take. Lock held. */
static size_t
slot(const struct verifier *v, const unsigned char d[SHA256_SIZE])
{
	size_t mask = v->cap - 1, k;

	memcpy(&k, d, sizeof k);
	for (k &= mask; v->tab[k].state != V_EMPTY && memcmp(v->tab[k].d, d, SHA256_SIZE) != 0;
	    k = (k + 1) & mask)
		;
	return k;
}

/* Room for one more verdict: the slot d takes, or (size_t)-1 when as many
 * are kept as may be. Lock held. */
static size_t
make_room(struct verifier *v, const unsigned char d[SHA256_SIZE])
{
	if (v->n >= VERIFY_KNOWN_MAX)
		return (size_t)-1;
	if (2 * (v->n + 1) > v->cap) {
		struct known *old = v->tab;
		size_t oldcap = v->cap, i;

		v->cap *= 2;
		v->tab = xcalloc(v->cap, sizeof *v->tab);
		for (i = 0; i < oldcap; i++)
			if (old[i].state != V_EMPTY)
				v->tab[slot(v, old[i].d)] = old[i];
		free(old);
	}
	return slot(v, d);
}

/* The verdict on d is ok. Lock held. */
static void
decided(struct verifier *v, const unsigned char d[SHA256_SIZE], bool ok)
{
	v->tab[slot(v, d)].state = ok ? V_OK : V_BAD;
	pthread_cond_broadcast(&v->done);
}

/* secret_check, in the scratch memory this thread keeps (scratch.h). */
static bool
checked(const char *secret, const char *hash)
{
	bool ok;

	scratch_begin();
	ok = secret_check(secret, hash);
	scratch_end();
	return ok;
}

/* Take the first queued check from the ring and make it, the lock let go
 * meanwhile. Returns false when none was queued. Lock held. */
static bool
check_one(struct verifier *v)
{
	struct job *jb, mine;
	size_t k;
	bool ok;

	while (v->len > 0) {
		jb = &v->ring[v->head];
		v->head = (v->head + 1) % VERIFY_QUEUE_MAX;
		v->len--;
		k = slot(v, jb->d);
		if (v->tab[k].state != V_QUEUED) {	/* taken over by the judge */
			explicit_bzero(jb, sizeof *jb);
			continue;
		}
		v->tab[k].state = V_WORKING;
		v->waiting--;
		mine = *jb;
		explicit_bzero(jb, sizeof *jb);
		pthread_mutex_unlock(&v->mu);
		ok = checked(mine.secret, mine.hash);
		explicit_bzero(mine.secret, sizeof mine.secret);
		pthread_mutex_lock(&v->mu);
		decided(v, mine.d, ok);
		return true;
	}
	return false;
}

static void *
worker(void *arg)
{
	struct verifier *v = arg;

	pthread_mutex_lock(&v->mu);
	while (!v->stop)
		if (check_one(v))
			v->made++;
		else
			pthread_cond_wait(&v->work, &v->mu);
	pthread_mutex_unlock(&v->mu);
	scratch_release();
	return NULL;
}

int
verifier_threads(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n <= 1)
		return 0;
	return n - 1 > WORKERS_MAX ? WORKERS_MAX : (int)(n - 1);
}

struct verifier *
verifier_new(int nthreads)
{
	struct verifier *v = xcalloc(1, sizeof *v);
	sigset_t all, old;
	int i, rc;

	pthread_mutex_init(&v->mu, NULL);
	pthread_cond_init(&v->work, NULL);
	pthread_cond_init(&v->done, NULL);
	v->cap = 1024;
	v->tab = xcalloc(v->cap, sizeof *v->tab);
	v->ring = xcalloc(VERIFY_QUEUE_MAX, sizeof *v->ring);
	if (nthreads > WORKERS_MAX)
		nthreads = WORKERS_MAX;
	/* Signals stay with the main thread. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (i = 0; i < nthreads; i++) {
		if ((rc = pthread_create(&v->th[i], NULL, worker, v)) != 0) {
			log_warn("password checks: no thread of their own (%s)", strerror(rc));
			break;
		}
		v->nth++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return v;
}

bool
verifier_add(struct verifier *v, const char *secret, const char *hash)
{
	unsigned char d[SHA256_SIZE];
	struct job *jb;
	size_t k;
	bool queued = true;

	if (v->nth == 0 || strlen(secret) > SECRET_LEN_MAX || strlen(hash) >= SECRET_HASH_MAX)
		return false;
	digest(secret, hash, d);
	pthread_mutex_lock(&v->mu);
	if (v->tab[slot(v, d)].state != V_EMPTY)
		goto out;	/* known, queued or under way */
	if (v->len == VERIFY_QUEUE_MAX || (k = make_room(v, d)) == (size_t)-1) {
		queued = false;
		goto out;
	}
	memcpy(v->tab[k].d, d, SHA256_SIZE);
	v->tab[k].state = V_QUEUED;
	v->n++;
	v->waiting++;
	v->added++;
	jb = &v->ring[(v->head + v->len) % VERIFY_QUEUE_MAX];
	memcpy(jb->d, d, SHA256_SIZE);
	str_copy(jb->secret, secret, sizeof jb->secret);
	str_copy(jb->hash, hash, sizeof jb->hash);
	v->len++;
	pthread_cond_signal(&v->work);
out:
	pthread_mutex_unlock(&v->mu);
	explicit_bzero(d, sizeof d);
	return queued;
}

size_t
verifier_queued(struct verifier *v)
{
	size_t n;

	pthread_mutex_lock(&v->mu);
	n = v->waiting;
	pthread_mutex_unlock(&v->mu);
	return n;
}

void
verifier_counts(struct verifier *v, size_t *added, size_t *made)
{
	pthread_mutex_lock(&v->mu);
	*added = v->added;
	*made = v->made;
	pthread_mutex_unlock(&v->mu);
}

bool
verifier_check(struct verifier *v, const char *secret, const char *hash)
{
	unsigned char d[SHA256_SIZE];
	size_t k;
	bool ok, mine = true;

	digest(secret, hash, d);
	pthread_mutex_lock(&v->mu);
	for (;;) {
		k = slot(v, d);
		if (v->tab[k].state == V_OK || v->tab[k].state == V_BAD) {
			ok = v->tab[k].state == V_OK;
			pthread_mutex_unlock(&v->mu);
			explicit_bzero(d, sizeof d);
			return ok;
		}
		if (v->tab[k].state != V_WORKING)
			break;
		/* A worker is on it: meanwhile, the next queued check. */
		if (!check_one(v))
			pthread_cond_wait(&v->done, &v->mu);
	}
	if (v->tab[k].state == V_QUEUED)
		v->waiting--;	/* taken over: its copy in the ring only wiped */
	if (v->tab[k].state == V_EMPTY) {	/* never queued */
		if ((k = make_room(v, d)) == (size_t)-1) {
			mine = false;	/* not kept */
		} else {
			memcpy(v->tab[k].d, d, SHA256_SIZE);
			v->n++;
		}
	}
	if (mine)
		v->tab[k].state = V_WORKING;	/* a queued check: taken over */
	pthread_mutex_unlock(&v->mu);
	ok = checked(secret, hash);
	if (mine) {
		pthread_mutex_lock(&v->mu);
		decided(v, d, ok);
		pthread_mutex_unlock(&v->mu);
	}
	explicit_bzero(d, sizeof d);
	return ok;
}

bool
verifier_check_io(void *arg, const char *secret, const char *hash)
{
	return verifier_check(arg, secret, hash);
}

void
verifier_free(struct verifier *v)
{
	int i;

	if (v == NULL)
		return;
	pthread_mutex_lock(&v->mu);
	v->stop = true;
	pthread_cond_broadcast(&v->work);
	pthread_mutex_unlock(&v->mu);
	for (i = 0; i < v->nth; i++)
		pthread_join(v->th[i], NULL);
	scratch_release();	/* what this thread's own checks kept */
	explicit_bzero(v->ring, VERIFY_QUEUE_MAX * sizeof *v->ring);
	free(v->ring);
	explicit_bzero(v->tab, v->cap * sizeof *v->tab);
	free(v->tab);
	pthread_cond_destroy(&v->work);
	pthread_cond_destroy(&v->done);
	pthread_mutex_destroy(&v->mu);
	free(v);
}
