/*
 * emit_history.h - the emitters of `git abbrev history`, one per format.
 *
 * Each takes one history_report and a FILE *, prints nothing anywhere
 * else, and returns 0 or -1 on a write error.  A new format is one more
 * function here and one more case in emit_history() and
 * emit_history_supported().
 *
 * What an emitter has to show (all in the structs, nothing to compute
 * but formatting):
 *  - r->h->first[L] for L = ABBREV_MIN_LEN .. r->h->longest: when two
 *    commits first shared L chars (time, commits then, the pair), with
 *    r->h->model[L] beside it (the model's expected commit count, and
 *    the quantile p of the measured moment);
 *  - r->h->model[L] for the lengths that have not collided yet, up to
 *    HISTORY_SHOW_TO at least: expected count and P among all commits;
 *  - when r->p and r->p->status == PROJECTION_OK: the two fits and the
 *    chosen one, the objects-per-commit ratio, r->p->p01[L] / p50[L] for
 *    L = PROJECTION_FROM .. PROJECTION_TO (a date, or reached / never),
 *    the safe lengths until the horizon, and emit_history_quote().
 * A chart (svg) would plot first[L].commits_then against L, with
 * model[L].expected_commits as the model's line.
 *
 * Ownership: nothing is kept; the report and what it points to stay the
 * caller's.
 */
#ifndef ABBREV_EMIT_HISTORY_H
#define ABBREV_EMIT_HISTORY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "history.h"
#include "projection.h"

/* The lengths not yet collided are listed up to here (and at least one). */
#define HISTORY_SHOW_TO PROJECTION_TO

typedef struct {
	const char *const *repos;  /* display paths */
	size_t nrepos;
	unsigned lacks;            /* enum abbrev_lack of any of them */
	uint64_t objects;          /* all objects of the union */
	const history_results *h;
	const projection_results *p; /* NULL: no projection */
} history_report;

/*
 * Text: a table "len, first collision (UTC), commits then, model expects
 * (date), P(by then), pair", the lengths not yet collided, then the
 * projection: fits, a table of years, the safe lengths, the quote.
 */
int emit_history_text(FILE *out, const history_report *r);

/*
 * JSON:
 *   {"commits": n, "objects": N, "hash": "sha1", "repositories": [...],
 *    "first_commit": t, "last_commit": t,
 *    "lengths": {"L": {"first_collision": t, "date": "YYYY-MM-DDTHH:MM:SSZ",
 *        "commits_then": k, "pair": [older, newer], "shared": s,
 *        "expected_commits": x, "expected_date": "..." (or null),
 *        "p_by_then": p}, ...},          from 4 to the longest collided
 *    "unique_from": L,                  the first length not collided
 *    "not_yet": {"L": {"expected_commits": x, "p_now": p}, ...},
 *    "projection": {...} or null}
 * Times are unix seconds, dates UTC.  The projection object:
 *   {"fit": "exponential"|"linear", "window": {"years": y, "from": t, "to": t},
 *    "fits": {"exponential": {"rate_per_year": r, "rms_relative_error": e},
 *             "linear": {"commits_per_year": b, "rms_relative_error": e}},
 *    "other_fit": {"fit": name, "commits_year": y, "objects_year": y},
 *        the quote's two years (12 chars, 50%) under the fit not chosen,
 *    "objects_per_commit": x,
 *    "lengths": {"10": {"p01": {"capacity": c, "commits_year": y,
 *        "commits_reached": bool, "objects_year": y, "objects_reached": bool},
 *        "p50": {...}}, ... "16"},
 *    "target_p": p, "horizon_years": y, "horizon_year": y,
 *    "commits_at_horizon": x, "objects_at_horizon": x,
 *    "safe_length": {"commit": L, "all": L}, "quote": "..."}
 * Years are decimal (2031.5); null for never.
 */
int emit_history_json(FILE *out, const history_report *r);

/*
 * CSV (emit_csv.c): a header row, then one row per length from 4 to
 * PROJECTION_TO (or past the longest collided): length, collided (1/0),
 * first_collision (unix seconds), date (ISO UTC), commits_then,
 * pair_older, pair_newer, shared, expected_commits, expected_date, p
 * (by then if collided, among all commits now if not), the projected
 * years commits_p01_year, commits_p50_year, objects_p01_year,
 * objects_p50_year ("never"; empty outside PROJECTION_FROM..TO or without
 * a projection), repository.  Empty cells for what does not apply.
 */
int emit_history_csv(FILE *out, const history_report *r);

/* Markdown (emit_markdown.c): the text's tables, and the quote in bold. */
int emit_history_markdown(FILE *out, const history_report *r);

/*
 * SVG (emit_svg.c): commits then (log) against the length, the first
 * collisions as points labelled with their year, the model as a line,
 * today's commit count as a dashed level.
 */
int emit_history_svg(FILE *out, const history_report *r);

/* Whether history has an emitter for `format` (enum abbrev_format). */
int emit_history_supported(int format);

/* Dispatch on format; -1 for a format without an emitter. */
int emit_history(FILE *out, const history_report *r, int format);

/*
 * The one line to quote, no newline: "at the growth of the last 5 years
 * (exponential fit, +4.9%/year), 12-char commit IDs reach a 50% chance
 * of a collision in 2071; all objects in 2040".  Empty when there is no
 * projection.
 */
void emit_history_quote(char *buf, size_t n, const history_report *r);

/* "2005-04-07 22:13:13" (UTC) into buf (at least 20 bytes); "-" past year 9999. */
void emit_history_date(char *buf, size_t n, int64_t t);

#endif
