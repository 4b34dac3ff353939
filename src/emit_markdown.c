/*
 * emit_markdown.c - the report and the model as Markdown tables, ready to
 * paste into a mail, a wiki page or an issue.  Report: a heading line
 * with the repository and its object count, one row per length with the
 * sets side by side ("colliding objects / colliding prefixes", then the
 * birthday model's expected prefixes for as many random IDs), a key, and
 * the min unique lengths.  Model: a table per set.
 *
 * Cells hold no user text, so only the heading needs care: the
 * repository path goes into a code span long enough for any backticks it
 * holds.
 */
#include <config.h>

#include <string.h>

#include "emit.h"
#include "emit_model.h"
#include "model.h"

static const int column_sets[ABBREV_SET_COUNT] = {
	ABBREV_SET_ALL, ABBREV_SET_COMMIT, ABBREV_SET_TREE, ABBREV_SET_BLOB, ABBREV_SET_TAG
};

static const char *set_title(int set)
{
	static const char *const titles[ABBREV_SET_COUNT] = {
		[ABBREV_SET_ALL] = "all objects", [ABBREV_SET_COMMIT] = "commits",
		[ABBREV_SET_TREE] = "trees", [ABBREV_SET_BLOB] = "blobs", [ABBREV_SET_TAG] = "tags",
	};

	return titles[set];
}

