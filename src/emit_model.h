/*
 * emit_model.h - the emitters of `git abbrev model`, one per format.
 *
 * Like emit.h for the report: each takes computed model_results and a
 * FILE *, prints nothing anywhere else, and returns 0 or -1 on a write
 * error.  Ownership: nothing is kept; the results stay the caller's.
 */
#ifndef ABBREV_EMIT_MODEL_H
#define ABBREV_EMIT_MODEL_H

#include <stdio.h>

#include "model.h"

/*
 * A table per set over r->from .. r->to: expected pairs, P(collision),
 * expected colliding objects / prefixes, the capacity at 1% and 50%,
 * and the shortest length at 50% and 1%.
 */
int emit_model_text(FILE *out, const model_results *r);

/*
 * JSON.  One set named "all":
 *   {"objects": n, "lengths": {"L": {"expected_pairs": E, "p_collision": P,
 *    "expected_objects": o, "expected_prefixes": x}, ...},
 *    "capacity": {"L": {"p01": n1, "p50": n50}, ...}}
 * otherwise {"sets": {"<name>": {the same}, ...}} in input order.
 * Counts are JSON integers; a capacity that does not fit in 63 bits
 * (from about L = 32 on) is a JSON real instead.
 */
int emit_model_json(FILE *out, const model_results *r);

/*
 * CSV: a header row, then one row per length r->from .. r->to, columns
 * length and, per set, <name>_expected_pairs, _p_collision,
 * _expected_objects, _expected_prefixes, _capacity_p01, _capacity_p50.
 */
int emit_model_csv(FILE *out, const model_results *r);

/* Markdown: a heading, then a table per set like the text's. */
int emit_model_markdown(FILE *out, const model_results *r);

/* SVG: P(collision) against the length, one line per set, 1% and 50% marked. */
int emit_model_svg(FILE *out, const model_results *r);

/*
 * Dispatch on enum abbrev_format through the format table of emit.c;
 * -1 for a format the model has no emitter for.
 */
int emit_model(FILE *out, const model_results *r, int format);

#endif
