/*
 * emit_text.c - the text format, for people at a terminal or in a mail.
 *
 * Report: one row per length, the sets side by side, so that "commits
 * alone" and "all objects" can be compared at a glance, in the
 * "L: objects / prefixes" spelling of git-unique-abbrev.  Check: the
 * answer and the colliding groups.  Model: a table per set.  History:
 * when each length first collided, then the projection and the line to
 * quote.  Verify's text is emit_verify.c's.
 */
#include <config.h>

#include "emit.h"

#include <math.h>
#include <string.h>

#include "emit_parts.h"
#include "emit_verify.h"
#include "fmt.h"

#define MAX_GROUPS_SHOWN 16

/* The order of the min unique lengths: all objects first, commits, commit-ish, the other types. */
static const int column_sets[ABBREV_SET_COUNT] = {
	ABBREV_SET_ALL, ABBREV_SET_COMMIT, ABBREV_SET_COMMITISH, ABBREV_SET_TREE, ABBREV_SET_BLOB,
	ABBREV_SET_TAG
};

#define TEXT_WIDTH EMIT_WRAP_WIDTH

/* Display width: UTF-8 continuation bytes take no column. */
static size_t text_width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

/* s wrapped at 80 columns (emit_wrap), the first line after `col` columns. */
static void print_wrapped(FILE *out, const char *s, size_t col, int indent)
{
	emit_wrap(out, s, col, indent, 0);
}

/*
 * "  commit <id>", then its description ("subject") date, or (tag name),
 * on the same line when it fits in TEXT_WIDTH, else on the next, wrapped.
 */
static void print_member(FILE *out, const stats_set *st, size_t m, size_t rawsz, int indent)
{
	char hex[ABBREV_MAX_HEXSZ + 1];
	const char *desc = st->member_desc ? st->member_desc[m] : NULL;
	size_t col;

	hexid_fmt(hex, st->member_ids + m * rawsz, rawsz);
	fprintf(out, "%*s%-6s %s", indent, "", hexid_type_name(st->member_types[m]), hex);
	col = (size_t)indent + 7 + strlen(hex);
	if (!desc || !*desc) {
		fputc('\n', out);
	} else if (col + 1 + text_width(desc) <= TEXT_WIDTH) {
		fprintf(out, " %s\n", desc);
	} else {
		fprintf(out, "\n%*s", indent + 2, "");
		print_wrapped(out, desc, (size_t)indent + 2, indent + 3);
	}
}

/* The note for a collision flagged improbable among n random IDs. */
static void print_improbable(FILE *out, size_t n, unsigned len, double p, int improbable)
{
	char num[32], pb[32], line[256];

	fmt_count(num, sizeof(num), (double)n);
	if (!improbable)
		return;
	emit_fmt_p(pb, sizeof(pb), p, 2);
	snprintf(line, sizeof(line), "^ %u shared chars among %s IDs: improbable for random IDs "
		 "(p = %s): possibly crafted", len, num, pb);
	fputs("  ", out);
	print_wrapped(out, line, 2, 4);
}

/* One colliding group: its prefix on a line, the members under it. */
static void print_group(FILE *out, const stats_set *st, const stats_group *gr, unsigned len,
			size_t rawsz, int indent)
{
	char hex[ABBREV_MAX_HEXSZ + 1];

	hexid_fmt(hex, st->member_ids + gr->first * rawsz, rawsz);
	fprintf(out, "%*s%.*s\n", indent, "", (int)len, hex);
	for (size_t i = 0; i < gr->n; i++)
		print_member(out, st, gr->first + i, rawsz, indent + 2);
}

