/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * runstat.c - runs a command several times and reports its median wall
 * time, median CPU time (user + system) and peak resident memory, as the
 * kernel accounts them for the command and everything it waited for
 * (wait4's rusage, the figures /usr/bin/time prints).
 *
 *   runstat [-n RUNS] [-s SLOW] [-o OUT] [-d DIR] -- COMMAND [ARG...]
 *
 * -n RUNS  how many runs (default 3); -s SLOW: stop after the first run
 * if it took more than SLOW seconds; -o OUT: the command's standard output
 * (default /dev/null; standard error stays); -d DIR: run it in DIR.
 * Prints one line: "WALL CPU MAXRSS_KB RUNS STATUS" where STATUS is the
 * first non-zero exit status (or 128+signal), else 0.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
	int runs = 3, opt;
	double slow = 0;
	const char *out = "/dev/null", *dir = NULL;

	while ((opt = getopt(argc, argv, "+n:s:o:d:")) != -1) {
		switch (opt) {
		case 'n': runs = atoi(optarg); break;
		case 's': slow = atof(optarg); break;
		case 'o': out = optarg; break;
		case 'd': dir = optarg; break;
		default:
			fprintf(stderr, "usage: runstat [-n RUNS] [-s SLOW] [-o OUT] "
			        "[-d DIR] -- COMMAND [ARG...]\n");
			return 2;
		}
	}
	if (optind >= argc || runs < 1) {
		fprintf(stderr, "runstat: no command\n");
		return 2;
	}

	double *wall = calloc((size_t)runs, sizeof *wall);
	double *cpu = calloc((size_t)runs, sizeof *cpu);
	long maxrss = 0;
	int done = 0, status = 0;
	if (!wall || !cpu)
		return 2;
	for (; done < runs; done++) {
		double t0 = now();
		pid_t pid = fork();
		if (pid < 0) {
			perror("runstat: fork");
			return 2;
		}
		if (pid == 0) {
			int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
			if (fd < 0 || dup2(fd, 1) < 0) {
				perror(out);
				_exit(126);
			}
			close(fd);
			if (dir && chdir(dir) != 0) {
				perror(dir);
				_exit(126);
			}
			execvp(argv[optind], argv + optind);
			perror(argv[optind]);
			_exit(127);
		}
		int st;
		struct rusage ru;
		while (wait4(pid, &st, 0, &ru) < 0) {
			if (errno != EINTR) {
				perror("runstat: wait4");
				return 2;
			}
		}
		wall[done] = now() - t0;
		cpu[done] = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		            (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
		if (ru.ru_maxrss > maxrss)
			maxrss = ru.ru_maxrss;
		if (!status)
			status = WIFEXITED(st) ? WEXITSTATUS(st) :
			         128 + WTERMSIG(st);
		if (slow > 0 && wall[done] > slow) {
			done++;
			break;
		}
	}
	printf("%.3f %.3f %ld %d %d\n", median(wall, done), median(cpu, done),
	       maxrss, done, status);
	return 0;
}
