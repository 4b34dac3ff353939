/*
 * emit_audit.c - audit's tally in each format (emit_audit.h).
 */
#include <config.h>

#include "emit_audit.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "emit.h"
#include "emit_verify.h"
#include "fmt.h"
#include "hexid.h"
#include "svg.h"
#include "utf8.h"

/* The classes counted as wrong, as ambiguous, and as other findings (the chart's stacks). */
static uint64_t wrong_of(const uint64_t *n)
{
	uint64_t w = 0;

	for (int c = 0; c < CITE_C_COUNT; c++)
		if (cite_class_wrong(c))
			w += n[c];
	return w;
}

static void share(char *buf, size_t n, uint64_t k, uint64_t total)
{
	snprintf(buf, n, "%.1f%%", cite_audit_share(k, total));
}

void emit_audit_quote(char *buf, size_t n, const cite_audit *a)
{
	char refs[32], w[32], amb[32], ws[16], as[16];
	uint64_t wrong = wrong_of(a->total), am = a->total[CITE_C_AMBIGUOUS];

	fmt_count(refs, sizeof(refs), (double)a->refs);
	fmt_count(w, sizeof(w), (double)wrong);
	fmt_count(amb, sizeof(amb), (double)am);
	share(ws, sizeof(ws), wrong, a->refs);
	share(as, sizeof(as), am, a->refs);
	if (!a->nyears)
		snprintf(buf, n, "no references in the messages of the range");
	else
		snprintf(buf, n, "of %s reference%s since %d, %s %s wrong (%s), %s %s ambiguous when "
			 "written (%s)", refs, a->refs == 1 ? "" : "s", a->years[0].year, w,
			 wrong == 1 ? "is" : "are", ws, amb, am == 1 ? "was" : "were", as);
}

/* ---- text -------------------------------------------------------------------- */

/* A line of at most `width` columns: s cut at a UTF-8 boundary. */
static void put_cut(FILE *out, const char *s, size_t width)
{
	size_t i = 0, cols = 0, len = strlen(s);

	while (i < len && cols < width) {
		size_t k = utf8_seq_len((const unsigned char *)s + i, len - i);

		if (!k)
			k = 1;
		i += k;
		cols++;
	}
	fwrite(s, 1, i, out);
	if (i < len)
		fputs("...", out);
}

/* Words wrapped at 78 columns, each line indented by two. */
static void wrapped(FILE *out, const char *s)
{
	size_t col = 0;

	while (*s) {
		size_t w = strcspn(s, " ");

		if (col && col + 1 + w > 78) {
			fputs("\n  ", out);
			col = 2;
		} else if (col) {
			fputc(' ', out);
			col++;
		}
		fwrite(s, 1, w, out);
		col += w;
		s += w;
		while (*s == ' ')
			s++;
	}
	fputc('\n', out);
}

