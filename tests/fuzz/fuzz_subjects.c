/*
 * fuzz_subjects.c - libFuzzer target for the reader of verify's subject
 * cache files (subject_cache.h).
 *
 * Any bytes are a cache file.  Its CRC is set right first (else nearly
 * every input stops there, and a file's CRC can be right by design), and
 * the pack checksum and object count asked for are the file's own, so
 * the fuzzer reaches the checks behind them.  A table that parses must
 * answer searches and lookups without reading outside the file: hits
 * never more than asked for, each subject a string inside the file.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "subject_cache.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NIDS 64

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const keys[] = { "typos", "fix", "a", "", "Merge branch 'maint'" };
	unsigned char *buf, ids[NIDS * 32];
	size_t rawsz, total;
	uint32_t nobjects, crc;
	subject_table *t;
	subject_index *x;
	subject_hit hits[4];

	if (size < 68 || size > (1u << 20))
		return 0;
	rawsz = le32(data + 12) == 32 ? 32 : 20;
	nobjects = le32(data + 48);
	buf = malloc(size);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	crc = (uint32_t)crc32(0, buf, (uInt)(size - 4));
	for (int i = 0; i < 4; i++)
		buf[size - 4 + i] = (unsigned char)(crc >> (8 * i));
	if (subject_table_parse(&t, buf, size, rawsz, buf + 16, nobjects)) {
		free(buf);
		return 0;
	}
	memset(ids, 0, sizeof(ids));
	for (size_t i = 0; i < NIDS; i++)
		ids[i * rawsz] = (unsigned char)i; /* ascending */
	if (subject_index_new(&x, rawsz) ||
	    subject_index_add(x, t, ids, rawsz, nobjects < NIDS ? nobjects : NIDS)) {
		free(buf);
		return 0;
	}
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		for (int prefix = 0; prefix < 2; prefix++) {
			if (subject_index_search(x, keys[k], strlen(keys[k]), prefix, hits, 4, &total))
				continue;
			for (size_t i = 0; i < total && i < 4; i++)
				if (hits[i].id[0] >= NIDS)
					abort();
		}
	}
	for (size_t i = 0; i < 8; i++) {
		const char *s;
		int64_t time;

		if (subject_index_lookup(x, ids + i * rawsz, &s, &time) == 1 &&
		    ((const unsigned char *)s < buf || (const unsigned char *)s >= buf + size ||
		     !memchr(s, '\0', (size_t)(buf + size - (const unsigned char *)s))))
			abort();
	}
	subject_index_free(x);
	free(buf);
	return 0;
}
