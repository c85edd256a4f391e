/*
 * zones.c — TZif files (RFC 8536) and their POSIX TZ string footers.
 *
 * A zone read is a table of transitions (instant, index of the local time
 * type then in force) and the types (offset, DST flag, abbreviation).
 * Before the first transition type 0 applies; from the last one on, the
 * footer's rule when there is one (glibc does the same), else the last
 * type. Every count is checked against the bytes there are before it is
 * used: a damaged file is an unknown zone, never a crash.
 */
#include "zones.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/buf.h"
#include "../../lib/fsio.h"
#include "../../lib/grow.h"
#include "../../lib/xalloc.h"

#ifndef ZONES_DIR
#define ZONES_DIR "/usr/share/zoneinfo"
#endif

#define ZONE_NAME_MAX	100
#define ZONE_FILE_MAX	(256 * 1024)
#define ABBR_MAX	16

/* A day of a POSIX rule: Jn (1-365, February 29 never counted), n (0-365)
 * or Mm.w.d (day d of week w of month m, week 5 the last), and the local
 * time of the change, in seconds. */
struct rule_day {
	char kind;		/* 'J', 'N' or 'M' */
	int n, m, w, d;
	long secs;
};

/* A POSIX TZ string: std offset [dst [offset] [,start[/time],end[/time]]]. */
struct posix_tz {
	char std[ABBR_MAX], dst[ABBR_MAX];
	long std_off, dst_off;	/* seconds east of UTC */
	bool has_dst;
	struct rule_day start, end;
};

struct ttype {
	long utoff;
	bool isdst;
	int abbr;		/* index into chars */
};

struct zone {
	char *name;
	int64_t *times;
	unsigned char *idx;
	int ntimes;
	struct ttype *types;
	int ntypes;
	char *chars;		/* the abbreviations, NUL-terminated */
	int nchars;
	bool has_rule;
	struct posix_tz rule;
};

struct zones {
	char dir[512];
	struct zone **z;	/* every zone read (unknown names are not kept) */
	int n, cap;
};

/* ---- POSIX TZ strings ---- */

/* An abbreviation: 3 or more letters, or <...> of letters, digits, '+', '-'. */
static const char *
parse_abbr(const char *p, char *out)
{
	size_t n = 0;

	if (*p == '<') {
		for (p++; *p && *p != '>'; p++) {
			if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
			    (*p >= '0' && *p <= '9') || *p == '+' || *p == '-') || n + 1 >= ABBR_MAX)
				return NULL;
			out[n++] = *p;
		}
		if (*p++ != '>')
			return NULL;
	} else {
		for (; (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z'); p++) {
			if (n + 1 >= ABBR_MAX)
				return NULL;
			out[n++] = *p;
		}
	}
	out[n] = '\0';
	return n >= 3 ? p : NULL;
}

/* A number of at most 3 digits within [0, max]. */
static const char *
parse_num(const char *p, int max, int *out)
{
	int v = 0, k = 0;

	while (*p >= '0' && *p <= '9' && k < 3) {
		v = v * 10 + (*p++ - '0');
		k++;
	}
	if (k == 0 || v > max)
		return NULL;
	*out = v;
	return p;
}

/* [+-]hh[:mm[:ss]] with hours up to maxh, as signed seconds. */
static const char *
parse_hms(const char *p, int maxh, long *out)
{
	int sign = 1, h, m = 0, s = 0;

	if (*p == '+' || *p == '-')
		sign = *p++ == '-' ? -1 : 1;
	if ((p = parse_num(p, maxh, &h)) == NULL)
		return NULL;
	if (*p == ':' && ((p = parse_num(p + 1, 59, &m)) == NULL ||
	    (*p == ':' && (p = parse_num(p + 1, 59, &s)) == NULL)))
		return NULL;
	*out = sign * ((long)h * 3600 + m * 60 + s);
	return p;
}

