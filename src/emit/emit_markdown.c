/*
 * emit_markdown.c - the report, the model and the history as Markdown, to
 * paste into a mail or a GitHub comment: tables of a few columns (the
 * text's own tables, emit_parts.h, with the same cells), paragraphs
 * wrapped at 80 columns (a comment keeps the breaks; a wrap never starts
 * a line that Markdown would read as a list, heading or table), counts
 * grouped as everywhere (fmt.h).  Report: a heading with the repository
 * and its object count, the sets' table, the types' table beside
 * commit~other, measured / expected prefixes, the min unique lengths.
 * Model: a table per set and one of each length's capacity.  History:
 * when each length first collided beside the model, then the projection
 * and the line to quote.
 *
 * Only the headings hold user text: a repository path goes into a code
 * span long enough for any backticks it holds.
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

/* A paragraph wrapped at 80 columns for a mail (GitHub keeps the breaks). */
static void paragraph(FILE *out, const char *s)
{
	emit_wrap(out, s, 0, 0, 1);
}

/*
 * What a heading names: --title, else the repositories by name ("linux +
 * git", emit_repo_names()), never a local path, which says nothing to the
 * reader of a mail and tells them where the sender keeps their files.
 */
static void heading_repos(FILE *out, const char *title, const char *const *repos,
			  size_t nrepos)
{
	char names[256];

	if (title) {
		fputs(title, out);
		return;
	}
	if (!nrepos)
		return;
	emit_repo_names(names, sizeof(names), repos, nrepos, 40);
	code_span(out, names);
}

static int md_table(FILE *out, emit_table *t, int rc)
{
	rc = rc || emit_table_markdown(out, t);
	emit_table_clear(t);
	return rc ? -1 : 0;
}

static int verdict_markdown(FILE *out, const verdict *v);

static int report_markdown(FILE *out, const stats_report *r)
{
	const stats_set *all = &r->sets[ABBREV_SET_ALL];
	char num[32], line[1024];
	size_t o = 0;
	emit_table t;

	fputs("### Colliding abbreviated IDs: ", out);
	heading_repos(out, r->title, r->repos, r->nrepos);
	fmt_count(num, sizeof(num), (double)all->count);
	fprintf(out, "%s%s objects (%s)\n\n", r->nrepos ? ", " : "", num, r->hash ? r->hash : "unknown");
	for (int i = 0; emit_lacks_note(r->lacks, i); i++) {
		snprintf(line, sizeof(line), "Note: %s.", emit_lacks_note(r->lacks, i));
		paragraph(out, line);
		fputc('\n', out);
	}
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

	emit_report_counts(line, sizeof(line), r);
	o = strlen(line);
	snprintf(line + o, sizeof(line) - o, ". Colliding objects / colliding prefixes at L hex "
		 "chars:");
	paragraph(out, line);
	fputc('\n', out);
	if (md_table(out, &t, emit_report_sets_table(&t, r)))
		return -1;
	if (emit_report_shown(r, ABBREV_SET_COMMITISH)) {
		fputc('\n', out);
		paragraph(out, r->input ? "*commit-ish*: the commits only: an ID list does not "
					  "say which tags peel to a commit." :
			       "*commit-ish*: commits and the tags that peel to a commit, among "
			       "which `git log <prefix>` and `<prefix>^{commit}` resolve.");
	}
	fputc('\n', out);
	if (md_table(out, &t, emit_report_types_table(&t, r)))
		return -1;
	fputc('\n', out);
	paragraph(out, "*commit\\~other*: commits that share the prefix with a tree, blob or tag "
		       "(ambiguous to `git show <prefix>`; to `git log <prefix>` only when the other "
		       "object is a tag that peels to a commit, counted in *commit-ish*).");
	fputc('\n', out);
	paragraph(out, "Colliding prefixes, measured / expected for as many random IDs (birthday "
		       "model); *P(>=)*: the chance of at least the measured count if the IDs were "
		       "random (-: none measured, nothing to weigh):");
	fputc('\n', out);
	if (md_table(out, &t, emit_report_model_table(&t, r)))
		return -1;

	o = (size_t)snprintf(line, sizeof(line), "**Min unique length:**");
	if (!all->count)
		o += (size_t)snprintf(line + o, sizeof(line) - o, " (no objects)");
	for (int c = 0; c < ABBREV_SET_COUNT && o < sizeof(line); c++)
		if (r->sets[column_sets[c]].count)
			o += (size_t)snprintf(line + o, sizeof(line) - o, "%s %s %u", c ? "," : "",
					      emit_set_title(idset_name(column_sets[c])),
					      r->sets[column_sets[c]].min_unique);
	fmt_count(num, sizeof(num), (double)all->count);
	if (o < sizeof(line))
		snprintf(line + o, sizeof(line) - o, "; commits vs other types %u; git's auto "
			 "abbreviation for %s objects: %u", r->cvo_last_len, num, r->git_auto_abbrev);
	fputc('\n', out);
	paragraph(out, line);
	if (r->verdict && verdict_markdown(out, r->verdict))
		return -1;
	return ferror(out) ? -1 : 0;
}

