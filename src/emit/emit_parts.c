/*
 * emit_parts.c - tables and sentences the emitters share (emit_parts.h).
 */
#include <config.h>

#include "emit_parts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "grow.h"
#include "idset.h"

void emit_table_init(emit_table *t, size_t ncols, const char *const *heads, const char *align)
{
	memset(t, 0, sizeof(*t));
	t->ncols = ncols < EMIT_TABLE_MAX_COLS ? ncols : EMIT_TABLE_MAX_COLS;
	for (size_t c = 0; c < t->ncols; c++) {
		t->head[c] = heads[c];
		t->left[c] = align && align[c] == 'l';
	}
}

void emit_table_clear(emit_table *t)
{
	free(t->cells);
	t->cells = NULL;
	t->nrows = t->cap = 0;
}

char (*emit_table_row(emit_table *t))[EMIT_TABLE_CELL]
{
	if (GROW(t->cells, t->cap, t->nrows + 1, 16)) {
		t->broken = 1;
		return NULL;
	}
	memset(t->cells[t->nrows], 0, sizeof(*t->cells));
	return t->cells[t->nrows++];
}

/* A new row of a table by length: its first cell is L ("12"); NULL when out of memory. */
static char (*length_row(emit_table *t, unsigned L))[EMIT_TABLE_CELL]
{
	char (*row)[EMIT_TABLE_CELL] = emit_table_row(t);

	if (row)
		snprintf(row[0], EMIT_TABLE_CELL, "%u", L);
	return row;
}

/* Display width: UTF-8 continuation bytes take no column. */
static size_t width_of(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static void widths(const emit_table *t, size_t *w)
{
	for (size_t c = 0; c < t->ncols; c++) {
		w[c] = width_of(t->head[c]);
		for (size_t r = 0; r < t->nrows; r++)
			if (width_of(t->cells[r][c]) > w[c])
				w[c] = width_of(t->cells[r][c]);
	}
}

size_t emit_table_text_width(const emit_table *t)
{
	size_t w[EMIT_TABLE_MAX_COLS], total = 0;

	widths(t, w);
	for (size_t c = 0; c < t->ncols; c++)
		total += w[c] + (c ? 2 : 0);
	return total;
}

static void text_line(FILE *out, const emit_table *t, const size_t *w, int indent,
		      const char *const *cells)
{
	size_t pending = 0; /* spaces owed before the next cell: no trailing blanks */

	fprintf(out, "%*s", indent, "");
	for (size_t c = 0; c < t->ncols; c++) {
		size_t pad = w[c] - width_of(cells[c]);

		if (c)
			pending += 2;
		if (!t->left[c])
			pending += pad;
		if (*cells[c]) {
			fprintf(out, "%*s%s", (int)pending, "", cells[c]);
			pending = 0;
		}
		if (t->left[c])
			pending += pad;
	}
	fputc('\n', out);
}

int emit_table_text(FILE *out, const emit_table *t, int indent)
{
	size_t w[EMIT_TABLE_MAX_COLS];
	const char *cells[EMIT_TABLE_MAX_COLS];

	if (t->broken)
		return -1;
	widths(t, w);
	text_line(out, t, w, indent, t->head);
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++)
			cells[c] = t->cells[r][c];
		text_line(out, t, w, indent, cells);
	}
	return ferror(out) ? -1 : 0;
}

/* A cell for a Markdown table: a | would end the cell, a ~ could strike text through. */
static void md_cell(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '|' || *s == '~')
			fputc('\\', out);
		fputc(*s, out);
	}
}

/* Whether a Markdown line starting with the word at w would be a block of its own. */
static int md_block_start(const char *w)
{
	const char *e = w;

	if (*w == '>' || *w == '|')
		return 1;
	if (*w && strchr("-+*=#", *w)) {
		while (*e == *w)
			e++;
		/* "- x", "# x", "## x"; a rule or setext line: "---", "===" */
		return *e == ' ' || !*e;
	}
	while (*e >= '0' && *e <= '9')
		e++;
	return e > w && (*e == '.' || *e == ')') && (e[1] == ' ' || !e[1]);
}

void emit_wrap(FILE *out, const char *s, size_t col, int indent, int markdown)
{
	while (*s) {
		const char *p = s, *cut = s;
		size_t w = col;

		/* the longest run of words that fits, at least one word */
		while (*p) {
			size_t ww = 0;
			const char *q = p;

			for (; *q && *q != ' '; q++)
				ww += ((unsigned char)*q & 0xc0) != 0x80;
			if (cut > s && w + ww > EMIT_WRAP_WIDTH && !(markdown && md_block_start(p)))
				break;
			w += ww + 1;
			cut = q;
			p = *q ? q + 1 : q;
		}
		fprintf(out, "%.*s\n", (int)(cut - s), s);
		for (s = cut; *s == ' '; s++)
			;
		if (*s) {
			fprintf(out, "%*s", indent, "");
			col = (size_t)indent;
		}
	}
}

int emit_table_markdown(FILE *out, const emit_table *t)
{
	if (t->broken)
		return -1;
	fputc('|', out);
	for (size_t c = 0; c < t->ncols; c++) {
		fputc(' ', out);
		md_cell(out, t->head[c]);
		fputs(" |", out);
	}
	fputs("\n|", out);
	for (size_t c = 0; c < t->ncols; c++)
		fputs(t->left[c] ? "---|" : "---:|", out);
	fputc('\n', out);
	for (size_t r = 0; r < t->nrows; r++) {
		fputc('|', out);
		for (size_t c = 0; c < t->ncols; c++) {
			fputc(' ', out);
			md_cell(out, t->cells[r][c]);
			fputs(" |", out);
		}
		fputc('\n', out);
	}
	return ferror(out) ? -1 : 0;
}

