/*
 * test_zones.c — judge/shell/zones (TZif files, POSIX TZ strings) and the
 * conversions of lib/tz, compared with glibc's localtime_r, mktime and
 * strftime reading the same tzdata (here alone TZ is set, to ask glibc).
 */
#define _DEFAULT_SOURCE
#define _XOPEN_SOURCE 700
#include "../support/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../judge/shell/zones.h"
#include "../../lib/buf.h"
#include "../../lib/fsio.h"
#include "../../lib/tz.h"

#define ZONEINFO "/usr/share/zoneinfo"
#define T1970 ((time_t)0)
#define T2100 ((time_t)4102444800)	/* 2100-01-01 */

/* Pacific/Apia skipped 30 December 2011; Lord Howe moves its clocks by half
 * an hour; Kathmandu is 5:45 ahead; Sao Paulo stopped DST in 2019; Nuuk
 * changes at -1:00 local; Jerusalem's footer has a time of 26:00. */
static const char *zones_tried[] = {
	"Europe/Amsterdam", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu",
	"Pacific/Apia", "America/Sao_Paulo", "UTC", "America/Nuuk", "Asia/Jerusalem",
};

static void
glibc_zone(const char *spec)
{
	setenv("TZ", spec, 1);
	tzset();
}

/* The same broken-down time, or a failure naming zone and t. */
static void
same_tm(const char *zone, time_t t, const struct tm *a, const struct tm *b)
{
	if (a->tm_year != b->tm_year || a->tm_mon != b->tm_mon || a->tm_mday != b->tm_mday ||
	    a->tm_hour != b->tm_hour || a->tm_min != b->tm_min || a->tm_sec != b->tm_sec ||
	    a->tm_wday != b->tm_wday || a->tm_yday != b->tm_yday ||
	    (a->tm_isdst > 0) != (b->tm_isdst > 0) || a->tm_gmtoff != b->tm_gmtoff ||
	    strcmp(a->tm_zone, b->tm_zone) != 0)
		fail_msg("%s at %lld: %04d-%02d-%02d %02d:%02d:%02d %+ld %s, glibc %04d-%02d-%02d "
		    "%02d:%02d:%02d %+ld %s", zone, (long long)t, a->tm_year + 1900, a->tm_mon + 1,
		    a->tm_mday, a->tm_hour, a->tm_min, a->tm_sec, a->tm_gmtoff, a->tm_zone,
		    b->tm_year + 1900, b->tm_mon + 1, b->tm_mday, b->tm_hour, b->tm_min, b->tm_sec,
		    b->tm_gmtoff, b->tm_zone);
}

/* tz_local of t in zone against glibc's localtime_r (TZ set to zone). */
static void
check_local(const struct tz_lookup *lk, const char *zone, time_t t)
{
	struct tm ours, theirs;

	assert_int_equal(tz_local(lk, zone, t, &ours), 0);
	assert_non_null(localtime_r(&t, &theirs));
	same_tm(zone, t, &ours, &theirs);
}

/*
 * tz_mktime of the wall-clock time tm against glibc's mktime (tm_isdst
 * -1), glibc first asked for the same time the day before: its answer for
 * a time skipped or shown twice depends on the offset of its last call.
 */
static void
check_mktime(const struct tz_lookup *lk, const char *zone, const struct tm *tm)
{
	struct tm a = *tm, b = *tm;
	time_t ours, theirs;

	b.tm_mday--;
	b.tm_isdst = -1;
	(void)mktime(&b);
	b = *tm;
	b.tm_isdst = -1;
	theirs = mktime(&b);
	assert_int_equal(tz_mktime(lk, zone, &a, &ours), 0);
	if (ours != theirs)
		fail_msg("%s: %04d-%02d-%02d %02d:%02d is %lld, glibc %lld", zone, tm->tm_year + 1900,
		    tm->tm_mon + 1, tm->tm_mday, tm->tm_hour, tm->tm_min, (long long)ours,
		    (long long)theirs);
}

/* The wall-clock time local (seconds, as if UTC) as a struct tm. */
static struct tm
wall(time_t local)
{
	struct tm tm;

	gmtime_r(&local, &tm);
	tm.tm_isdst = -1;
	return tm;
}

/* Every local time in quarter hours from 3 hours before to 3 hours after
 * the change at t (glibc's offset before: a, after: b), both ways. */
static void
check_change(const struct tz_lookup *lk, const char *zone, time_t t, long a, long b)
{
	struct tm tm;
	int k;

	for (k = -7200; k <= 7200; k += 900) {
		check_local(lk, zone, t + k);
		check_local(lk, zone, t + k - 1);
		tm = wall(t + a + k);
		check_mktime(lk, zone, &tm);
		tm = wall(t + b + k);
		check_mktime(lk, zone, &tm);
	}
}

