/*
 * hexid.c - raw object IDs, their hex spelling and shared-prefix length.
 */
#include "hexid.h"

#include <stdint.h>
#include <string.h>

#include "bytes.h"

static const char *const type_names[] = { "unknown", "commit", "tree", "blob", "tag" };

const char *hexid_type_name(int type)
{
	if (type < ABBREV_TYPE_COMMIT || type > ABBREV_TYPE_TAG)
		return type_names[0];
	return type_names[type];
}

int hexid_type_from_name(const char *name)
{
	for (int t = ABBREV_TYPE_COMMIT; t <= ABBREV_TYPE_TAG; t++)
		if (!strcmp(name, type_names[t]))
			return t;
	return ABBREV_TYPE_NONE;
}

const char *hexid_hash_name(size_t rawsz)
{
	switch (rawsz) {
	case 20: return "sha1";
	case 32: return "sha256";
	default: return NULL;
	}
}

void hexid_fmt(char *out, const unsigned char *raw, size_t rawsz)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < rawsz; i++) {
		*out++ = digits[raw[i] >> 4];
		*out++ = digits[raw[i] & 0xf];
	}
	*out = '\0';
}

/* Each byte's value as a hex digit (0-9, a-f, A-F), 0x10 for one that is none. */
static const unsigned char hex_nibble[256] = {
#define X16 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, \
	    0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10
	X16, X16, X16,
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10,
	0x10, 10, 11, 12, 13, 14, 15, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10,
	X16,
	0x10, 10, 11, 12, 13, 14, 15, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10,
	X16, X16, X16, X16, X16, X16, X16, X16, X16
#undef X16
};

/*
 * Two digits a byte, from a table (every commit's parents are parsed
 * here: a cold verify --range parsed 300k IDs a char at a time).  A
 * digit that is none leaves raw as the char-by-char loop did: the
 * digits before it in, the rest zero.
 */
int hexid_parse_prefix(unsigned char *raw, size_t rawsz, const char *hex, size_t len)
{
	const unsigned char *h = (const unsigned char *)hex;
	size_t i = 0;

	if (len > 2 * rawsz)
		return -1;
	memset(raw, 0, rawsz);
	for (; i + 1 < len; i += 2) {
		unsigned hi = hex_nibble[h[i]], lo = hex_nibble[h[i + 1]];

		if ((hi | lo) & 0x10) {
			if (!(hi & 0x10))
				raw[i / 2] = (unsigned char)(hi << 4);
			return -1;
		}
		raw[i / 2] = (unsigned char)(hi << 4 | lo);
	}
	if (i < len) {
		unsigned hi = hex_nibble[h[i]];

		if (hi & 0x10)
			return -1;
		raw[i / 2] = (unsigned char)(hi << 4);
	}
	return 0;
}

size_t hexid_find(const unsigned char *ids, size_t lo, size_t hi, size_t rawsz,
		  const unsigned char *id)
{
	return hexid_find_stride(ids, rawsz, lo, hi, rawsz, id);
}

/* The first 8 bytes of an ID as a number: the order of IDs, as far as it goes (one load). */
static uint64_t head64(const unsigned char *p)
{
	return be64(p);
}

size_t hexid_find_stride(const unsigned char *ids, size_t stride, size_t lo, size_t hi,
			 size_t rawsz, const unsigned char *id)
{
	/* the probes of plain halving, each decided on the keys unless they tie */
	int keyed = rawsz >= 8;
	uint64_t t = keyed ? head64(id) : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const unsigned char *m = ids + mid * stride;
		uint64_t km = keyed ? head64(m) : t;
		int c = km < t ? -1 : km > t ? 1 : memcmp(m, id, rawsz);

		if (!c)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return SIZE_MAX;
}

/* Interpolation probes before plain halving takes over (skewed input). */
#define MAX_GUESSES 6
/*
 * Ranges this short are halved at once: a guess's arithmetic costs more
 * than the steps it saves (a fan-out bucket of a million IDs holds ~16).
 */
#define GUESS_ABOVE 64

size_t hexid_lower_bound(const unsigned char *ids, size_t stride, size_t lo, size_t hi,
			 size_t rawsz, size_t shared, const unsigned char *id)
{
	/*
	 * Every ID of [lo, hi) lies between the keys ka and kb (their first
	 * 8 bytes); id's key t is guessed at its share of that span.  Each
	 * probe narrows both the range and the span, as in halving.
	 */
	if (rawsz >= 8) {
		uint64_t t = head64(id), ka = 0, kb = UINT64_MAX;

		if (shared > 7)
			shared = 7;
		if (shared) {
			uint64_t mask = UINT64_MAX >> (8 * shared);

			ka = t & ~mask;
			kb = ka | mask;
		}
		for (int g = 0; g < MAX_GUESSES && hi - lo > GUESS_ABOVE && ka <= t && t <= kb; g++) {
			double f = ((double)(t - ka) + 0.5) / ((double)(kb - ka) + 1.0);
			size_t mid = lo + (size_t)(f * (double)(hi - lo));
			const unsigned char *m;
			uint64_t km;

			if (mid >= hi)
				mid = hi - 1;
			m = ids + mid * stride;
			km = head64(m);
			if (km < t || (km == t && memcmp(m, id, rawsz) < 0)) {
				lo = mid + 1;
				ka = km;
			} else {
				hi = mid;
				kb = km;
			}
		}
		/* halving on the keys, the whole IDs compared only where the keys tie */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			const unsigned char *m = ids + mid * stride;
			uint64_t km = head64(m);

			if (km < t || (km == t && memcmp(m, id, rawsz) < 0))
				lo = mid + 1;
			else
				hi = mid;
		}
		return lo;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (memcmp(ids + mid * stride, id, rawsz) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void hexid_fan16(const unsigned char *ids, size_t stride, size_t n, uint32_t *fan)
{
	size_t k = 0;

	/* ascending: each bucket's start is where the IDs pass its value */
	for (size_t i = 0; i < n; i++) {
		size_t v = (size_t)ids[i * stride] << 8 | ids[i * stride + 1];

		while (k <= v)
			fan[k++] = (uint32_t)i;
	}
	while (k <= HEXID_FAN16)
		fan[k++] = (uint32_t)n;
}

unsigned hexid_lcp(const unsigned char *a, const unsigned char *b, size_t rawsz)
{
	size_t i = 0;

	while (i < rawsz && a[i] == b[i])
		i++;
	if (i == rawsz)
		return (unsigned)(2 * rawsz);
	/* the first differing byte may still share its high nibble */
	return (unsigned)(2 * i + ((a[i] ^ b[i]) < 0x10));
}