static int model_markdown(FILE *out, const model_results *r)
{
	char num[48], line[160];
	emit_table t;

	/* --title, as the chart's, else the sets modelled */
	fputs(r->title ? "### " : "### Birthday model:", out);
	if (r->title)
		fputs(r->title, out);
	for (size_t i = 0; i < r->nsets && !r->title; i++) {
		fmt_count(num, sizeof(num), (double)r->sets[i].n);
		fprintf(out, "%s %s %s", i ? "," : "", num, emit_set_title(r->sets[i].name));
	}
	fputc('\n', out);
	for (size_t i = 0; i < r->nsets; i++) {
		const model_set *s = &r->sets[i];

		fmt_count(num, sizeof(num), (double)s->n);
		fprintf(out, "\n#### %s: %s\n\n", emit_set_title(s->name), num);
		if (md_table(out, &t, emit_model_table(&t, s, r->from, r->to)))
			return -1;
		emit_model_min_lengths(line, sizeof(line), s);
		fprintf(out, "\n%s.\n", line);
	}
	if (r->nsets) {
		fputs("\n#### Capacity of a length, for any set\n\n", out);
		if (md_table(out, &t, emit_model_capacity_table(&t, &r->sets[0], r->from, r->to)))
			return -1;
	}
	fputc('\n', out);
	paragraph(out, "Birthday model of n random IDs at L hex chars: E = n(n-1)/2 / 16^L expected "
		       "colliding pairs, P = 1 - exp(-E) the chance of any collision; capacity: the "
		       "most IDs a length holds with P <= 1% or <= 50%.");
	return ferror(out) ? -1 : 0;
}

/* ---- history ------------------------------------------------------------ */

static int projection_markdown(FILE *out, const history_report *r)
{
	const projection_results *p = r->p;
	char quote[512], from[32], to[32], growth[2][64], line[1024];
	emit_table t;

	if (p->status != PROJECTION_OK) {
		emit_projection_none(quote, sizeof(quote), p);
		snprintf(line, sizeof(line), "No projection: %s.", quote);
		fputc('\n', out);
		paragraph(out, line);
		return 0;
	}
	emit_history_quote(quote, sizeof(quote), r);
	snprintf(line, sizeof(line), "**%c%s.**", quote[0] >= 'a' && quote[0] <= 'z' ?
		 quote[0] - 'a' + 'A' : quote[0], quote[0] ? quote + 1 : "");
	fputc('\n', out);
	paragraph(out, line);
	fputc('\n', out);
	if (md_table(out, &t, emit_history_years_table(&t, p, 1)))
		return -1;
	fmt_day(from, sizeof(from), p->window_start, p->zone);
	fmt_day(to, sizeof(to), p->window_end, p->zone);
	fmt_growth(growth[0], sizeof(growth[0]), 1, p->fits[0].growth);
	fmt_growth(growth[1], sizeof(growth[1]), 0, p->fits[1].growth);
	snprintf(line, sizeof(line), "The year in which a length passes P(collision) = 1%% and 50%% "
		 "(\\* passed already, dated from the history).  Growth of the commit count "
		 "%s .. %s: exponential %s (RMS relative error %.2g%%), linear "
		 "%s (RMS relative error %.2g%%); the %s fit is used.  "
		 "%.2f objects per commit.",
		 from, to, growth[0], 100.0 * p->fits[0].rms_rel,
		 growth[1], 100.0 * p->fits[1].rms_rel,
		 projection_fit_name(p->fits[p->chosen].kind), p->objects_per_commit);
	fputc('\n', out);
	paragraph(out, line);
	emit_safe_sentence(quote, sizeof(quote), p);
	snprintf(line, sizeof(line), "%c%s.", quote[0] >= 'a' && quote[0] <= 'z' ?
		 quote[0] - 'a' + 'A' : quote[0], quote[0] ? quote + 1 : "");
	fputc('\n', out);
	paragraph(out, line);
	return ferror(out) ? -1 : 0;
}