/* The instant, between lo and hi, glibc's offset changes (it differs at lo
 * and hi). */
static time_t
change_between(time_t lo, time_t hi)
{
	struct tm a;

	while (hi - lo > 1) {
		time_t mid = lo + (hi - lo) / 2;
		struct tm m;
		localtime_r(&lo, &a);
		localtime_r(&mid, &m);
		if (m.tm_gmtoff == a.tm_gmtoff && m.tm_isdst == a.tm_isdst)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

/* One zone from 1970 to 2100 (after 2037 from the footer's rule): local
 * times every 3 days and 7 hours; every change of offset found day by day,
 * each at the hours around it; deadlines at 00:30, 02:30 and 18:00 local. */
static void
check_zone(const struct tz_lookup *lk, const char *zone, int *nchanges)
{
	char spec[128];
	time_t t, prev = T1970;
	struct tm a, b;

	snprintf(spec, sizeof spec, ":%s", zone);
	glibc_zone(spec);
	assert_true(tz_valid(lk, zone));
	for (t = T1970; t < T2100; t += 3 * 86400 + 7 * 3600 + 59)
		check_local(lk, zone, t);
	localtime_r(&prev, &a);
	for (t = T1970 + 86400; t < T2100; t += 86400) {
		localtime_r(&t, &b);
		if (b.tm_gmtoff != a.tm_gmtoff || b.tm_isdst != a.tm_isdst) {
			check_change(lk, zone, change_between(prev, t), a.tm_gmtoff, b.tm_gmtoff);
			(*nchanges)++;
		}
		if (t % (11 * 86400) == 0) {
			static const int minutes[] = { 30, 150, 1080 };
			struct tm tm = b;
			int k;
			for (k = 0; k < 3; k++) {
				tm.tm_hour = minutes[k] / 60;
				tm.tm_min = minutes[k] % 60;
				tm.tm_sec = 0;
				check_mktime(lk, zone, &tm);
			}
		}
		prev = t;
		a = b;
	}
}

static void
test_against_glibc(void **state)
{
	struct zones *z = zones_new(NULL);
	struct tz_lookup lk = zones_lookup(z);
	size_t i;
	int n;

	(void)state;
	for (i = 0; i < sizeof zones_tried / sizeof *zones_tried; i++) {
		n = 0;
		check_zone(&lk, zones_tried[i], &n);
		/* Amsterdam has changed its clocks twice a year since 1977. */
		if (strcmp(zones_tried[i], "Europe/Amsterdam") == 0)
			assert_true(n >= 2 * (2100 - 1977));
		if (strcmp(zones_tried[i], "UTC") == 0 || strcmp(zones_tried[i], "Asia/Kathmandu") == 0)
			assert_true(n <= 1);
	}
	zones_free(z);
	unsetenv("TZ");
}

/* A deadline in a skipped hour or one shown twice, spelled out: each local
 * time in Amsterdam and the instant it is read as. */
static void
test_gaps_and_folds(void **state)
{
	static const char *cases[][2] = {
		/* The clocks skip from 02:00 to 03:00. */
		{ "2026-03-29 02:30", "Sunday 29 March 2026, 03:30 CEST" },
		{ "2026-03-29 03:00", "Sunday 29 March 2026, 03:00 CEST" },
		/* 02:00 to 03:00 is shown twice: the first. */
		{ "2026-10-25 02:30", "Sunday 25 October 2026, 02:30 CEST" },
		{ "2026-10-25 03:00", "Sunday 25 October 2026, 03:00 CET" },
		/* Days past the end of the month carried over, as by mktime. */
		{ "2026-02-31 18:00", "Tuesday 3 March 2026, 18:00 CET" },
	};
	struct zones *z = zones_new(NULL);
	struct tz_lookup lk = zones_lookup(z);
	struct tm tm;
	time_t t, fold = 0;
	char s[96];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof *cases; i++) {
		memset(&tm, 0, sizeof tm);
		assert_non_null(strptime(cases[i][0], "%Y-%m-%d %H:%M", &tm));
		assert_int_equal(tz_mktime(&lk, "Europe/Amsterdam", &tm, &t), 0);
		assert_string_equal(time_human(&lk, "Europe/Amsterdam", t, s, sizeof s), cases[i][1]);
		if (i == 2)
			fold = t;
	}
	/* The second 02:30 of 25 October, an hour after the first. */
	assert_string_equal(time_human(&lk, "Europe/Amsterdam", fold + 3600, s, sizeof s),
	    "Sunday 25 October 2026, 02:30 CET");
	zones_free(z);
}

/* time_human against what glibc's strftime made of the same instants. */
static void
test_human(void **state)
{
	struct zones *z = zones_new(NULL);
	struct tz_lookup lk = zones_lookup(z);
	char ours[96], theirs[96], spec[128], *dbl;
	size_t i;
	time_t t;
	struct tm tm;

	(void)state;
	for (i = 0; i < sizeof zones_tried / sizeof *zones_tried; i++) {
		snprintf(spec, sizeof spec, ":%s", zones_tried[i]);
		glibc_zone(spec);
		for (t = 1700000000; t < 1900000000; t += 86400 * 5 + 3917) {
			localtime_r(&t, &tm);
			strftime(theirs, sizeof theirs, "%A %e %B %Y, %H:%M %Z", &tm);
			if ((dbl = strstr(theirs, "  ")) != NULL)
				memmove(dbl, dbl + 1, strlen(dbl));
			assert_string_equal(time_human(&lk, zones_tried[i], t, ours, sizeof ours),
			    theirs);
		}
	}
	unsetenv("TZ");
	zones_free(z);
}

static void
test_names(void **state)
{
	static const char *bad[] = {
		"../etc/passwd", "/etc/localtime", "Europe/../Europe/Amsterdam", "Europe/..",
		"Nowhere/Atlantis", "Europe", "Europe/Amsterdam ", "Europe/Amsterdam\n",
		"zone.tab", "Europe/Amsterdam/", "europe/amsterdam", ".", "-",
		"Europe/Amsterdam;rm", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
		"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
	};
	struct zones *z = zones_new(NULL);
	struct tz_lookup lk = zones_lookup(z);
	struct tz_offset o;
	struct tm tm;
	char s[96];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof *bad; i++) {
		assert_false(tz_valid(&lk, bad[i]));
		assert_int_equal(zones_offset(z, bad[i], 0, &o), -1);
	}
	/* An unknown zone: UTC, and said so. */
	assert_int_equal(tz_local(&lk, "Nowhere/Atlantis", 86400, &tm), -1);
	assert_int_equal(tm.tm_mday, 2);
	assert_string_equal(time_human(&lk, "Nowhere/Atlantis", 86400, s, sizeof s),
	    "Friday 2 January 1970, 00:00 UTC");
	/* UTC under its names, with or without a lookup. */
	assert_true(tz_valid(NULL, "UTC"));
	assert_true(tz_valid(NULL, "utc"));
	assert_true(tz_valid(NULL, "GMT"));
	assert_true(tz_valid(NULL, "Z"));
	assert_true(tz_valid(NULL, ""));
	assert_false(tz_valid(NULL, "Europe/Amsterdam"));
	assert_true(tz_valid(&lk, "Europe/Amsterdam"));
	assert_true(tz_valid(&lk, "Etc/GMT+5"));
	/* The abbreviation, borrowed from z. */
	assert_int_equal(zones_offset(z, "Europe/Amsterdam", 0, &o), 0);
	assert_int_equal(o.utoff, 3600);
	assert_string_equal(o.abbr, "CET");
	zones_free(z);
	zones_free(NULL);
}

