/*
 * emit_markdown.c - the report and the model as Markdown tables, ready to
 * paste into a mail, a wiki page or an issue.  Report: a heading line
 * with the repository and its object count, one row per length with the
 * sets side by side ("colliding objects / colliding prefixes", then the
 * birthday model's expected prefixes for as many random IDs), a key, and
 * the min unique lengths.  Model: a table per set.  History: when each
 * length first collided beside the model, then the projection and the
 * line to quote.
 *
 * Cells hold no user text, so only the heading needs care: the
 * repository path goes into a code span long enough for any backticks it
 * holds.
 */
#include <config.h>

#include <math.h>
#include <string.h>

#include "emit.h"
#include "emit_parts.h"
#include "fmt.h"

static const int column_sets[ABBREV_SET_COUNT] = {
	ABBREV_SET_ALL, ABBREV_SET_COMMIT, ABBREV_SET_COMMITISH, ABBREV_SET_TREE, ABBREV_SET_BLOB,
	ABBREV_SET_TAG
};

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

/* all objects and commits always; the other types, and commit-ish beside tags, when they have IDs */
static int shown(const stats_report *r, int set)
{
	if (set == ABBREV_SET_COMMITISH)
		set = ABBREV_SET_TAG;
	return set == ABBREV_SET_ALL || set == ABBREV_SET_COMMIT || r->sets[set].count > 0;
}

static int report_markdown(FILE *out, const stats_report *r)
{
	const stats_set *all = &r->sets[ABBREV_SET_ALL];
	unsigned last = r->cvo_last_len;
	char num[32], buf[64];

	fputs("### Colliding abbreviated IDs: ", out);
	for (size_t i = 0; i < r->nrepos; i++) {
		fputs(i ? " + " : "", out);
		code_span(out, r->repos[i]);
	}
	fmt_count(num, sizeof(num), (double)all->count);
	fprintf(out, "%s%s objects (%s)\n\n", r->nrepos ? ", " : "", num, r->hash ? r->hash : "unknown");
	for (int i = 0; emit_lacks_note(r->lacks, i); i++)
		fprintf(out, "Note: %s.\n\n", emit_lacks_note(r->lacks, i));
	if (r->reach) {
		char counts[128];

		fputs("Reachable from ", out);
		for (size_t i = 0; i < r->reach->npatterns; i++) {
			fputs(i ? ", " : "", out);
			code_span(out, r->reach->patterns[i]);
		}
		emit_reach_counts(counts, sizeof(counts), r->reach);
		fprintf(out, "%s.\n\n", counts);
	}

	for (int c = 0; c < ABBREV_SET_COUNT; c++) {
		const stats_set *st = &r->sets[column_sets[c]];

		if (st->last_len > last)
			last = st->last_len;
	}
	fputs("| length |", out);
	for (int c = 0; c < ABBREV_SET_COUNT; c++)
		if (shown(r, column_sets[c]))
			fprintf(out, " %s | expected |", emit_set_title(idset_name(column_sets[c])));
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
			fmt_expected(buf, sizeof(buf), st->model[L].expected_prefixes);
			fprintf(out, " %zu / %zu | %s |", st->objects[L], st->prefixes[L], buf);
		}
		fprintf(out, " %zu |\n", L <= r->cvo_last_len ? r->cvo[L] : 0);
	}

	fmt_count(num, sizeof(num), (double)all->count);
	fprintf(out, "\n%s %s:", num, all->count == 1 ? "object" : "objects");
	for (int set = ABBREV_SET_COMMIT; set <= ABBREV_SET_TAG; set++) {
		fmt_count(num, sizeof(num), (double)r->sets[set].count);
		fprintf(out, "%s %s %s", set > ABBREV_SET_COMMIT ? "," : "", num,
			emit_set_noun(set, r->sets[set].count));
	}
	fmt_count(num, sizeof(num), (double)r->sets[ABBREV_SET_COMMITISH].count);
	fprintf(out, "; %s commit-ish.", num);
	fputs("  Cells: colliding objects / colliding prefixes at that length; "
	      "*expected*: the colliding prefixes expected for as many random IDs "
	      "(birthday model); *commit-ish*: commits and the tags that peel to a commit, "
	      "among which `git log <prefix>` and `<prefix>^{commit}` resolve; "
	      "*commit vs other*: commits that share the prefix with a tree, blob or tag "
	      "(ambiguous to `git show <prefix>`; to `git log <prefix>` only when the other "
	      "object is a tag that peels to a commit, counted in *commit-ish*).\n\n", out);
	fputs("**Min unique length:**", out);
	if (!all->count)
		fputs(" (no objects)", out);
	for (int c = 0; c < ABBREV_SET_COUNT; c++)
		if (r->sets[column_sets[c]].count)
			fprintf(out, "%s %s %u", c ? "," : "", emit_set_title(idset_name(column_sets[c])),
				r->sets[column_sets[c]].min_unique);
	fmt_count(num, sizeof(num), (double)all->count);
	fprintf(out, "; commits vs other types %u; git's auto abbreviation for %s objects: %u\n",
		r->cvo_last_len, num, r->git_auto_abbrev);
	return ferror(out) ? -1 : 0;
}

