/*
 * emit_classic.c - the report in git-unique-abbrev's own layout, so that a
 * run today can be diffed against runs posted on mailing lists years ago
 * (the seeds' "13021585 objects /  4: 13021585 / 65536 / ..."):
 *
 *	<N> objects
 *	 4: <colliding objects> / <colliding prefixes>
 *	...                                  down to the first "0 / 0"
 *	<full ID>                            every ID at the longest
 *	...                                  colliding length, in ID order
 *
 * One set only: all objects, or the one `report --type=T` chose
 * (r->set); the first line still says "objects", as the original did.
 */
#include <config.h>

#include "emit.h"

static int report_classic(FILE *out, const stats_report *r)
{
	int set = r->set >= 0 && r->set < ABBREV_SET_COUNT ? r->set : ABBREV_SET_ALL;
	const stats_set *st = &r->sets[set];
	char hex[ABBREV_MAX_HEXSZ + 1];

	fprintf(out, "%zu objects\n", st->count);
	for (unsigned L = ABBREV_MIN_LEN; L <= st->last_len; L++)
		fprintf(out, "%2u: %zu / %zu\n", L, st->objects[L], st->prefixes[L]);
	for (size_t m = 0; m < st->nmembers; m++) {
		hexid_fmt(hex, st->member_ids + m * r->rawsz, r->rawsz);
		fprintf(out, "%s\n", hex);
	}
	return ferror(out) ? -1 : 0;
}

const emit_format emit_format_classic = {
	.name = "classic",
	.report = report_classic,
};
