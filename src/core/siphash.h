/*
 * siphash.h - SipHash-2-4 (Aumasson and Bernstein, "SipHash: a fast
 * short-input PRF", 2012, https://www.aumasson.jp/siphash/siphash.pdf):
 * a 64-bit tag of a message under a 128-bit secret key, which nobody
 * without the key can compute for a message of their choice.  The cache
 * seals the files whose contents it cannot check cheaply with it.
 */
#ifndef ABBREV_SIPHASH_H
#define ABBREV_SIPHASH_H

#include <stddef.h>
#include <stdint.h>

#define SIPHASH_KEYSZ 16

uint64_t siphash24(const unsigned char key[SIPHASH_KEYSZ], const unsigned char *m, size_t n);

#endif