static int model_markdown(FILE *out, const model_results *r)
{
	char num[48], line[160];
	emit_table t;

	fputs("### Birthday model:", out);
	for (size_t i = 0; i < r->nsets; i++) {
		fmt_count(num, sizeof(num), (double)r->sets[i].n);
		fprintf(out, "%s %s %s", i ? "," : "", num, emit_set_title(r->sets[i].name));
	}
	fputc('\n', out);
	for (size_t i = 0; i < r->nsets; i++) {
		const model_set *s = &r->sets[i];
		int rc;

		fmt_count(num, sizeof(num), (double)s->n);
		fprintf(out, "\n#### %s: %s\n\n", emit_set_title(s->name), num);
		rc = emit_model_table(&t, s, r->from, r->to) || emit_table_markdown(out, &t);
		emit_table_clear(&t);
		if (rc)
			return -1;
		emit_model_min_lengths(line, sizeof(line), s);
		fprintf(out, "\n%s.\n", line);
	}
	if (r->nsets) {
		int rc;

		fputs("\n#### Capacity of a length, for any set\n\n", out);
		rc = emit_model_capacity_table(&t, &r->sets[0], r->from, r->to) ||
		     emit_table_markdown(out, &t);
		emit_table_clear(&t);
		if (rc)
			return -1;
	}
	fputs("\nBirthday model of n random IDs at L hex chars: E = n(n-1)/2 / 16^L expected "
	      "colliding pairs, P = 1 - exp(-E) the chance of any collision; capacity: the "
	      "most IDs a length holds with P <= 1% or <= 50%.\n", out);
	return ferror(out) ? -1 : 0;
}

/* ---- history ------------------------------------------------------------ */

static int projection_markdown(FILE *out, const history_report *r)
{
	const projection_results *p = r->p;
	char quote[512], from[32], to[32], growth[2][64];
	emit_table t;
	int rc;

	if (p->status != PROJECTION_OK) {
		fputs("\nNo projection: the commits span no time to fit a growth to.\n", out);
		return 0;
	}
	emit_history_quote(quote, sizeof(quote), r);
	fprintf(out, "\n**%c%s.**\n\n", quote[0] >= 'a' && quote[0] <= 'z' ? quote[0] - 'a' + 'A' :
		quote[0], quote[0] ? quote + 1 : "");
	rc = emit_history_years_table(&t, p, 1) || emit_table_markdown(out, &t);
	emit_table_clear(&t);
	if (rc)
		return -1;
	fmt_day(from, sizeof(from), p->window_start);
	fmt_day(to, sizeof(to), p->window_end);
	fmt_growth(growth[0], sizeof(growth[0]), 1, p->fits[0].growth);
	fmt_growth(growth[1], sizeof(growth[1]), 0, p->fits[1].growth);
	fprintf(out, "\nThe year in which a length passes P(collision) = 1%% and 50%% "
		     "(\\* passed already, dated from the history).  Growth of the commit count "
		     "%s .. %s: exponential %s (RMS relative error %.2g%%), linear "
		     "%s (RMS relative error %.2g%%); the %s fit is used.  "
		     "%.2f objects per commit.\n",
		from, to, growth[0], 100.0 * p->fits[0].rms_rel,
		growth[1], 100.0 * p->fits[1].rms_rel,
		projection_fit_name(p->fits[p->chosen].kind), p->objects_per_commit);
	emit_safe_sentence(quote, sizeof(quote), p);
	fprintf(out, "\n%c%s.\n", quote[0] >= 'a' && quote[0] <= 'z' ? quote[0] - 'a' + 'A' :
		quote[0], quote[0] ? quote + 1 : "");
	return ferror(out) ? -1 : 0;
}

