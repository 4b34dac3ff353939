/*
 * emit_audit.h - the emitters of `git abbrev audit`: a history's commit
 * references by class (cite_audit.h) and year.
 *
 * text: one table within 80 columns (a row per year, then the total and
 * each class's share), its legend, the five most cited commits, the
 * prefixes cited that are ambiguous today, and the quotable line "of N
 * references since YEAR, W are wrong (X%), A were ambiguous when written
 * (Y%)".  json: docs/json.md.  csv: a row per year and a total row.
 * markdown: the table and the line.  svg: each year's references stacked
 * by share: wrong, ambiguous, other findings, short, ok.  map: one line per
 * wrong reference, "<written id> <full id of the right commit | NOT_VALID>
 * <citing commit>".
 *
 * Ownership: the emitters borrow everything; nothing is kept.
 */
#ifndef ABBREV_EMIT_AUDIT_H
#define ABBREV_EMIT_AUDIT_H

#include <stddef.h>
#include <stdio.h>

#include "cite_audit.h"

/* --format=map: audit's own format, beside enum abbrev_format's. */
#define AUDIT_FORMAT_MAP 100

/* How many most-cited commits are listed. */
#define AUDIT_TOP 5

typedef struct {
	const cite_audit *a;     /* cite_audit_finish() done */
	const char *range;       /* as given ("HEAD") */
	unsigned min_length;
	const cite_audit_cited *top; /* cite_audit_top(), AUDIT_TOP at most */
	size_t ntop;
	const char *title;       /* svg and markdown: --title, or NULL */
} audit_report;

/* The quotable line, without a newline, into buf. */
void emit_audit_quote(char *buf, size_t n, const cite_audit *a);

/* Write r in `format` (enum abbrev_format or AUDIT_FORMAT_MAP).  0, or -1 (write error, memory). */
int emit_audit(FILE *out, int format, const audit_report *r);

#endif
