/*
 * emit_model.c - `git abbrev model` as text and as JSON.
 *
 * The text is for pasting into a policy discussion: one table per set,
 * the expected colliding objects / prefixes spelled like the report's
 * measured "objects / prefixes" so the two can be read side by side, and
 * a closing line with the shortest length at 50% and at 1%.
 */
#include <config.h>

#include "emit_model.h"

#include <jansson.h>
#include <limits.h>
#include <string.h>

#include "emit.h"
#include "stats.h"

#define NCOLS 6
#define CELL 48

static const char *const headers[NCOLS] = {
	"len", "expected pairs", "P(collision)", "expected objects / prefixes",
	"capacity P<=1%", "capacity P<=50%"
};

/* 13021585 -> "13,021,585"; from 10^15 on "1.23e+15" (no one counts those digits). */
static void fmt_count(char *buf, size_t n, uint64_t v)
{
	char digits[32];
	size_t len, o = 0;

	if (v >= 1000000000000000ULL) {
		snprintf(buf, n, "%.3g", (double)v);
		return;
	}
	snprintf(digits, sizeof(digits), "%llu", (unsigned long long)v);
	len = strlen(digits);
	for (size_t i = 0; i < len && o + 2 < n; i++) {
		if (i && (len - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
}

static void fmt_capacity(char *buf, size_t n, uint64_t exact, int saturated, double real)
{
	if (saturated)
		snprintf(buf, n, "%.3g", real);
	else
		fmt_count(buf, n, exact);
}

static void row_cells(char cells[NCOLS][CELL], const model_row *row, uint64_t n, unsigned L)
{
	snprintf(cells[0], CELL, "%u", L);
	snprintf(cells[1], CELL, "%.3g", row->expected_pairs);
	emit_fmt_p_collision(cells[2], CELL, row->p_collision, n, L, 3);
	snprintf(cells[3], CELL, "%.3g / %.3g", row->expected_objects, row->expected_prefixes);
	fmt_capacity(cells[4], CELL, row->cap_low, row->cap_low_sat, row->cap_low_real);
	fmt_capacity(cells[5], CELL, row->cap_high, row->cap_high_sat, row->cap_high_real);
}

static const char *set_title(const char *name)
{
	static const struct { const char *name, *title; } titles[] = {
		{ "all", "all objects" }, { "commit", "commits" }, { "tree", "trees" },
		{ "blob", "blobs" }, { "tag", "tags" },
	};

	for (size_t i = 0; i < sizeof(titles) / sizeof(titles[0]); i++)
		if (!strcmp(name, titles[i].name))
			return titles[i].title;
	return name;
}

static void print_min_length(FILE *out, uint64_t n, double p, const char *what)
{
	unsigned L = model_min_length(n, p);

	if (L > MODEL_MAX_LEN)
		fprintf(out, "%s beyond %u chars", what, MODEL_MAX_LEN);
	else
		fprintf(out, "%s from %u chars", what, L);
}

static void set_text(FILE *out, const model_set *s, unsigned from, unsigned to)
{
	char cells[NCOLS][CELL], num[CELL];
	int width[NCOLS];

	for (int c = 0; c < NCOLS; c++)
		width[c] = (int)strlen(headers[c]);
	for (unsigned L = from; L <= to; L++) {
		row_cells(cells, &s->rows[L], s->n, L);
		for (int c = 0; c < NCOLS; c++)
			if ((int)strlen(cells[c]) > width[c])
				width[c] = (int)strlen(cells[c]);
	}

	fmt_count(num, sizeof(num), s->n);
	fprintf(out, "%s: %s\n", set_title(s->name), num);
	for (int c = 0; c < NCOLS; c++)
		fprintf(out, "%s%*s", c ? "  " : "", width[c], headers[c]);
	fputc('\n', out);
	for (unsigned L = from; L <= to; L++) {
		row_cells(cells, &s->rows[L], s->n, L);
		for (int c = 0; c < NCOLS; c++)
			fprintf(out, "%s%*s", c ? "  " : "", width[c], cells[c]);
		fputc('\n', out);
	}
	print_min_length(out, s->n, MODEL_P_HIGH, "P(collision) <= 50%");
	print_min_length(out, s->n, MODEL_P_LOW, ", <= 1%");
	if (!strcmp(s->name, "all") && s->n <= SIZE_MAX)
		fprintf(out, "; git's auto abbreviation for %s objects: %u", num,
			stats_git_auto_abbrev((size_t)s->n));
	fputc('\n', out);
}

int emit_model_text(FILE *out, const model_results *r)
{
	for (size_t i = 0; i < r->nsets; i++) {
		set_text(out, &r->sets[i], r->from, r->to);
		fputc('\n', out);
	}
	fprintf(out, "(birthday model of n random IDs at L hex chars: E = n(n-1)/2 / 16^L\n"
		     " expected colliding pairs, P = 1 - exp(-E) the chance of any collision;\n"
		     " expected objects / prefixes compare with the report's measured ones;\n"
		     " capacity: the most IDs a length holds with P <= 1%% or <= 50%%)\n");
	return ferror(out) ? -1 : 0;
}

#if JSON_INTEGER_IS_LONG_LONG
#define JSON_INT_MAX LLONG_MAX
#else
#define JSON_INT_MAX LONG_MAX
#endif

/* An exact count as a JSON integer, or as a real when it is past json_int_t. */
static json_t *count_json(uint64_t v)
{
	if (v > (uint64_t)JSON_INT_MAX)
		return json_real((double)v);
	return json_integer((json_int_t)v);
}

static json_t *capacity_json(uint64_t exact, int saturated, double real)
{
	return saturated ? json_real(real) : count_json(exact);
}

static json_t *set_json(const model_set *s, unsigned from, unsigned to)
{
	json_t *o = json_object(), *lengths = json_object(), *cap = json_object();
	char key[8];

	json_object_set_new(o, "objects", count_json(s->n));
	for (unsigned L = from; L <= to; L++) {
		const model_row *row = &s->rows[L];

		snprintf(key, sizeof(key), "%u", L);
		json_object_set_new(lengths, key, json_pack("{s:f,s:f,s:f,s:f}",
			"expected_pairs", row->expected_pairs,
			"p_collision", row->p_collision,
			"expected_objects", row->expected_objects,
			"expected_prefixes", row->expected_prefixes));
		json_object_set_new(cap, key, json_pack("{s:o,s:o}",
			"p01", capacity_json(row->cap_low, row->cap_low_sat, row->cap_low_real),
			"p50", capacity_json(row->cap_high, row->cap_high_sat, row->cap_high_real)));
	}
	json_object_set_new(o, "lengths", lengths);
	json_object_set_new(o, "capacity", cap);
	return o;
}

int emit_model_json(FILE *out, const model_results *r)
{
	json_t *root;
	int rc;

	if (r->nsets == 1 && !strcmp(r->sets[0].name, "all")) {
		root = set_json(&r->sets[0], r->from, r->to);
	} else {
		json_t *sets = json_object();

		for (size_t i = 0; i < r->nsets; i++)
			json_object_set_new(sets, r->sets[i].name,
					    set_json(&r->sets[i], r->from, r->to));
		root = json_pack("{s:o}", "sets", sets);
	}
	if (!root)
		return -1;
	rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_REAL_PRECISION(15));
	json_decref(root);
	if (rc || fputc('\n', out) == EOF)
		return -1;
	return ferror(out) ? -1 : 0;
}
