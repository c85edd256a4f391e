/*
 * fsio.h — durable file operations for the shell (never used by the core).
 *
 * Durability recipe, used everywhere a file is replaced: write a temporary
 * file in the same directory, fsync it, rename it over the target, fsync the
 * directory. A crash leaves either the old file or the new one, never a mix.
 */
#ifndef POUCH_FSIO_H
#define POUCH_FSIO_H

#include <stddef.h>
#include <sys/types.h>

#include "buf.h"

/* Read the whole file into out (appending). Returns 0, or -1 with errno set
 * (EFBIG when the file is larger than out->max allows). */
int fs_read_file(const char *path, struct buf *out);
/* fs_read_file of a regular file that held size bytes when it was looked
 * at (stat): a read that comes short once that much is in is taken as its
 * end, without the read that would return 0 (a file grown since is read
 * whole, one shrunk read to its end). */
int fs_read_file_sized(const char *path, size_t size, struct buf *out);
/* Replace path atomically with len bytes of data (mode 0644). Returns 0 or -1/errno. */
int fs_write_atomic(const char *path, const void *data, size_t len);
/* As fs_write_atomic with an explicit file mode. */
int fs_write_atomic_mode(const char *path, const void *data, size_t len, mode_t mode);
/* Replace path with data through a temporary file and a rename, without
 * syncing: readers never see half a file, but a crash may lose the new
 * one. For files made again from durable data (the map pages). */
int fs_replace(const char *path, const void *data, size_t len);
/* As fs_replace, but a file that holds these bytes already is left as it
 * is (nothing written, nothing for a later sync to write). Returns 0 or
 * -1/errno. */
int fs_replace_changed(const char *path, const void *data, size_t len);
/* Replace path with a hard link to the file from (a temporary name, then
 * a rename; not synced), as fs_replace would with from's bytes. Returns 0
 * or -1/errno (a file system without hard links: write the bytes). */
int fs_replace_link(const char *path, const char *from);
/* Write all len bytes to fd (retrying short writes and EINTR). Returns 0 or -1/errno. */
int fs_write_all(int fd, const void *data, size_t len);
/* Append len bytes to path (created 0644 if missing) and fsync. Returns 0 or -1/errno. */
int fs_append_sync(const char *path, const void *data, size_t len);
/* Make the n files at paths durable, as an fsync of each would: a batch
 * of FS_SYNCFS_MIN or more by one syncfs(2) per file system they are on
 * (a group commit: one journal commit however many files; their names
 * become durable too), a smaller one by an fsync each, FS_SYNC_THREADS at
 * a time. Returns 0, or -1 with the errno of the first failure. */
#define FS_SYNC_THREADS 8
#define FS_SYNCFS_MIN 16
int fs_fsync_all(char *const *paths, size_t n);
/* fsync the directory dir. Returns 0 or -1/errno. */
int fs_fsync_dir(const char *dir);
/* Write to disk everything written on the file system that holds path
 * (syncfs(2); sync(2) where there is none): many files made with
 * fs_replace, durable in one call. Returns 0 or -1/errno. */
int fs_sync_fs(const char *path);
/* mkdir -p with the given mode for new directories. Returns 0 or -1/errno. */
int fs_mkdir_p(const char *path, mode_t mode);
/* True when path exists (any type). */
int fs_exists(const char *path);
/* Remove path and, for a directory, everything below it (symbolic links
 * are removed, not followed). Returns 0 or -1/errno. */
int fs_rm_rf(const char *path);
/* Remove the temporary files NAME.tmp.PID (fs_write_atomic, fs_replace and
 * their like; NAME may be hidden, ".NAME") left in dir, and depth levels of folders below it, by a
 * process that is gone (a kill, or a file system that turned read-only
 * before the file could be removed). Returns how many were removed. */
int fs_sweep_tmp(const char *dir, int depth);
/*
 * Take an exclusive lock on the file path (created if missing), waiting up
 * to wait_ms milliseconds. Returns the lock's file descriptor, or -1 with
 * errno EWOULDBLOCK when another process holds it, other errno on error.
 * Release with fs_unlock(fd).
 */
int fs_lock(const char *path, int wait_ms);
void fs_unlock(int fd);

#endif