const char *emit_noun(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

const char *emit_set_noun(int set, size_t n)
{
	static const char *const nouns[ABBREV_SET_COUNT][2] = {
		[ABBREV_SET_ALL] = { "object", "objects" },
		[ABBREV_SET_COMMIT] = { "commit", "commits" },
		[ABBREV_SET_TREE] = { "tree", "trees" },
		[ABBREV_SET_BLOB] = { "blob", "blobs" },
		[ABBREV_SET_TAG] = { "tag", "tags" },
		[ABBREV_SET_COMMITISH] = { "commit-ish ID", "commit-ish IDs" },
	};

	if (set < 0 || set >= ABBREV_SET_COUNT)
		set = ABBREV_SET_ALL;
	return nouns[set][n != 1];
}

int emit_groups_have_tag(const stats_set *st)
{
	for (size_t m = 0; m < st->nmembers; m++)
		if (st->member_types[m] == ABBREV_TYPE_TAG)
			return 1;
	return 0;
}

void emit_fmt_p(char *buf, size_t n, double p, int digits)
{
	snprintf(buf, n, "%.*g", digits, p);
	if (p < 1 && strtod(buf, NULL) >= 1) {
		size_t o = (size_t)snprintf(buf, n, "> 0.");

		for (int i = 0; i < digits && o + 1 < n; i++)
			buf[o++] = '9';
		buf[o < n ? o : n - 1] = '\0';
	}
}

void emit_fmt_p_collision(char *buf, size_t n, double p, uint64_t count, unsigned L, int digits)
{
	int certain = 4 * L < 64 && count > ((uint64_t)1 << (4 * L));

	emit_fmt_p(buf, n, p >= 1 && !certain ? nextafter(1.0, 0.0) : p, digits);
}

const char *emit_set_title(const char *name)
{
	static const struct { const char *name, *title; } titles[] = {
		{ "all", "all objects" }, { "commit", "commits" }, { "tree", "trees" },
		{ "blob", "blobs" }, { "tag", "tags" }, { "commit-ish", "commit-ish" },
	};

	for (size_t i = 0; i < sizeof(titles) / sizeof(titles[0]); i++)
		if (!strcmp(name, titles[i].name))
			return titles[i].title;
	return name;
}

const char *emit_lacks_note(unsigned lacks, int i)
{
	static const struct {
		unsigned flag;
		const char *note;
	} notes[] = {
		{ ABBREV_LACKS_SHALLOW, "a shallow clone: commits past its boundary, and the trees "
				      "and blobs only they use, are missing" },
		{ ABBREV_LACKS_PARTIAL, "a partial clone: objects the server filtered out are "
				      "missing until fetched" },
	};

	for (size_t k = 0; k < sizeof(notes) / sizeof(notes[0]); k++)
		if ((lacks & notes[k].flag) && i-- == 0)
			return notes[k].note;
	return NULL;
}

void emit_reach_patterns(char *buf, size_t n, const abbrev_reach *reach, const char *sep)
{
	size_t o = 0;

	if (!n)
		return;
	buf[0] = '\0';
	for (size_t i = 0; reach && i < reach->npatterns && o < n; i++)
		o += (size_t)snprintf(buf + o, n - o, "%s%s", i ? sep : "", reach->patterns[i]);
}

void emit_reach_counts(char *buf, size_t n, const abbrev_reach *reach)
{
	char refs[32], missing[32];
	int o;

	if (!n)
		return;
	buf[0] = '\0';
	if (!reach)
		return;
	fmt_count(refs, sizeof(refs), (double)reach->refs);
	o = snprintf(buf, n, ": %s %s", refs, emit_noun(reach->refs, "ref", "refs"));
	if (reach->missing && o >= 0 && (size_t)o < n) {
		fmt_count(missing, sizeof(missing), (double)reach->missing);
		snprintf(buf + o, n - (size_t)o, "; %s missing %s not counted", missing,
			 emit_noun(reach->missing, "object", "objects"));
	}
}

void emit_repos_joined(char *buf, size_t n, const char *const *repos, size_t nrepos)
{
	size_t o = 0;

	if (!n)
		return;
	buf[0] = '\0';
	for (size_t i = 0; i < nrepos && o < n; i++)
		o += (size_t)snprintf(buf + o, n - o, "%s%s", i ? " + " : "", repos[i]);
}

void emit_repo_name(char *buf, size_t n, const char *path)
{
	size_t len = strlen(path), start;

	if (!n)
		return;
	while (len > 1 && path[len - 1] == '/')
		len--;
	if (len > 5 && !strncmp(path + len - 5, "/.git", 5))
		len -= 5;
	while (len > 1 && path[len - 1] == '/')
		len--;
	start = len;
	while (start > 0 && path[start - 1] != '/')
		start--;
	if (len - start > 4 && !strncmp(path + len - 4, ".git", 4))
		len -= 4;
	if (len <= start || (len - start == 1 && path[start] == '.'))
		snprintf(buf, n, "%s", path);
	else
		snprintf(buf, n, "%.*s", (int)(len - start), path + start);
}

void emit_repo_names(char *buf, size_t n, const char *const *repos, size_t nrepos, size_t max)
{
	char name[256];
	size_t len;

	if (!n)
		return;
	buf[0] = '\0';
	for (size_t i = 0; i < nrepos; i++) {
		emit_repo_name(name, sizeof(name), repos[i]);
		if (i)
			strncat(buf, " + ", n - strlen(buf) - 1);
		strncat(buf, name, n - strlen(buf) - 1);
	}
	len = strlen(buf);
	if (max > 3 && len > max) {
		const char *tail = buf + len - (max - 3);

		/* start at a character, not inside a UTF-8 sequence */
		while (((unsigned char)*tail & 0xc0) == 0x80)
			tail++;
		memmove(buf + 3, tail, strlen(tail) + 1);
		memcpy(buf, "...", 3);
	}
}

void emit_projection_none(char *buf, size_t n, const projection_results *p)
{
	char from[32], to[32], span[48];
	double days = (double)(p->window_end - p->window_start) / 86400.0;

	if (p->status != PROJECTION_TOO_SHORT) {
		snprintf(buf, n, "the commits span no time to fit a growth to");
		return;
	}
	fmt_day(from, sizeof(from), p->window_start, p->zone);
	fmt_day(to, sizeof(to), p->window_end, p->zone);
	if (days < 1)
		snprintf(span, sizeof(span), "less than a day");
	else if (days < 61)
		snprintf(span, sizeof(span), "%.0f %s", floor(days), floor(days) < 2 ? "day" : "days");
	else
		snprintf(span, sizeof(span), "%.0f months", floor(days / 30.436875));
	/* PROJECTION_MIN_SPAN_YEARS */
	snprintf(buf, n, "the history spans %s (%s .. %s), less than the year a growth is "
		 "projected from", span, from, to);
}

double emit_window_span(const projection_results *p)
{
	double span = (double)(p->window_end - p->window_start) / PROJECTION_YEAR;

	return span < p->window_years ? span : p->window_years;
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
	fmt_growth(growth, sizeof(growth), p->fits[p->chosen].kind == PROJECTION_FIT_EXP,
		   p->fits[p->chosen].growth);
	fmt_year(cy, sizeof(cy), w->commits_time, w->commits_tz);
	fmt_year(oy, sizeof(oy), w->objects_time, w->objects_tz);
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
		 "%s; %s", emit_window_span(p), projection_fit_name(p->fits[p->chosen].kind), growth,
		 PROJECTION_QUOTE_LEN, commits, objects);
}

