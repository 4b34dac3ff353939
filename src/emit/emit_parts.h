/*
 * emit_parts.h - what several emitters write the same way: a table laid
 * out as aligned text or as Markdown, the names of the sets, the notes
 * about what a clone lacks, the repositories joined for a heading, and
 * the history's quotable line.
 *
 * The text and Markdown emitters fill one emit_table with the same cells
 * and differ only in how it is printed, so the two never drift apart.
 * Nothing here calls back into emit.c: the formats use these parts, the
 * table in emit.c uses the formats.
 *
 * Ownership: emit_table_init() allocates inside a caller-owned struct,
 * emit_table_clear() frees it; everything else fills caller buffers.
 */
#ifndef ABBREV_EMIT_PARTS_H
#define ABBREV_EMIT_PARTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "emit.h"

#define EMIT_TABLE_MAX_COLS 12
#define EMIT_TABLE_CELL 160

typedef struct {
	size_t ncols, nrows, cap;
	const char *head[EMIT_TABLE_MAX_COLS];
	int left[EMIT_TABLE_MAX_COLS];   /* 1: left-aligned (text), else right */
	char (*cells)[EMIT_TABLE_MAX_COLS][EMIT_TABLE_CELL];
	int broken;                      /* 1: a row could not be added (memory) */
} emit_table;

/*
 * A table of ncols columns headed heads[] (borrowed, must outlive it);
 * `align` is one char per column, 'l' or 'r'.
 */
void emit_table_init(emit_table *t, size_t ncols, const char *const *heads, const char *align);
void emit_table_clear(emit_table *t);

/* A new row of empty cells to fill (snprintf into row[c]); NULL when out of memory. */
char (*emit_table_row(emit_table *t))[EMIT_TABLE_CELL];

/*
 * As text: the columns as wide as their widest cell, two spaces apart,
 * the header above; `indent` spaces before each line.  0, or -1 when
 * the table is broken or the output fails.
 */
int emit_table_text(FILE *out, const emit_table *t, int indent);

/*
 * As a Markdown table: a header row, the alignment row (---: or ---),
 * and one line per row; no padding, so lines stay short.  0 or -1.
 */
int emit_table_markdown(FILE *out, const emit_table *t);

/* The width text and Markdown keep to: an 80-column terminal or mail. */
#define EMIT_WRAP_WIDTH 80

/*
 * s broken at spaces into lines of at most EMIT_WRAP_WIDTH columns, the
 * first after `col` columns already printed, the others indented by
 * `indent` (a word longer than a line keeps a line of its own); ends the
 * line.  markdown: never a break before a word that would start a list
 * item, a heading, a quote or a table row ("- x", "# x", "> x", "| x",
 * "1. x"), which would change what the paragraph means.
 */
void emit_wrap(FILE *out, const char *s, size_t col, int indent, int markdown);

