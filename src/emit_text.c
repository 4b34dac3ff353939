/*
 * emit_text.c - the report for people: one row per length, the sets side
 * by side, so that "commits alone" and "all objects" can be compared at a
 * glance, in the "L: objects / prefixes" spelling of git-unique-abbrev.
 */
#include "emit.h"

#include <string.h>

#include "model.h"

#define MAX_GROUPS_SHOWN 16

/* Display order of the columns: all objects first, commits, commit-ish, the other types. */
static const int column_sets[ABBREV_SET_COUNT] = {
	ABBREV_SET_ALL, ABBREV_SET_COMMIT, ABBREV_SET_COMMITISH, ABBREV_SET_TREE, ABBREV_SET_BLOB,
	ABBREV_SET_TAG
};

static void cell(char *buf, size_t n, const stats_set *st, unsigned L)
{
	snprintf(buf, n, "%zu / %zu", st->objects[L], st->prefixes[L]);
}

/* "commit <id> ("subject") 2024-12-05" */
static void print_member(FILE *out, const stats_set *st, size_t m, size_t rawsz)
{
	char hex[ABBREV_MAX_HEXSZ + 1];
	const char *desc = st->member_desc ? st->member_desc[m] : NULL;

	hexid_fmt(hex, st->member_ids + m * rawsz, rawsz);
	fprintf(out, "%-6s %s%s%s\n", hexid_type_name(st->member_types[m]), hex,
		desc ? " " : "", desc ? desc : "");
}

/* The note for a group less likely than `threshold` among n random IDs. */
static void print_improbable(FILE *out, size_t n, unsigned len, double threshold)
{
	double p = emit_p_random(n, len);

	if (p < threshold)
		fprintf(out, "  ^ %u shared chars among %zu IDs: improbable for random IDs "
			     "(p = %.2g): possibly crafted\n", len, n, p);
}

static void print_groups(FILE *out, const stats_set *st, const char *what, size_t rawsz,
			 double threshold)
{
	char hex[ABBREV_MAX_HEXSZ + 1];
	size_t shown = st->ngroups < MAX_GROUPS_SHOWN ? st->ngroups : MAX_GROUPS_SHOWN;

	if (!st->ngroups)
		return;
	fprintf(out, "\nlongest colliding prefixes of %s: %u chars, %zu group%s\n", what,
		st->longest, st->ngroups, st->ngroups == 1 ? "" : "s");
	for (size_t g = 0; g < shown; g++) {
		for (size_t i = 0; i < st->groups[g].n; i++) {
			size_t m = st->groups[g].first + i;

			hexid_fmt(hex, st->member_ids + m * rawsz, rawsz);
			fprintf(out, "  %-*.*s  ", (int)st->longest, i ? 0 : (int)st->longest, hex);
			print_member(out, st, m, rawsz);
		}
	}
	print_improbable(out, st->count, st->longest, threshold);
	if (shown < st->ngroups)
		fprintf(out, "  ... and %zu more groups (--format=json lists them all)\n",
			st->ngroups - shown);
}

/* "85 / 83.1": measured colliding prefixes beside the birthday model's */
static void model_cell(char *buf, size_t n, const stats_set *st, unsigned L)
{
	double e = model_expected_prefixes(st->count, L);

	if (e == 0)
		snprintf(buf, n, "%zu / 0", st->prefixes[L]);
	else
		snprintf(buf, n, e >= 100 ? "%zu / %.0f" : e >= 0.01 ? "%zu / %.2f" : "%zu / %.1e",
			 st->prefixes[L], e);
}

/*
 * The chance that random IDs give at least as many colliding prefixes as
 * measured (a one-sided Poisson tail, "0.043" for 93 against 77.1); ""
 * where the model expects none.
 */
static void tail_cell(char *buf, size_t n, const stats_set *st, unsigned L)
{
	double e = model_expected_prefixes(st->count, L);

	if (!(e > 0))
		buf[0] = '\0';
	else
		emit_fmt_p(buf, n, model_poisson_tail(st->prefixes[L], e, 1), 2);
}

