/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * replay.c - runs a fuzz harness over files without libFuzzer, so that the
 * committed corpora and crash inputs replay under plain gcc with ASan and
 * UBSan (`make fuzz-replay`, part of `make check`).
 *
 * usage: replay-HARNESS FILE-OR-DIR...
 * Every regular file (directories are read one level deep, in name order)
 * is passed to LLVMFuzzerTestOneInput, each in a child process, so that a
 * sanitizer report or an abort() on one input does not hide the others:
 * every failing input is named ("replay: FAILED ...") and the exit status
 * is 1 if any failed.  An input still running after REPLAY_TIMEOUT
 * seconds fails too (signal 14).
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Seconds one input may take. */
#ifndef REPLAY_TIMEOUT
#define REPLAY_TIMEOUT 120
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

void fuzz_warm_up(void) __attribute__((weak));

static FILE *log_out;
static unsigned long count, nfailed;

static void run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		exit(2);
	}
	size_t cap = 4096, n = 0, got;
	uint8_t *buf = malloc(cap);
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap)
			buf = realloc(buf, cap *= 2);
	}
	fclose(f);
	if (!buf) {
		fputs("replay: out of memory\n", stderr);
		exit(2);
	}
	fprintf(log_out, "replay: %s\n", path);
	fflush(log_out);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(2);
	}
	if (pid == 0) {
		/* An input that hangs (all were fuzzed with a 10 or 20 s
		   timeout) fails with SIGALRM rather than stalling the run. */
		alarm(REPLAY_TIMEOUT);
		/* A private copy of exactly `n` bytes, so overreads are caught. */
		uint8_t *copy = malloc(n ? n : 1);
		memcpy(copy, buf, n);
		free(buf);
		LLVMFuzzerTestOneInput(copy, n);
		free(copy);
		fflush(NULL);
		_exit(0);       /* no atexit handlers: they belong to the parent */
	}
	free(buf);
	int st;
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(log_out, "replay: FAILED %s (%s %d)\n", path,
		        WIFSIGNALED(st) ? "signal" : "status",
		        WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
		nfailed++;
	}
	count++;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_path(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		perror(path);
		exit(2);
	}
	if (!S_ISDIR(st.st_mode)) {
		run_file(path);
		return;
	}
	DIR *d = opendir(path);
	if (!d) {
		perror(path);
		exit(2);
	}
	char **names = NULL;
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		names = realloc(names, (n + 1) * sizeof *names);
		size_t len = strlen(path) + strlen(e->d_name) + 2;
		names[n] = malloc(len);
		snprintf(names[n], len, "%s/%s", path, e->d_name);
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof *names, cmp_str);
	for (size_t i = 0; i < n; i++) {
		if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode))
			run_file(names[i]);
		free(names[i]);
	}
	free(names);
}

int main(int argc, char **argv)
{
	/* Harnesses send stdout to /dev/null; keep our own copy of it. */
	log_out = fdopen(dup(1), "w");
	if (!log_out)
		return 2;
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	if (fuzz_warm_up)
		fuzz_warm_up();         /* loaded once, inherited by every child */
	for (int i = 1; i < argc; i++)
		run_path(argv[i]);
	fprintf(log_out, "replay: %lu inputs, %lu failed\n", count, nfailed);
	fclose(log_out);
	return nfailed ? 1 : 0;
}