void emit_history_counts(char *buf, size_t n, const history_results *h)
{
	char num[48], first[32], last[32];
	const char *hash = hexid_hash_name(h->rawsz);
	int o;

	fmt_count(num, sizeof(num), (double)h->commits);
	o = snprintf(buf, n, "%s %s (%s)", num, emit_noun(h->commits, "commit", "commits"),
		     hash ? hash : "unknown");
	if (h->commits && o >= 0 && (size_t)o < n) {
		fmt_day(first, sizeof(first), h->first_time, h->first_tz);
		fmt_day(last, sizeof(last), h->last_time, h->last_tz);
		snprintf(buf + o, n - (size_t)o, ", committed %s .. %s", first, last);
	}
}

void emit_history_pair(char *buf, size_t n, const history_results *h, unsigned L, int markdown)
{
	const history_first *f = &h->first[L];
	char a[ABBREV_MAX_HEXSZ + 1], b[ABBREV_MAX_HEXSZ + 1];
	const char *q = markdown ? "`" : "";
	/* one char past the shared ones, and no fewer than 10 */
	int width = (int)(f->shared + 1 > 10 ? f->shared + 1 : 10);

	if (width > (int)(2 * h->rawsz))
		width = (int)(2 * h->rawsz);
	hexid_fmt(a, f->pair[0], h->rawsz);
	hexid_fmt(b, f->pair[1], h->rawsz);
	snprintf(buf, n, "%s%.*s%s %s%.*s%s", q, width, a, q, q, width, b, q);
}

unsigned emit_history_not_yet_to(const history_results *h)
{
	unsigned maxL = (unsigned)(2 * h->rawsz), L = h->longest + 1;

	if (L < ABBREV_MIN_LEN)
		L = ABBREV_MIN_LEN;
	while (L + 1 <= maxL && L + 1 <= HISTORY_SHOW_TO && h->model[L + 1].p >= 1e-4)
		L++;
	return L > maxL ? maxL : L;
}

/* ---- tables the text and Markdown emitters both print ------------------ */

int emit_history_first_table(emit_table *t, const history_results *h, int markdown)
{
	static const char *const heads[] = {
		"len", "collided", "commits", "expected (date)", "P then", "pair"
	};
	unsigned maxL = (unsigned)(2 * h->rawsz);
	char day[16];

	/* Markdown: the pairs under the table, whose rows then fit a mail */
	emit_table_init(t, markdown ? 5 : 6, heads, "rlrrrl");
	for (unsigned L = ABBREV_MIN_LEN; L <= h->longest; L++) {
		const history_first *f = &h->first[L];
		const history_model *m = &h->model[L];
		char (*row)[EMIT_TABLE_CELL] = length_row(t, L);
		size_t o;

		if (!row)
			return -1;
		fmt_day(row[1], EMIT_TABLE_CELL, f->time, f->pair_tz[1]);
		fmt_count(row[2], EMIT_TABLE_CELL, (double)f->commits_then);
		fmt_count(row[3], EMIT_TABLE_CELL, round(m->expected_commits));
		if (m->expected_reached) {
			fmt_day(day, sizeof(day), m->expected_time, m->expected_tz);
			o = strlen(row[3]);
			snprintf(row[3] + o, EMIT_TABLE_CELL - o, " (%s)", day);
		}
		emit_fmt_p_collision(row[4], EMIT_TABLE_CELL, m->p, f->commits_then, L, 2);
		if (!markdown)
			emit_history_pair(row[5], EMIT_TABLE_CELL, h, L, 0);
	}
	if (h->longest >= maxL)
		return 0;
	for (unsigned L = h->longest + 1 < ABBREV_MIN_LEN ? ABBREV_MIN_LEN : h->longest + 1;
	     L <= emit_history_not_yet_to(h); L++) {
		char (*row)[EMIT_TABLE_CELL] = length_row(t, L);

		if (!row)
			return -1;
		snprintf(row[1], EMIT_TABLE_CELL, "not yet");
		fmt_count(row[2], EMIT_TABLE_CELL, (double)h->commits);
		fmt_count(row[3], EMIT_TABLE_CELL, round(h->model[L].expected_commits));
		emit_fmt_p_collision(row[4], EMIT_TABLE_CELL, h->model[L].p, h->commits, L, 2);
	}
	return 0;
}

int emit_report_shown(const stats_report *r, int set)
{
	if (set == ABBREV_SET_COMMITISH)
		set = ABBREV_SET_TAG;
	return set == ABBREV_SET_ALL || set == ABBREV_SET_COMMIT || r->sets[set].count > 0;
}

unsigned emit_report_last_len(const stats_report *r)
{
	unsigned last = r->cvo_last_len;

	for (int set = 0; set < ABBREV_SET_COUNT; set++)
		if (r->sets[set].last_len > last)
			last = r->sets[set].last_len;
	return last;
}

/* "849,011 / 65,533": colliding objects / colliding prefixes */
static void pair_cell(char *buf, size_t n, const stats_set *st, unsigned L)
{
	char a[32], b[32];

	fmt_count(a, sizeof(a), (double)st->objects[L]);
	fmt_count(b, sizeof(b), (double)st->prefixes[L]);
	snprintf(buf, n, "%s / %s", a, b);
}

