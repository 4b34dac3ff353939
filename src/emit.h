/*
 * emit.h - one emitter per output format over one results struct.
 *
 * Emitters only format: they take a computed stats_report and a FILE *,
 * print nothing else anywhere, and return 0 or -1 on a write error.
 */
#ifndef ABBREV_EMIT_H
#define ABBREV_EMIT_H

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

/* One sentence per thing the repositories lack, for notes; NULL after the last. */
const char *emit_lacks_note(unsigned lacks, int i);

#endif
