/*
 * maildir.h — writing Maildirs durably (the spool, the outbox, the
 * Maildir sink all store messages this way).
 *
 * A Maildir (https://cr.yp.to/proto/maildir.html) is a directory with
 * tmp/, new/ and cur/. A message is written under tmp/, fsync'd, then
 * linked into new/ and unlinked from tmp/: readers never see half a
 * message, and a crash leaves at worst a stray file in tmp/. The move is a
 * rename that never overwrites an existing name (RENAME_NOREPLACE; a link
 * and an unlink where the file system lacks it), durable once new/ is
 * fsync'd.
 *
 * Batches: an fsync costs a journal commit (milliseconds) each time, so
 * md_write_tmp writes without syncing and md_publish then syncs every
 * file of the batch at once (fs_fsync_all in lib/fsio.h: one syncfs for a
 * batch of 16 or more, one journal commit), links them all and syncs new/
 * once. Each file is durable before its name appears in new/. A batch of
 * more than MD_PUBLISH_PART messages is published so in parts of that
 * many, one after the other: the paths it holds stay as few however
 * many messages a run sends (100,000 took 8 MB).
 *
 * The prefix is md_ because libetpan already exports maildir_*.
 */
#ifndef POUCH_MAILDIR_H
#define POUCH_MAILDIR_H

#include <stdbool.h>
#include <stddef.h>

/* Rename from to to, never over an existing to (EEXIST): one renameat2
 * with RENAME_NOREPLACE, or a link and an unlink where the file system has
 * no such rename. Returns 0 or -1/errno. */
int md_move(const char *from, const char *to);
/* Create dir (and its parents) with tmp/, new/ and cur/. Returns 0 or -1/errno. */
int md_create(const char *dir);
/* Write len bytes as dir/tmp/name, not synced yet. Returns 0, or -1 with
 * errno (EEXIST: the name is taken in tmp/ or new/). */
int md_write_tmp(const char *dir, const char *name, const void *data, size_t len);
/* md_write_tmp for a name that nothing in new/ can hold (md_unique_name's,
 * or one the caller looked for with md_published): new/ is not looked at.
 * replace: a file of that name in tmp/ (a copy a killed run left) is
 * removed first; else it is EEXIST. Returns 0 or -1/errno. */
int md_write_fresh(const char *dir, const char *name, const void *data, size_t len, bool replace);
#define MD_PUBLISH_PART 4096
/* md_publish for messages of several Maildirs: message i written by
 * md_write_tmp into dirs[i]. All files are synced together, then all the
 * new/ folders (by parts of MD_PUBLISH_PART messages). Returns 0 or -1/errno. */
int md_publish_each(char *const *dirs, char *const *names, size_t n);
/* The same with the file src itself (a hard link, no copy: src must be on
 * the same filesystem, else -1 with errno EXDEV). */
int md_link_tmp(const char *dir, const char *name, const char *src);
/* Make the n messages written by md_write_tmp durable and visible: fsync
 * each, link each into new/, unlink from tmp/, fsync new/ (by parts of
 * MD_PUBLISH_PART messages). Returns 0, or -1 with errno (some may then be
 * published, none is lost). */
int md_publish(const char *dir, char *const *names, size_t n);
/* md_write_tmp and md_publish for one message. Returns 0 or -1/errno. */
int md_deliver(const char *dir, const char *name, const void *data, size_t len);
/* The path of message name in dir/new or dir/cur, where a mail reader may
 * have moved it as "name:2,FLAGS", or in dir/tmp when it is not published
 * yet. Returns 0, or -1 (errno ENOENT or ENAMETOOLONG). */
int md_find(const char *dir, const char *name, char *path, size_t size);
/* A fresh unique name "SECONDS.MusecPpidQcount.pouch" for delivery. */
void md_unique_name(char *out, size_t size);
/* Remove files left in dir/tmp by a crash. Returns how many were removed. */
int md_clean_tmp(const char *dir);
/* Maildir's rule for a directory other processes write into too: a file
 * in tmp/ older than this is left over and may be removed. */
#define MD_STALE_SECONDS (36 * 3600)
/* Remove the files of dir/tmp last modified before `before` (seconds
 * since the epoch). Returns how many were removed. */
int md_clean_stale(const char *dir, long long before);
/* Before delivering message name into dir again, after a run that may
 * have been killed: 1 when dir/new/name or dir/cur/name is there (it was
 * published), else 0 (a copy left in dir/tmp is then replaced by
 * md_write_fresh); -1/errno. */
int md_published(const char *dir, const char *name);

#endif
