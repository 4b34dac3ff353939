/*
 * emit.h - one emitter per output format over one results struct.
 *
 * Emitters only format: they take a computed stats_report and a FILE *,
 * print nothing else anywhere, and return 0 or -1 on a write error.
 */
#ifndef ABBREV_EMIT_H
#define ABBREV_EMIT_H

#include <stdint.h>
#include <stdio.h>

#include "lacks.h"
#include "stats.h"

enum abbrev_format {
	ABBREV_FORMAT_TEXT = 0,
	ABBREV_FORMAT_JSON,
	ABBREV_FORMAT_CSV,
	ABBREV_FORMAT_MARKDOWN,
	ABBREV_FORMAT_SVG,
	ABBREV_FORMAT_CLASSIC  /* git-unique-abbrev's layout */
};

/* "text", "json", "csv", "markdown", "svg", "classic" -> enum abbrev_format, or -1. */
int emit_format_from_name(const char *name);

/* What is printed: each command's results have their own emitters. */
enum emit_kind {
	EMIT_REPORT = 0,
	EMIT_CHECK,
	EMIT_MODEL,
	EMIT_HISTORY   /* emit_history.h keeps its own dispatch */
};

/* Whether results of `kind` have an emitter for `format`. */
int emit_format_supported(int kind, int format);

/* The name of a format ("json"), or NULL past the last one. */
const char *emit_format_name(int format);

/* The formats of `kind` for a message: "text, json, csv, markdown or svg". */
void emit_format_names(char *buf, size_t n, int kind);

int emit_report_text(FILE *out, const stats_report *r);
int emit_report_json(FILE *out, const stats_report *r);
int emit_report_csv(FILE *out, const stats_report *r);
int emit_report_markdown(FILE *out, const stats_report *r);
int emit_report_svg(FILE *out, const stats_report *r);
/* git-unique-abbrev's layout, for the set r->set (see emit_classic.c). */
int emit_report_classic(FILE *out, const stats_report *r);

/* Dispatch on format. */
int emit_report(FILE *out, const stats_report *r, int format);

int emit_check_text(FILE *out, const stats_check *c);
int emit_check_json(FILE *out, const stats_check *c);
int emit_check(FILE *out, const stats_check *c, int format);

/*
 * Chance that n random IDs hold a collision at least `len` hex chars
 * long: below the threshold, a group is "improbable for random IDs:
 * possibly crafted".
 */
double emit_p_random(size_t n, unsigned len);

/*
 * A probability with `digits` significant digits that is true as printed:
 * a p just below 1 that would round to "1" is "> 0.99" (as many nines as
 * digits), a p above 0 never prints as "0".
 */
void emit_fmt_p(char *buf, size_t n, double p, int digits);
/*
 * P(collision) of `count` random IDs at L chars, as emit_fmt_p(): "1"
 * only when a collision is certain (more IDs than L-char prefixes); the
 * birthday model's 1 - exp(-E) is below 1 even where a double rounds it
 * to 1, so that prints as "> 0.999".
 */
void emit_fmt_p_collision(char *buf, size_t n, double p, uint64_t count, unsigned L, int digits);

/* `one` when n is 1, else `many`: "1 prefix", "2 prefixes". */
const char *emit_noun(size_t n, const char *one, const char *many);
/* The members of a set, counted: "commit"/"commits", ..., "commit-ish ID(s)", "object(s)". */
const char *emit_set_noun(int set, size_t n);
/* Whether the longest groups of a set hold a tag (commit-ish groups that differ from commits'). */
int emit_groups_have_tag(const stats_set *st);

/*
 * The key under the text report's table, one sentence per column kind;
 * each claim about git is tested against git (tests/t-commitish.sh).
 */
extern const char emit_text_legend[];

/* One sentence per thing the repositories lack, for notes; NULL after the last. */
const char *emit_lacks_note(unsigned lacks, int i);

#endif