/* One row per length: the length, the given sets' pair cells, commit~other if asked. */
static int sets_rows(emit_table *t, const stats_report *r, const int *sets, size_t nsets,
		     int with_cvo)
{
	unsigned last = emit_report_last_len(r);

	for (unsigned L = ABBREV_MIN_LEN; L <= last; L++) {
		char (*row)[EMIT_TABLE_CELL] = length_row(t, L);
		size_t c = 1;

		if (!row)
			return -1;
		for (size_t i = 0; i < nsets; i++)
			pair_cell(row[c++], EMIT_TABLE_CELL, &r->sets[sets[i]], L);
		if (with_cvo)
			fmt_count(row[c], EMIT_TABLE_CELL, L <= r->cvo_last_len ? (double)r->cvo[L] : 0);
	}
	return 0;
}

/* A table of the candidates that have a column (emit_report_shown), commit~other last if asked. */
static int shown_sets_table(emit_table *t, const stats_report *r, const int *cands, int with_cvo)
{
	const char *heads[EMIT_TABLE_MAX_COLS] = { "len" };
	int sets[3];
	size_t n = 0;

	for (size_t i = 0; i < 3; i++)
		if (emit_report_shown(r, cands[i])) {
			sets[n++] = cands[i];
			heads[n] = emit_set_title(idset_name(cands[i]));
		}
	if (with_cvo)
		heads[n + 1] = "commit~other";
	emit_table_init(t, n + 1 + (with_cvo != 0), heads, NULL);
	return sets_rows(t, r, sets, n, with_cvo);
}

int emit_report_sets_table(emit_table *t, const stats_report *r)
{
	static const int sets[] = { ABBREV_SET_ALL, ABBREV_SET_COMMIT, ABBREV_SET_COMMITISH };

	return shown_sets_table(t, r, sets, 0);
}

int emit_report_types_table(emit_table *t, const stats_report *r)
{
	static const int types[] = { ABBREV_SET_TREE, ABBREV_SET_BLOB, ABBREV_SET_TAG };

	return shown_sets_table(t, r, types, 1);
}

void emit_report_counts(char *buf, size_t n, const stats_report *r)
{
	char num[32];
	size_t o = 0;

	if (!n)
		return;
	buf[0] = '\0';
	for (int set = ABBREV_SET_COMMIT; set <= ABBREV_SET_TAG && o < n; set++) {
		fmt_count(num, sizeof(num), (double)r->sets[set].count);
		o += (size_t)snprintf(buf + o, n - o, "%s%s %s", set > ABBREV_SET_COMMIT ? ", " : "",
				      num, emit_set_noun(set, r->sets[set].count));
	}
	fmt_count(num, sizeof(num), (double)r->sets[ABBREV_SET_COMMITISH].count);
	if (o < n)
		snprintf(buf + o, n - o, "; %s commit-ish", num);
}

/*
 * The chance that random IDs give at least as many colliding prefixes as
 * measured (a one-sided Poisson tail, "0.043" for 93 against 77.1); ""
 * where the model expects none, "-" where none was measured.
 */
static void tail_cell(char *buf, size_t n, const stats_set *st, unsigned L)
{
	double e = st->model[L].expected_prefixes;

	if (!(e > 0))
		buf[0] = '\0';
	else if (!st->prefixes[L]) /* P(X >= 0) is 1 whatever the model: nothing to weigh */
		snprintf(buf, n, "-");
	else
		emit_fmt_p(buf, n, st->p_prefixes[L], 2);
}

int emit_report_model_table(emit_table *t, const stats_report *r)
{
	static const char *const heads[] = { "len", "all objects", "P(>=)", "commits", "P(>=)" };
	static const int sets[] = { ABBREV_SET_ALL, ABBREV_SET_COMMIT };
	unsigned last = ABBREV_MIN_LEN;

	for (int i = 0; i < 2; i++)
		if (r->sets[sets[i]].last_len > last)
			last = r->sets[sets[i]].last_len;
	emit_table_init(t, 5, heads, "rrlrl");
	for (unsigned L = ABBREV_MIN_LEN; L <= last; L++) {
		char (*row)[EMIT_TABLE_CELL] = length_row(t, L);

		if (!row)
			return -1;
		for (int i = 0; i < 2; i++) {
			const stats_set *st = &r->sets[sets[i]];
			char m[32], e[32];

			fmt_count(m, sizeof(m), (double)st->prefixes[L]);
			fmt_expected(e, sizeof(e), st->model[L].expected_prefixes);
			snprintf(row[1 + 2 * i], EMIT_TABLE_CELL, "%s / %s", m, e);
			tail_cell(row[2 + 2 * i], EMIT_TABLE_CELL, st, L);
		}
	}
	return 0;
}

/* A projected year, marked when it is already passed (then in the commit's zone tz). */
static void year_cell(char *buf, size_t n, double t, int tz, int reached, int markdown)
{
	fmt_year(buf, n, t, tz);
	if (reached && isfinite(t))
		strncat(buf, markdown ? " \\*" : " *", n - strlen(buf) - 1);
}

int emit_history_years_table(emit_table *t, const projection_results *p, int markdown)
{
	static const char *const heads[] = {
		"len", "commits 1%", "commits 50%", "all objects 1%", "all objects 50%"
	};

	emit_table_init(t, 5, heads, "rrrrr");
	for (unsigned L = PROJECTION_FROM; L <= PROJECTION_TO; L++) {
		char (*row)[EMIT_TABLE_CELL] = length_row(t, L);

		if (!row)
			return -1;
		year_cell(row[1], EMIT_TABLE_CELL, p->p01[L].commits_time, p->p01[L].commits_tz,
			  p->p01[L].commits_reached,
			  markdown);
		year_cell(row[2], EMIT_TABLE_CELL, p->p50[L].commits_time, p->p50[L].commits_tz,
			  p->p50[L].commits_reached,
			  markdown);
		year_cell(row[3], EMIT_TABLE_CELL, p->p01[L].objects_time, p->p01[L].objects_tz,
			  p->p01[L].objects_reached,
			  markdown);
		year_cell(row[4], EMIT_TABLE_CELL, p->p50[L].objects_time, p->p50[L].objects_tz,
			  p->p50[L].objects_reached,
			  markdown);
	}
	return 0;
}

/* ---- backtest ----------------------------------------------------------- */

/* "2012-08": the month of a grid date (the grid is years apart, the day adds nothing) */
static void month_cell(char *buf, size_t n, int64_t t, int tz)
{
	char day[32];

	fmt_day(day, sizeof(day), t, tz);
	snprintf(buf, n, "%.7s", day);
}