static int emit_text(FILE *out, const audit_report *r)
{
	const cite_audit *a = r->a;
	size_t width[CITE_C_COUNT + 1], ywidth = 5;
	char buf[512], num[32];
	char line[1024];
	size_t o;

	fmt_count(num, sizeof(num), (double)a->commits);
	fmt_count(buf, sizeof(buf), (double)a->refs);
	fprintf(out, "audit of %s: %s reference%s in the messages of %s commit%s\n", r->range, buf,
		a->refs == 1 ? "" : "s", num, a->commits == 1 ? "" : "s");
	if (a->nyears)
		fprintf(out, "  written %d to %d, ", a->years[0].year, a->years[a->nyears - 1].year);
	else
		fputs("  ", out);
	fprintf(out, "each judged as of its commit; minimum length %u\n\n", r->min_length);
	/* the columns: wide enough for the heading, each count and the share */
	for (int c = 0; c <= CITE_C_COUNT; c++) {
		uint64_t tot = c < CITE_C_COUNT ? a->total[c] : a->refs;

		snprintf(num, sizeof(num), "%llu", (unsigned long long)tot);
		width[c] = strlen(num);
		share(num, sizeof(num), tot, a->refs);
		if (strlen(num) > width[c])
			width[c] = strlen(num);
		if (c < CITE_C_COUNT && strlen(cite_class_heading(c)) > width[c])
			width[c] = strlen(cite_class_heading(c));
		if (c == CITE_C_COUNT && width[c] < 5)
			width[c] = 5;
	}
	fprintf(out, "%-*s", (int)ywidth, "year");
	for (int c = 0; c < CITE_C_COUNT; c++)
		fprintf(out, " %*s", (int)width[c], cite_class_heading(c));
	fprintf(out, " %*s\n", (int)width[CITE_C_COUNT], "total");
	for (size_t i = 0; i <= a->nyears; i++) {
		const uint64_t *n = i < a->nyears ? a->years[i].n : a->total;

		if (i < a->nyears)
			fprintf(out, "%-*d", (int)ywidth, a->years[i].year);
		else
			fprintf(out, "%-*s", (int)ywidth, "total");
		for (int c = 0; c < CITE_C_COUNT; c++)
			fprintf(out, " %*llu", (int)width[c], (unsigned long long)n[c]);
		fprintf(out, " %*llu\n", (int)width[CITE_C_COUNT],
			(unsigned long long)(i < a->nyears ? a->years[i].refs : a->refs));
	}
	fprintf(out, "%-*s", (int)ywidth, "share");
	for (int c = 0; c < CITE_C_COUNT; c++) {
		share(num, sizeof(num), a->total[c], a->refs);
		fprintf(out, " %*s", (int)width[c], num);
	}
	share(num, sizeof(num), a->refs, a->refs);
	fprintf(out, " %*s\n", (int)width[CITE_C_COUNT], num);
	o = 0;
	line[0] = '\0';
	for (int c = 0; c < CITE_C_COUNT && o < sizeof(line); c++)
		o += (size_t)snprintf(line + o, sizeof(line) - o, "%s%s: %s", c ? "; " : "(",
				      cite_class_heading(c), cite_class_words(c) + (c == CITE_C_OK ? 4 : 0));
	if (o < sizeof(line))
		snprintf(line + o, sizeof(line) - o, "; a reference with several findings counts "
			 "once, in the first class that fits of: other, wr-sb, wrong, !cmt, amb-w, "
			 "subj, !anc, amb-n, short, ok)");
	wrapped(out, line);

	fputs("\nmost cited:\n", out);
	if (!r->ntop)
		fputs("  none\n", out);
	for (size_t i = 0; i < r->ntop; i++) {
		char hex[ABBREV_MAX_HEXSZ + 1];

		hexid_fmt(hex, r->top[i].id, a->rawsz);
		hex[12] = '\0';
		snprintf(buf, sizeof(buf), "  %6llu  %s (\"%s\")", (unsigned long long)r->top[i].cites,
			 hex, r->top[i].subject ? r->top[i].subject : "?");
		put_cut(out, buf, 77);
		fputc('\n', out);
	}
	fputs("\ncited prefixes ambiguous today:\n", out);
	if (!a->namb)
		fputs("  none\n", out);
	for (size_t i = 0; i < a->namb; i++) {
		const cite_audit_prefix *p = &a->amb[i];

		if (p->commits == 1)
			snprintf(num, sizeof(num), "a commit and a tag");
		else
			snprintf(num, sizeof(num), "%zu commits", p->commits);
		fprintf(out, "  %s  cited %llu time%s; %s start with it (%s when written)\n",
			p->written, (unsigned long long)p->cites, p->cites == 1 ? "" : "s", num,
			p->when_written ? "ambiguous" : "unique");
	}
	emit_audit_quote(buf, sizeof(buf), a);
	fprintf(out, "\n%s\n", buf);
	return ferror(out) ? -1 : 0;
}

/* ---- json -------------------------------------------------------------------- */

static json_t *jid(const unsigned char *id, size_t rawsz)
{
	char hex[ABBREV_MAX_HEXSZ + 1];

	hexid_fmt(hex, id, rawsz);
	return json_string(hex);
}

static json_t *counts_json(const uint64_t *n)
{
	json_t *o = json_object();

	for (int c = 0; o && c < CITE_C_COUNT; c++)
		json_object_set_new(o, cite_class_name(c), json_integer((json_int_t)n[c]));
	return o;
}