static void print_groups(FILE *out, const stats_set *st, const char *what, size_t rawsz)
{
	size_t shown = st->ngroups < MAX_GROUPS_SHOWN ? st->ngroups : MAX_GROUPS_SHOWN;

	if (!st->ngroups)
		return;
	fprintf(out, "\nlongest colliding prefixes of %s: %u chars, %zu group%s\n", what,
		st->longest, st->ngroups, st->ngroups == 1 ? "" : "s");
	for (size_t g = 0; g < shown; g++)
		print_group(out, st, &st->groups[g], st->longest, rawsz, 2);
	print_improbable(out, st->count, st->longest, st->p_longest, st->improbable);
	if (shown < st->ngroups)
		fprintf(out, "  ... and %zu more groups (--format=json lists them all)\n",
			st->ngroups - shown);
}

/* A table as text, then its key; -1 on a failure (memory, output). */
static int print_table(FILE *out, emit_table *t, int rc, const char *key)
{
	rc = rc || emit_table_text(out, t, 0);
	emit_table_clear(t);
	if (!rc && key)
		fputs(key, out);
	return rc ? -1 : 0;
}

/* "reachable from HEAD, <the other patterns>: 12 refs" */
static void print_reach(FILE *out, const abbrev_reach *reach)
{
	char patterns[4096], counts[128];

	if (!reach)
		return;
	emit_reach_patterns(patterns, sizeof(patterns), reach, ", ");
	emit_reach_counts(counts, sizeof(counts), reach);
	fprintf(out, "reachable from %s%s\n", patterns, counts);
}

/* The answer at a glance, last: the table, git's own length, the suggestion, the key. */
static int print_verdict(FILE *out, const verdict *v)
{
	emit_table t;
	char line[512];

	if (!v)
		return 0;
	fputs("\nverdict: 12 and 16 chars, and git's own length, at the growth of the "
	      "history:\n", out);
	if (print_table(out, &t, emit_verdict_table(&t, v, 0), NULL))
		return -1;
	emit_verdict_growth(line, sizeof(line), v);
	print_wrapped(out, line, 0, 2);
	emit_verdict_git(line, sizeof(line), v);
	print_wrapped(out, line, 0, 2);
	emit_verdict_suggest(line, sizeof(line), v);
	print_wrapped(out, line, 0, 2);
	snprintf(line, sizeof(line), "(%s)", emit_verdict_legend);
	print_wrapped(out, line, 0, 1);
	return 0;
}

static int report_text(FILE *out, const stats_report *r)
{
	const stats_set *all = &r->sets[ABBREV_SET_ALL];
	char num[32], line[256];
	emit_table t;

	for (size_t i = 0; i < r->nrepos; i++)
		fprintf(out, "%s%s", i ? " + " : "", r->repos[i]);
	fmt_count(num, sizeof(num), (double)all->count);
	fprintf(out, "%s%s %s (%s)\n", r->nrepos ? ": " : "", num,
		emit_noun(all->count, "object", "objects"), r->hash ? r->hash : "unknown");
	emit_report_counts(line, sizeof(line), r);
	print_wrapped(out, line, 0, 0);
	print_reach(out, r->reach);

	fputs("\ncolliding objects / colliding prefixes at L hex chars:\n", out);
	if (print_table(out, &t, emit_report_sets_table(&t, r),
			!emit_report_shown(r, ABBREV_SET_COMMITISH) ? NULL :
			/* an ID list does not say which tags peel to a commit */
			r->input ? "(commit-ish: the commits only: an ID list does not say\n"
				   " which tags peel to a commit)\n" :
			"(commit-ish: commits and the tags that peel to a commit,\n"
			" among which git log <prefix> and <prefix>^{commit} resolve)\n"))
		return -1;
	fputs("\nby type, and commits that share their prefix with another type:\n", out);
	if (print_table(out, &t, emit_report_types_table(&t, r),
			"(commit~other: commits that share the prefix with a tree, blob or tag,\n"
			" ambiguous to git show <prefix>)\n"))
		return -1;
	fputs("\ncolliding prefixes, measured / expected for random IDs (birthday model):\n", out);
	if (print_table(out, &t, emit_report_model_table(&t, r),
			"(P(>=): the chance of at least the measured count if the IDs were\n"
			" random, P(X >= measured) for X Poisson with the expected mean;\n"
			" -: none measured, nothing to weigh)\n"))
		return -1;

	fprintf(out, "\nmin unique length:");
	for (int c = 0; c < ABBREV_SET_COUNT; c++) {
		const stats_set *st = &r->sets[column_sets[c]];

		/* an empty set has none */
		if (st->count)
			fprintf(out, "%s %s %u", c ? "," : "", idset_name(column_sets[c]),
				st->min_unique);
		else
			fprintf(out, "%s %s -", c ? "," : "", idset_name(column_sets[c]));
	}
	fprintf(out, "\ncommits vs other types unique from: %u\n", r->cvo_last_len);
	fmt_count(num, sizeof(num), (double)all->count);
	fprintf(out, "git's auto abbreviation for %s objects: %u\n", num, r->git_auto_abbrev);

	print_groups(out, all, "all objects", r->rawsz);
	for (int set = ABBREV_SET_COMMIT; set <= ABBREV_SET_TAG; set++)
		print_groups(out, &r->sets[set], idset_name(set), r->rawsz);
	/* the commit-ish groups, when a tag makes them differ from the commits' */
	if (emit_groups_have_tag(&r->sets[ABBREV_SET_COMMITISH]))
		print_groups(out, &r->sets[ABBREV_SET_COMMITISH], "commit-ish", r->rawsz);
	if (print_verdict(out, r->verdict))
		return -1;
	return ferror(out) ? -1 : 0;
}