/*
 * Measured colliding prefixes next to the expectation for as many random
 * IDs, for all objects and for commits, each with the chance of a count
 * that far off: whether the repository behaves like random IDs is then a
 * number, not an impression.
 */
static void print_model(FILE *out, const stats_report *r)
{
	static const int sets[] = { ABBREV_SET_ALL, ABBREV_SET_COMMIT };
	unsigned last = ABBREV_MIN_LEN;
	int width[2], twidth[2];
	char buf[64];

	for (int c = 0; c < 2; c++) {
		const stats_set *st = &r->sets[sets[c]];

		if (st->last_len > last)
			last = st->last_len;
	}
	for (int c = 0; c < 2; c++) {
		width[c] = c ? 6 : 11;
		twidth[c] = 5;
		for (unsigned L = ABBREV_MIN_LEN; L <= last; L++) {
			model_cell(buf, sizeof(buf), &r->sets[sets[c]], L);
			if ((int)strlen(buf) > width[c])
				width[c] = (int)strlen(buf);
			tail_cell(buf, sizeof(buf), &r->sets[sets[c]], L);
			if ((int)strlen(buf) > twidth[c])
				twidth[c] = (int)strlen(buf);
		}
	}
	fprintf(out, "\ncolliding prefixes, measured / expected for random IDs (birthday model):\n");
	fprintf(out, "len  %*s  %-*s  %*s  %s\n", width[0], "all objects", twidth[0], "P(>=)",
		width[1], "commit", "P(>=)");
	for (unsigned L = ABBREV_MIN_LEN; L <= last; L++) {
		fprintf(out, "%3u", L);
		for (int c = 0; c < 2; c++) {
			model_cell(buf, sizeof(buf), &r->sets[sets[c]], L);
			fprintf(out, "  %*s", width[c], buf);
			tail_cell(buf, sizeof(buf), &r->sets[sets[c]], L);
			if (c)
				fprintf(out, "  %s", buf);
			else
				fprintf(out, "  %-*s", twidth[c], buf);
		}
		fputc('\n', out);
	}
	fputs("(P(>=): the chance of at least the measured count if the IDs were\n"
	      " random, P(X >= measured) for X Poisson with the expected mean)\n", out);
}

/* "reachable from HEAD, <the other patterns>: 12 refs" */
static void print_reach(FILE *out, const abbrev_reach *reach)
{
	if (!reach)
		return;
	fputs("reachable from ", out);
	for (size_t i = 0; i < reach->npatterns; i++)
		fprintf(out, "%s%s", i ? ", " : "", reach->patterns[i]);
	fprintf(out, ": %zu ref%s", reach->refs, reach->refs == 1 ? "" : "s");
	if (reach->missing)
		fprintf(out, "; %zu missing object%s not counted", reach->missing,
			reach->missing == 1 ? "" : "s");
	fputc('\n', out);
}