/* The width in columns of the text layout's widest line (indent excluded). */
size_t emit_table_text_width(const emit_table *t);

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
 * The report's three tables, the same cells in text and Markdown, each a
 * few columns wide so that it fits an 80-column mail:
 *  - sets: len, all objects, commits, commit-ish (when there are tags:
 *    without, it is the commits' column again), cells "colliding objects /
 *    colliding prefixes";
 *  - types: len, the types with IDs (trees, blobs, tags), commit~other;
 *  - model: len, then for all objects and commits "measured / expected"
 *    colliding prefixes and P(>=), the chance of at least the measured
 *    count for random IDs (a one-sided Poisson tail).
 * The first two run from 4 to emit_report_last_len(), the model to the
 * last collision of all objects or commits.  0, or -1 when out of memory.
 */
int emit_report_sets_table(emit_table *t, const stats_report *r);
int emit_report_types_table(emit_table *t, const stats_report *r);
int emit_report_model_table(emit_table *t, const stats_report *r);
/* "203,352 commits, 382,313 trees, 262,343 blobs, 1,006 tags; 204,357 commit-ish" */
void emit_report_counts(char *buf, size_t n, const stats_report *r);
/* The first length at which every set and commit~other is 0. */
unsigned emit_report_last_len(const stats_report *r);
/* Whether a set has a column: all objects and commits always, the others with IDs. */
int emit_report_shown(const stats_report *r, int set);

/* "all objects", "commits", "trees", "blobs", "tags" for idset_name(); other names as given. */
const char *emit_set_title(const char *name);

/* One sentence per thing the repositories lack (lacks.h), for notes; NULL after the last. */
const char *emit_lacks_note(unsigned lacks, int i);

/*
 * What --reachable walked (NULL: nothing to say, buf ""): the patterns
 * joined by `sep` ("HEAD, refs/heads/..., refs/tags/..."), and the counts
 * after them (": 12 refs; 3 missing objects not counted").
 */
void emit_reach_patterns(char *buf, size_t n, const abbrev_reach *reach, const char *sep);
void emit_reach_counts(char *buf, size_t n, const abbrev_reach *reach);

/* The repositories as "a + b" into buf; "" for none. */
void emit_repos_joined(char *buf, size_t n, const char *const *repos, size_t nrepos);

/*
 * A repository's name for a chart's title, from its path: the last
 * component, without a trailing "/.git" or ".git" ("/src/linux/.git" and
 * "/srv/linux.git" are "linux"); the path itself when nothing is left.
 */
void emit_repo_name(char *buf, size_t n, const char *path);

/*
 * The repositories' names joined with " + " (emit_repo_name()), the
 * front cut to "..." when longer than `max` chars; "" for none.
 */
void emit_repo_names(char *buf, size_t n, const char *const *repos, size_t nrepos, size_t max);

/*
 * The one line to quote, no newline: "at the growth of the last 5 years
 * (exponential fit, +4.9%/year), 12-char commit IDs reach a 50% chance
 * of a collision in 2071; all objects in 2040".  Empty when there is no
 * projection.
 */
void emit_history_quote(char *buf, size_t n, const history_report *r);

/*
 * Why there is no projection (p->status is not PROJECTION_OK), no full
 * stop: "the commits span no time to fit a growth to", or "the history
 * spans 3 days (2026-12-01 .. 2026-12-03), less than the year a growth
 * is projected from".
 */
void emit_projection_none(char *buf, size_t n, const projection_results *p);

/* The span the projection's fit really covered, in years. */
double emit_window_span(const projection_results *p);

/* "2,000 commits (sha1), committed 2005-04-07 .. 2010-04-06" (no dates without commits) */
void emit_history_counts(char *buf, size_t n, const history_results *h);

/* The last length not yet collided the history tables list (P now >= 1e-4, at least one). */
unsigned emit_history_not_yet_to(const history_results *h);

/*
 * The history's tables: when each length first collided (with the
 * lengths not yet collided after it), and the years the projection gives
 * each length.  Markdown leaves the pair out of the first table (its
 * rows fit 80 columns; emit_history_pair() writes the pairs under it)
 * and escapes the star of a year already passed.  0, or -1 when out of
 * memory.
 */
int emit_history_first_table(emit_table *t, const history_results *h, int markdown);
/*
 * The first two commits to share L chars (L <= h->longest), each shown
 * one char past the shared ones and at least 10: "2e6e3e829f 2e6e3e82ee",
 * in Markdown as two code spans.
 */
void emit_history_pair(char *buf, size_t n, const history_results *h, unsigned L, int markdown);
int emit_history_years_table(emit_table *t, const projection_results *p, int markdown);

/*
 * The backtest (backtest.h): one row per cut-off, later date and length;
 * the cut-off on the first row of its own, the date and the commit
 * counts (the fit's, and the history's) on the first of their lengths;
 * a measured count outside its 99% range starred.  0, or -1 when out of
 * memory.
 */
int emit_backtest_table(emit_table *t, const backtest_results *b, int markdown);
/*
 * policy --backtest: one row per cut-off, its prediction for the end (the
 * newest commit's date) at each length, starred when a miss, and the
 * measured counts as the last row; and the sentence before it (why there
 * is none when there are no rows).  0, or -1 when out of memory.
 */
int emit_backtest_end_table(emit_table *t, const backtest_results *b, int markdown);
void emit_backtest_end_intro(char *buf, size_t n, const backtest_results *b);
/* What the backtest is, ending in a colon; or why there is none ("backtest: none, ..."). */
void emit_backtest_intro(char *buf, size_t n, const backtest_results *b);
/* "hit rate: 150 of 165 predictions (90.9%) inside ...; 6 chars 50 of 55, ..." */
void emit_backtest_summary(char *buf, size_t n, const backtest_results *b);

/*
 * The model's table of one set over from..to: expected pairs, P(collision),
 * expected objects / prefixes.  The capacity of a length (the most random
 * IDs it holds with P <= 1% or <= 50%) depends on the length alone, so it
 * is one table for every set.  0, or -1 when out of memory.
 */
int emit_model_table(emit_table *t, const model_set *s, unsigned from, unsigned to);
int emit_model_capacity_table(emit_table *t, const model_set *s, unsigned from, unsigned to);

/* "P(collision) <= 50% from 11 chars, <= 1% from 13 chars" */
void emit_model_min_lengths(char *buf, size_t n, const model_set *s);

/* "safe until 2035 (P(collision) <= 1%, at about ... then): commit IDs need 12 chars, all objects 13" */
void emit_safe_sentence(char *buf, size_t n, const projection_results *p);

/* ---- policy ---- */

/*
 * When a set passes a level, as a table cell: the year ("2041"), the
 * year it passed, starred ("2022 *", Markdown "2022 \\*"), "passed"
 * (no date known), ">2076" past the horizon, "-" with no growth.
 */
void emit_policy_when(char *buf, size_t n, const policy_when *w, const policy_results *r,
		      int markdown);

/*
 * One set's table of the policy view: len, colliding (measured, "-" if
 * not), expected (colliding prefixes), P now, P in 5y, 10y, 20y, 1% in,
 * 50% in.  0, or -1 when out of memory.
 */
int emit_policy_table(emit_table *t, const policy_results *r, const policy_set *s, int markdown);

/* "commits: 203,352 now; 246,413 in 5 years, 289,474 in 10, 375,595 in 20" */
void emit_policy_set_heading(char *buf, size_t n, const policy_set *s);

/*
 * The growth the projection uses, one sentence: "growth: linear fit of
 * the commit count over 2021-08-22 .. 2026-08-22 (RMS error 0.63%):
 * +12,872 commits/year, +6.3% of today's count", "growth: +8.0%/year
 * (--growth)", or "no growth given (--growth=8%/year ...): P now only".
 */
void emit_policy_growth(char *buf, size_t n, const policy_report *p);

/*
 * The line to quote for length index i of r (no newline): "12 chars:
 * commits stay below 1% until 2041; all objects passed 1% in 2019";
 * "16 chars: commits and all objects stay below 1% beyond 2076"; a set
 * measured colliding at that length "collide(s) already (3 colliding
 * prefixes now)", whatever the model says.
 */
void emit_policy_quote(char *buf, size_t n, const policy_results *r, size_t i);

/* The key under the policy tables, one paragraph. */
extern const char emit_policy_legend[];

/* ---- verdict ---- */

/*
 * The verdict's table: len ("7 git" for git's own length; Markdown on
 * every row, text on the first set's), set, colliding (measured), P now,
 * P in 10y, 1% in, concern.  0, or -1 when out of memory.
 */
int emit_verdict_table(emit_table *t, const verdict *v, int markdown);
/* "git abbreviates to 7 chars for 2,191 objects (core.abbrev=auto), to 8 from 16,384 objects" */
void emit_verdict_git(char *buf, size_t n, const verdict *v);
/* "growth: +8.0%/year, the exponential fit of the commit count (...)" */
void emit_verdict_growth(char *buf, size_t n, const verdict *v);
/* "suggested: git config core.abbrev 13 (...); quote commits with at least 12 chars" */
void emit_verdict_suggest(char *buf, size_t n, const verdict *v);
/* The key under the verdict's table, one paragraph. */
extern const char emit_verdict_legend[];

#endif