static int check_text(FILE *out, const stats_check *c)
{
	const stats_set *f = &c->found;
	const char *what = c->set == ABBREV_SET_ALL ? "object" : idset_name(c->set);
	size_t nobj = f->objects[c->length], npre = f->prefixes[c->length];
	char line[256], count[32], objects[32], prefixes[32];

	fmt_count(count, sizeof(count), (double)f->count);
	fmt_count(objects, sizeof(objects), (double)nobj);
	fmt_count(prefixes, sizeof(prefixes), (double)npre);
	if (!f->ngroups) {
		if (c->against_all)
			snprintf(line, sizeof(line), "no %s ID shares its first %u chars with an "
				 "object of any type (%s %s)", what, c->length, count,
				 emit_noun(f->count, "object", "objects"));
		else
			snprintf(line, sizeof(line), "no two %s IDs share their first %u chars (%s %s)",
				 what, c->length, count, emit_set_noun(c->set, f->count));
		print_wrapped(out, line, 0, 2);
		print_reach(out, c->reach);
		if (print_verdict(out, c->verdict))
			return -1;
		return ferror(out) ? -1 : 0;
	}
	/* the groups hold IDs of the set too: two commits share a prefix with each other */
	if (c->against_all)
		snprintf(line, sizeof(line), "%s IDs share their first %u chars with objects of any "
			 "type: "
			 "%s %s in %s %s (of %s %s)", what, c->length, objects,
			 emit_noun(nobj, "object", "objects"), prefixes,
			 emit_noun(npre, "prefix", "prefixes"), count,
			 emit_noun(f->count, "object", "objects"));
	else
		snprintf(line, sizeof(line), "%s IDs collide at %u chars: %s %s in %s %s (of %s %s)",
			 what, c->length, objects, emit_set_noun(c->set, nobj), prefixes,
			 emit_noun(npre, "prefix", "prefixes"), count, emit_set_noun(c->set, f->count));
	print_wrapped(out, line, 0, 2);
	print_reach(out, c->reach);
	for (size_t g = 0; g < f->ngroups; g++) {
		const stats_group *gr = &f->groups[g];

		fputc('\n', out);
		print_group(out, f, gr, c->length, c->rawsz, 0);
		print_improbable(out, f->count, gr->len, gr->p_random, gr->improbable);
	}
	if (print_verdict(out, c->verdict))
		return -1;
	return ferror(out) ? -1 : 0;
}