/* The v1 block alone (32-bit times, no footer): the same as glibc up to
 * 2037; every shorter prefix of a file refused, a changed byte never a
 * crash. */
static void
test_files(void **state)
{
	char dir[64], path[128];
	struct buf file;
	struct zones *z;
	struct tz_lookup lk;
	struct tz_offset o;
	const unsigned char *p;
	size_t v1len, cut;
	time_t t;
	uint32_t c[6];
	int k;

	(void)state;
	assert_int_equal(test_mkdtemp(dir, sizeof dir, "zones"), 0);
	buf_init(&file, 1 << 20);
	test_read_file(ZONEINFO "/Europe/Amsterdam", &file);
	p = (const unsigned char *)file.data;
	for (k = 0; k < 6; k++)
		c[k] = (uint32_t)p[20 + 4 * k] << 24 | (uint32_t)p[21 + 4 * k] << 16 |
		    (uint32_t)p[22 + 4 * k] << 8 | p[23 + 4 * k];
	/* isut, isstd, leap, time, type, chars */
	v1len = 44 + c[3] * 5 + c[4] * 6 + c[5] + c[2] * 8 + c[1] + c[0];
	assert_true(c[3] > 100 && v1len < file.len);
	file.data[4] = '\0';
	snprintf(path, sizeof path, "%s/v1", dir);
	assert_int_equal(fs_write_atomic(path, file.data, v1len), 0);
	file.data[4] = '2';

	z = zones_new(dir);
	lk = zones_lookup(z);
	glibc_zone(":Europe/Amsterdam");
	for (t = T1970; t < (time_t)2140000000; t += 86400 * 2 + 3600 * 5 + 17)
		check_local(&lk, "v1", t);
	/* Cut short anywhere: unknown. The names are new each time (a zone
	 * read is kept). */
	for (cut = 0; cut < file.len; cut += cut < 100 ? 1 : 37) {
		snprintf(path, sizeof path, "%s/cut%zu", dir, cut);
		assert_int_equal(fs_write_atomic(path, file.data, cut), 0);
		snprintf(path, sizeof path, "cut%zu", cut);
		if (zones_offset(z, path, 1700000000, &o) == 0)
			fail_msg("a file cut at %zu of %zu bytes was read", cut, file.len);
	}
	/* A byte changed: read or refused, the answer within a day of UTC. */
	for (cut = 0; cut < file.len; cut += 7) {
		char saved = file.data[cut];
		file.data[cut] = (char)(file.data[cut] ^ 0x5a);
		snprintf(path, sizeof path, "%s/bad%zu", dir, cut);
		assert_int_equal(fs_write_atomic(path, file.data, file.len), 0);
		file.data[cut] = saved;
		snprintf(path, sizeof path, "bad%zu", cut);
		for (t = -((time_t)1 << 40); t < (time_t)1 << 40; t += (time_t)1 << 37)
			if (zones_offset(z, path, t, &o) == 0)
				assert_true(o.utoff > -100000 && o.utoff < 100000 && o.abbr != NULL);
	}
	/* A file that is not TZif. */
	snprintf(path, sizeof path, "%s/text", dir);
	assert_int_equal(fs_write_atomic(path, "CET-1CEST\n", 10), 0);
	assert_false(tz_valid(&lk, "text"));
	zones_free(z);
	buf_free(&file);
	unsetenv("TZ");
	test_rm_rf(dir);
}