static int emit_json(FILE *out, const audit_report *r)
{
	const cite_audit *a = r->a;
	json_t *doc, *years = json_array(), *shares = json_object(), *top = json_array(),
	       *amb = json_array(), *wrong = json_array(), *classes = json_array();
	char quote[512];
	int rc;

	for (int c = 0; c < CITE_C_COUNT; c++) {
		json_array_append_new(classes, json_pack("{s:s,s:s,s:s,s:b}", "name",
			cite_class_name(c), "heading", cite_class_heading(c), "meaning",
			cite_class_words(c), "wrong", cite_class_wrong(c)));
		json_object_set_new(shares, cite_class_name(c),
				    json_real(cite_audit_share(a->total[c], a->refs)));
	}
	for (size_t i = 0; i < a->nyears; i++)
		json_array_append_new(years, json_pack("{s:i,s:I,s:o}", "year", a->years[i].year,
			"references", (json_int_t)a->years[i].refs, "counts",
			counts_json(a->years[i].n)));
	for (size_t i = 0; i < r->ntop; i++)
		json_array_append_new(top, json_pack("{s:o,s:o,s:I}", "id",
			jid(r->top[i].id, a->rawsz), "subject", r->top[i].subject ?
			utf8_json(r->top[i].subject) : json_null(), "cites",
			(json_int_t)r->top[i].cites));
	for (size_t i = 0; i < a->namb; i++)
		json_array_append_new(amb, json_pack("{s:s,s:I,s:I,s:b}", "prefix", a->amb[i].written,
			"commits", (json_int_t)a->amb[i].commits, "cites", (json_int_t)a->amb[i].cites,
			"ambiguous_when_written", a->amb[i].when_written));
	for (size_t i = 0; i < a->nwrong; i++) {
		const cite_audit_wrong *w = &a->wrong[i];

		json_array_append_new(wrong, json_pack("{s:s,s:o,s:o,s:s}", "written", w->written,
			"right", w->found ? jid(w->right, a->rawsz) : json_null(), "citing",
			jid(w->citing, a->rawsz), "class", cite_class_name(w->cls)));
	}
	emit_audit_quote(quote, sizeof(quote), a);
	doc = json_pack("{s:i,s:s,s:s,s:i,s:I,s:I,s:o,s:o,s:{s:I,s:o,s:o},s:o,s:I,s:f,s:I,s:f,"
			"s:o,s:o,s:o,s:s}",
		"schema_version", JSON_SCHEMA_VERSION, "command", "audit", "range", r->range,
		"min_length", (int)r->min_length, "commits", (json_int_t)a->commits,
		"references", (json_int_t)a->refs, "classes", classes, "years", years,
		"total", "references", (json_int_t)a->refs, "counts", counts_json(a->total),
		"shares", shares,
		"since", a->nyears ? json_integer(a->years[0].year) : json_null(),
		"wrong", (json_int_t)wrong_of(a->total),
		"wrong_share", cite_audit_share(wrong_of(a->total), a->refs),
		"ambiguous_when_written", (json_int_t)a->total[CITE_C_AMBIGUOUS],
		"ambiguous_when_written_share", cite_audit_share(a->total[CITE_C_AMBIGUOUS], a->refs),
		"most_cited", top, "ambiguous_today", amb, "wrong_references", wrong,
		"quote", quote);
	if (!doc)
		return -1;
	rc = json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
	json_decref(doc);
	fputc('\n', out);
	return rc || ferror(out) ? -1 : 0;
}

/* ---- csv, markdown, map ------------------------------------------------------ */