/* 13021585 -> "13,021,585" */
static void fmt_count(char *buf, size_t n, unsigned long long v)
{
	char digits[32];
	size_t len, o = 0;

	snprintf(digits, sizeof(digits), "%llu", v);
	len = strlen(digits);
	for (size_t i = 0; i < len && o + 2 < n; i++) {
		if (i && (len - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
}

/* s as an inline code span: fenced by one backtick more than its longest run. */
static void code_span(FILE *out, const char *s)
{
	size_t run = 0, longest = 0, n = strlen(s);
	int pad;

	for (const char *p = s; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	pad = n && (s[0] == '`' || s[n - 1] == '`' || s[0] == ' ' || s[n - 1] == ' ');
	for (size_t i = 0; i <= longest; i++)
		fputc('`', out);
	if (pad)
		fputc(' ', out);
	for (const char *p = s; *p; p++)
		fputc(*p == '\n' || *p == '\r' ? ' ' : *p, out);
	if (pad)
		fputc(' ', out);
	for (size_t i = 0; i <= longest; i++)
		fputc('`', out);
}

/* The model's expected colliding prefixes, as the text report spells them. */
static void fmt_expected(char *buf, size_t n, double e)
{
	if (e == 0)
		snprintf(buf, n, "0");
	else
		snprintf(buf, n, e >= 100 ? "%.0f" : e >= 0.01 ? "%.2f" : "%.1e", e);
}

/* all objects and commits always; the other types when they have IDs */
static int shown(const stats_report *r, int set)
{
	return set == ABBREV_SET_ALL || set == ABBREV_SET_COMMIT || r->sets[set].count > 0;
}

int emit_report_markdown(FILE *out, const stats_report *r)
{
	const stats_set *all = &r->sets[ABBREV_SET_ALL];
	unsigned last = r->cvo_last_len;
	char num[32], buf[64];

	fputs("### Colliding abbreviated IDs: ", out);
	for (size_t i = 0; i < r->nrepos; i++) {
		fputs(i ? " + " : "", out);
		code_span(out, r->repos[i]);
	}
	fmt_count(num, sizeof(num), all->count);
	fprintf(out, "%s%s objects (%s)\n\n", r->nrepos ? ", " : "", num, r->hash ? r->hash : "unknown");

	for (int c = 0; c < ABBREV_SET_COUNT; c++) {
		const stats_set *st = &r->sets[column_sets[c]];

		if (st->last_len > last)
			last = st->last_len;
	}
	fputs("| length |", out);
	for (int c = 0; c < ABBREV_SET_COUNT; c++)
		if (shown(r, column_sets[c]))
			fprintf(out, " %s | expected |", set_title(column_sets[c]));
	fputs(" commit vs other |\n|---:|", out);
	for (int c = 0; c < ABBREV_SET_COUNT; c++)
		if (shown(r, column_sets[c]))
			fputs("---:|---:|", out);
	fputs("---:|\n", out);
	for (unsigned L = ABBREV_MIN_LEN; L <= last; L++) {
		fprintf(out, "| %u |", L);
		for (int c = 0; c < ABBREV_SET_COUNT; c++) {
			const stats_set *st = &r->sets[column_sets[c]];

			if (!shown(r, column_sets[c]))
				continue;
			fmt_expected(buf, sizeof(buf), model_expected_prefixes(st->count, L));
			fprintf(out, " %zu / %zu | %s |", st->objects[L], st->prefixes[L], buf);
		}
		fprintf(out, " %zu |\n", L <= r->cvo_last_len ? r->cvo[L] : 0);
	}

	fmt_count(num, sizeof(num), all->count);
	fprintf(out, "\n%s objects:", num);
	for (int c = 1; c < ABBREV_SET_COUNT; c++) {
		fmt_count(num, sizeof(num), r->sets[column_sets[c]].count);
		fprintf(out, "%s %s %s", c > 1 ? "," : "", num, set_title(column_sets[c]));
	}
	fputs(".  Cells: colliding objects / colliding prefixes at that length; "
	      "*expected*: the colliding prefixes expected for as many random IDs "
	      "(birthday model); *commit vs other*: commits that share the prefix with "
	      "a tree, blob or tag (ambiguous to `git show`, not to `git log`).\n\n", out);
	fputs("**Min unique length:**", out);
	if (!all->count)
		fputs(" (no objects)", out);
	for (int c = 0; c < ABBREV_SET_COUNT; c++)
		if (r->sets[column_sets[c]].count)
			fprintf(out, "%s %s %u", c ? "," : "", set_title(column_sets[c]),
				r->sets[column_sets[c]].min_unique);
	fmt_count(num, sizeof(num), all->count);
	fprintf(out, "; commits vs other types %u; git's auto abbreviation for %s objects: %u\n",
		r->cvo_last_len, num, r->git_auto_abbrev);
	return ferror(out) ? -1 : 0;
}

static void fmt_capacity(char *buf, size_t n, uint64_t exact, int saturated, double real)
{
	if (saturated)
		snprintf(buf, n, "%.3g", real);
	else
		fmt_count(buf, n, exact);
}

static const char *model_title(const char *name)
{
	for (int set = 0; set < ABBREV_SET_COUNT; set++)
		if (!strcmp(name, idset_name(set)))
			return set_title(set);
	return name;
}

int emit_model_markdown(FILE *out, const model_results *r)
{
	char num[32], a[48], b[48];

	fputs("### Birthday model:", out);
	for (size_t i = 0; i < r->nsets; i++) {
		fmt_count(num, sizeof(num), r->sets[i].n);
		fprintf(out, "%s %s %s", i ? "," : "", num, model_title(r->sets[i].name));
	}
	fputc('\n', out);
	for (size_t i = 0; i < r->nsets; i++) {
		const model_set *s = &r->sets[i];
		unsigned l50 = model_min_length(s->n, MODEL_P_HIGH);
		unsigned l01 = model_min_length(s->n, MODEL_P_LOW);

		fmt_count(num, sizeof(num), s->n);
		fprintf(out, "\n#### %s: %s\n\n", model_title(s->name), num);
		fputs("| length | expected pairs | P(collision) | expected objects / prefixes "
		      "| capacity P<=1% | capacity P<=50% |\n"
		      "|---:|---:|---:|---:|---:|---:|\n", out);
		for (unsigned L = r->from; L <= r->to; L++) {
			const model_row *row = &s->rows[L];

			fmt_capacity(a, sizeof(a), row->cap_low, row->cap_low_sat, row->cap_low_real);
			fmt_capacity(b, sizeof(b), row->cap_high, row->cap_high_sat, row->cap_high_real);
			fprintf(out, "| %u | %.3g | %.3g | %.3g / %.3g | %s | %s |\n", L,
				row->expected_pairs, row->p_collision, row->expected_objects,
				row->expected_prefixes, a, b);
		}
		fputs("\nP(collision) <= 50% ", out);
		if (l50 > MODEL_MAX_LEN)
			fprintf(out, "beyond %u chars", MODEL_MAX_LEN);
		else
			fprintf(out, "from %u chars", l50);
		fputs(", <= 1% ", out);
		if (l01 > MODEL_MAX_LEN)
			fprintf(out, "beyond %u chars.\n", MODEL_MAX_LEN);
		else
			fprintf(out, "from %u chars.\n", l01);
	}
	fputs("\nBirthday model of n random IDs at L hex chars: E = n(n-1)/2 / 16^L expected "
	      "colliding pairs, P = 1 - exp(-E) the chance of any collision; capacity: the "
	      "most IDs a length holds with P <= 1% or <= 50%.\n", out);
	return ferror(out) ? -1 : 0;
}
