/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * protobuf.h - just enough of the protocol buffers wire format to write a
 * message (protobuf.c): varints, length-delimited fields and packed
 * repeated integers, appended to a growable buffer.
 *
 * A nested message is built in a buffer of its own and then added to its
 * parent with pb_message(): every field of a message is written at once,
 * so no length has to be patched afterwards.  Zero-valued scalars are
 * written like any other; proto3 readers take them as the default.
 */
#ifndef PROTOBUF_H
#define PROTOBUF_H

#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

/* A varint field (uint64, and int64 as its two's complement, which is
   what the wire format asks of negative int64 values). */
void pb_uint(struct strbuf *b, unsigned field, uint64_t v);
void pb_int(struct strbuf *b, unsigned field, int64_t v);

/* A bool field: written only when true. */
void pb_bool(struct strbuf *b, unsigned field, int v);

/* A length-delimited field: bytes, a string or an encoded message. */
void pb_bytes(struct strbuf *b, unsigned field, const void *p, size_t n);
void pb_string(struct strbuf *b, unsigned field, const char *s);
void pb_message(struct strbuf *b, unsigned field, const struct strbuf *msg);

/* A packed repeated varint field (nothing at all when n is 0). */
void pb_packed_uint(struct strbuf *b, unsigned field, const uint64_t *v,
                    size_t n);
void pb_packed_int(struct strbuf *b, unsigned field, const int64_t *v,
                   size_t n);

#endif
