/*
 * emit_partial.c - --format=partial: a shard's tables as `git abbrev
 * merge` reads them back (the layout is partial.h's).
 */
#include "emit.h"
#include "partial.h"

static int report_partial(FILE *out, const stats_report *r)
{
	return partial_write(out, r);
}

const emit_format emit_format_partial = {
	.name = "partial",
	/* merge says them of the whole */
	.carries = {
		[EMIT_NOTE_LACKS] = EMIT_KIND_BIT(EMIT_REPORT),
		[EMIT_NOTE_INPUT] = EMIT_KIND_BIT(EMIT_REPORT),
	},
	.report = report_partial,
};