static int history_markdown(FILE *out, const history_report *r)
{
	const history_results *h = r->h;
	char counts[160];
	const char *note;
	emit_table t;
	int rc;

	fputs("### When each length stopped being unique: ", out);
	for (size_t i = 0; i < r->nrepos; i++) {
		fputs(i ? " + " : "", out);
		code_span(out, r->repos[i]);
	}
	emit_history_counts(counts, sizeof(counts), h);
	fprintf(out, "%s%s\n\n", r->nrepos ? ", " : "", counts);
	for (int i = 0; (note = emit_lacks_note(r->lacks, i)); i++)
		fprintf(out, "Note: %s.\n\n", note);
	if (h->commits < 2) {
		fputs("Fewer than two commits: no length has collided.\n", out);
		return ferror(out) ? -1 : 0;
	}
	rc = emit_history_first_table(&t, h, 1) || emit_table_markdown(out, &t);
	emit_table_clear(&t);
	if (rc)
		return -1;
	fputs("\nCommits replayed in committer-time order.  Model: random IDs first collide at "
	      "L chars after about sqrt(pi/2 * 16^L) of them; P(by then): their chance to "
	      "collide at L among that many commits (about half above and half below 0.5 when "
	      "IDs are random, tiny for a crafted pair).\n", out);
	if (r->p && projection_markdown(out, r))
		return -1;
	return ferror(out) ? -1 : 0;
}

/* ---- policy ------------------------------------------------------------ */

/* Text with Markdown's emphasis star escaped. */
static void escaped_stars(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '*')
			fputc('\\', out);
		fputc(*s, out);
	}
}

static int policy_markdown(FILE *out, const policy_report *p)
{
	const policy_results *r = p->r;
	char line[512], now[16];
	emit_table t;

	fmt_day(now, sizeof(now), (int64_t)r->now);
	fputs("### Abbreviation policy: ", out);
	for (size_t i = 0; i < p->nrepos; i++) {
		fputs(i ? " + " : "", out);
		code_span(out, p->repos[i]);
	}
	fprintf(out, "%s%s%s%s, %s\n\n", p->nrepos ? "" : "the counts given",
		p->hash ? " (" : "", p->hash ? p->hash : "", p->hash ? ")" : "", now);
	emit_policy_growth(line, sizeof(line), p);
	line[0] = (char)(line[0] >= 'a' && line[0] <= 'z' ? line[0] - 'a' + 'A' : line[0]);
	fprintf(out, "%s.\n", line);
	for (size_t k = 0; k < r->nsets; k++) {
		int rc;

		emit_policy_set_heading(line, sizeof(line), &r->sets[k]);
		fprintf(out, "\n#### %s\n\n", line);
		rc = emit_policy_table(&t, r, &r->sets[k], 1) || emit_table_markdown(out, &t);
		emit_table_clear(&t);
		if (rc)
			return -1;
	}
	fputc('\n', out);
	line[0] = (char)(emit_policy_legend[0] - 'a' + 'A');
	line[1] = '\0';
	fputs(line, out);
	escaped_stars(out, emit_policy_legend + 1);
	fputs("\n\nTo quote (P(collision) = 1%):\n\n", out);
	for (size_t i = 0; i < r->nlengths; i++) {
		emit_policy_quote(line, sizeof(line), r, i);
		fprintf(out, "- %s\n", line);
	}
	for (int i = 0; emit_lacks_note(p->lacks, i); i++)
		fprintf(out, "\nNote: %s.\n", emit_lacks_note(p->lacks, i));
	return ferror(out) ? -1 : 0;
}

const emit_format emit_format_markdown = {
	.name = "markdown",
	.report = report_markdown,
	.model = model_markdown,
	.history = history_markdown,
	.policy = policy_markdown,
};