/*
 * A count short enough for the table: as fmt_count() below 10,000, else
 * three significant digits and k, M, G, T, P or E, rounded down (way < 0),
 * to nearest (0) or up (> 0), so that a range stays a range: "64.8k",
 * "1.05M".  The JSON has every number whole.
 */
static void short_count(char *buf, size_t n, double v, int way)
{
	static const char suffix[] = "kMGTPE";
	double scale = 1e3;
	int i = 0;

	if (!(v >= 10000) || !isfinite(v)) {
		fmt_count(buf, n, way < 0 ? floor(v) : way > 0 ? ceil(v) : round(v));
		return;
	}
	while (i + 1 < (int)sizeof(suffix) - 1 && v >= scale * 999.5)
		scale *= 1e3, i++;
	{
		double x = v / scale, digits = x < 100 ? (x < 10 ? 100 : 10) : 1;

		x = way < 0 ? floor(x * digits) : way > 0 ? ceil(x * digits) : round(x * digits);
		x /= digits;
		if (x >= 1000 && i + 1 < (int)sizeof(suffix) - 1) { /* 999.96k rounds up to 1.00M */
			x /= 1000;
			i++;
			digits = 100;
		}
		snprintf(buf, n, "%.*f%c", digits >= 100 ? 2 : digits >= 10 ? 1 : 0, x, suffix[i]);
	}
}

int emit_backtest_table(emit_table *t, const backtest_results *b, int markdown)
{
	static const char *const heads[] = {
		"cut-off", "date", "fitted", "commits", "len", "predicted", "99% range", "measured"
	};

	emit_table_init(t, 8, heads, "llrrrrrr");
	for (size_t i = 0; i < b->nrows; i++) {
		const backtest_row *r = &b->rows[i];
		int first_of_cut = !i || b->rows[i - 1].cut != r->cut;

		for (size_t j = 0; j < b->nlens; j++) {
			const backtest_cell *c = &r->len[j];
			char (*row)[EMIT_TABLE_CELL] = emit_table_row(t);
			char lo[32], hi[32];

			if (!row)
				return -1;
			if (!j && first_of_cut)
				month_cell(row[0], EMIT_TABLE_CELL, b->dates[r->cut], b->zone);
			if (!j) {
				month_cell(row[1], EMIT_TABLE_CELL, b->dates[r->at], b->zone);
				short_count(row[2], EMIT_TABLE_CELL, r->commits_fit, 0);
				fmt_count(row[3], EMIT_TABLE_CELL, (double)r->commits);
			}
			snprintf(row[4], EMIT_TABLE_CELL, "%u", b->lens[j]);
			if (c->expected >= 10000)
				short_count(row[5], EMIT_TABLE_CELL, c->expected, 0);
			else
				fmt_sig(row[5], EMIT_TABLE_CELL, c->expected, 3);
			short_count(lo, sizeof(lo), (double)c->lo, -1);
			short_count(hi, sizeof(hi), (double)c->hi, 1);
			snprintf(row[6], EMIT_TABLE_CELL, "%s..%s", lo, hi);
			fmt_count(lo, sizeof(lo), (double)c->measured);
			snprintf(row[7], EMIT_TABLE_CELL, "%s%s", lo,
				 c->hit ? "" : markdown ? " \\*" : " *");
		}
	}
	return 0;
}

int emit_backtest_end_table(emit_table *t, const backtest_results *b, int markdown)
{
	static const char *const fixed[] = { "cut-off", "fit", "commits" };
	static char heads[BACKTEST_MAX_LENS][16];
	const char *h[3 + BACKTEST_MAX_LENS];
	char align[3 + BACKTEST_MAX_LENS + 1] = "llr";
	const backtest_row *last = NULL;
	char (*row)[EMIT_TABLE_CELL];

	for (size_t i = 0; i < 3; i++)
		h[i] = fixed[i];
	for (size_t j = 0; j < b->nlens; j++) {
		snprintf(heads[j], sizeof(heads[j]), "%u chars", b->lens[j]);
		h[3 + j] = heads[j];
		align[3 + j] = 'r';
	}
	align[3 + b->nlens] = '\0';
	emit_table_init(t, 3 + b->nlens, h, align);
	for (size_t i = 0; i < b->nrows; i++) {
		const backtest_row *r = &b->rows[i];

		if (r->at + 1 != b->ndates)
			continue;
		last = r;
		if (!(row = emit_table_row(t)))
			return -1;
		month_cell(row[0], EMIT_TABLE_CELL, b->dates[r->cut], b->zone);
		snprintf(row[1], EMIT_TABLE_CELL, "%s", projection_fit_name(b->cuts[r->cut].kind));
		short_count(row[2], EMIT_TABLE_CELL, r->commits_fit, 0);
		for (size_t j = 0; j < b->nlens; j++) {
			const backtest_cell *c = &r->len[j];
			char e[32];

			if (c->expected >= 10000)
				short_count(e, sizeof(e), c->expected, 0);
			else
				fmt_sig(e, sizeof(e), c->expected, 3);
			snprintf(row[3 + j], EMIT_TABLE_CELL, "%s%s", e,
				 c->hit ? "" : markdown ? " \\*" : " *");
		}
	}
	if (!last)
		return 0;
	if (!(row = emit_table_row(t)))
		return -1;
	snprintf(row[0], EMIT_TABLE_CELL, "measured");
	fmt_count(row[2], EMIT_TABLE_CELL, (double)last->commits);
	for (size_t j = 0; j < b->nlens; j++)
		fmt_count(row[3 + j], EMIT_TABLE_CELL, (double)last->len[j].measured);
	return 0;
}

void emit_backtest_end_intro(char *buf, size_t n, const backtest_results *b)
{
	char day[32];

	if (!b->nrows) {
		emit_backtest_intro(buf, n, b);
		return;
	}
	fmt_day(day, sizeof(day), b->dates[b->ndates - 1], b->zone);
	snprintf(buf, n, "track record: what the history's fit made at cut-offs %.3g years "
		 "apart back from the newest commit, on the commits dated up to each, predicted for the "
		 "newest commit's date (%s): the commit count and the colliding prefixes among "
		 "commits (history --backtest has every date); * outside the 99%% Poisson range of "
		 "the prediction:", b->step_years, day);
}