/* ---- model ------------------------------------------------------------- */

static int model_text(FILE *out, const model_results *r)
{
	emit_table t;
	char num[48], line[256];

	for (size_t i = 0; i < r->nsets; i++) {
		const model_set *s = &r->sets[i];

		fmt_count(num, sizeof(num), (double)s->n);
		fprintf(out, "%s: %s\n", emit_set_title(s->name), num);
		if (print_table(out, &t, emit_model_table(&t, s, r->from, r->to), NULL))
			return -1;
		emit_model_min_lengths(line, sizeof(line), s);
		fprintf(out, "%s\n", line);
		if (!strcmp(s->name, "all"))
			fprintf(out, "git's auto abbreviation for %s objects: %u\n", num,
				s->git_auto_abbrev);
		fputc('\n', out);
	}
	if (r->nsets) {
		fputs("capacity of a length, for any set: the most random IDs it holds with\n"
		      "P(collision) <= 1% or <= 50%\n", out);
		if (print_table(out, &t, emit_model_capacity_table(&t, &r->sets[0], r->from, r->to),
				NULL))
			return -1;
		fputc('\n', out);
	}
	fprintf(out, "(birthday model of n random IDs at L hex chars: E = n(n-1)/2 / 16^L\n"
		     " expected colliding pairs, P = 1 - exp(-E) the chance of any collision;\n"
		     " expected objects / prefixes compare with the report's measured ones)\n");
	return ferror(out) ? -1 : 0;
}

/* ---- history ----------------------------------------------------------- */

/* "in 2031", "passed in 2019" (in the commit's zone tz), "never" */
static void when_phrase(char *buf, size_t n, double t, int tz, int reached)
{
	char y[24];

	fmt_year(y, sizeof(y), t, tz);
	if (!isfinite(t))
		snprintf(buf, n, "never");
	else
		snprintf(buf, n, "%s %s", reached ? "passed in" : "in", y);
}

/* "(with the exponential fit instead, +7.9%/year: 12-char commit IDs in 2086, ...)" */
static void other_fit_text(FILE *out, const projection_results *p)
{
	const projection_fit *f = &p->fits[!p->chosen];
	const projection_when *w = &p->other_quote;
	char growth[64], cy[48], oy[48];

	char line[256];

	fmt_growth(growth, sizeof(growth), f->kind == PROJECTION_FIT_EXP, f->growth);
	when_phrase(cy, sizeof(cy), w->commits_time, w->commits_tz, w->commits_reached);
	when_phrase(oy, sizeof(oy), w->objects_time, w->objects_tz, w->objects_reached);
	snprintf(line, sizeof(line), "(with the %s fit instead, %s: %u-char commit IDs %s, "
		 "all objects %s)", projection_fit_name(f->kind), growth, PROJECTION_QUOTE_LEN, cy, oy);
	print_wrapped(out, line, 0, 1);
}

