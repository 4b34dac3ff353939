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
#include "emit_history.h"
#include "emit_model.h"
#include "model.h"

static const int column_sets[ABBREV_SET_COUNT] = {
	ABBREV_SET_ALL, ABBREV_SET_COMMIT, ABBREV_SET_COMMITISH, ABBREV_SET_TREE, ABBREV_SET_BLOB,
	ABBREV_SET_TAG
};

static const char *set_title(int set)
{
	static const char *const titles[ABBREV_SET_COUNT] = {
		[ABBREV_SET_ALL] = "all objects", [ABBREV_SET_COMMIT] = "commits",
		[ABBREV_SET_TREE] = "trees", [ABBREV_SET_BLOB] = "blobs", [ABBREV_SET_TAG] = "tags",
		[ABBREV_SET_COMMITISH] = "commit-ish",
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

/* all objects and commits always; the other types, and commit-ish beside tags, when they have IDs */
static int shown(const stats_report *r, int set)
{
	if (set == ABBREV_SET_COMMITISH)
		set = ABBREV_SET_TAG;
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
	for (int i = 0; emit_lacks_note(r->lacks, i); i++)
		fprintf(out, "Note: %s.\n\n", emit_lacks_note(r->lacks, i));

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
	fprintf(out, "\n%s %s:", num, all->count == 1 ? "object" : "objects");
	for (int set = ABBREV_SET_COMMIT; set <= ABBREV_SET_TAG; set++) {
		fmt_count(num, sizeof(num), r->sets[set].count);
		fprintf(out, "%s %s %s", set > ABBREV_SET_COMMIT ? "," : "", num,
			emit_set_noun(set, r->sets[set].count));
	}
	fmt_count(num, sizeof(num), r->sets[ABBREV_SET_COMMITISH].count);
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
	char num[32], a[48], b[48], pc[32];

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
			emit_fmt_p_collision(pc, sizeof(pc), row->p_collision, s->n, L, 3);
			fprintf(out, "| %u | %.3g | %s | %.3g / %.3g | %s | %s |\n", L,
				row->expected_pairs, pc, row->expected_objects,
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

/* ---- history ------------------------------------------------------------ */

/* A count that may be huge or not finite: grouped digits below 10^15, else "%.3g". */
static void fmt_countd(char *buf, size_t n, double v)
{
	if (v >= 0 && v < 1e15)
		fmt_count(buf, n, (unsigned long long)llround(v));
	else
		snprintf(buf, n, "%.3g", v);
}

/* A growth rate as a percentage a person can read, even when absurd. */
static void fmt_percent(char *buf, size_t n, double v)
{
	snprintf(buf, n, fabs(v) < 1e6 ? "%+.1f%%" : "%+.3g%%", v);
}

/* A projected date's calendar year: "2031", "never", "1.2e+06"; " *" if passed. */
static void fmt_year(char *buf, size_t n, double t, int reached)
{
	double y = isfinite(t) ? floor(projection_year(t)) : 0;

	if (!isfinite(t))
		snprintf(buf, n, "never");
	else
		snprintf(buf, n, y < 1e6 ? "%.0f%s" : "%.2g%s", y, reached ? " \\*" : "");
}

/* The last length not yet collided worth a row: while P now >= 1e-4, at least one. */
static unsigned not_yet_to(const history_results *h)
{
	unsigned maxL = (unsigned)(2 * h->rawsz), L = h->longest + 1;

	if (L < ABBREV_MIN_LEN)
		L = ABBREV_MIN_LEN;
	while (L + 1 <= maxL && L + 1 <= HISTORY_SHOW_TO && h->model[L + 1].p >= 1e-4)
		L++;
	return L > maxL ? maxL : L;
}

static void history_table(FILE *out, const history_results *h)
{
	unsigned maxL = (unsigned)(2 * h->rawsz);
	char when[32], then[32], exp[32], expdate[32], a[ABBREV_MAX_HEXSZ + 1],
	     b[ABBREV_MAX_HEXSZ + 1];

	fputs("| length | first collision (UTC) | commits then | model expects | model's date "
	      "| P(by then) | pair |\n|---:|---|---:|---:|---|---:|---|\n", out);
	for (unsigned L = ABBREV_MIN_LEN; L <= h->longest; L++) {
		const history_first *f = &h->first[L];
		const history_model *m = &h->model[L];
		int width = (int)(f->shared + 1 > 12 ? f->shared + 1 : 12);

		if (width > (int)maxL)
			width = (int)maxL;
		emit_history_date(when, sizeof(when), f->time);
		fmt_count(then, sizeof(then), f->commits_then);
		fmt_countd(exp, sizeof(exp), m->expected_commits);
		expdate[0] = '\0';
		if (m->expected_reached) {
			emit_history_date(expdate, sizeof(expdate), m->expected_time);
			expdate[10] = '\0';
		}
		hexid_fmt(a, f->pair[0], h->rawsz);
		hexid_fmt(b, f->pair[1], h->rawsz);
		fprintf(out, "| %u | %s | %s | %s | %s | %.2g | `%.*s` `%.*s` |\n", L, when, then,
			exp, expdate, m->p, width, a, width, b);
	}
	if (h->longest >= maxL)
		return;
	fmt_count(then, sizeof(then), h->commits);
	for (unsigned L = h->longest + 1 < ABBREV_MIN_LEN ? ABBREV_MIN_LEN : h->longest + 1;
	     L <= not_yet_to(h); L++) {
		fmt_countd(exp, sizeof(exp), h->model[L].expected_commits);
		fprintf(out, "| %u | not yet | %s now | %s | | %.2g now | |\n", L, then, exp,
			h->model[L].p);
	}
}

static void projection_markdown(FILE *out, const history_report *r)
{
	const projection_results *p = r->p;
	char quote[512], from[32], to[32], c[4][32], num[2][32], rate[48];

	if (p->status != PROJECTION_OK) {
		fputs("\nNo projection: the commits span no time to fit a growth to.\n", out);
		return;
	}
	emit_history_quote(quote, sizeof(quote), r);
	fprintf(out, "\n**%c%s.**\n\n", quote[0] >= 'a' && quote[0] <= 'z' ? quote[0] - 'a' + 'A' :
		quote[0], quote[0] ? quote + 1 : "");
	fprintf(out, "| length | commits 1%% | commits 50%% | all objects 1%% | all objects 50%% |\n"
		     "|---:|---:|---:|---:|---:|\n");
	for (unsigned L = PROJECTION_FROM; L <= PROJECTION_TO; L++) {
		fmt_year(c[0], sizeof(c[0]), p->p01[L].commits_time, p->p01[L].commits_reached);
		fmt_year(c[1], sizeof(c[1]), p->p50[L].commits_time, p->p50[L].commits_reached);
		fmt_year(c[2], sizeof(c[2]), p->p01[L].objects_time, p->p01[L].objects_reached);
		fmt_year(c[3], sizeof(c[3]), p->p50[L].objects_time, p->p50[L].objects_reached);
		fprintf(out, "| %u | %s | %s | %s | %s |\n", L, c[0], c[1], c[2], c[3]);
	}
	emit_history_date(from, sizeof(from), p->window_start);
	emit_history_date(to, sizeof(to), p->window_end);
	from[10] = to[10] = '\0';
	fmt_percent(rate, sizeof(rate), 100.0 * expm1(p->fits[0].growth));
	fprintf(out, "\nThe year in which a length passes P(collision) = 1%% and 50%% "
		     "(\\* passed already, dated from the history).  Growth of the commit count "
		     "%s .. %s: exponential %s/year (RMS relative error %.2g%%), linear "
		     "%+.0f commits/year (RMS relative error %.2g%%); the %s fit is used.  "
		     "%.2f objects per commit.\n",
		from, to, rate, 100.0 * p->fits[0].rms_rel,
		p->fits[1].growth, 100.0 * p->fits[1].rms_rel,
		projection_fit_name(p->fits[p->chosen].kind), p->objects_per_commit);
	fmt_year(c[0], sizeof(c[0]), p->horizon_time, 0);
	fmt_countd(num[0], sizeof(num[0]), ceil(p->commits_at_horizon));
	fmt_countd(num[1], sizeof(num[1]), ceil(p->objects_at_horizon));
	fprintf(out, "\nSafe until %s (P(collision) <= %g%%, at about %s commits and %s objects "
		     "then): ", c[0], 100.0 * p->target_p, num[0], num[1]);
	if (p->safe_commit_len > MODEL_MAX_LEN)
		fprintf(out, "commit IDs need more than %u chars", MODEL_MAX_LEN);
	else
		fprintf(out, "commit IDs need %u chars", p->safe_commit_len);
	if (p->safe_all_len > MODEL_MAX_LEN)
		fprintf(out, ", all objects more than %u.\n", MODEL_MAX_LEN);
	else
		fprintf(out, ", all objects %u.\n", p->safe_all_len);
}

int emit_history_markdown(FILE *out, const history_report *r)
{
	const history_results *h = r->h;
	char num[32], first[32], last[32];
	const char *note;

	fputs("### When each length stopped being unique: ", out);
	for (size_t i = 0; i < r->nrepos; i++) {
		fputs(i ? " + " : "", out);
		code_span(out, r->repos[i]);
	}
	fmt_count(num, sizeof(num), h->commits);
	fprintf(out, "%s%s commits (%s)", r->nrepos ? ", " : "", num,
		hexid_hash_name(h->rawsz) ? hexid_hash_name(h->rawsz) : "unknown");
	if (h->commits) {
		emit_history_date(first, sizeof(first), h->first_time);
		emit_history_date(last, sizeof(last), h->last_time);
		first[10] = last[10] = '\0';
		fprintf(out, ", committed %s .. %s", first, last);
	}
	fputs("\n\n", out);
	for (int i = 0; (note = emit_lacks_note(r->lacks, i)); i++)
		fprintf(out, "Note: %s.\n\n", note);
	if (h->commits < 2) {
		fputs("Fewer than two commits: no length has collided.\n", out);
		return ferror(out) ? -1 : 0;
	}
	history_table(out, h);
	fputs("\nCommits replayed in committer-time order.  Model: random IDs first collide at "
	      "L chars after about sqrt(pi/2 * 16^L) of them; P(by then): their chance to "
	      "collide at L among that many commits (about half above and half below 0.5 when "
	      "IDs are random, tiny for a crafted pair).\n", out);
	if (r->p)
		projection_markdown(out, r);
	return ferror(out) ? -1 : 0;
}
