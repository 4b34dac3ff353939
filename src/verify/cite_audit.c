/*
 * cite_audit.c - a reference's findings as one class; the tally of a
 * history by class and year (cite_audit.h).
 */
#include <config.h>

#include "cite_audit.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "grow.h"

static const struct {
	const char *name, *heading, *words;
} classes[CITE_C_COUNT] = {
	[CITE_C_OK] = { "ok", "ok", "ok: names its commit" },
	[CITE_C_AMBIGUOUS_TODAY] = { "ambiguous-today", "amb-n",
				     "unique when written, ambiguous today" },
	[CITE_C_SHORT] = { "short", "short", "names its commit, shorter than the minimum" },
	[CITE_C_AMBIGUOUS] = { "ambiguous", "amb-w", "ambiguous when written" },
	[CITE_C_WRONG_FOUND] = { "wrong-found", "wr-sb",
				 "wrong ID, its subject finds the commit" },
	[CITE_C_WRONG] = { "wrong", "wrong", "wrong ID, not found" },
	[CITE_C_NOT_COMMIT] = { "not-a-commit", "!cmt", "not a commit (tree, blob, tag)" },
	[CITE_C_SUBJECT] = { "subject-mismatch", "subj", "the subject is another commit's" },
	[CITE_C_NOT_ANCESTOR] = { "not-ancestor", "!anc",
				  "Fixes:/revert of a commit not in its history" },
	[CITE_C_FOREIGN] = { "another-project", "other", "another project's commit" },
};

const char *cite_class_name(int c)
{
	return c >= 0 && c < CITE_C_COUNT ? classes[c].name : "?";
}

const char *cite_class_heading(int c)
{
	return c >= 0 && c < CITE_C_COUNT ? classes[c].heading : "?";
}

const char *cite_class_words(int c)
{
	return c >= 0 && c < CITE_C_COUNT ? classes[c].words : "?";
}

int cite_class_wrong(int c)
{
	return c == CITE_C_WRONG_FOUND || c == CITE_C_WRONG || c == CITE_C_NOT_COMMIT;
}

/* Whether the resolver found the commit meant (a subject search, or the ID's). */
static int has_target(const cite_result *x)
{
	for (size_t i = 0; i < sizeof(x->target.id); i++)
		if (x->target.id[i])
			return 1;
	return 0;
}

int cite_classify(const cite_result *x)
{
	unsigned has = 0;

	if (!x)
		return CITE_C_OK;
	for (size_t i = 0; i < x->nf; i++)
		if (x->f[i].problem > 0 && x->f[i].problem < 32)
			has |= 1u << x->f[i].problem;
#define HAS(p) (has & (1u << (p)))
	if (HAS(CITE_P_NOT_HERE))
		return CITE_C_FOREIGN;
	if (HAS(CITE_P_UNKNOWN))
		return has_target(x) ? CITE_C_WRONG_FOUND : CITE_C_WRONG;
	if (HAS(CITE_P_NOT_COMMIT))
		return CITE_C_NOT_COMMIT;
	if (HAS(CITE_P_AMBIGUOUS))
		return CITE_C_AMBIGUOUS;
	if (HAS(CITE_P_SUBJECT))
		return CITE_C_SUBJECT;
	if (HAS(CITE_P_NOT_ANCESTOR))
		return CITE_C_NOT_ANCESTOR;
	if (HAS(CITE_P_AMBIGUOUS_LATER))
		return CITE_C_AMBIGUOUS_TODAY;
	if (HAS(CITE_P_SHORT))
		return CITE_C_SHORT;
#undef HAS
	return CITE_C_OK;
}

int cite_audit_year_of(int64_t time, int tz)
{
	time_t t = (time_t)(time + (int64_t)tz * 60);
	struct tm tm;

	if (!gmtime_r(&t, &tm))
		return 1970;
	return tm.tm_year + 1900;
}

double cite_audit_share(uint64_t n, uint64_t total)
{
	return total ? 100.0 * (double)n / (double)total : 0.0;
}

static size_t id_hash(const unsigned char *id)
{
	size_t h = 0;

	memcpy(&h, id, sizeof(h) < 8 ? sizeof(h) : 8);
	return h;
}

/* Count one citation of `id`; 0 or -1. */
static int cite(cite_audit *a, const unsigned char *id, const char *subject)
{
	size_t mask, i;

	if (2 * (a->ncited + 1) > a->ccited) {
		size_t cap = a->ccited ? 2 * a->ccited : 1024;
		cite_audit_cited *v = calloc(cap, sizeof(*v));

		if (!v)
			return -1;
		for (size_t k = 0; k < a->ccited; k++) {
			if (!a->cited[k].cites)
				continue;
			for (i = id_hash(a->cited[k].id) & (cap - 1); v[i].cites; i = (i + 1) & (cap - 1))
				;
			v[i] = a->cited[k];
		}
		free(a->cited);
		a->cited = v;
		a->ccited = cap;
	}
	mask = a->ccited - 1;
	for (i = id_hash(id) & mask; a->cited[i].cites; i = (i + 1) & mask) {
		if (!memcmp(a->cited[i].id, id, a->rawsz)) {
			a->cited[i].cites++;
			if (!a->cited[i].subject)
				a->cited[i].subject = subject;
			return 0;
		}
	}
	memcpy(a->cited[i].id, id, a->rawsz);
	a->cited[i].subject = subject;
	a->cited[i].cites = 1;
	a->ncited++;
	return 0;
}