static int projection_text(FILE *out, const history_report *r)
{
	const projection_results *p = r->p;
	char from[32], to[32], growth[64], num[2][48], line[512];
	emit_table t;
	int rc;

	if (p->status != PROJECTION_OK) {
		emit_projection_none(line, sizeof(line), p);
		fputs("no projection: ", out);
		print_wrapped(out, line, 15, 2);
		return 0;
	}
	fmt_day(from, sizeof(from), p->window_start, p->zone);
	fmt_day(to, sizeof(to), p->window_end, p->zone);
	snprintf(line, sizeof(line), "growth of the commit count, %s .. %s (%.3g years, %zu "
		 "samples), projected from %s (the newest commit):", from, to, emit_window_span(p),
		 p->nsamples, to);
	print_wrapped(out, line, 0, 2);
	for (int i = 0; i < 2; i++) {
		const projection_fit *f = &p->fits[i];

		fmt_growth(growth, sizeof(growth), f->kind == PROJECTION_FIT_EXP, f->growth);
		fprintf(out, "  %-12s %-22s RMS relative error %.2g%%%s\n",
			projection_fit_name(f->kind), growth, 100.0 * f->rms_rel,
			i == p->chosen ? "  <- used" : "");
	}
	fmt_year(from, sizeof(from), p->horizon_time, 0);
	fmt_count(num[0], sizeof(num[0]), p->fit_at_horizon[0]);
	fmt_count(num[1], sizeof(num[1]), p->fit_at_horizon[1]);
	fprintf(out, "commits in %s: %s by the %s fit, %s by the %s fit\n", from, num[0],
		projection_fit_name(p->fits[0].kind), num[1], projection_fit_name(p->fits[1].kind));
	fmt_count(num[0], sizeof(num[0]), (double)p->objects);
	fmt_count(num[1], sizeof(num[1]), (double)p->commits);
	fprintf(out, "objects per commit: %.2f (%s objects / %s commits)\n\n",
		p->objects_per_commit, num[0], num[1]);

	fprintf(out, "year in which a length passes P(collision) = 1%% and 50%% (%s fit):\n",
		projection_fit_name(p->fits[p->chosen].kind));
	rc = emit_history_years_table(&t, p, 0) || emit_table_text(out, &t, 0);
	emit_table_clear(&t);
	if (rc)
		return -1;
	fprintf(out, "(* passed already, dated from the history; for all objects through the\n"
		     " objects-per-commit ratio)\n\n");

	emit_history_quote(line, sizeof(line), r);
	print_wrapped(out, line, 0, 2);
	other_fit_text(out, p);
	emit_safe_sentence(line, sizeof(line), p);
	print_wrapped(out, line, 0, 2);
	return 0;
}

/* The backtest: what it is, the table, the hit rate. */
static int backtest_text(FILE *out, const backtest_results *b)
{
	char line[1024];
	emit_table t;
	int rc;

	emit_backtest_intro(line, sizeof(line), b);
	print_wrapped(out, line, 0, b->nrows ? 0 : 2);
	if (!b->nrows)
		return 0;
	rc = emit_backtest_table(&t, b, 0) || emit_table_text(out, &t, 0);
	emit_table_clear(&t);
	if (rc)
		return -1;
	fprintf(out, "(fitted: the fit's commit count at that date; 99%% range: the central\n"
		     " 99%% of a Poisson count with the predicted mean; * measured outside it)\n");
	emit_backtest_summary(line, sizeof(line), b);
	print_wrapped(out, line, 0, 2);
	return 0;
}

static int history_text(FILE *out, const history_report *r)
{
	const history_results *h = r->h;
	char counts[160], line[4096];
	emit_table t;
	int rc;

	emit_repos_joined(line, sizeof(line), r->repos, r->nrepos);
	emit_history_counts(counts, sizeof(counts), h);
	/* the counts on a line of their own when the path leaves them no room */
	if (r->nrepos)
		fprintf(out, "%s:%s", line,
			text_width(line) + 2 + text_width(counts) > TEXT_WIDTH ? "\n" : " ");
	fprintf(out, "%s\n", counts);
	/* notes of a shallow or partial clone: on stderr (cmd_sets_notes) */
	fputc('\n', out);
	if (h->commits < 2) {
		fprintf(out, "fewer than two commits: no length has collided\n");
		if (r->bt) {
			fputc('\n', out);
			if (backtest_text(out, r->bt))
				return -1;
		}
		return ferror(out) ? -1 : 0;
	}
	fprintf(out, "when two commits first shared L hex chars (in committer-time order):\n");
	rc = emit_history_first_table(&t, h, 0) || emit_table_text(out, &t, 0);
	emit_table_clear(&t);
	if (rc)
		return -1;
	fprintf(out, "(collided: the day two commits first shared L chars; commits: how many\n"
		     " there were then; expected: random IDs first collide at L after about\n"
		     " sqrt(pi/2 * 16^L) of them, dated when the history reached that many;\n"
		     " P then: their chance to collide at L among that many commits, about\n"
		     " half above and half below 0.5 when IDs are random, tiny for a crafted\n"
		     " pair; not yet: commits and P now; the JSON has the times and full IDs)\n");
	if (r->p) {
		fputc('\n', out);
		if (projection_text(out, r))
			return -1;
	}
	if (r->bt) {
		fputc('\n', out);
		if (backtest_text(out, r->bt))
			return -1;
	}
	return ferror(out) ? -1 : 0;
}