/* Jn, n or Mm.w.d, then [/time] (2:00 when absent). */
static const char *
parse_rule_day(const char *p, struct rule_day *r)
{
	memset(r, 0, sizeof *r);
	if (*p == 'J') {
		r->kind = 'J';
		if ((p = parse_num(p + 1, 365, &r->n)) == NULL || r->n < 1)
			return NULL;
	} else if (*p == 'M') {
		r->kind = 'M';
		if ((p = parse_num(p + 1, 12, &r->m)) == NULL || r->m < 1 || *p != '.' ||
		    (p = parse_num(p + 1, 5, &r->w)) == NULL || r->w < 1 || *p != '.' ||
		    (p = parse_num(p + 1, 6, &r->d)) == NULL)
			return NULL;
	} else {
		r->kind = 'N';
		if ((p = parse_num(p, 365, &r->n)) == NULL)
			return NULL;
	}
	r->secs = 2 * 3600;
	if (*p == '/')
		p = parse_hms(p + 1, 167, &r->secs);
	return p;
}

/* Read spec into tz. Returns 0 or -1. */
static int
posix_parse(const char *spec, struct posix_tz *tz)
{
	const char *p = spec;
	long off;

	memset(tz, 0, sizeof *tz);
	if ((p = parse_abbr(p, tz->std)) == NULL || (p = parse_hms(p, 24, &off)) == NULL)
		return -1;
	tz->std_off = -off;		/* POSIX counts west of Greenwich */
	if (*p == '\0')
		return 0;
	if ((p = parse_abbr(p, tz->dst)) == NULL)
		return -1;
	tz->has_dst = true;
	tz->dst_off = tz->std_off + 3600;
	if (*p && *p != ',') {
		if ((p = parse_hms(p, 24, &off)) == NULL)
			return -1;
		tz->dst_off = -off;
	}
	if (*p == '\0') {
		/* No rule: the United States' since 2007, as glibc assumes. */
		p = "M3.2.0,M11.1.0";
	} else if (*p++ != ',') {
		return -1;
	}
	if ((p = parse_rule_day(p, &tz->start)) == NULL || *p++ != ',' ||
	    (p = parse_rule_day(p, &tz->end)) == NULL)
		return -1;
	return *p == '\0' ? 0 : -1;
}

