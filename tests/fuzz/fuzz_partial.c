/*
 * fuzz_partial.c - libFuzzer target for what `git abbrev merge` and `ids`
 * read from outside: partial results (partial_read) and ID lines
 * (idline_parse).
 *
 * Any bytes are a partial result, read without asking for its digest
 * (fuzzed bytes would never match one); a read that succeeds must write
 * back as a fixed point (write, read with the digest checked, write gives
 * the same bytes), so nothing read is lost or made up.  Each line is also an ID line, whose parse
 * must give an ID of 20 or 32 bytes and a known type or kind, or a
 * reason.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idline.h"
#include "partial.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *write_back(const partial *p, size_t *len)
{
	char *mem = NULL;
	FILE *f = open_memstream(&mem, len);

	if (!f)
		abort();
	if (partial_write(f, &p->rep))
		abort();
	fclose(f);
	return mem;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	char err[256];
	partial p, q;

	for (size_t i = 0; i < size;) {
		const char *nl = memchr(text + i, '\n', size - i);
		size_t len = nl ? (size_t)(nl - (text + i)) : size - i;
		idline l;

		switch (idline_parse(&l, text + i, len, 0)) {
		case IDLINE_OBJECT:
			if ((l.rawsz != 20 && l.rawsz != 32) || l.type < 1 || l.type > 4)
				abort();
			break;
		case IDLINE_OTHER:
			if (l.rawsz != 20 || l.other < 0 || l.other >= IDLINE_NOTHER)
				abort();
			break;
		default:
			if (!l.reason)
				abort();
		}
		i += len + 1;
	}

	FILE *f = size ? fmemopen((void *)data, size, "r") : NULL;

	if (!f)
		return 0;
	if (partial_read_unsealed(&p, f, "fuzz", err, sizeof(err)) == 0) {
		size_t n1, n2;
		char *a = write_back(&p, &n1), *b;
		FILE *g = fmemopen(a, n1, "r");

		if (!g || partial_read(&q, g, "again", err, sizeof(err)))
			abort();
		fclose(g);
		b = write_back(&q, &n2);
		if (n1 != n2 || memcmp(a, b, n1))
			abort();
		free(a);
		free(b);
		partial_clear(&q);
		partial_clear(&p);
	}
	fclose(f);
	return 0;
}
