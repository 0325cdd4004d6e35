/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * outbuf.c - the writers' buffered output: bytes gathered in a static
 * buffer and written with write(2), a file produced under a temporary
 * name and renamed into place only when complete, and little-endian
 * fields for the formats that fix their byte order (the GMON_SHLIBS side
 * file).  Like the writers, it may run in a signal handler: no malloc, no
 * stdio.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "gmon_rt.h"

static void flush(struct gmon_out *o)
{
	size_t done = 0;
	while (done < o->n && o->err == 0) {
		ssize_t w = write(o->fd, o->buf + done, o->n - done);
		if (w > 0)
			done += (size_t)w;
		else if (w < 0 && errno != EINTR)
			o->err = errno;
		else if (w == 0)
			o->err = EIO;
	}
	o->n = 0;
}

void gmon_out_put(struct gmon_out *o, const void *p, size_t len)
{
	const unsigned char *s = p;
	while (len > 0) {
		if (o->n == sizeof o->buf)
			flush(o);
		size_t k = sizeof o->buf - o->n;
		k = k < len ? k : len;
		memcpy(o->buf + o->n, s, k);
		o->n += k;
		s += k;
		len -= k;
	}
}

/* The low `bytes` bytes of v, least significant first. */
void gmon_out_le(struct gmon_out *o, uint64_t v, unsigned bytes)
{
	unsigned char b[8];
	for (unsigned i = 0; i < bytes && i < sizeof b; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	gmon_out_put(o, b, bytes < sizeof b ? bytes : sizeof b);
}

/*
 * Write a file to tmp with fill(), then rename it to path: 0 or an errno.
 * The buffer is static (16 KiB is too big for a thread's stack), so the
 * callers serialise (write.c's writer lock).
 */
int gmon_out_file(const char *path, const char *tmp,
                  void (*fill)(struct gmon_out *))
{
	static struct gmon_out o;
	unlink(tmp); /* a leftover of an earlier process with this pid */
	o.fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	if (o.fd < 0)
		return errno;
	o.err = 0;
	o.n = 0;
	fill(&o);
	flush(&o);
	if (close(o.fd) != 0 && o.err == 0)
		o.err = errno;
	if (o.err == 0 && rename(tmp, path) != 0)
		o.err = errno;
	if (o.err != 0)
		unlink(tmp);
	return o.err;
}