static int backtest_markdown(FILE *out, const backtest_results *b)
{
	char line[1024];
	emit_table t;

	fputs("\n#### Backtest\n\n", out);
	emit_backtest_intro(line, sizeof(line), b);
	line[0] = 'B';
	paragraph(out, line);
	if (!b->nrows)
		return ferror(out) ? -1 : 0;
	fputc('\n', out);
	if (md_table(out, &t, emit_backtest_table(&t, b, 1)))
		return -1;
	fputc('\n', out);
	paragraph(out, "*fitted*: the fit's commit count at that date; *99% range*: the central "
		       "99% of a Poisson count with the predicted mean; \\* measured outside it.");
	fputc('\n', out);
	emit_backtest_summary(line, sizeof(line), b);
	line[0] = 'H';
	paragraph(out, line);
	return ferror(out) ? -1 : 0;
}

static int history_markdown(FILE *out, const history_report *r)
{
	const history_results *h = r->h;
	char counts[160], line[256];
	const char *note;
	emit_table t;

	fputs("### When each length stopped being unique: ", out);
	heading_repos(out, r->title, r->repos, r->nrepos);
	/* the counts under the heading, which cannot wrap */
	emit_history_counts(counts, sizeof(counts), h);
	fprintf(out, "\n\n%s.\n\n", counts);
	for (int i = 0; (note = emit_lacks_note(r->lacks, i)); i++) {
		snprintf(line, sizeof(line), "Note: %s.", note);
		paragraph(out, line);
		fputc('\n', out);
	}
	if (h->commits < 2) {
		fputs("Fewer than two commits: no length has collided.\n", out);
		if (r->bt && backtest_markdown(out, r->bt))
			return -1;
		return ferror(out) ? -1 : 0;
	}
	if (md_table(out, &t, emit_history_first_table(&t, h, 1)))
		return -1;
	/* the pairs under the table, a line each, so that its rows fit a mail */
	if (h->longest >= ABBREV_MIN_LEN)
		fputs("\nThe first two commits to share L chars:\n\n", out);
	for (unsigned L = ABBREV_MIN_LEN; L <= h->longest; L++) {
		emit_history_pair(line, sizeof(line), h, L, 1);
		fprintf(out, "- %u: %s\n", L, line);
	}
	fputc('\n', out);
	paragraph(out, "*collided*: the day two commits first shared L chars, commits replayed in "
		       "committer-time order; *commits*: how many there were then; *expected*: random "
		       "IDs first collide at L chars after about sqrt(pi/2 * 16^L) of them, dated when "
		       "the history reached that many; *P then*: their chance to collide at L among "
		       "that many commits (about half above and half below 0.5 when IDs are random, "
		       "tiny for a crafted pair); *not yet*: commits and P now.");
	if (r->p && projection_markdown(out, r))
		return -1;
	if (r->bt && backtest_markdown(out, r->bt))
		return -1;
	return ferror(out) ? -1 : 0;
}

/* ---- policy ------------------------------------------------------------ */

/* Text with Markdown's emphasis star escaped. */
/* s with its first letter upper-case and each '*' escaped, into buf (cut to fit). */
static void escaped_stars(char *buf, size_t n, const char *s)
{
	size_t k = 0;

	for (; *s && k + 3 < n; s++) {
		if (*s == '*')
			buf[k++] = '\\';
		buf[k++] = *s;
	}
	buf[k] = '\0';
	if (buf[0] >= 'a' && buf[0] <= 'z')
		buf[0] = (char)(buf[0] - 'a' + 'A');
}

