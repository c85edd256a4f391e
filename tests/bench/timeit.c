/*
 * timeit.c — the wall time of a command, run N times: how long from fork to
 * its exit, as cron would see it, without a shell or a clock program in the
 * interval. Used by tests/bench/bench_run.sh.
 *
 *	timeit N COMMAND [ARG...]
 *
 * The command's output goes to /dev/null. Prints "min A ms, median B ms, max
 * C ms (N runs)"; exits 1 if a run failed (its status is printed).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../lib/monotime.h"

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int
main(int argc, char **argv)
{
	double *t;
	long n, i;
	char *end;

	if (argc < 3 || (n = strtol(argv[1], &end, 10)) < 1 || *end != '\0' || n > 100000) {
		fprintf(stderr, "usage: timeit N COMMAND [ARG...]\n");
		return 2;
	}
	t = calloc((size_t)n, sizeof *t);
	if (t == NULL)
		return 2;
	for (i = 0; i < n; i++) {
		double t0 = monotime_ms();
		int status;
		pid_t pid = fork();

		if (pid < 0) {
			perror("timeit: fork");
			return 1;
		}
		if (pid == 0) {
			int fd = open("/dev/null", O_WRONLY);

			if (fd >= 0) {
				dup2(fd, 1);
				dup2(fd, 2);
			}
			execvp(argv[2], argv + 2);
			_exit(127);
		}
		if (waitpid(pid, &status, 0) != pid) {
			perror("timeit: waitpid");
			return 1;
		}
		t[i] = monotime_ms() - t0;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			fprintf(stderr, "timeit: %s: run %ld ended with status %d\n", argv[2], i + 1,
			    WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
			return 1;
		}
	}
	qsort(t, (size_t)n, sizeof *t, cmp);
	printf("min %.1f ms, median %.1f ms, max %.1f ms (%ld runs)\n", t[0], t[n / 2], t[n - 1], n);
	free(t);
	return 0;
}