static bool
leap_year(int64_t y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* Days from 1970-01-01 to y-m-d (m 1-12), proleptic Gregorian. */
static int64_t
days_from_civil(int64_t y, int m, int d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* The year (UTC) of instant t. */
static int64_t
year_of(int64_t t)
{
	int64_t days = (t >= 0 ? t : t - 86399) / 86400;
	int64_t y = 1970 + days / 366;

	while (days_from_civil(y + 1, 1, 1) <= days)
		y++;
	while (days_from_civil(y, 1, 1) > days)
		y--;
	return y;
}

/* The instant of rule day r of year y, r's time read at offset off. */
static int64_t
rule_instant(const struct rule_day *r, int64_t y, long off)
{
	static const int mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int64_t day;

	if (r->kind == 'J') {
		day = days_from_civil(y, 1, 1) + r->n - 1 + (leap_year(y) && r->n >= 60);
	} else if (r->kind == 'N') {
		day = days_from_civil(y, 1, 1) + r->n;
	} else {
		int64_t first = days_from_civil(y, r->m, 1);
		int wd = (int)(((first % 7) + 11) % 7);	/* 1970-01-01 was a Thursday */
		int dim = mdays[r->m - 1] + (r->m == 2 && leap_year(y));
		int d = 1 + (r->d - wd + 7) % 7 + (r->w - 1) * 7;
		while (d > dim)
			d -= 7;
		day = first + d - 1;
	}
	return day * 86400 + r->secs - off;
}

/* The offset tz gives at t; abbreviations borrowed from tz. */
static void
posix_at(const struct posix_tz *tz, int64_t t, struct tz_offset *out)
{
	bool dst = false;

	if (tz->has_dst) {
		int64_t y = year_of(t);
		int64_t start = rule_instant(&tz->start, y, tz->std_off);
		int64_t end = rule_instant(&tz->end, y, tz->dst_off);
		dst = start < end ? (t >= start && t < end) : !(t >= end && t < start);
	}
	out->utoff = dst ? tz->dst_off : tz->std_off;
	out->isdst = dst;
	out->abbr = dst ? tz->dst : tz->std;
}

int
zones_posix_offset(const char *spec, time_t t, struct tz_offset *out, char *abbr, size_t size)
{
	struct posix_tz tz;

	if (posix_parse(spec, &tz) < 0)
		return -1;
	posix_at(&tz, t, out);
	snprintf(abbr, size, "%s", out->abbr);
	out->abbr = abbr;
	return 0;
}

/* ---- TZif files ---- */

static uint32_t
be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int64_t
be64(const unsigned char *p)
{
	return (int64_t)((uint64_t)be32(p) << 32 | be32(p + 4));
}

/* The counts of a TZif header. */
struct tzif_head {
	char version;
	uint32_t isut, isstd, leap, time, type, chars;
};

/* Read the header at p (len bytes there). Returns the data's size for
 * times of tsize bytes, or 0 when the header is not one. */
static size_t
tzif_head(const unsigned char *p, size_t len, size_t tsize, struct tzif_head *h)
{
	if (len < 44 || memcmp(p, "TZif", 4) != 0)
		return 0;
	h->version = (char)p[4];
	h->isut = be32(p + 20);
	h->isstd = be32(p + 24);
	h->leap = be32(p + 28);
	h->time = be32(p + 32);
	h->type = be32(p + 36);
	h->chars = be32(p + 40);
	if (h->type == 0 || h->type > 256 || h->chars == 0 || h->chars > ZONE_FILE_MAX ||
	    h->time > ZONE_FILE_MAX || h->leap > ZONE_FILE_MAX ||
	    (h->isut && h->isut != h->type) || (h->isstd && h->isstd != h->type))
		return 0;
	return 44 + (size_t)h->time * (tsize + 1) + (size_t)h->type * 6 + h->chars +
	    (size_t)h->leap * (tsize + 4) + h->isstd + h->isut;
}

/* Fill z from the data block at p described by h, times of tsize bytes.
 * Returns 0 or -1. */
static int
tzif_data(struct zone *z, const unsigned char *p, const struct tzif_head *h, size_t tsize)
{
	const unsigned char *idx = p + (size_t)h->time * tsize;
	const unsigned char *types = idx + h->time;
	const unsigned char *chars = types + (size_t)h->type * 6;
	uint32_t i;

	z->ntimes = (int)h->time;
	z->times = xreallocarray(NULL, h->time + 1, sizeof *z->times);
	z->idx = xmalloc(h->time + 1);
	for (i = 0; i < h->time; i++) {
		z->times[i] = tsize == 8 ? be64(p + i * 8) : (int32_t)be32(p + i * 4);
		z->idx[i] = idx[i];
		if (idx[i] >= h->type || (i > 0 && z->times[i] <= z->times[i - 1]))
			return -1;
	}
	z->ntypes = (int)h->type;
	z->types = xreallocarray(NULL, h->type, sizeof *z->types);
	for (i = 0; i < h->type; i++) {
		z->types[i].utoff = (int32_t)be32(types + i * 6);
		z->types[i].isdst = types[i * 6 + 4] != 0;
		z->types[i].abbr = types[i * 6 + 5];
		/* RFC 8536: from -24:59:59 to +25:59:59. */
		if (z->types[i].abbr >= (int)h->chars || z->types[i].utoff < -89999 ||
		    z->types[i].utoff > 93599)
			return -1;
	}
	z->nchars = (int)h->chars;
	z->chars = xmalloc(h->chars + 1);
	memcpy(z->chars, chars, h->chars);
	z->chars[h->chars] = '\0';
	return 0;
}

/* The footer "\n<TZ string>\n" at p (len bytes). Returns 0 or -1. */
static int
tzif_footer(struct zone *z, const unsigned char *p, size_t len)
{
	const unsigned char *nl;
	char spec[128];
	size_t n;

	if (len < 2 || p[0] != '\n' || (nl = memchr(p + 1, '\n', len - 1)) == NULL)
		return -1;
	n = (size_t)(nl - p - 1);
	if (n == 0)
		return 0;		/* no rule: the last type stays */
	if (n >= sizeof spec)
		return -1;
	memcpy(spec, p + 1, n);
	spec[n] = '\0';
	if (posix_parse(spec, &z->rule) < 0)
		return -1;
	z->has_rule = true;
	return 0;
}

static void
zone_clear(struct zone *z)
{
	free(z->name);
	free(z->times);
	free(z->idx);
	free(z->types);
	free(z->chars);
	memset(z, 0, sizeof *z);
}

/* Read a TZif file's len bytes at p into z. Returns 0 or -1. */
static int
tzif_parse(struct zone *z, const unsigned char *p, size_t len)
{
	struct tzif_head h;
	size_t n = tzif_head(p, len, 4, &h);

	if (n == 0 || n > len)
		return -1;
	if (h.version == '\0')
		return tzif_data(z, p + 44, &h, 4);
	/* Version 2 and later: skip the 32-bit block for the 64-bit one. */
	p += n;
	len -= n;
	n = tzif_head(p, len, 8, &h);
	if (n == 0 || n > len || tzif_data(z, p + 44, &h, 8) < 0)
		return -1;
	return tzif_footer(z, p + n, len - n);
}

static bool
name_ok(const char *zone)
{
	const char *p;

	if (*zone == '\0' || strlen(zone) > ZONE_NAME_MAX || strstr(zone, "..") || zone[0] == '/')
		return false;
	for (p = zone; *p; p++)
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		    (*p >= '0' && *p <= '9') || *p == '/' || *p == '_' || *p == '-' || *p == '+'))
			return false;
	return true;
}

