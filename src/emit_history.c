/*
 * emit_history.c - `git abbrev history` as text and as JSON.
 *
 * The text answers two questions a policy discussion asks: when did each
 * length stop being unique for commits (and was that early or late for
 * random IDs?), and when will the next ones, at the repository's recent
 * growth?  It ends with one line meant to be quoted.
 */
#include <config.h>

#include "emit_history.h"

#include <jansson.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "emit.h"
#include "lacks.h"
#include "model.h"
#include "utf8.h"

void emit_history_date(char *buf, size_t n, int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if ((int64_t)tt != t || !gmtime_r(&tt, &tm) || tm.tm_year > 9999 - 1900 ||
	    tm.tm_year < 0 - 1900 || !strftime(buf, n, "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(buf, n, "-");
}

/* The same in ISO 8601 with a T and a Z, for JSON. */
static json_t *date_json(int64_t t)
{
	char buf[32];

	emit_history_date(buf, sizeof(buf), t);
	if (buf[0] == '-' && !buf[1])
		return json_null();
	buf[10] = 'T';
	strcat(buf, "Z");
	return json_string(buf);
}

/* 13021585 -> "13,021,585" */
static void fmt_count(char *buf, size_t n, double v)
{
	char digits[32];
	size_t len, o = 0;

	if (!(v < 1e15)) {
		snprintf(buf, n, "%.3g", v);
		return;
	}
	snprintf(digits, sizeof(digits), "%.0f", v);
	len = strlen(digits);
	for (size_t i = 0; i < len && o + 2 < n; i++) {
		if (i && (len - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
}

/* The calendar year of a date: "2031", "never", "1.2e+06". */
static void fmt_year(char *buf, size_t n, double t)
{
	double y;

	if (!isfinite(t)) {
		snprintf(buf, n, "never");
		return;
	}
	y = floor(projection_year(t));
	if (y < 1e6)
		snprintf(buf, n, "%.0f", y);
	else
		snprintf(buf, n, "%.2g", y);
}

/* The span the fit really covered, in years (shorter than asked in a young repository). */
static double window_span(const projection_results *p)
{
	double span = (double)(p->window_end - p->window_start) / PROJECTION_YEAR;

	return span < p->window_years ? span : p->window_years;
}

static void fmt_growth(char *buf, size_t n, const projection_fit *f)
{
	char num[48];

	if (f->kind == PROJECTION_FIT_EXP) {
		snprintf(buf, n, "%+.1f%%/year", 100.0 * expm1(f->growth));
	} else {
		fmt_count(num, sizeof(num), fabs(f->growth));
		snprintf(buf, n, "%s%s commits/year", f->growth < 0 ? "-" : "+", num);
	}
}

void emit_history_quote(char *buf, size_t n, const history_report *r)
{
	const projection_results *p = r->p;
	const projection_when *w;
	char growth[64], cy[32], oy[32], commits[96], objects[64];

	if (!n)
		return;
	buf[0] = '\0';
	if (!p || p->status != PROJECTION_OK)
		return;
	w = &p->p50[PROJECTION_QUOTE_LEN];
	fmt_growth(growth, sizeof(growth), &p->fits[p->chosen]);
	fmt_year(cy, sizeof(cy), w->commits_time);
	fmt_year(oy, sizeof(oy), w->objects_time);
	if (w->commits_reached)
		snprintf(commits, sizeof(commits), "passed a 50%% chance of a collision in %s", cy);
	else if (!isfinite(w->commits_time))
		snprintf(commits, sizeof(commits), "never reach a 50%% chance of a collision");
	else
		snprintf(commits, sizeof(commits), "reach a 50%% chance of a collision in %s", cy);
	if (w->objects_reached)
		snprintf(objects, sizeof(objects), "all objects passed it in %s", oy);
	else if (!isfinite(w->objects_time))
		snprintf(objects, sizeof(objects), "all objects never");
	else
		snprintf(objects, sizeof(objects), "all objects in %s", oy);
	snprintf(buf, n, "at the growth of the last %.3g years (%s fit, %s), %u-char commit IDs "
		 "%s; %s", window_span(p), projection_fit_name(p->fits[p->chosen].kind), growth,
		 PROJECTION_QUOTE_LEN, commits, objects);
}

/* The last not-yet length the text lists: while P now >= 1e-4, at least one. */
static unsigned text_not_yet_to(const history_results *h)
{
	unsigned maxL = (unsigned)(2 * h->rawsz), L = h->longest + 1;

	if (L < ABBREV_MIN_LEN)
		L = ABBREV_MIN_LEN;
	while (L + 1 <= maxL && L + 1 <= HISTORY_SHOW_TO && h->model[L + 1].p >= 1e-4)
		L++;
	return L > maxL ? maxL : L;
}

static void history_text(FILE *out, const history_results *h)
{
	char when[32], then[32], exp[64], expdate[32], a[ABBREV_MAX_HEXSZ + 1],
	     b[ABBREV_MAX_HEXSZ + 1];
	unsigned maxL = (unsigned)(2 * h->rawsz);

	fprintf(out, "when two commits first shared L hex chars (commits replayed in "
		     "committer-time order):\n");
	fprintf(out, "%3s  %-19s  %12s  %-26s  %10s  %s\n", "len", "first collision (UTC)",
		"commits then", "model expects (date)", "P(by then)", "pair");
	for (unsigned L = ABBREV_MIN_LEN; L <= h->longest; L++) {
		const history_first *f = &h->first[L];
		const history_model *m = &h->model[L];
		int width = (int)(f->shared + 1 > 12 ? f->shared + 1 : 12);

		if (width > (int)maxL)
			width = (int)maxL;
		emit_history_date(when, sizeof(when), f->time);
		fmt_count(then, sizeof(then), (double)f->commits_then);
		fmt_count(exp, sizeof(exp), round(m->expected_commits));
		if (m->expected_reached) {
			emit_history_date(expdate, sizeof(expdate), m->expected_time);
			expdate[10] = '\0';
			snprintf(exp + strlen(exp), sizeof(exp) - strlen(exp), " (%s)", expdate);
		}
		hexid_fmt(a, f->pair[0], h->rawsz);
		hexid_fmt(b, f->pair[1], h->rawsz);
		fprintf(out, "%3u  %-19s  %12s  %-26s  %10.2g  %.*s %.*s\n", L, when, then, exp,
			m->p, width, a, width, b);
	}
	if (h->longest < maxL) {
		for (unsigned L = h->longest + 1 < ABBREV_MIN_LEN ? ABBREV_MIN_LEN : h->longest + 1;
		     L <= text_not_yet_to(h); L++) {
			fmt_count(exp, sizeof(exp), round(h->model[L].expected_commits));
			fmt_count(then, sizeof(then), (double)h->commits);
			fprintf(out, "%3u  %-19s  %12s  %-26s  %10.2g  (P among all commits now)\n",
				L, "not yet", then, exp, h->model[L].p);
		}
	}
	fprintf(out, "(model: random IDs first collide at L after about sqrt(pi/2 * 16^L) of them;\n"
		     " P(by then): their chance to collide at L among that many commits, about\n"
		     " half above and half below 0.5 when IDs are random, tiny for a crafted pair)\n");
}

/* "in 2031", "passed in 2019", "never" */
static void when_phrase(char *buf, size_t n, double t, int reached)
{
	char y[24];

	fmt_year(y, sizeof(y), t);
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

	fmt_growth(growth, sizeof(growth), f);
	when_phrase(cy, sizeof(cy), w->commits_time, w->commits_reached);
	when_phrase(oy, sizeof(oy), w->objects_time, w->objects_reached);
	fprintf(out, "(with the %s fit instead, %s: %u-char commit IDs %s, all objects %s)\n",
		projection_fit_name(f->kind), growth, PROJECTION_QUOTE_LEN, cy, oy);
}

static void when_cell(char *buf, size_t n, double t, int reached)
{
	fmt_year(buf, n, t);
	if (reached)
		strncat(buf, " *", n - strlen(buf) - 1);
}

static void projection_text(FILE *out, const history_report *r)
{
	const projection_results *p = r->p;
	char from[32], to[32], growth[64], c[4][32], num[2][48], quote[512];

	if (p->status != PROJECTION_OK) {
		fprintf(out, "no projection: the commits span no time to fit a growth to\n");
		return;
	}
	emit_history_date(from, sizeof(from), p->window_start);
	emit_history_date(to, sizeof(to), p->window_end);
	from[10] = to[10] = '\0';
	fprintf(out, "growth of the commit count over the last %.3g years (%s .. %s, %zu samples):\n",
		window_span(p), from, to, p->nsamples);
	for (int i = 0; i < 2; i++) {
		const projection_fit *f = &p->fits[i];

		fmt_growth(growth, sizeof(growth), f);
		fprintf(out, "  %-12s %-22s RMS relative error %.2g%%%s\n",
			projection_fit_name(f->kind), growth, 100.0 * f->rms_rel,
			i == p->chosen ? "  <- used" : "");
	}
	fmt_count(num[0], sizeof(num[0]), (double)p->objects);
	fmt_count(num[1], sizeof(num[1]), (double)p->commits);
	fprintf(out, "objects per commit: %.2f (%s objects / %s commits)\n\n",
		p->objects_per_commit, num[0], num[1]);

	fprintf(out, "year in which a length passes P(collision) = 1%% and 50%% (%s fit):\n",
		projection_fit_name(p->fits[p->chosen].kind));
	fprintf(out, "%3s  %10s  %11s  %14s  %15s\n", "len", "commits 1%", "commits 50%",
		"all objects 1%", "all objects 50%");
	for (unsigned L = PROJECTION_FROM; L <= PROJECTION_TO; L++) {
		when_cell(c[0], sizeof(c[0]), p->p01[L].commits_time, p->p01[L].commits_reached);
		when_cell(c[1], sizeof(c[1]), p->p50[L].commits_time, p->p50[L].commits_reached);
		when_cell(c[2], sizeof(c[2]), p->p01[L].objects_time, p->p01[L].objects_reached);
		when_cell(c[3], sizeof(c[3]), p->p50[L].objects_time, p->p50[L].objects_reached);
		fprintf(out, "%3u  %10s  %11s  %14s  %15s\n", L, c[0], c[1], c[2], c[3]);
	}
	fprintf(out, "(* passed already, dated from the history; for all objects through the\n"
		     " objects-per-commit ratio)\n\n");

	emit_history_quote(quote, sizeof(quote), r);
	fprintf(out, "%s\n", quote);
	other_fit_text(out, p);
	fmt_year(c[0], sizeof(c[0]), p->horizon_time);
	fmt_count(num[0], sizeof(num[0]), ceil(p->commits_at_horizon));
	fmt_count(num[1], sizeof(num[1]), ceil(p->objects_at_horizon));
	fprintf(out, "safe until %s (P(collision) <= %g%%, at about %s commits and %s objects "
		     "then): ", c[0], 100.0 * p->target_p, num[0], num[1]);
	if (p->safe_commit_len > MODEL_MAX_LEN)
		fprintf(out, "commit IDs need more than %u chars", MODEL_MAX_LEN);
	else
		fprintf(out, "commit IDs need %u chars", p->safe_commit_len);
	if (p->safe_all_len > MODEL_MAX_LEN)
		fprintf(out, ", all objects more than %u\n", MODEL_MAX_LEN);
	else
		fprintf(out, ", all objects %u\n", p->safe_all_len);
}

int emit_history_text(FILE *out, const history_report *r)
{
	const history_results *h = r->h;
	char num[48], first[32], last[32];

	for (size_t i = 0; i < r->nrepos; i++)
		fprintf(out, "%s%s", i ? " + " : "", r->repos[i]);
	fmt_count(num, sizeof(num), (double)h->commits);
	fprintf(out, "%s%s commits (%s)", r->nrepos ? ": " : "", num,
		hexid_hash_name(h->rawsz) ? hexid_hash_name(h->rawsz) : "?");
	if (h->commits) {
		emit_history_date(first, sizeof(first), h->first_time);
		emit_history_date(last, sizeof(last), h->last_time);
		first[10] = last[10] = '\0';
		fprintf(out, ", committed %s .. %s", first, last);
	}
	fputc('\n', out);
	/* notes of a shallow or partial clone: on stderr (cmd_sets_notes) */
	fputc('\n', out);
	if (h->commits < 2) {
		fprintf(out, "fewer than two commits: no length has collided\n");
		return ferror(out) ? -1 : 0;
	}
	history_text(out, h);
	if (r->p) {
		fputc('\n', out);
		projection_text(out, r);
	}
	return ferror(out) ? -1 : 0;
}

/* A date as a decimal year, or null for never. */
static json_t *year_json(double t)
{
	return isfinite(t) ? json_real(projection_year(t)) : json_null();
}

static json_t *when_json(const projection_when *w)
{
	return json_pack("{s:I,s:o,s:b,s:o,s:b}", "capacity", (json_int_t)w->capacity,
			 "commits_year", year_json(w->commits_time),
			 "commits_reached", w->commits_reached,
			 "objects_year", year_json(w->objects_time),
			 "objects_reached", w->objects_reached);
}

static json_t *projection_json(const history_report *r)
{
	const projection_results *p = r->p;
	json_t *o, *lengths = json_object();
	char key[8], quote[512];

	if (!p || p->status != PROJECTION_OK) {
		json_decref(lengths);
		return json_null();
	}
	for (unsigned L = PROJECTION_FROM; L <= PROJECTION_TO; L++) {
		snprintf(key, sizeof(key), "%u", L);
		json_object_set_new(lengths, key, json_pack("{s:o,s:o}", "p01", when_json(&p->p01[L]),
							     "p50", when_json(&p->p50[L])));
	}
	emit_history_quote(quote, sizeof(quote), r);
	o = json_pack("{s:s,s:{s:f,s:f,s:I,s:I,s:I}}",
		      "fit", projection_fit_name(p->fits[p->chosen].kind),
		      "window", "years", p->window_years, "span_years", window_span(p),
		      "from", (json_int_t)p->window_start, "to", (json_int_t)p->window_end,
		      "samples", (json_int_t)p->nsamples);
	json_object_set_new(o, "fits", json_pack("{s:{s:f,s:f,s:f},s:{s:f,s:f}}",
		"exponential", "rate_per_year", p->fits[0].growth,
		"annual_growth", expm1(p->fits[0].growth),
		"rms_relative_error", p->fits[0].rms_rel,
		"linear", "commits_per_year", p->fits[1].growth,
		"rms_relative_error", p->fits[1].rms_rel));
	json_object_set_new(o, "other_fit", json_pack("{s:s,s:o,s:o}",
		"fit", projection_fit_name(p->fits[!p->chosen].kind),
		"commits_year", year_json(p->other_quote.commits_time),
		"objects_year", year_json(p->other_quote.objects_time)));
	json_object_set_new(o, "objects_per_commit", json_real(p->objects_per_commit));
	json_object_set_new(o, "lengths", lengths);
	json_object_set_new(o, "target_p", json_real(p->target_p));
	json_object_set_new(o, "horizon_years", json_real(p->horizon_years));
	json_object_set_new(o, "horizon_year", year_json(p->horizon_time));
	json_object_set_new(o, "commits_at_horizon", json_real(p->commits_at_horizon));
	json_object_set_new(o, "objects_at_horizon", json_real(p->objects_at_horizon));
	json_object_set_new(o, "safe_length", json_pack("{s:I,s:I}",
		"commit", (json_int_t)p->safe_commit_len, "all", (json_int_t)p->safe_all_len));
	json_object_set_new(o, "quote", json_string(quote));
	return o;
}

int emit_history_json(FILE *out, const history_report *r)
{
	const history_results *h = r->h;
	json_t *root, *repos = json_array(), *lengths = json_object(), *not_yet = json_object();
	char key[8], a[ABBREV_MAX_HEXSZ + 1], b[ABBREV_MAX_HEXSZ + 1];
	unsigned maxL = (unsigned)(2 * h->rawsz), to;
	int rc;

	for (size_t i = 0; i < r->nrepos; i++)
		json_array_append_new(repos, utf8_json(r->repos[i]));
	for (unsigned L = ABBREV_MIN_LEN; L <= h->longest; L++) {
		const history_first *f = &h->first[L];
		const history_model *m = &h->model[L];

		snprintf(key, sizeof(key), "%u", L);
		hexid_fmt(a, f->pair[0], h->rawsz);
		hexid_fmt(b, f->pair[1], h->rawsz);
		json_object_set_new(lengths, key, json_pack("{s:I,s:o,s:I,s:[s,s],s:I,s:f,s:o,s:f}",
			"first_collision", (json_int_t)f->time, "date", date_json(f->time),
			"commits_then", (json_int_t)f->commits_then, "pair", a, b,
			"shared", (json_int_t)f->shared,
			"expected_commits", m->expected_commits,
			"expected_date", m->expected_reached ? date_json(m->expected_time) : json_null(),
			"p_by_then", m->p));
	}
	to = HISTORY_SHOW_TO > h->longest + 1 ? HISTORY_SHOW_TO : h->longest + 1;
	for (unsigned L = h->longest + 1 < ABBREV_MIN_LEN ? ABBREV_MIN_LEN : h->longest + 1;
	     L <= to && L <= maxL; L++) {
		snprintf(key, sizeof(key), "%u", L);
		json_object_set_new(not_yet, key, json_pack("{s:f,s:f}",
			"expected_commits", h->model[L].expected_commits, "p_now", h->model[L].p));
	}
	root = json_pack("{s:I,s:I,s:s,s:o,s:I,s:I,s:o,s:I,s:o,s:o}",
			 "commits", (json_int_t)h->commits, "objects", (json_int_t)r->objects,
			 "hash", hexid_hash_name(h->rawsz) ? hexid_hash_name(h->rawsz) : "unknown",
			 "repositories", repos,
			 "first_commit", (json_int_t)h->first_time,
			 "last_commit", (json_int_t)h->last_time,
			 "lengths", lengths,
			 "unique_from", (json_int_t)(h->longest + 1 < ABBREV_MIN_LEN ? ABBREV_MIN_LEN
									: h->longest + 1),
			 "not_yet", not_yet,
			 "projection", projection_json(r));
	if (!root)
		return -1;
	rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_REAL_PRECISION(15));
	json_decref(root);
	if (rc || fputc('\n', out) == EOF)
		return -1;
	return ferror(out) ? -1 : 0;
}

int emit_history_supported(int format)
{
	return format == ABBREV_FORMAT_TEXT || format == ABBREV_FORMAT_JSON ||
	       format == ABBREV_FORMAT_CSV || format == ABBREV_FORMAT_MARKDOWN ||
	       format == ABBREV_FORMAT_SVG;
}

int emit_history(FILE *out, const history_report *r, int format)
{
	switch (format) {
	case ABBREV_FORMAT_TEXT:
		return emit_history_text(out, r);
	case ABBREV_FORMAT_JSON:
		return emit_history_json(out, r);
	case ABBREV_FORMAT_CSV:
		return emit_history_csv(out, r);
	case ABBREV_FORMAT_MARKDOWN:
		return emit_history_markdown(out, r);
	case ABBREV_FORMAT_SVG:
		return emit_history_svg(out, r);
	}
	return -1;
}