void emit_backtest_intro(char *buf, size_t n, const backtest_results *b)
{
	char fit[64];

	if (!b->nrows) {
		snprintf(buf, n, "backtest: none, the history holds no cut-off %.3g years before its "
			 "newest commit with a year of commits before it%s", b->step_years,
			 b->nlens ? "" : " (or no length to predict)");
		return;
	}
	if (b->fit == PROJECTION_FIT_AUTO)
		snprintf(fit, sizeof(fit), "the better of the two fits");
	else
		snprintf(fit, sizeof(fit), "the %s fit", projection_fit_name(b->fit));
	snprintf(buf, n, "backtest: at each cut-off, %.3g years apart back from the newest commit, "
		 "the growth fitted to the commits dated up to it (%s over %.3g years) "
		 "predicts the commit count of each later date and the birthday model the "
		 "colliding prefixes among that many commits; measured: what the commits dated up "
		 "to that date held:", b->step_years, fit, b->window_years);
}

void emit_backtest_summary(char *buf, size_t n, const backtest_results *b)
{
	char pct[32];
	size_t used;

	fmt_sig(pct, sizeof(pct), b->cells ? 100.0 * (double)b->hits / (double)b->cells : 0, 3);
	used = (size_t)snprintf(buf, n, "hit rate: %zu of %zu predictions (%s%%) inside their 99%% "
				"Poisson range", b->hits, b->cells, pct);
	for (size_t j = 0; j < b->nlens && used < n; j++)
		used += (size_t)snprintf(buf + used, n - used, "%s%u chars %zu of %zu",
					 j ? ", " : "; ", b->lens[j], b->len_hits[j], b->len_cells[j]);
}

/* ---- policy ------------------------------------------------------------- */

void emit_policy_when(char *buf, size_t n, const policy_when *w, const policy_results *r,
		      int markdown)
{
	char y[32];

	switch (w->state) {
	case POLICY_WHEN_PASSED:
		if (isnan(w->time))
			snprintf(buf, n, "passed");
		else
			year_cell(buf, n, w->time, w->tz, 1, markdown);
		return;
	case POLICY_WHEN_FUTURE:
		fmt_year(buf, n, w->time, 0);
		return;
	case POLICY_WHEN_BEYOND:
		fmt_year(y, sizeof(y), r->horizon_time, 0);
		snprintf(buf, n, "%s%s", markdown ? "\\>" : ">", y);
		return;
	}
	snprintf(buf, n, "-");
}

/* P after years[y] of growth: "-" without a growth, "1" only when certain. */
static void p_at_cell(char *buf, size_t n, const policy_set *s, const policy_row *row, int y)
{
	if (isnan(row->p_at[y]))
		snprintf(buf, n, "-");
	else if (s->n_at[y] > ldexp(1.0, 4 * (int)row->length))
		snprintf(buf, n, "1"); /* more IDs than prefixes */
	else /* as emit_fmt_p_collision(): below 1 unless certain */
		emit_fmt_p(buf, n, fmin(row->p_at[y], nextafter(1.0, 0.0)), 2);
}

int emit_policy_table(emit_table *t, const policy_results *r, const policy_set *s, int markdown)
{
	static const char *const heads[] = {
		"len", "colliding", "expected", "P now", "P in 5y", "in 10y", "in 20y", "1% in",
		"50% in"
	};

	emit_table_init(t, 9, heads, "rrrrrrrrr");
	for (size_t i = 0; i < r->nlengths; i++) {
		const policy_row *row = &s->rows[i];
		char (*c)[EMIT_TABLE_CELL] = emit_table_row(t);

		if (!c)
			return -1;
		snprintf(c[0], EMIT_TABLE_CELL, "%u", row->length);
		if (row->measured)
			fmt_count(c[1], EMIT_TABLE_CELL, (double)row->prefixes);
		else
			snprintf(c[1], EMIT_TABLE_CELL, "-");
		fmt_expected(c[2], EMIT_TABLE_CELL, row->expected_prefixes);
		emit_fmt_p_collision(c[3], EMIT_TABLE_CELL, row->p_now, s->n, row->length, 2);
		for (int y = 0; y < POLICY_NYEARS; y++)
			p_at_cell(c[4 + y], EMIT_TABLE_CELL, s, row, y);
		emit_policy_when(c[7], EMIT_TABLE_CELL, &row->p01, r, markdown);
		emit_policy_when(c[8], EMIT_TABLE_CELL, &row->p50, r, markdown);
	}
	return 0;
}

void emit_policy_set_heading(char *buf, size_t n, const policy_set *s)
{
	char num[48], at[POLICY_NYEARS][48];
	static const double years[POLICY_NYEARS] = POLICY_YEARS;

	fmt_count(num, sizeof(num), (double)s->n);
	if (isnan(s->n_at[0])) {
		snprintf(buf, n, "%s: %s", emit_set_title(s->name), num);
		return;
	}
	for (int y = 0; y < POLICY_NYEARS; y++) {
		if (isfinite(s->n_at[y]))
			fmt_count(at[y], sizeof(at[y]), s->n_at[y]);
		else /* a growth that overflows a double: no number to print */
			snprintf(at[y], sizeof(at[y]), "more than 1e+308");
	}
	snprintf(buf, n, "%s: %s now; %s in %g years, %s in %g, %s in %g",
		 emit_set_title(s->name), num, at[0], years[0], at[1], years[1], at[2], years[2]);
}

void emit_policy_growth(char *buf, size_t n, const policy_report *p)
{
	const policy_results *r = p->r;
	char g[64], from[16], to[16], rms[32], rel[64];

	if (r->growth.kind == POLICY_GROWTH_NONE) {
		char why[200];

		if (p->unfit)
			emit_projection_none(why, sizeof(why), p->unfit);
		snprintf(buf, n, "no growth %s%s (--growth=8%%/year, 80000/year or '8000 commits/year' "
			 "projects one): P now only", p->unfit ? "fitted: " : p->nrepos ?
			 "could be fitted" : "given", p->unfit ? why : "");
		return;
	}
	if (p->fit) {
		const projection_fit *f = &p->fit->fits[p->fit->chosen];

		fmt_day(from, sizeof(from), p->fit->window_start, p->fit->zone);
		fmt_day(to, sizeof(to), p->fit->window_end, p->fit->zone);
		fmt_growth(g, sizeof(g), f->kind == PROJECTION_FIT_EXP, f->growth);
		fmt_percent(rms, sizeof(rms), f->rms_rel);
		if (f->kind == PROJECTION_FIT_LINEAR)
			snprintf(rel, sizeof(rel), " (%+.1f%% of today's count)", 100 * r->growth.rate);
		else
			rel[0] = '\0';
		snprintf(buf, n, "growth: %s fit of the commit count over %s .. %s (RMS error %s): "
			 "%s%s, for every set alike", projection_fit_name(f->kind), from, to, rms, g,
			 rel);
		return;
	}
	if (r->growth.kind == POLICY_GROWTH_EXP)
		fmt_growth(g, sizeof(g), 1, r->growth.rate);
	else
		snprintf(g, sizeof(g), "%+.2f%%/year of today's count, linear", 100 * r->growth.rate);
	snprintf(buf, n, "growth: %s (--growth), for every set alike", g);
}