/* POSIX TZ strings against glibc's reading of the same strings. A string
 * without a rule has the United States' (glibc takes it from posixrules,
 * roughly): glibc is given it spelled out. */
static void
test_posix(void **state)
{
	static const char *specs[] = {
		"CET-1CEST,M3.5.0,M10.5.0/3", "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0",
		"<-03>3", "<+0545>-5:45", "IST-2IDT,M3.4.4/26,M10.5.0",
		"<-02>2<-01>,M3.5.0/-1,M10.5.0/0", "EST5EDT,0/0,J365/25", "AAA3BBB,J60/2,J300",
		"CCC-3DDD-5:30,59/1:30:15,300", "EEE5FFF", "NZST-12NZDT,M9.5.0,M4.1.0/3",
	};
	static const char *glibc_specs[] = {
		[9] = "EEE5FFF,M3.2.0,M11.1.0",
	};
	static const char *bad[] = {
		"", "C-1", "CET", "CET-1CEST,M13.1.0,M10.5.0", "CET-1CEST,M3.5.0",
		"CET-1CEST,M3.6.0,M10.5.0", "CET-1CEST,M3.5.7,M10.5.0", "<CET-1", "CET-25",
		"CET-1CEST,J0,J10", "CET-1CEST,M3.5.0,M10.5.0/168", "CET-1x",
	};
	struct tz_offset o;
	char abbr[16];
	struct tm tm;
	time_t t;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof specs / sizeof *specs; i++) {
		glibc_zone(i < sizeof glibc_specs / sizeof *glibc_specs && glibc_specs[i] ?
		    glibc_specs[i] : specs[i]);
		for (t = 946684800; t < T2100; t += 86400 + 3541) {
			assert_int_equal(zones_posix_offset(specs[i], t, &o, abbr, sizeof abbr), 0);
			localtime_r(&t, &tm);
			if (o.utoff != tm.tm_gmtoff || o.isdst != (tm.tm_isdst > 0) ||
			    strcmp(o.abbr, tm.tm_zone) != 0)
				fail_msg("%s at %lld: %+ld %s, glibc %+ld %s", specs[i], (long long)t,
				    o.utoff, o.abbr, tm.tm_gmtoff, tm.tm_zone);
		}
	}
	for (i = 0; i < sizeof bad / sizeof *bad; i++)
		if (zones_posix_offset(bad[i], 0, &o, abbr, sizeof abbr) == 0)
			fail_msg("\"%s\" was read", bad[i]);
	unsetenv("TZ");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_against_glibc),
		cmocka_unit_test(test_gaps_and_folds),
		cmocka_unit_test(test_human),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_posix),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