/* ---- policy ------------------------------------------------------------ */

#define POLICY_TEXT_WIDTH 78

/* s broken at spaces into lines of at most `width` chars, the later ones indented. */
static void wrapped(FILE *out, const char *s, size_t width, int first_indent, int indent)
{
	int in = first_indent;

	while (*s) {
		size_t room = width - (size_t)in, len = strlen(s), cut = len;

		if (len > room) {
			cut = room;
			while (cut > 0 && s[cut] != ' ')
				cut--;
			if (!cut) /* a word longer than the line: on a line of its own */
				cut = strcspn(s, " ");
		}
		fprintf(out, "%*s%.*s\n", in, "", (int)cut, s);
		s += cut;
		while (*s == ' ')
			s++;
		in = indent;
	}
}

static int policy_text(FILE *out, const policy_report *p)
{
	const policy_results *r = p->r;
	emit_table t;
	char line[512], repos[256], now[16];

	emit_repos_joined(repos, sizeof(repos), p->repos, p->nrepos);
	fmt_day(now, sizeof(now), (int64_t)r->now, p->now_zone);
	if (p->nrepos)
		snprintf(line, sizeof(line), "abbreviation policy for %s (%s), %s%s", repos,
			 p->hash ? p->hash : "unknown", now,
			 p->now_newest ? " (the newest commit: the years count from it)" : "");
	else
		snprintf(line, sizeof(line), "abbreviation policy for the counts given, %s", now);
	wrapped(out, line, POLICY_TEXT_WIDTH, 0, 2);
	emit_policy_growth(line, sizeof(line), p);
	wrapped(out, line, POLICY_TEXT_WIDTH, 0, 2);
	for (size_t k = 0; k < r->nsets; k++) {
		fputc('\n', out);
		emit_policy_set_heading(line, sizeof(line), &r->sets[k]);
		wrapped(out, line, POLICY_TEXT_WIDTH, 0, 2);
		if (emit_policy_table(&t, r, &r->sets[k], 0) || emit_table_text(out, &t, 0)) {
			emit_table_clear(&t);
			return -1;
		}
		emit_table_clear(&t);
	}
	snprintf(line, sizeof(line), "(%s)", emit_policy_legend);
	wrapped(out, line, POLICY_TEXT_WIDTH, 0, 1);
	fputs("\nto quote (P(collision) = 1%):\n", out);
	for (size_t i = 0; i < r->nlengths; i++) {
		emit_policy_quote(line, sizeof(line), r, i);
		wrapped(out, line, POLICY_TEXT_WIDTH, 2, 4);
	}
	if (p->bt) {
		fputc('\n', out);
		emit_backtest_end_intro(line, sizeof(line), p->bt);
		wrapped(out, line, POLICY_TEXT_WIDTH, 0, p->bt->nrows ? 0 : 2);
		if (p->bt->nrows) {
			if (emit_backtest_end_table(&t, p->bt, 0) || emit_table_text(out, &t, 0)) {
				emit_table_clear(&t);
				return -1;
			}
			emit_table_clear(&t);
			emit_backtest_summary(line, sizeof(line), p->bt);
			wrapped(out, line, POLICY_TEXT_WIDTH, 0, 2);
		}
	}
	return ferror(out) ? -1 : 0;
}

const emit_format emit_format_text = {
	.name = "text",
	.report = report_text,
	.check = check_text,
	.model = model_text,
	.history = history_text,
	.verify = emit_verify_text_new,
	.policy = policy_text,
};
