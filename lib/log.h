/*
 * log.h — diagnostics on stderr for the shell.
 *
 * Lines look like "pouch: warning: ..." Secrets (delegation passwords,
 * server passwords) must never be passed to these functions.
 */
#ifndef POUCH_LOG_H
#define POUCH_LOG_H

enum log_level { LOG_ERROR = 0, LOG_WARN, LOG_INFO, LOG_DEBUG };

/* Messages above level are dropped. Default LOG_WARN. */
void log_set_level(enum log_level level);
void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
