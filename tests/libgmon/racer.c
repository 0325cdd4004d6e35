/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * racer.c - the driver of the exit-signal race test (not profiled):
 *
 *   racer RUNS SIGNAL PROG [ARGS...]
 *
 * runs PROG (exitrace.c, which prints "ready" and exits) RUNS times in
 * the current folder, each with GMON_OUT=run.I, and sends it SIGNAL a
 * stepped delay after "ready": from 0 to one and a quarter times the
 * longest time from "ready" to the profile's rename in three calibration
 * runs (GMON_OUT=calib, no signal), so the signal lands before, during
 * and after the profile is written.  One
 * line per run on stdout:
 *
 *   run I DELAY_US exit N|signal N WINDOW
 *
 * where WINDOW is 1 if PROG's temporary profile run.I.PID.tmp existed
 * both just before and just after the kill: the signal was certainly sent
 * while the profile was being written.  Whether the profiles are whole
 * is for the test to check.  Exit status 1 on a usage or system error,
 * or if a run hangs (killed after 10 s, times RACER_HANG_SCALE).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_us(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000LL + t.tv_nsec / 1000;
}

/* Start PROG with GMON_OUT=out and its stdout on a pipe; the pipe's
   reading end goes to *fd.  The child's pid, or -1. */
static pid_t start(char **argv, const char *out, int *fd)
{
	int p[2];
	if (pipe(p) != 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		dup2(p[1], 1);
		close(p[0]);
		close(p[1]);
		setenv("GMON_OUT", out, 1);
		execv(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	*fd = p[0];
	return pid;
}

/* Read up to the end of the "ready" line (or of the pipe). */
static void wait_ready(int fd)
{
	char c;
	ssize_t r;
	while ((r = read(fd, &c, 1)) == 1 || (r < 0 && errno == EINTR))
		if (r == 1 && c == '\n')
			break;
}

/* How long a run may take before it counts as hung: 10 s on a quiet
   machine, times RACER_HANG_SCALE (signals.sh gives it timeout_scale,
   so that a loaded machine's slow run is not taken for a hang). */
static long hang_ms(void)
{
	const char *e = getenv("RACER_HANG_SCALE");
	long k = e ? strtol(e, NULL, 10) : 1;
	return 10000 * (k >= 1 && k <= 100 ? k : 1);
}

/* Reap pid, killing it if it runs on past hang_ms(); its status, or -1. */
static int reap(pid_t pid)
{
	int status;
	for (long i = 0; i < hang_ms(); i++) {
		pid_t r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			return status;
		if (r < 0 && errno != EINTR)
			return -1;
		struct timespec ms = { 0, 1000000 };
		nanosleep(&ms, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -1;
}

static int exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* Microseconds from "ready" to the profile's rename in an undisturbed
   run (watched for: the process's own teardown is of no interest). */
static long long calibrate(char **argv)
{
	int fd;
	unlink("calib");
	pid_t pid = start(argv, "calib", &fd);
	if (pid < 0)
		return -1;
	wait_ready(fd);
	long long t0 = now_us(), t = t0;
	while (!exists("calib") && t - t0 < hang_ms() * 1000LL)
		t = now_us();
	int status = reap(pid);
	close(fd);
	return status < 0 || !exists("calib") ? -1 : t - t0;
}

/* Busy-wait: nanosleep's slack would blur delays of a few microseconds. */
static void spin_until(long long t)
{
	while (now_us() < t)
		;
}

/* One run: the signal sent delay µs after "ready"; 0, or -1 if it hung. */
static int one_run(char **argv, int i, int sig, long long delay)
{
	char out[32], tmp[64];
	int fd;
	snprintf(out, sizeof out, "run.%d", i);
	pid_t pid = start(argv, out, &fd);
	if (pid < 0)
		return -1;
	snprintf(tmp, sizeof tmp, "%s.%d.tmp", out, (int)pid);
	wait_ready(fd);
	spin_until(now_us() + delay);
	int before = exists(tmp);
	kill(pid, sig);
	int window = before && exists(tmp);
	int status = reap(pid);
	close(fd);
	if (status < 0) {
		printf("run %d %lld hung %d\n", i, delay, window);
		return -1;
	}
	printf("run %d %lld %s %d %d\n", i, delay,
	       WIFSIGNALED(status) ? "signal" : "exit",
	       WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status), window);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: racer RUNS SIGNAL PROG [ARGS...]\n");
		return 1;
	}
	int runs = atoi(argv[1]), sig = atoi(argv[2]);
	long long span = 0;
	for (int k = 0; k < 3; k++) {
		long long t = calibrate(argv + 3);
		if (t < 0) {
			fprintf(stderr, "racer: calibration run failed\n");
			return 1;
		}
		span = t > span ? t : span;
	}
	int bad = 0;
	for (int i = 0; i < runs; i++)
		bad |= one_run(argv + 3, i, sig, span * 5 / 4 * i / runs) != 0;
	return bad ? 1 : 0;
}