/* The zone called name, read now if it was not yet; NULL when unknown. */
static const struct zone *
zone_get(struct zones *zs, const char *name)
{
	struct zone z;
	struct buf file;
	char path[sizeof zs->dir + ZONE_NAME_MAX + 2];
	int i, rc;

	for (i = 0; i < zs->n; i++)
		if (strcmp(zs->z[i]->name, name) == 0)
			return zs->z[i];
	if (!name_ok(name))
		return NULL;
	snprintf(path, sizeof path, "%s/%s", zs->dir, name);
	buf_init(&file, ZONE_FILE_MAX);
	memset(&z, 0, sizeof z);
	rc = fs_read_file(path, &file) < 0 ? -1 :
	    tzif_parse(&z, (const unsigned char *)file.data, file.len);
	buf_free(&file);
	if (rc < 0) {
		zone_clear(&z);
		return NULL;
	}
	z.name = xstrdup(name);
	GROW(zs->z, zs->n, zs->cap);
	zs->z[zs->n] = xmalloc(sizeof z);
	*zs->z[zs->n] = z;
	return zs->z[zs->n++];
}

/* The offset of z at t. */
static void
zone_at(const struct zone *z, int64_t t, struct tz_offset *out)
{
	const struct ttype *ty;
	int lo = 0, hi = z->ntimes;

	/* Some two million years either way: enough, and no overflow. */
	if (t > ((int64_t)1 << 46) || t < -((int64_t)1 << 46))
		t = t > 0 ? (int64_t)1 << 46 : -((int64_t)1 << 46);
	if (z->has_rule && (z->ntimes == 0 || t >= z->times[z->ntimes - 1])) {
		posix_at(&z->rule, t, out);
		return;
	}
	if (z->ntimes == 0 || t < z->times[0]) {
		ty = &z->types[0];
	} else {
		/* The last transition at or before t. */
		while (hi - lo > 1) {
			int mid = lo + (hi - lo) / 2;
			if (z->times[mid] <= t)
				lo = mid;
			else
				hi = mid;
		}
		ty = &z->types[z->idx[lo]];
	}
	out->utoff = ty->utoff;
	out->isdst = ty->isdst;
	out->abbr = z->chars + ty->abbr;
}

struct zones *
zones_new(const char *dir)
{
	struct zones *z = xcalloc(1, sizeof *z);

	snprintf(z->dir, sizeof z->dir, "%s", dir ? dir : ZONES_DIR);
	return z;
}

void
zones_free(struct zones *z)
{
	int i;

	if (z == NULL)
		return;
	for (i = 0; i < z->n; i++) {
		zone_clear(z->z[i]);
		free(z->z[i]);
	}
	free(z->z);
	free(z);
}

int
zones_offset(struct zones *zs, const char *zone, time_t t, struct tz_offset *out)
{
	const struct zone *z = zone_get(zs, zone);

	if (z == NULL)
		return -1;
	zone_at(z, (int64_t)t, out);
	return 0;
}

static int
lookup_offset(void *ctx, const char *zone, time_t t, struct tz_offset *out)
{
	return zones_offset(ctx, zone, t, out);
}

struct tz_lookup
zones_lookup(struct zones *z)
{
	struct tz_lookup lk = { z, lookup_offset };

	return lk;
}