/* The clause of one set at one level, without the set's name. */
static void when_clause(char *buf, size_t n, const policy_when *w, const policy_row *row,
			uint64_t count, const policy_results *r, const char *level)
{
	char y[32], p[32];

	/* what a repository measured outweighs the model: they collide now */
	if (row->measured && row->prefixes) {
		fmt_count(p, sizeof(p), (double)row->prefixes);
		snprintf(buf, n, "collide already (%s colliding prefix%s now)", p,
			 row->prefixes == 1 ? "" : "es");
		return;
	}
	switch (w->state) {
	case POLICY_WHEN_FUTURE:
		fmt_year(y, sizeof(y), w->time, 0);
		snprintf(buf, n, "stay below %s until %s", level, y);
		return;
	case POLICY_WHEN_BEYOND:
		fmt_year(y, sizeof(y), r->horizon_time, 0);
		snprintf(buf, n, "stay below %s beyond %s", level, y);
		return;
	case POLICY_WHEN_PASSED:
		if (!isnan(w->time)) {
			fmt_year(y, sizeof(y), w->time, w->tz);
			snprintf(buf, n, "passed %s in %s", level, y);
			return;
		}
		emit_fmt_p_collision(p, sizeof(p), row->p_now, count, row->length, 2);
		snprintf(buf, n, "passed %s already (P %s%s now)", level, p[0] == '>' ? "" : "= ", p);
		return;
	}
	emit_fmt_p_collision(p, sizeof(p), row->p_now, count, row->length, 2);
	snprintf(buf, n, "are at P %s%s now (no growth to date %s)", p[0] == '>' ? "" : "= ", p,
		 level);
}

void emit_policy_quote(char *buf, size_t n, const policy_results *r, size_t i)
{
	char clause[POLICY_MAX_SETS][96];
	int used[POLICY_MAX_SETS] = { 0 };
	size_t o;

	if (!n)
		return;
	if (i >= r->nlengths) {
		buf[0] = '\0';
		return;
	}
	o = (size_t)snprintf(buf, n, "%u chars:", r->lengths[i]);
	for (size_t k = 0; k < r->nsets; k++)
		when_clause(clause[k], sizeof(clause[k]), &r->sets[k].rows[i].p01,
			    &r->sets[k].rows[i], r->sets[k].n, r, "1%");
	/* sets that say the same are named together: "commits and commit-ish stay ..." */
	for (size_t k = 0; k < r->nsets && o < n; k++) {
		size_t same[POLICY_MAX_SETS], ns = 0;

		if (used[k])
			continue;
		for (size_t j = k; j < r->nsets; j++)
			if (!used[j] && !strcmp(clause[j], clause[k]))
				same[ns++] = j, used[j] = 1;
		o += (size_t)snprintf(buf + o, n - o, "%s ", k ? ";" : "");
		for (size_t j = 0; j < ns && o < n; j++)
			o += (size_t)snprintf(buf + o, n - o, "%s%s",
					      j == 0 ? "" : j + 1 == ns ? " and " : ", ",
					      emit_set_title(r->sets[same[j]].name));
		if (o < n)
			o += (size_t)snprintf(buf + o, n - o, " %s", clause[k]);
	}
}

const char emit_policy_legend[] =
	"colliding: L-char prefixes two or more IDs of the set share now; expected: "
	"the birthday model's for as many random IDs; P: the chance of at least one "
	"collision among that many random IDs, now and after 5, 10 and 20 years of the "
	"growth above; 1% in, 50% in: the year the set passes that chance (* passed "
	"already, dated from the commit history; >Y: not within the horizon).";

/* A capacity: exact and grouped, or the real value where it does not fit. */
static void capacity_cell(char *buf, size_t n, uint64_t exact, int saturated, double real)
{
	fmt_count(buf, n, saturated ? real : (double)exact);
}

int emit_model_table(emit_table *t, const model_set *s, unsigned from, unsigned to)
{
	static const char *const heads[] = {
		"len", "expected pairs", "P(collision)", "expected objects / prefixes"
	};

	emit_table_init(t, 4, heads, "rrrr");
	for (unsigned L = from; L <= to; L++) {
		const model_row *row = &s->rows[L];
		char (*c)[EMIT_TABLE_CELL] = length_row(t, L);
		char objs[32], pfx[32];

		if (!c)
			return -1;
		fmt_sig(c[1], EMIT_TABLE_CELL, row->expected_pairs, 3);
		emit_fmt_p_collision(c[2], EMIT_TABLE_CELL, row->p_collision, s->n, L, 3);
		fmt_sig(objs, sizeof(objs), row->expected_objects, 3);
		fmt_sig(pfx, sizeof(pfx), row->expected_prefixes, 3);
		snprintf(c[3], EMIT_TABLE_CELL, "%s / %s", objs, pfx);
	}
	return 0;
}

int emit_model_capacity_table(emit_table *t, const model_set *s, unsigned from, unsigned to)
{
	static const char *const heads[] = { "len", "capacity P<=1%", "capacity P<=50%" };

	emit_table_init(t, 3, heads, "rrr");
	for (unsigned L = from; L <= to; L++) {
		const model_row *row = &s->rows[L];
		char (*c)[EMIT_TABLE_CELL] = length_row(t, L);

		if (!c)
			return -1;
		capacity_cell(c[1], EMIT_TABLE_CELL, row->cap_low, row->cap_low_sat, row->cap_low_real);
		capacity_cell(c[2], EMIT_TABLE_CELL, row->cap_high, row->cap_high_sat,
			      row->cap_high_real);
	}
	return 0;
}