static int emit_csv(FILE *out, const audit_report *r)
{
	const cite_audit *a = r->a;
	char num[32];

	csv_field(out, "year", 1);
	csv_field(out, "references", 0);
	for (int c = 0; c < CITE_C_COUNT; c++)
		csv_field(out, cite_class_name(c), 0);
	csv_end_record(out);
	for (size_t i = 0; i <= a->nyears; i++) {
		const uint64_t *n = i < a->nyears ? a->years[i].n : a->total;

		if (i < a->nyears)
			snprintf(num, sizeof(num), "%d", a->years[i].year);
		csv_field(out, i < a->nyears ? num : "total", 1);
		snprintf(num, sizeof(num), "%llu",
			 (unsigned long long)(i < a->nyears ? a->years[i].refs : a->refs));
		csv_field(out, num, 0);
		for (int c = 0; c < CITE_C_COUNT; c++) {
			snprintf(num, sizeof(num), "%llu", (unsigned long long)n[c]);
			csv_field(out, num, 0);
		}
		csv_end_record(out);
	}
	return ferror(out) ? -1 : 0;
}

static int emit_markdown(FILE *out, const audit_report *r)
{
	const cite_audit *a = r->a;
	char num[32], quote[512];

	/* --title, as the chart's, else what was counted */
	if (r->title)
		fprintf(out, "### %s\n\n| year |", r->title);
	else
		fprintf(out, "### Commit references in %s\n\n| year |", r->range);
	for (int c = 0; c < CITE_C_COUNT; c++)
		fprintf(out, " %s |", cite_class_name(c));
	fputs(" total |\n|---:|", out);
	for (int c = 0; c <= CITE_C_COUNT; c++)
		fputs("---:|", out);
	fputc('\n', out);
	for (size_t i = 0; i <= a->nyears; i++) {
		const uint64_t *n = i < a->nyears ? a->years[i].n : a->total;

		if (i < a->nyears)
			fprintf(out, "| %d |", a->years[i].year);
		else
			fputs("| **total** |", out);
		for (int c = 0; c < CITE_C_COUNT; c++)
			fprintf(out, " %llu |", (unsigned long long)n[c]);
		fprintf(out, " %llu |\n", (unsigned long long)(i < a->nyears ? a->years[i].refs : a->refs));
	}
	fputs("| share |", out);
	for (int c = 0; c < CITE_C_COUNT; c++) {
		share(num, sizeof(num), a->total[c], a->refs);
		fprintf(out, " %s |", num);
	}
	share(num, sizeof(num), a->refs, a->refs);
	fprintf(out, " %s |\n\n", num);
	emit_audit_quote(quote, sizeof(quote), a);
	fprintf(out, "> %s\n", quote);
	return ferror(out) ? -1 : 0;
}

static int emit_map(FILE *out, const audit_report *r)
{
	const cite_audit *a = r->a;
	char right[ABBREV_MAX_HEXSZ + 1], citing[ABBREV_MAX_HEXSZ + 1];

	for (size_t i = 0; i < a->nwrong; i++) {
		const cite_audit_wrong *w = &a->wrong[i];

		if (w->found)
			hexid_fmt(right, w->right, a->rawsz);
		else
			snprintf(right, sizeof(right), "NOT_VALID");
		hexid_fmt(citing, w->citing, a->rawsz);
		fprintf(out, "%s %s %s\n", w->written, right, citing);
	}
	return ferror(out) ? -1 : 0;
}

/* ---- svg --------------------------------------------------------------------- */

#define SVG_W 900
#define SVG_H 580

enum { STACK_WRONG, STACK_AMBIGUOUS, STACK_OTHER, STACK_SHORT, STACK_OK, NSTACKS };

static const struct {
	const char *name, *label, *colour;
} stacks[NSTACKS] = {
	{ "wrong", "wrong ID (not found, found by its subject, not a commit)", "#c0392b" },
	{ "ambiguous", "ambiguous (when written, or only today)", "#e67e22" },
	{ "other", "other findings (subject, not an ancestor, another project's)", "#9aa5b1" },
	{ "short", "names its commit, shorter than the minimum length", "#a9dfbf" },
	{ "ok", "ok", "#27ae60" },
};

static int stack_of(int c)
{
	if (cite_class_wrong(c))
		return STACK_WRONG;
	if (c == CITE_C_AMBIGUOUS || c == CITE_C_AMBIGUOUS_TODAY)
		return STACK_AMBIGUOUS;
	if (c == CITE_C_SHORT)
		return STACK_SHORT;
	return c == CITE_C_OK ? STACK_OK : STACK_OTHER;
}