/* The verdict: a heading, its table, the growth, git's length, the suggestion, the key. */
static int verdict_markdown(FILE *out, const verdict *v)
{
	char line[1024];
	emit_table t;

	fputs("\n#### Verdict: 12 and 16 chars, and git's own length\n\n", out);
	if (md_table(out, &t, emit_verdict_table(&t, v, 1)))
		return -1;
	emit_verdict_growth(line, sizeof(line) - 1, v);
	line[0] = (char)(line[0] >= 'a' && line[0] <= 'z' ? line[0] - 'a' + 'A' : line[0]);
	fputc('\n', out);
	paragraph(out, line);
	emit_verdict_git(line, sizeof(line) - 1, v);
	line[0] = (char)(line[0] >= 'a' && line[0] <= 'z' ? line[0] - 'a' + 'A' : line[0]);
	fputc('\n', out);
	paragraph(out, line);
	emit_verdict_suggest(line, sizeof(line) - 1, v);
	line[0] = (char)(line[0] >= 'a' && line[0] <= 'z' ? line[0] - 'a' + 'A' : line[0]);
	fputc('\n', out);
	paragraph(out, line);
	fputc('\n', out);
	escaped_stars(line, sizeof(line), emit_verdict_legend);
	paragraph(out, line);
	return ferror(out) ? -1 : 0;
}

static int policy_markdown(FILE *out, const policy_report *p)
{
	const policy_results *r = p->r;
	char line[1024], now[16];
	emit_table t;

	fmt_day(now, sizeof(now), (int64_t)r->now, p->now_zone);
	fputs("### Abbreviation policy: ", out);
	heading_repos(out, p->title, p->repos, p->nrepos);
	fprintf(out, "%s%s%s%s, %s%s\n\n", p->nrepos ? "" : "the counts given",
		p->hash ? " (" : "", p->hash ? p->hash : "", p->hash ? ")" : "", now,
		p->now_newest ? " (the newest commit: the years count from it)" : "");
	emit_policy_growth(line, sizeof(line) - 1, p);
	line[0] = (char)(line[0] >= 'a' && line[0] <= 'z' ? line[0] - 'a' + 'A' : line[0]);
	strcat(line, ".");
	paragraph(out, line);
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
	escaped_stars(line, sizeof(line), emit_policy_legend);
	paragraph(out, line);
	fputs("\nTo quote (P(collision) = 1%):\n\n", out);
	for (size_t i = 0; i < r->nlengths; i++) {
		emit_policy_quote(line, sizeof(line), r, i);
		fputs("- ", out);
		emit_wrap(out, line, 2, 2, 1); /* a list item's lines go on under its text */
	}
	if (p->bt) {
		char intro[1024];

		emit_backtest_end_intro(intro, sizeof(intro), p->bt);
		escaped_stars(line, sizeof(line), intro);
		fputc('\n', out);
		paragraph(out, line);
		if (p->bt->nrows) {
			fputc('\n', out);
			if (md_table(out, &t, emit_backtest_end_table(&t, p->bt, 1)))
				return -1;
			fputc('\n', out);
			emit_backtest_summary(line, sizeof(line), p->bt);
			line[0] = 'H';
			paragraph(out, line);
		}
	}
	for (int i = 0; emit_lacks_note(p->lacks, i); i++) {
		snprintf(line, sizeof(line), "Note: %s.", emit_lacks_note(p->lacks, i));
		fputc('\n', out);
		paragraph(out, line);
	}
	return ferror(out) ? -1 : 0;
}

const emit_format emit_format_markdown = {
	.name = "markdown",
	.carries = {
		[EMIT_NOTE_LACKS] = EMIT_KIND_BIT(EMIT_REPORT) | EMIT_KIND_BIT(EMIT_HISTORY) |
				    EMIT_KIND_BIT(EMIT_POLICY),
	},
	.report = report_markdown,
	.model = model_markdown,
	.history = history_markdown,
	.policy = policy_markdown,
};