void emit_model_min_lengths(char *buf, size_t n, const model_set *s)
{
	char a[32], b[32];

	snprintf(a, sizeof(a), s->min_len_high > MODEL_MAX_LEN ? "beyond %u" : "from %u",
		 s->min_len_high > MODEL_MAX_LEN ? MODEL_MAX_LEN : s->min_len_high);
	snprintf(b, sizeof(b), s->min_len_low > MODEL_MAX_LEN ? "beyond %u" : "from %u",
		 s->min_len_low > MODEL_MAX_LEN ? MODEL_MAX_LEN : s->min_len_low);
	snprintf(buf, n, "P(collision) <= 50%% %s chars, <= 1%% %s chars", a, b);
}

void emit_safe_sentence(char *buf, size_t n, const projection_results *p)
{
	char year[32], commits[48], objects[48], c[48], o[48];

	fmt_year(year, sizeof(year), p->horizon_time, 0);
	fmt_count(commits, sizeof(commits), p->commits_at_horizon);
	fmt_count(objects, sizeof(objects), p->objects_at_horizon);
	if (p->safe_commit_len > MODEL_MAX_LEN)
		snprintf(c, sizeof(c), "more than %u chars", MODEL_MAX_LEN);
	else
		snprintf(c, sizeof(c), "%u chars", p->safe_commit_len);
	if (p->safe_all_len > MODEL_MAX_LEN)
		snprintf(o, sizeof(o), "more than %u", MODEL_MAX_LEN);
	else
		snprintf(o, sizeof(o), "%u", p->safe_all_len);
	snprintf(buf, n, "safe until %s (P(collision) <= %g%%, at about %s commits and %s objects "
		 "then): commit IDs need %s, all objects %s", year, 100.0 * p->target_p, commits,
		 objects, c, o);
}

/* ---- verdict ------------------------------------------------------------ */

int emit_verdict_table(emit_table *t, const verdict *v, int markdown)
{
	static const char *const heads[] = {
		"len", "set", "colliding", "P now", "P in 10y", "1% in", "concern"
	};
	const policy_results *r = &v->pol;

	emit_table_init(t, 7, heads, "rlrrrrl");
	for (size_t i = 0; i < r->nlengths; i++)
		for (size_t k = 0; k < r->nsets; k++) {
			const policy_set *s = &r->sets[k];
			const policy_row *row = &s->rows[i];
			char (*c)[EMIT_TABLE_CELL] = emit_table_row(t);

			if (!c)
				return -1;
			if (k == 0 || markdown)
				snprintf(c[0], EMIT_TABLE_CELL, "%u%s", row->length,
					 row->length == v->git_auto ? " git" : "");
			snprintf(c[1], EMIT_TABLE_CELL, "%s", emit_set_title(s->name));
			if (row->measured)
				fmt_count(c[2], EMIT_TABLE_CELL, (double)row->prefixes);
			else
				snprintf(c[2], EMIT_TABLE_CELL, "-");
			emit_fmt_p_collision(c[3], EMIT_TABLE_CELL, row->p_now, s->n, row->length,
					     2);
			if (v->years_index >= 0)
				p_at_cell(c[4], EMIT_TABLE_CELL, s, row, v->years_index);
			else
				snprintf(c[4], EMIT_TABLE_CELL, "-");
			emit_policy_when(c[5], EMIT_TABLE_CELL, &row->p01, r, markdown);
			snprintf(c[6], EMIT_TABLE_CELL, "%s",
				 verdict_concern_name(v->concern[k][i]));
		}
	return 0;
}

void emit_verdict_git(char *buf, size_t n, const verdict *v)
{
	char objs[48], next[48];

	fmt_count(objs, sizeof(objs), (double)v->git_objects);
	if (!v->git_next) {
		snprintf(buf, n, "git abbreviates to %u chars for %s objects (core.abbrev=auto)",
			 v->git_auto, objs);
		return;
	}
	fmt_count(next, sizeof(next), (double)v->git_next);
	snprintf(buf, n, "git abbreviates to %u chars for %s objects (core.abbrev=auto), "
		 "to %u from %s objects", v->git_auto, objs, v->git_auto + 1, next);
}

void emit_verdict_growth(char *buf, size_t n, const verdict *v)
{
	const policy_growth *g = &v->pol.growth;

	if (g->kind == POLICY_GROWTH_EXP)
		snprintf(buf, n, "growth: %+.1f%%/year, the exponential fit of the commit count "
			 "(git abbrev policy tells more)", 100 * expm1(g->rate));
	else if (g->kind == POLICY_GROWTH_LINEAR)
		snprintf(buf, n, "growth: %+.1f%% of today's count a year, the linear fit of the "
			 "commit count (git abbrev policy tells more)", 100 * g->rate);
	else
		snprintf(buf, n, "growth: none fitted (a history of less than a year, or no "
			 "commit dates): P now only");
}

void emit_verdict_suggest(char *buf, size_t n, const verdict *v)
{
	char until[32];

	if (v->suggest_grown) {
		fmt_year(until, sizeof(until),
			 v->pol.now + VERDICT_YEARS * PROJECTION_YEAR, 0);
		snprintf(buf, n, "suggested: git config core.abbrev %u (all objects stay below "
			 "1%% for the next %.0f years, through %s, at the growth above); git config "
			 "abbrev.minLength %u "
			 "(commits quoted in messages, for git abbrev verify)",
			 v->suggest_abbrev, VERDICT_YEARS, until, v->suggest_commit);
	} else {
		snprintf(buf, n, "suggested: git config core.abbrev %u (all objects below 1%% "
			 "now; no growth to look ten years ahead); git config abbrev.minLength %u "
			 "(commits quoted in messages, for git abbrev verify)",
			 v->suggest_abbrev, v->suggest_commit);
	}
}

const char emit_verdict_legend[] =
	"colliding: prefixes of that length two IDs of the set share now; P: the "
	"chance of a collision among as many random IDs, now and in 10 years; "
	"1% in: the year the set passes 1% (* passed already); concern: act when "
	"IDs collide now or P is 1% or more, watch when P passes 1% within 10 years "
	"(without a growth: P is 0.1% or more now), none otherwise; git: the length "
	"git picks itself";
