/*
 * maildir.h — writing Maildirs durably (the spool, the outbox, the
 * Maildir sink all store messages this way).
 *
 * A Maildir (https://cr.yp.to/proto/maildir.html) is a directory with
 * tmp/, new/ and cur/. A message is written under tmp/, fsync'd, then
 * linked into new/ and unlinked from tmp/: readers never see half a
 * message, and a crash leaves at worst a stray file in tmp/. link() rather
 * than rename() so that an existing name is never overwritten. The link is
 * durable once new/ is fsync'd: md_deliver can do that at once, or leave
 * it to the caller, who then fsyncs new/ once for a whole batch.
 *
 * The prefix is md_ because libetpan already exports maildir_*.
 */
#ifndef POUCH_MAILDIR_H
#define POUCH_MAILDIR_H

#include <stdbool.h>
#include <stddef.h>

/* Create dir (and its parents) with tmp/, new/ and cur/. Returns 0 or -1/errno. */
int md_create(const char *dir);
/* Deliver len bytes as dir/new/name (see above); fsync dir/new too when
 * sync_dir. Returns 0, or -1 with errno (EEXIST: the name is taken). */
int md_deliver(const char *dir, const char *name, const void *data, size_t len, bool sync_dir);
/* fsync dir/new. Returns 0 or -1/errno. */
int md_sync(const char *dir);
/* The path of message name in dir/new or dir/cur, where a mail reader may
 * have moved it as "name:2,FLAGS". Returns 0, or -1 (errno ENOENT or
 * ENAMETOOLONG). */
int md_find(const char *dir, const char *name, char *path, size_t size);
/* A fresh unique name "SECONDS.MusecPpidQcount.pouch" for delivery. */
void md_unique_name(char *out, size_t size);
/* Remove files left in dir/tmp by a crash. Returns how many were removed. */
int md_clean_tmp(const char *dir);

#endif