int emit_report_text(FILE *out, const stats_report *r)
{
	const stats_set *all = &r->sets[ABBREV_SET_ALL];
	int width[ABBREV_SET_COUNT];
	unsigned last = r->cvo_last_len;
	char buf[64];

	for (size_t i = 0; i < r->nrepos; i++)
		fprintf(out, "%s%s", i ? " + " : "", r->repos[i]);
	fprintf(out, "%s%zu %s (%s):", r->nrepos ? ": " : "", all->count,
		emit_noun(all->count, "object", "objects"), r->hash ? r->hash : "unknown");
	for (int set = ABBREV_SET_COMMIT; set <= ABBREV_SET_TAG; set++)
		fprintf(out, "%s %zu %s%s", set > ABBREV_SET_COMMIT ? "," : "", r->sets[set].count,
			idset_name(set), r->sets[set].count == 1 ? "" : "s");
	fprintf(out, "; commit-ish %zu\n", r->sets[ABBREV_SET_COMMITISH].count);
	print_reach(out, r->reach);

	/* the table runs to the first length where every column is 0 */
	for (int c = 0; c < ABBREV_SET_COUNT; c++) {
		const stats_set *st = &r->sets[column_sets[c]];

		if (st->last_len > last)
			last = st->last_len;
		width[c] = (int)strlen(c ? idset_name(column_sets[c]) : "all objects");
		for (unsigned L = ABBREV_MIN_LEN; L <= st->last_len; L++) {
			cell(buf, sizeof(buf), st, L);
			if ((int)strlen(buf) > width[c])
				width[c] = (int)strlen(buf);
		}
	}

	fprintf(out, "\nlen");
	for (int c = 0; c < ABBREV_SET_COUNT; c++)
		fprintf(out, "  %*s", width[c], c ? idset_name(column_sets[c]) : "all objects");
	fprintf(out, "  commit~other\n");
	for (unsigned L = ABBREV_MIN_LEN; L <= last; L++) {
		fprintf(out, "%3u", L);
		for (int c = 0; c < ABBREV_SET_COUNT; c++) {
			cell(buf, sizeof(buf), &r->sets[column_sets[c]], L);
			fprintf(out, "  %*s", width[c], buf);
		}
		fprintf(out, "  %12zu\n", r->cvo[L]);
	}
	fputs(emit_text_legend, out);

	print_model(out, r);

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
	fprintf(out, "git's auto abbreviation for %zu objects: %u\n", all->count,
		r->git_auto_abbrev);

	print_groups(out, all, "all objects", r->rawsz, r->improbable);
	for (int set = ABBREV_SET_COMMIT; set <= ABBREV_SET_TAG; set++)
		print_groups(out, &r->sets[set], idset_name(set), r->rawsz, r->improbable);
	/* the commit-ish groups, when a tag makes them differ from the commits' */
	if (emit_groups_have_tag(&r->sets[ABBREV_SET_COMMITISH]))
		print_groups(out, &r->sets[ABBREV_SET_COMMITISH], "commit-ish", r->rawsz,
			     r->improbable);
	return ferror(out) ? -1 : 0;
}

int emit_check_text(FILE *out, const stats_check *c)
{
	const stats_set *f = &c->found;
	const char *what = c->set == ABBREV_SET_ALL ? "object" : idset_name(c->set);
	size_t nobj = f->objects[c->length], npre = f->prefixes[c->length];
	char hex[ABBREV_MAX_HEXSZ + 1];

	if (!f->ngroups) {
		if (c->against_all)
			fprintf(out, "no %s ID shares its first %u chars with another object "
				     "(%zu %s)\n", what, c->length, f->count,
				emit_noun(f->count, "object", "objects"));
		else
			fprintf(out, "no two %s IDs share their first %u chars (%zu %s)\n",
				what, c->length, f->count, emit_set_noun(c->set, f->count));
		print_reach(out, c->reach);
		return ferror(out) ? -1 : 0;
	}
	if (c->against_all)
		fprintf(out, "%s IDs share their first %u chars with other objects: "
			     "%zu %s in %zu %s (of %zu %s)\n",
			what, c->length, nobj, emit_noun(nobj, "object", "objects"), npre,
			emit_noun(npre, "prefix", "prefixes"), f->count,
			emit_noun(f->count, "object", "objects"));
	else
		fprintf(out, "%s IDs collide at %u chars: %zu %s in %zu %s (of %zu %s)\n",
			what, c->length, nobj, emit_set_noun(c->set, nobj), npre,
			emit_noun(npre, "prefix", "prefixes"), f->count,
			emit_set_noun(c->set, f->count));
	print_reach(out, c->reach);
	for (size_t g = 0; g < f->ngroups; g++) {
		const stats_group *gr = &f->groups[g];

		hexid_fmt(hex, f->member_ids + gr->first * c->rawsz, c->rawsz);
		fprintf(out, "\n%.*s\n", (int)c->length, hex);
		for (size_t i = 0; i < gr->n; i++) {
			fputs("  ", out);
			print_member(out, f, gr->first + i, c->rawsz);
		}
		print_improbable(out, f->count, gr->len, c->improbable);
	}
	return ferror(out) ? -1 : 0;
}
