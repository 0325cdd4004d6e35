/* SPDX-License-Identifier: GPL-3.0-or-later */
/* safe_file.h - write-to-temporary-then-rename output files. */
#ifndef SAFE_FILE_H
#define SAFE_FILE_H
#include <stdbool.h>
#include <stdio.h>

struct safe_file {
	FILE *f;
	const char *path;
	char *tmp;
};

bool safe_open(struct safe_file *sf, const char *path);
bool safe_commit(struct safe_file *sf);
void safe_abort(struct safe_file *sf);
#endif