static cite_audit_year *year_row(cite_audit *a, int year)
{
	size_t i = 0;
	cite_audit_year *v;

	while (i < a->nyears && a->years[i].year < year)
		i++;
	if (i < a->nyears && a->years[i].year == year)
		return &a->years[i];
	if (!(v = realloc(a->years, (a->nyears + 1) * sizeof(*v))))
		return NULL;
	a->years = v;
	memmove(v + i + 1, v + i, (a->nyears - i) * sizeof(*v));
	memset(&v[i], 0, sizeof(v[i]));
	v[i].year = year;
	a->nyears++;
	return &v[i];
}

static void written_id(char *out, const citation *ref)
{
	size_t n = ref->id_len < CITE_ID_MAX ? ref->id_len : CITE_ID_MAX;

	memcpy(out, ref->id, n);
	out[n] = '\0';
}

int cite_audit_add(cite_audit *a, const cite_list *l, const cite_results *res,
		   const unsigned char *citing, int year)
{
	cite_audit_year *y;

	a->commits++;
	if (!res->n)
		return 0; /* a year without references has no row */
	if (!(y = year_row(a, year)))
		return -1;
	for (size_t i = 0; i < res->n; i++) {
		const cite_result *x = &res->v[i];
		const citation *ref = &l->v[x->ref];
		int c = cite_classify(x);

		y->n[c]++;
		y->refs++;
		a->total[c]++;
		a->refs++;
		if (x->named && !x->repo && cite(a, x->commit.id, x->commit.subject))
			return -1;
		else if (!x->named && c == CITE_C_WRONG_FOUND &&
			 cite(a, x->target.id, x->target.subject))
			return -1;
		if (c == CITE_C_AMBIGUOUS || c == CITE_C_AMBIGUOUS_TODAY) {
			cite_audit_prefix *p;

			if (GROW(a->amb, a->camb, a->namb + 1, 64))
				return -1;
			p = &a->amb[a->namb++];
			memset(p, 0, sizeof(*p));
			written_id(p->written, ref);
			p->commits = c == CITE_C_AMBIGUOUS ? (x->ncands ? x->ncands : 1) : 1 + x->nlater;
			p->cites = 1;
			p->when_written = c == CITE_C_AMBIGUOUS;
		}
		if (cite_class_wrong(c)) {
			cite_audit_wrong *w;

			if (GROW(a->wrong, a->cwrong, a->nwrong + 1, 64))
				return -1;
			w = &a->wrong[a->nwrong++];
			memset(w, 0, sizeof(*w));
			written_id(w->written, ref);
			w->cls = c;
			w->found = has_target(x);
			if (w->found)
				memcpy(w->right, x->target.id, a->rawsz);
			memcpy(w->citing, citing, a->rawsz);
		}
	}
	return 0;
}

static int prefix_cmp(const void *pa, const void *pb)
{
	const cite_audit_prefix *a = pa, *b = pb;

	return strcmp(a->written, b->written);
}

int cite_audit_finish(cite_audit *a)
{
	size_t o = 0;

	if (a->namb > 1)
		qsort(a->amb, a->namb, sizeof(*a->amb), prefix_cmp);
	for (size_t i = 0; i < a->namb; i++) {
		if (o && !strcmp(a->amb[o - 1].written, a->amb[i].written)) {
			a->amb[o - 1].cites++;
			if (a->amb[i].commits > a->amb[o - 1].commits)
				a->amb[o - 1].commits = a->amb[i].commits;
			a->amb[o - 1].when_written |= a->amb[i].when_written;
			continue;
		}
		a->amb[o++] = a->amb[i];
	}
	a->namb = o;
	return 0;
}

static int cited_cmp(const void *pa, const void *pb)
{
	const cite_audit_cited *a = pa, *b = pb;

	if (a->cites != b->cites)
		return a->cites > b->cites ? -1 : 1;
	return memcmp(a->id, b->id, sizeof(a->id)); /* zero past rawsz */
}

size_t cite_audit_top(const cite_audit *a, cite_audit_cited *out, size_t max)
{
	size_t n = 0;

	/* keep the `max` best in out, sorted (max is small) */
	for (size_t i = 0; i < a->ccited; i++) {
		const cite_audit_cited *c = &a->cited[i];
		size_t k;

		if (!c->cites)
			continue;
		if (n == max && (!max || cited_cmp(c, &out[n - 1]) >= 0))
			continue;
		k = n < max ? n++ : n - 1;
		while (k && cited_cmp(c, &out[k - 1]) < 0) {
			out[k] = out[k - 1];
			k--;
		}
		out[k] = *c;
	}
	return n;
}

void cite_audit_clear(cite_audit *a)
{
	free(a->years);
	free(a->amb);
	free(a->wrong);
	free(a->cited);
	memset(a, 0, sizeof(*a));
}