static int emit_svg(FILE *out, const audit_report *r)
{
	const cite_audit *a = r->a;
	svg_frame f;
	char title[256], quote[512];
	int y0 = a->nyears ? a->years[0].year : 2000, y1 = a->nyears ? a->years[a->nyears - 1].year : 2001;
	double bw, ly;

	memset(&f, 0, sizeof(f));
	f.left = 100;
	f.top = 60;
	f.right = SVG_W - 30;
	f.bottom = SVG_H - 170;
	if (r->title)
		snprintf(title, sizeof(title), "%s", r->title);
	else
		snprintf(title, sizeof(title), "Commit references in %s, by year", r->range);
	svg_begin(out, SVG_W, SVG_H, title);
	fputs("<text class=\"title\" x=\"100\" y=\"28\">", out);
	svg_text(out, title);
	fputs("</text>\n<text class=\"subtitle\" x=\"100\" y=\"46\">", out);
	svg_text(out, "each year's references by share, judged as of the citing commit");
	fputs("</text>\n", out);
	svg_scale_init(&f.x, y0 - 0.5, y1 + 0.5, f.left, f.right, 0);
	f.x.whole = 1;
	f.x.years = 1;
	svg_scale_init(&f.y, 0, 100, f.bottom, f.top, 0);
	svg_axes(out, &f, "year of the citing commit", "share of the year's references (%)", 20, 11);
	bw = (f.right - f.left) / (double)(y1 - y0 + 1) * 0.8;
	for (size_t i = 0; i < a->nyears; i++) {
		const cite_audit_year *y = &a->years[i];
		uint64_t s[NSTACKS] = { 0 };
		double base = 0, x = svg_scale_map(&f.x, y->year) - bw / 2;

		for (int c = 0; c < CITE_C_COUNT; c++)
			s[stack_of(c)] += y->n[c];
		fprintf(out, "<g class=\"year\" data-year=\"%d\" data-references=\"%llu\">\n", y->year,
			(unsigned long long)y->refs);
		for (int k = 0; k < NSTACKS; k++) {
			double sh = cite_audit_share(s[k], y->refs), top = base + sh;
			double py0 = svg_scale_map(&f.y, base), py1 = svg_scale_map(&f.y, top);

			if (s[k])
				fprintf(out, "<rect class=\"bar %s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
					"height=\"%.1f\" fill=\"%s\" data-count=\"%llu\"><title>%d: %llu %s "
					"(%.1f%%)</title></rect>\n", stacks[k].name, x, py1, bw, py0 - py1,
					stacks[k].colour, (unsigned long long)s[k], y->year,
					(unsigned long long)s[k], stacks[k].name, sh);
			base = top;
		}
		fputs("</g>\n", out);
	}
	ly = f.bottom + 50;
	fputs("<g class=\"legend\">\n", out);
	for (int k = NSTACKS - 1; k >= 0; k--, ly += 18) {
		fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"12\" fill=\"%s\"/>\n",
			f.left, ly - 10, stacks[k].colour);
		fprintf(out, "<text class=\"legend-text\" x=\"%.1f\" y=\"%.1f\">", f.left + 22, ly);
		svg_text(out, stacks[k].label);
		fputs("</text>\n", out);
	}
	fputs("</g>\n", out);
	emit_audit_quote(quote, sizeof(quote), a);
	fprintf(out, "<text class=\"note quote\" x=\"%.1f\" y=\"%.1f\">", f.left, ly + 8);
	svg_text(out, quote);
	fputs("</text>\n", out);
	return svg_end(out);
}

int emit_audit(FILE *out, int format, const audit_report *r)
{
	switch (format) {
	case ABBREV_FORMAT_JSON:
		return emit_json(out, r);
	case ABBREV_FORMAT_CSV:
		return emit_csv(out, r);
	case ABBREV_FORMAT_MARKDOWN:
		return emit_markdown(out, r);
	case ABBREV_FORMAT_SVG:
		return emit_svg(out, r);
	case AUDIT_FORMAT_MAP:
		return emit_map(out, r);
	default:
		return emit_text(out, r);
	}
}
