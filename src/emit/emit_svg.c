/*
 * emit_svg.c - the charts, written as SVG text (svg.h does the axes).
 *
 * Report: colliding prefixes (log scale) against the abbreviation length,
 * one series per set (all objects and commits always, trees, blobs and
 * tags when they have IDs): the measured counts as points, the birthday
 * model's expected colliding prefixes for as many random IDs as a line,
 * so a reader sees at once whether the repository behaves like random IDs
 * and where each set stops colliding.  A count of 0 has no place on a log
 * axis: those points are left out, and the notes under the chart say from
 * which length on.  git's auto abbreviation for the object count is
 * marked with a dashed line.
 *
 * Model: P(collision) (linear, 0 to 1) against the length, one line per
 * set, with the 1% and 50% levels marked.
 *
 * History: the commit count (log scale) at which two commits first
 * shared L chars, against L, beside the model's expectation and today's
 * count.
 *
 * Element names the tests rely on: each set is
 * <g class="series set-<name>" id="series-<name>"> holding a
 * <polyline class="model"> and points of class "point" with
 * data-length / data-prefixes; the legend is <g class="legend">.
 */
#include <config.h>

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "emit_parts.h"
#include "fmt.h"
#include "svg.h"

#define WIDTH 900
#define HEIGHT 620       /* a 620 px high window shows the whole report */
#define MODEL_HEIGHT 620
#define NOTE_WIDTH 108 /* chars of a 12px note line across the plot's width */
/*
 * The lengths of the debate the charts exist for (the kernel's 12 against
 * 16 hex chars): every chart's x axis reaches both.
 */
#define CHART_LEN_A 12
#define CHART_LEN_B 16
static const unsigned chart_lengths[] = { CHART_LEN_A, CHART_LEN_B };
/* How close (px) a set's line may run to one drawn over it before it is drawn wide. */
#define CASED_PX 3.0
/* The lowest a log axis goes: the model falls 256-fold per char. */
#define CHART_YMIN 1e-15

/* Order, colour and marker of each set's series. */
static const struct {
	int set;
	const char *title;
	const char *colour;
	const char *marker; /* circle, square, up, diamond, down, left */
} series[ABBREV_SET_COUNT] = {
	{ ABBREV_SET_ALL, "all objects", "#222222", "circle" },
	{ ABBREV_SET_COMMIT, "commits", "#d62728", "square" },
	{ ABBREV_SET_COMMITISH, "commit-ish", "#ff7f0e", "left" },
	{ ABBREV_SET_TREE, "trees", "#2ca02c", "up" },
	{ ABBREV_SET_BLOB, "blobs", "#1f77b4", "diamond" },
	{ ABBREV_SET_TAG, "tags", "#9467bd", "down" },
};

/* A marker of the given shape centred on (x, y), left open for attributes. */
static void marker_open(FILE *out, const char *shape, double x, double y, const char *colour)
{
	const double r = 4.5;

	if (!strcmp(shape, "circle"))
		fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\"", x, y, r);
	else if (!strcmp(shape, "square"))
		fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"",
			x - r * 0.85, y - r * 0.85, r * 1.7, r * 1.7);
	else if (!strcmp(shape, "up"))
		fprintf(out, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\"",
			x, y - r * 1.15, x + r, y + r * 0.75, x - r, y + r * 0.75);
	else if (!strcmp(shape, "left"))
		fprintf(out, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\"",
			x - r * 1.15, y, x + r * 0.75, y - r, x + r * 0.75, y + r);
	else if (!strcmp(shape, "down"))
		fprintf(out, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\"",
			x, y + r * 1.15, x + r, y - r * 0.75, x - r, y - r * 0.75);
	else
		fprintf(out, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fZ\"",
			x, y - r * 1.2, x + r * 1.2, y, x, y + r * 1.2, x - r * 1.2, y);
	fprintf(out, " fill=\"%s\" stroke=\"#fff\" stroke-width=\"1\"", colour);
}

/*
 * The sets drawn: all objects and commits always, the others when they
 * have IDs (commit-ish when there are tags: it differs from commits only then).
 */
static int drawn(const stats_report *r, int set)
{
	if (set == ABBREV_SET_COMMITISH)
		set = ABBREV_SET_TAG;
	return set == ABBREV_SET_ALL || set == ABBREV_SET_COMMIT || r->sets[set].count > 0;
}

/*
 * The repositories for the title, by name ("linux + git"), the front cut
 * when long: a chart is shown to people who do not share our paths.
 */
static void repos_title(char *buf, size_t n, const char *const *repos, size_t nrepos)
{
	emit_repo_names(buf, n, repos, nrepos, 64);
}

static void text_at(FILE *out, double x, double y, const char *cls, const char *anchor,
		    const char *s)
{
	fprintf(out, "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\"%s%s%s>", cls, x, y,
		anchor ? " text-anchor=\"" : "", anchor ? anchor : "", anchor ? "\"" : "");
	svg_text(out, s);
	fputs("</text>\n", out);
}

/* Where a label may go: its baseline and anchor (NULL: start). */
typedef struct {
	double x, y;
	const char *anchor;
} label_spot;

/*
 * The first of the n spots where the 12 px text s is clear of m's lines
 * and boxes, inside `within` (the first spot when none is); its box is
 * added to m, so the next label keeps clear of it.
 */
static label_spot place_label(svg_marks *m, const label_spot *spot, size_t n, const char *s,
			      const svg_box *within)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (svg_marks_clear(m, svg_text_box(spot[k].x, spot[k].y, 12, spot[k].anchor, s),
				    within))
			break;
	if (k == n)
		k = 0;
	svg_marks_box(m, svg_text_box(spot[k].x, spot[k].y, 12, spot[k].anchor, s));
	return spot[k];
}

/* The frame's inside, as a box a label has to stay in. */
static svg_box frame_box(const svg_frame *f)
{
	return (svg_box){ f->left + 1, f->top + 1, f->right - 1, f->bottom - 1 };
}

/* Add the polyline through the n points (x[i], y[i]) to m. */
static void marks_polyline(svg_marks *m, const double *x, const double *y, size_t n, double width)
{
	for (size_t i = 1; i < n; i++)
		svg_marks_line(m, x[i - 1], y[i - 1], x[i], y[i], width);
}

/* One set: the model as a line over the x range, the measured counts as points. */
static void report_series(FILE *out, const svg_frame *f, const stats_report *r, int k,
			  double dodge, unsigned xmax, double ymin, int cased)
{
	int set = series[k].set;
	const stats_set *st = &r->sets[set];
	const char *name = idset_name(set);
	char buf[64], pre[32], obj[32];

	fprintf(out, "<g class=\"series set-%s\" id=\"series-%s\" data-set=\"%s\" data-count=\"%zu\">\n",
		name, name, name, st->count);
	if (st->count >= 2) {
		fprintf(out, "<polyline class=\"model\" clip-path=\"url(#plot)\" fill=\"none\" "
			     "stroke=\"%s\" stroke-width=\"%s\" stroke-opacity=\"%s\" points=\"",
			series[k].colour, cased ? "6" : "1.6", cased ? "0.45" : "0.75");
		for (unsigned L = ABBREV_MIN_LEN; L <= xmax; L++) {
			double e = st->model[L].expected_prefixes;

			/* below the axis it only has to leave the plot, clipped */
			if (!(e > ymin / 1000))
				e = ymin / 1000;
			fprintf(out, "%s%.1f,%.1f", L > ABBREV_MIN_LEN ? " " : "",
				svg_scale_map(&f->x, L), svg_scale_map(&f->y, e));
		}
		fputs("\"/>\n", out);
	}
	fputs("<g class=\"measured\">\n", out);
	for (unsigned L = ABBREV_MIN_LEN; L <= st->last_len && L <= xmax; L++) {
		if (!st->prefixes[L])
			continue;
		marker_open(out, series[k].marker, svg_scale_map(&f->x, L) + dodge,
			    svg_scale_map(&f->y, (double)st->prefixes[L]), series[k].colour);
		/* the tooltip spells numbers as the text and Markdown do (fmt.h) */
		fmt_expected(buf, sizeof(buf), st->model[L].expected_prefixes);
		fmt_count(pre, sizeof(pre), (double)st->prefixes[L]);
		fmt_count(obj, sizeof(obj), (double)st->objects[L]);
		fprintf(out, " class=\"point\" data-length=\"%u\" data-prefixes=\"%zu\" "
			     "data-objects=\"%zu\"><title>%s, %u chars: %s colliding prefixes "
			     "(%s objects); model %s</title></%s>\n",
			L, st->prefixes[L], st->objects[L], series[k].title, L, pre, obj, buf,
			!strcmp(series[k].marker, "circle") ? "circle" :
			!strcmp(series[k].marker, "square") ? "rect" : "path");
	}
	fputs("</g>\n</g>\n", out);
}

/*
 * The legend flows in rows under the x axis label, where it can hide no
 * data (inside the plot, planted or odd collisions can sit anywhere).
 * Widths are estimated from the label (about 6.8 px a char at 12 px).
 */
typedef struct {
	double x, y, left, right, row;
} legend_pos;

/* with_line: 0 none, 1 a line, 2 a wide pale line (a set drawn under another) */
static void legend_item(FILE *out, legend_pos *p, const char *set, const char *colour,
			const char *shape, int with_line, const char *label)
{
	double w = 44 + 6.8 * (double)strlen(label) + 18;

	if (p->x > p->left && p->x + w > p->right) {
		p->x = p->left;
		p->y += p->row;
	}
	fputs("<g class=\"legend-item\"", out);
	if (set)
		fprintf(out, " data-set=\"%s\"", set);
	fputc('>', out);
	if (with_line)
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			     "stroke-width=\"%s\"/>", p->x + 2, p->y, p->x + 30, p->y, colour,
			with_line > 1 ? "6\" stroke-opacity=\"0.45" : "1.6");
	if (shape) {
		marker_open(out, shape, p->x + 16, p->y, colour);
		fputs("/>", out);
	}
	text_at(out, p->x + 38, p->y + 4, "legend-text", NULL, label);
	fputs("</g>\n", out);
	p->x += w;
}

/* A legend entry of a line as drawn: its colour, width and dashes (NULL: solid). */
static void line_legend(FILE *out, legend_pos *p, const char *colour, double width,
			const char *dash, const char *label)
{
	double w = 44 + 6.8 * (double)strlen(label) + 18;

	if (p->x > p->left && p->x + w > p->right) {
		p->x = p->left;
		p->y += p->row;
	}
	fprintf(out, "<g class=\"legend-item\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		     "y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%g\"%s%s%s/>", p->x + 2, p->y,
		p->x + 30, p->y, colour, width, dash ? " stroke-dasharray=\"" : "", dash ? dash : "",
		dash ? "\"" : "");
	text_at(out, p->x + 38, p->y + 4, "legend-text", NULL, label);
	fputs("</g>\n", out);
	p->x += w;
}

/* A legend entry of a line style (no set, grey). */
static void dash_legend(FILE *out, legend_pos *p, const char *dash, const char *label)
{
	line_legend(out, p, "#555", 2, dash, label);
}

/* Returns the y below the legend. */
static double report_legend(FILE *out, const svg_frame *f, const stats_report *r, double y,
			    const int *cased)
{
	legend_pos p = { f->left, y, f->left, f->right, 18 };
	char num[32], line[96];

	fputs("<g class=\"legend\">\n", out);
	for (int k = 0; k < ABBREV_SET_COUNT; k++) {
		const stats_set *st = &r->sets[series[k].set];

		if (!drawn(r, series[k].set))
			continue;
		fmt_count(num, sizeof(num), (double)st->count);
		snprintf(line, sizeof(line), "%s: %s ID%s%s", series[k].title, num,
			 st->count == 1 ? "" : "s", cased[k] ? " (wide, under)" : "");
		legend_item(out, &p, idset_name(series[k].set), series[k].colour, series[k].marker,
			    cased[k] ? 2 : 1, line);
	}
	p.x = p.left;
	p.y += p.row;
	legend_item(out, &p, NULL, "#888", "circle", 0, "points: measured colliding prefixes");
	legend_item(out, &p, NULL, "#888", NULL, 1, "lines: birthday model, random IDs");
	fputs("</g>\n", out);
	return p.y + p.row;
}

/*
 * A chart's body is written to memory first: the page's height is known
 * only once the notes under the chart are written (they wrap).
 */
typedef struct {
	FILE *out, *body;
	char *buf;
	size_t len;
} svg_doc;

static FILE *doc_open(svg_doc *d, FILE *out)
{
	d->out = out;
	d->buf = NULL;
	d->len = 0;
	d->body = open_memstream(&d->buf, &d->len);
	return d->body;
}

/* The document with the body, `height` px high at least (to hold y_end).  Returns 0 or -1. */
static int doc_close(svg_doc *d, int width, int height, double y_end, const char *title)
{
	int bad = fclose(d->body) != 0;

	if (y_end + 6 > height)
		height = (int)ceil(y_end + 6);
	svg_begin(d->out, width, height, title);
	if (d->buf)
		fwrite(d->buf, 1, d->len, d->out);
	free(d->buf);
	return svg_end(d->out) || bad ? -1 : 0;
}

/*
 * Under the chart: which lengths have no point (a count of 0 has no place
 * on a log axis), what the lines are, and what the repository lacks.
 */
static double report_notes(FILE *out, const svg_frame *f, const stats_report *r, unsigned xmax,
			   double y)
{
	char line[1024];
	size_t o;
	int any = 0;

	o = (size_t)snprintf(line, sizeof(line),
			     "Not drawn: lengths with 0 colliding prefixes (no place on a log scale):");
	for (int k = 0; k < ABBREV_SET_COUNT && o < sizeof(line); k++) {
		const stats_set *st = &r->sets[series[k].set];

		if (!drawn(r, series[k].set))
			continue;
		if (!st->count)
			o += (size_t)snprintf(line + o, sizeof(line) - o, "%s %s (no IDs)",
					      any ? "," : "", series[k].title);
		else if (st->last_len <= xmax)
			o += (size_t)snprintf(line + o, sizeof(line) - o, "%s %s from %u chars",
					      any ? "," : "", series[k].title, st->last_len);
		any = 1;
	}
	if (o < sizeof(line))
		snprintf(line + o, sizeof(line) - o, ".");
	y = svg_wrapped(out, f->left, y, 15, NOTE_WIDTH, "note", line);
	y = svg_wrapped(out, f->left, y, 15, NOTE_WIDTH, "note",
			"Colliding prefixes: L-char prefixes shared by two or more IDs of the set. "
			"Lines: the birthday model's expectation for as many random IDs "
			"(about n(n-1)/2 / 16^L when collisions are rare).");
	for (int i = 0; emit_lacks_note(r->lacks, i); i++) {
		snprintf(line, sizeof(line), "Note: %s.", emit_lacks_note(r->lacks, i));
		y = svg_wrapped(out, f->left, y, 15, NOTE_WIDTH, "note", line);
	}
	if (r->reach) {
		char patterns[4096], counts[128], reach[4300];

		emit_reach_patterns(patterns, sizeof(patterns), r->reach, ", ");
		emit_reach_counts(counts, sizeof(counts), r->reach);
		snprintf(reach, sizeof(reach), "Reachable from %s%s.", patterns, counts);
		fputs("<g class=\"reachable\">\n", out);
		y = svg_wrapped(out, f->left, y, 15, NOTE_WIDTH, "note", reach);
		fputs("</g>\n", out);
	}
	return y - 11; /* the last line's bottom */
}

static int report_svg(FILE *out, const stats_report *r)
{
	const stats_set *all = &r->sets[ABBREV_SET_ALL];
	svg_frame f = { .left = 96, .top = 74, .right = WIDTH - 24, .bottom = 420 };
	unsigned xmax = ABBREV_MIN_LEN;
	double ymin, ymax = 10, lo, hi, dodge, n = 0, y;
	char title[256], repos[160], num[32], line[256];
	int k2 = 0, cased[ABBREV_SET_COUNT] = { 0 };
	svg_doc doc;

	for (int k = 0; k < ABBREV_SET_COUNT; k++) {
		const stats_set *st = &r->sets[series[k].set];

		if (!drawn(r, series[k].set))
			continue;
		n++;
		if (st->last_len > xmax)
			xmax = st->last_len;
		for (unsigned L = ABBREV_MIN_LEN; L <= st->last_len; L++)
			if ((double)st->prefixes[L] > ymax)
				ymax = (double)st->prefixes[L];
	}
	xmax++; /* one length past the last collision: the model keeps falling */
	if (xmax < CHART_LEN_B)
		xmax = CHART_LEN_B;
	if (xmax > all->hexsz && all->hexsz >= ABBREV_MIN_LEN)
		xmax = all->hexsz;
	if (xmax > ABBREV_MAX_HEXSZ) /* model[] ends there */
		xmax = ABBREV_MAX_HEXSZ;
	for (int k = 0; k < ABBREV_SET_COUNT; k++) {
		double e = r->sets[series[k].set].model[ABBREV_MIN_LEN].expected_prefixes;

		if (drawn(r, series[k].set) && e > ymax)
			ymax = e;
	}
	/*
	 * the bottom: where the lowest drawn model line ends (so 12 and 16 are
	 * both on the chart, a decade apart per 2.5 chars), within 1e-15 .. 0.1
	 */
	ymin = 0.1;
	for (int k = 0; k < ABBREV_SET_COUNT; k++) {
		const stats_set *st = &r->sets[series[k].set];
		double e = st->model[xmax].expected_prefixes;

		if (drawn(r, series[k].set) && st->count >= 2 && e > 0 && e < ymin)
			ymin = e;
	}
	if (ymin < CHART_YMIN)
		ymin = CHART_YMIN;
	svg_log_range(&lo, &hi, ymin, ymax);
	svg_scale_init(&f.x, ABBREV_MIN_LEN - 0.4, xmax + 0.4, f.left, f.right, 0);
	f.x.whole = 1;
	svg_scale_init(&f.y, lo, hi, f.bottom, f.top, 1);

	repos_title(repos, sizeof(repos), r->repos, r->nrepos);
	fmt_count(num, sizeof(num), (double)all->count);
	snprintf(title, sizeof(title), "%s%s%s objects: colliding abbreviated IDs by length",
		 repos, r->nrepos ? ": " : "", num);
	if (!doc_open(&doc, out))
		return -1;
	out = doc.body;
	fputs("<desc>Colliding prefixes (log scale) against abbreviation length, per set: "
	      "measured as points, the birthday model as lines. Min unique length:", out);
	for (int k = 0; k < ABBREV_SET_COUNT; k++) {
		const stats_set *st = &r->sets[series[k].set];

		if (st->count)
			fprintf(out, "%s %s %u", k ? "," : "", series[k].title, st->min_unique);
		else
			fprintf(out, "%s %s -", k ? "," : "", series[k].title);
	}
	fputs(".</desc>\n", out);
	snprintf(line, sizeof(line), "%s%s%s objects (%s)", repos, r->nrepos ? ": " : "", num,
		 r->hash ? r->hash : "unknown");
	text_at(out, f.left, 26, "title", NULL, r->title ? r->title : line);
	text_at(out, f.left, 48, "subtitle", NULL,
		"Colliding abbreviated IDs by length: measured (points) and expected for "
		"random IDs (lines)");
	svg_axes(out, &f, "abbreviation length (hex chars)", "colliding prefixes (log scale)",
		 32, 16);
	svg_clip(out, &f, "plot");
	svg_mark_lengths(out, &f, chart_lengths, 2);

	if (r->git_auto_abbrev >= ABBREV_MIN_LEN && r->git_auto_abbrev <= xmax) {
		double x = svg_scale_map(&f.x, r->git_auto_abbrev);

		snprintf(line, sizeof(line), "git's auto abbrev: %u", r->git_auto_abbrev);
		fprintf(out, "<g class=\"git-auto-abbrev\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			     "y2=\"%.1f\" stroke=\"#999\" stroke-dasharray=\"5 4\"/>", x, f.top, x, f.bottom);
		text_at(out, x - 4, f.bottom - 8, "note", "end", line);
		fputs("</g>\n", out);
	}
	/*
	 * A set whose model line runs within CASED_PX of a set drawn over it
	 * at every length (commit-ish beside commits differs by a few tags)
	 * is drawn wide and pale, so both show.
	 */
	for (int k = 0; k < ABBREV_SET_COUNT; k++) {
		const stats_set *a = &r->sets[series[k].set];

		for (int j = 0; j < k && !cased[k] && drawn(r, series[k].set) && a->count >= 2; j++) {
			const stats_set *b = &r->sets[series[j].set];
			int near = drawn(r, series[j].set) && b->count >= 2;

			for (unsigned L = ABBREV_MIN_LEN; L <= xmax && near; L++) {
				double ea = a->model[L].expected_prefixes, eb = b->model[L].expected_prefixes;

				if (ea < lo && eb < lo)
					continue; /* both clipped below the plot */
				near = ea > 0 && eb > 0 &&
				       fabs(svg_scale_map(&f.y, ea) - svg_scale_map(&f.y, eb)) < CASED_PX;
			}
			cased[k] = near;
		}
	}
	/* draw all objects last, on top; dodge the markers a little apart */
	for (int k = ABBREV_SET_COUNT - 1; k >= 0; k--) {
		if (!drawn(r, series[k].set))
			continue;
		k2 = 0;
		for (int j = 0; j < k; j++)
			k2 += drawn(r, series[j].set);
		dodge = ((double)k2 - (n - 1) / 2) * 3.5;
		report_series(out, &f, r, k, dodge, xmax, lo, cased[k]);
	}
	y = report_legend(out, &f, r, f.bottom + 64, cased);
	y = report_notes(out, &f, r, xmax, y + 8);
	return doc_close(&doc, WIDTH, HEIGHT, y, r->title ? r->title : title);
}

/* ---- model: P(collision) against length ---------------------------------- */

/* "all" -> "all objects", "commit" -> "commits" */
static const char *model_title(const char *name)
{
	for (int k = 0; k < ABBREV_SET_COUNT; k++)
		if (!strcmp(name, idset_name(series[k].set)))
			return series[k].title;
	return name;
}

static const char *const model_colours[] = { "#222222", "#d62728", "#2ca02c", "#1f77b4", "#9467bd" };
static const char *const model_markers[] = { "circle", "square", "up", "diamond", "down" };

static int model_svg(FILE *out, const model_results *r)
{
	svg_frame f = { .left = 96, .top = 74, .right = WIDTH - 24, .bottom = 490 };
	unsigned from = r->from < CHART_LEN_A ? r->from : CHART_LEN_A;
	unsigned to = r->to > CHART_LEN_B ? r->to : CHART_LEN_B;
	double y, pmin = 1, lo, hi;
	char title[256], num[32], line[128];
	size_t o = 0;
	svg_box inside;
	svg_marks m;
	svg_doc doc;

	/*
	 * P(collision) on a log axis: from 13 chars on it is tiny but not 0,
	 * and 12 and 16 differ 65,536-fold; the x axis holds 12 and 16 always
	 */
	for (size_t i = 0; i < r->nsets; i++)
		for (unsigned L = from; L <= to; L++)
			if (r->sets[i].rows[L].p_collision > 0 && r->sets[i].rows[L].p_collision < pmin)
				pmin = r->sets[i].rows[L].p_collision;
	if (pmin < CHART_YMIN)
		pmin = CHART_YMIN;
	svg_log_range(&lo, &hi, pmin, 1);
	svg_scale_init(&f.x, from - 0.4, to + 0.4, f.left, f.right, 0);
	f.x.whole = 1;
	svg_scale_init(&f.y, lo, 1, f.bottom, f.top, 1);
	inside = frame_box(&f);
	o = (size_t)snprintf(title, sizeof(title), "Birthday model:");
	for (size_t i = 0; i < r->nsets && o < sizeof(title); i++) {
		fmt_count(num, sizeof(num), (double)r->sets[i].n);
		o += (size_t)snprintf(title + o, sizeof(title) - o, "%s %s %s", i ? "," : "",
				      num, model_title(r->sets[i].name));
	}
	if (!doc_open(&doc, out))
		return -1;
	out = doc.body;
	text_at(out, f.left, 26, "title", NULL, r->title ? r->title : title);
	text_at(out, f.left, 48, "subtitle", NULL,
		"Chance of at least one collision among n random IDs at L hex chars: "
		"P = 1 - exp(-n(n-1)/2 / 16^L)");
	svg_axes(out, &f, "abbreviation length (hex chars)", "P(collision) (log scale)", 32, 16);
	svg_clip(out, &f, "plot");
	svg_mark_lengths(out, &f, chart_lengths, 2);
	/* the sets' lines and markers, which the levels' labels keep clear of */
	svg_marks_init(&m);
	m.clip = frame_box(&f);
	m.clipped = 1;
	for (size_t i = 0; i < r->nsets; i++) {
		double px = NAN, py = NAN;

		for (unsigned L = from; L <= to; L++) {
			double x = svg_scale_map(&f.x, L), yp = svg_scale_map(&f.y, r->sets[i].rows[L].p_collision);

			if (!isfinite(yp))
				continue;
			svg_marks_line(&m, px, py, x, yp, 1.6);
			if (yp >= f.top && yp <= f.bottom)
				svg_marks_box(&m, (svg_box){ x - 5.5, yp - 5.5, x + 5.5, yp + 5.5 });
			px = x;
			py = yp;
		}
	}
	for (int i = 0; i < 2; i++) {
		double p = i ? MODEL_P_HIGH : MODEL_P_LOW, yp = svg_scale_map(&f.y, p);
		/* above the line at the right, else below, else at the left */
		const label_spot spot[] = {
			{ f.right - 6, yp - 5, "end" }, { f.right - 6, yp + 14, "end" },
			{ f.left + 6, yp - 5, NULL }, { f.left + 6, yp + 14, NULL },
		};
		label_spot at;

		snprintf(line, sizeof(line), "P = %g%%", 100 * p);
		at = place_label(&m, spot, sizeof(spot) / sizeof(spot[0]), line, &inside);
		fprintf(out, "<g class=\"level\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			     "stroke=\"#999\" stroke-dasharray=\"5 4\"/>", f.left, yp, f.right, yp);
		text_at(out, at.x, at.y, "note", at.anchor, line);
		fputs("</g>\n", out);
		svg_marks_line(&m, f.left, yp, f.right, yp, 1);
	}
	svg_marks_free(&m);
	for (size_t i = 0; i < r->nsets; i++) {
		const model_set *s = &r->sets[i];
		const char *colour = model_colours[i % 5], *shape = model_markers[i % 5];

		fprintf(out, "<g class=\"series set-%s\" id=\"series-%s\" data-set=\"%s\">\n"
			     "<polyline class=\"model\" clip-path=\"url(#plot)\" fill=\"none\" "
			     "stroke=\"%s\" stroke-width=\"1.6\" points=\"",
			s->name, s->name, s->name, colour);
		for (unsigned L = from, k = 0; L <= to; L++) {
			double yp = svg_scale_map(&f.y, s->rows[L].p_collision);

			/* P = 0 (fewer than 2 IDs) has no place on a log axis */
			if (isfinite(yp))
				fprintf(out, "%s%.1f,%.1f", k++ ? " " : "", svg_scale_map(&f.x, L), yp);
		}
		fputs("\"/>\n", out);
		for (unsigned L = from; L <= to; L++) {
			char e[32];

			/* below the axis (P under 10^-15) a point has no place either */
			if (!(s->rows[L].p_collision >= lo))
				continue;
			marker_open(out, shape, svg_scale_map(&f.x, L),
				    svg_scale_map(&f.y, s->rows[L].p_collision), colour);
			fmt_sig(e, sizeof(e), s->rows[L].expected_pairs, 3);
			fprintf(out, " class=\"point\" data-length=\"%u\" data-p=\"%.6g\"><title>%s, "
				     "%u chars: P = %.3g, %s expected pairs</title></%s>\n",
				L, s->rows[L].p_collision, s->name, L, s->rows[L].p_collision, e,
				!strcmp(shape, "circle") ? "circle" : !strcmp(shape, "square") ? "rect" : "path");
		}
		fputs("</g>\n", out);
	}
	{
		legend_pos p = { f.left, f.bottom + 64, f.left, f.right, 18 };

		fputs("<g class=\"legend\">\n", out);
		for (size_t i = 0; i < r->nsets; i++) {
			fmt_count(num, sizeof(num), (double)r->sets[i].n);
			snprintf(line, sizeof(line), "%s: n = %s", model_title(r->sets[i].name), num);
			legend_item(out, &p, r->sets[i].name, model_colours[i % 5],
				    model_markers[i % 5], 1, line);
		}
		fputs("</g>\n", out);
		y = p.y + p.row + 8;
	}
	for (size_t i = 0; i < r->nsets; i++) {
		unsigned l50 = r->sets[i].min_len_high;
		unsigned l01 = r->sets[i].min_len_low;
		char a[32], b[32];

		snprintf(a, sizeof(a), l50 > MODEL_MAX_LEN ? "beyond %u" : "from %u",
			 l50 > MODEL_MAX_LEN ? MODEL_MAX_LEN : l50);
		snprintf(b, sizeof(b), l01 > MODEL_MAX_LEN ? "beyond %u" : "from %u",
			 l01 > MODEL_MAX_LEN ? MODEL_MAX_LEN : l01);
		snprintf(line, sizeof(line), "%s: P <= 50%% %s chars, P <= 1%% %s chars",
			 model_title(r->sets[i].name), a, b);
		text_at(out, f.left, y, "note", NULL, line);
		y += 15;
	}
	return doc_close(&doc, WIDTH, MODEL_HEIGHT, y - 11, r->title ? r->title : title);
}

/* ---- history: when each length first collided ---------------------------- */

/* Commits dated up to t: the count of h->times[] <= t (ascending). */
static double commits_upto(const history_results *h, double t)
{
	size_t lo = 0, hi = h->commits;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if ((double)h->times[mid] <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (double)lo;
}

/*
 * The projection under the history: x the calendar year from the fit's
 * window to the horizon, y (log) the commit count.  The measured count
 * over the window as a line; from the window's end, both fits as dashed
 * lines (the chosen one heavier), the spread between them shaded, each
 * labelled with its count at the horizon, the numbers the text prints
 * ("commits in 2036: ..."); the count at which each length passes a 1%
 * chance of a collision as a dotted level, so where a fit crosses it is
 * the year the text's table gives.  Paths: <path class="fit fit-<name>"
 * data-fit data-end-year data-end-commits>, <path class="fit-spread">.
 */
static double projection_panel(FILE *out, const history_report *r, double top)
{
	const history_results *h = r->h;
	const projection_results *p = r->p;
	svg_frame f = { .left = 96, .top = top + 34, .right = WIDTH - 24, .bottom = top + 304 };
	double t0 = (double)p->window_start, t1 = p->horizon_time, ymin, ymax, lo, hi, y;
	char line[256], num[32], year[32], growth[64];
	enum { steps = 48 };
	double cx[4 * steps + 1], cy[4 * steps + 1], fx[2][steps + 1], fy[2][steps + 1], end[2], xnow;
	int levels = 0;
	svg_box inside;
	svg_marks m;
	legend_pos lp;

	if (!(t1 > (double)p->window_end))
		t1 = (double)p->window_end + PROJECTION_YEAR;
	ymin = commits_upto(h, t0);
	if (!(ymin >= 1))
		ymin = 1;
	ymax = fmax(p->fit_at_horizon[0], p->fit_at_horizon[1]);
	if (!(ymax > ymin))
		ymax = ymin * 10;
	svg_log_range(&lo, &hi, ymin, fmin(ymax, 1e300));
	svg_scale_init(&f.x, projection_year(t0), projection_year(t1), f.left, f.right, 0);
	f.x.years = 1;
	svg_scale_init(&f.y, lo, hi, f.bottom, f.top, 1);

	fmt_year(year, sizeof(year), p->horizon_time, 0);
	fmt_day(num, sizeof(num), p->window_start, p->zone);
	snprintf(line, sizeof(line), "Projected commit count to %s: both fits of the growth since "
		 "%s, and the spread between them", year, num);
	fputs("<g class=\"projection\">\n", out);
	text_at(out, f.left, top + 18, "subtitle", NULL, line);
	svg_axes(out, &f, "year", "commits (log scale)", 12, 12);
	svg_clip(out, &f, "projection-plot");
	inside = frame_box(&f);

	/*
	 * The curves first, as drawn, so that each label goes where none
	 * crosses it: the measured count over the window, both fits from its
	 * end to the horizon (ending at the numbers the text prints), the
	 * levels and the window's end.
	 */
	for (int k = 0; k <= 4 * steps; k++) {
		double t = t0 + ((double)p->window_end - t0) * k / (4 * steps);

		cx[k] = svg_scale_map(&f.x, projection_year(t));
		cy[k] = svg_scale_map(&f.y, fmax(commits_upto(h, t), 1));
	}
	for (int i = 0; i < 2; i++) {
		end[i] = round(p->fit_at_horizon[i]);
		for (int k = 0; k <= steps; k++) {
			double t = (double)p->window_end + (t1 - (double)p->window_end) * k / steps;
			double c = k == steps ? end[i] : projection_fit_count_at(p, i, t);

			fx[i][k] = svg_scale_map(&f.x, projection_year(t));
			fy[i][k] = svg_scale_map(&f.y, fmax(c, lo / 10));
		}
	}
	xnow = svg_scale_map(&f.x, projection_year((double)p->window_end));
	svg_marks_init(&m);
	m.clip = inside;
	m.clipped = 1;
	marks_polyline(&m, cx, cy, 4 * steps + 1, 2);
	for (int i = 0; i < 2; i++)
		marks_polyline(&m, fx[i], fy[i], steps + 1, i == p->chosen ? 2.4 : 1.6);
	svg_marks_line(&m, xnow, f.top, xnow, f.bottom, 1);
	for (unsigned L = PROJECTION_FROM; L <= PROJECTION_TO; L++) {
		double c = (double)p->p01[L].capacity;

		if (c >= lo && c <= hi)
			svg_marks_line(&m, f.left, svg_scale_map(&f.y, c), f.right,
				       svg_scale_map(&f.y, c), 1);
	}

	/* the levels: commits at which a length passes P(collision) = 1% */
	for (unsigned L = PROJECTION_FROM; L <= PROJECTION_TO; L++) {
		double c = (double)p->p01[L].capacity;
		label_spot at;

		if (c < lo || c > hi)
			continue;
		y = svg_scale_map(&f.y, c);
		fmt_count(num, sizeof(num), c);
		fprintf(out, "<g class=\"level\" data-length=\"%u\" data-commits=\"%.0f\"><line "
			     "x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#9467bd\" "
			     "stroke-dasharray=\"2 3\"/>", L, c, f.left, y, f.right, y);
		snprintf(line, sizeof(line), "%u chars: P = 1%% at %s commits", L, num);
		{
			/*
			 * above the level at the left, where no curve crosses
			 * the text (a count passing the level there would),
			 * else at the right, else below
			 */
			const label_spot spot[] = {
				{ f.left + 6, y - 5, NULL }, { f.right - 6, y - 5, "end" },
				{ f.left + 6, y + 14, NULL }, { f.right - 6, y + 14, "end" },
			};

			at = place_label(&m, spot, sizeof(spot) / sizeof(spot[0]), line, &inside);
		}
		text_at(out, at.x, at.y, "note", at.anchor, line);
		fputs("</g>\n", out);
		levels++;
	}

	/* the spread: the band between the two fits, from now to the horizon */
	fputs("<path class=\"fit-spread\" clip-path=\"url(#projection-plot)\" fill=\"#ff7f0e\" "
	      "fill-opacity=\"0.15\" stroke=\"none\" d=\"", out);
	for (int i = 0; i <= 2 * steps + 1; i++) {
		int fit = i <= steps ? 0 : 1;
		int k = i <= steps ? i : 2 * steps + 1 - i;
		double t = (double)p->window_end + (t1 - (double)p->window_end) * k / steps;

		fprintf(out, "%s%.1f %.1f", i ? "L" : "M", svg_scale_map(&f.x, projection_year(t)),
			svg_scale_map(&f.y, fmax(projection_fit_count_at(p, fit, t), lo / 10)));
	}
	fputs("Z\"/>\n", out);

	/* the measured count over the window */
	fputs("<polyline class=\"measured-count\" fill=\"none\" stroke=\"#d62728\" "
	      "stroke-width=\"2\" points=\"", out);
	for (int k = 0; k <= 4 * steps; k++)
		fprintf(out, "%s%.1f,%.1f", k ? " " : "", cx[k], cy[k]);
	fputs("\"/>\n", out);

	/* the fits, each labelled with its count at the horizon off its line */
	for (int i = 0; i < 2; i++) {
		const projection_fit *fi = &p->fits[i];
		const char *name = projection_fit_name(fi->kind);
		const char *colour = i ? "#1f77b4" : "#ff7f0e";
		/* the upper fit's label above its end, the lower's below */
		double ye = fy[i][steps], dir = end[i] >= p->fit_at_horizon[!i] ? -1 : 1;
		label_spot spot[16];
		size_t n = 0;
		label_spot at;

		fprintf(out, "<path class=\"fit fit-%s%s\" data-fit=\"%s\" data-end-year=\"%s\" "
			     "data-end-commits=\"%.0f\" clip-path=\"url(#projection-plot)\" fill=\"none\" "
			     "stroke=\"%s\" stroke-width=\"%s\" stroke-dasharray=\"%s\" d=\"",
			name, i == p->chosen ? " chosen" : "", name, year, end[i], colour,
			i == p->chosen ? "2.4" : "1.6", i == p->chosen ? "8 4" : "3 3");
		for (int k = 0; k <= steps; k++)
			fprintf(out, "%s%.1f %.1f", k ? "L" : "M", fx[i][k], fy[i][k]);
		fputs("\"/>\n", out);
		fmt_count(num, sizeof(num), end[i]);
		snprintf(line, sizeof(line), "%s (%s)", num, name);
		for (int d = 0; d < 8; d++, n++)
			spot[n] = (label_spot){ f.right - 4, ye + (dir < 0 ? -8 - 4 * d : 16 + 4 * d), "end" };
		for (int d = 0; d < 8; d++, n++)
			spot[n] = (label_spot){ f.right - 4, ye + (dir > 0 ? -8 - 4 * d : 16 + 4 * d), "end" };
		at = place_label(&m, spot, n, line, &inside);
		text_at(out, at.x, at.y, "point-label fit-end", "end", line);
	}

	/* now: the end of the window, its date at the top, else at the bottom */
	fprintf(out, "<g class=\"window-end\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		     "y2=\"%.1f\" stroke=\"#999\" stroke-dasharray=\"5 4\"/>", xnow, f.top, xnow,
		f.bottom);
	fmt_day(num, sizeof(num), p->window_end, p->zone);
	{
		const label_spot spot[] = {
			{ xnow + 4, f.top + 14, NULL }, { xnow + 4, f.bottom - 6, NULL },
			{ xnow - 4, f.top + 14, "end" }, { xnow - 4, f.bottom - 6, "end" },
		};
		label_spot at = place_label(&m, spot, sizeof(spot) / sizeof(spot[0]), num, &inside);

		text_at(out, at.x, at.y, "note", at.anchor, num);
	}
	fputs("</g>\n", out);
	svg_marks_free(&m);

	lp = (legend_pos){ f.left, f.bottom + 62, f.left, f.right, 18 };
	fputs("<g class=\"legend\">\n", out);
	line_legend(out, &lp, "#d62728", 2, NULL, "commits, measured");
	for (int i = 0; i < 2; i++) {
		fmt_growth(growth, sizeof(growth), p->fits[i].kind == PROJECTION_FIT_EXP,
			   p->fits[i].growth);
		/* each as drawn: the fit used dashed and heavier, the other dotted */
		snprintf(line, sizeof(line), "%s fit, %s%s", projection_fit_name(p->fits[i].kind),
			 growth, i == p->chosen ? ", used (dashed)" : " (dotted)");
		line_legend(out, &lp, i ? "#1f77b4" : "#ff7f0e", i == p->chosen ? 2.4 : 1.6,
			    i == p->chosen ? "8 4" : "3 3", line);
	}
	legend_item(out, &lp, NULL, "#ff7f0e", "square", 0, "spread between the fits");
	/* only what the panel draws: no level lies in its range on a short history */
	if (levels)
		line_legend(out, &lp, "#9467bd", 1, "2 3", "L chars: P(collision) = 1% (dotted)");
	fputs("</g>\n</g>\n", out);
	return lp.y + lp.row;
}

/* The backtest's lengths: a colour each. */
static const char *const bt_colours[BACKTEST_MAX_LENS] = { "#1f77b4", "#d62728", "#2ca02c" };

/* A backtest point: filled when inside its 99% range, a ring when outside. */
static void bt_marker(FILE *out, double x, double y, const char *colour, int hit)
{
	fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"%s\" stroke=\"%s\" "
		     "stroke-width=\"%s\"", x, y, hit ? colour : "#fff", hit ? "#fff" : colour,
		hit ? "1" : "2");
}

/*
 * The backtest as a calibration chart: x (log) the colliding prefixes a
 * past fit predicted, y (log) what the history held then, one point per
 * cut-off, later date and length; the band is the central 99% Poisson
 * range of each prediction, so a point inside the band is a hit.  A
 * measured 0 (and a range from 0) sits on the bottom edge.  Points:
 * <circle class="bt-point" data-length data-expected data-low data-high
 * data-measured data-hit>.
 */
static double backtest_panel(FILE *out, const backtest_results *b, double top)
{
	svg_frame f = { .left = 96, .top = top + 34, .right = WIDTH - 48, .bottom = top + 394 };
	double vmin = HUGE_VAL, vmax = 0, lo, hi, y;
	const int steps = 96;
	char line[512], num[32];
	legend_pos lp;

	fputs("<g class=\"backtest\">\n", out);
	if (!b->nrows) {
		snprintf(line, sizeof(line), "No backtest: the history holds no cut-off %.3g years "
			 "before its newest commit with a year of commits before it.", b->step_years);
		y = svg_wrapped(out, f.left, top + 18, 15, NOTE_WIDTH, "note", line);
		fputs("</g>\n", out);
		return y - 11;
	}
	for (size_t i = 0; i < b->nrows; i++)
		for (size_t j = 0; j < b->nlens; j++) {
			const backtest_cell *c = &b->rows[i].len[j];
			double v[3] = { c->expected, (double)c->measured, (double)c->hi };

			for (int k = 0; k < 3; k++) {
				if (v[k] > 0 && v[k] < vmin)
					vmin = v[k];
				if (v[k] > vmax)
					vmax = v[k];
			}
		}
	if (!(vmin >= 0.1))
		vmin = 0.1; /* lower predictions sit on the edge with the zeros */
	if (!(vmax > vmin))
		vmax = vmin * 10;
	svg_log_range(&lo, &hi, vmin, vmax);
	svg_scale_init(&f.x, lo, hi, f.left, f.right, 1);
	svg_scale_init(&f.y, lo, hi, f.bottom, f.top, 1);

	snprintf(line, sizeof(line), "Backtest: colliding prefixes among commits that fits made "
		 "%.3g, %.3g, ... years back predicted, against what the history held", b->step_years,
		 2 * b->step_years);
	text_at(out, f.left, top + 18, "subtitle", NULL, line);
	svg_axes(out, &f, "predicted colliding prefixes (log scale)",
		 "measured (log scale)", 12, 12);
	svg_clip(out, &f, "backtest-plot");

	/* the band: the 99% range of a prediction, for every prediction along x */
	fputs("<path class=\"bt-band\" clip-path=\"url(#backtest-plot)\" fill=\"#888\" "
	      "fill-opacity=\"0.2\" stroke=\"none\" d=\"", out);
	for (int i = 0; i <= 2 * steps + 1; i++) {
		int k = i <= steps ? i : 2 * steps + 1 - i;
		double mu = lo * pow(hi / lo, (double)k / steps);
		uint64_t l, h;

		model_poisson_interval(mu, BACKTEST_Q, &l, &h);
		fprintf(out, "%s%.1f %.1f", i ? "L" : "M", svg_scale_map(&f.x, mu),
			svg_scale_map(&f.y, fmax(i <= steps ? (double)h : (double)l, lo)));
	}
	fputs("Z\"/>\n", out);
	fprintf(out, "<line class=\"bt-diagonal\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		     "stroke=\"#555\" stroke-dasharray=\"6 4\"/>\n", f.left, f.bottom, f.right, f.top);

	for (size_t j = 0; j < b->nlens; j++) {
		fprintf(out, "<g class=\"bt-length\" data-length=\"%u\">\n", b->lens[j]);
		for (size_t i = 0; i < b->nrows; i++) {
			const backtest_row *r = &b->rows[i];
			const backtest_cell *c = &r->len[j];
			char cut[16], at[16];

			bt_marker(out, svg_scale_map(&f.x, fmax(c->expected, lo)),
				  svg_scale_map(&f.y, fmax((double)c->measured, lo)), bt_colours[j],
				  c->hit);
			fmt_day(cut, sizeof(cut), b->dates[r->cut], b->zone);
			fmt_day(at, sizeof(at), b->dates[r->at], b->zone);
			fmt_sig(num, sizeof(num), c->expected, 3);
			fprintf(out, " class=\"bt-point\" data-length=\"%u\" data-expected=\"%.6g\" "
				     "data-low=\"%llu\" data-high=\"%llu\" data-measured=\"%llu\" "
				     "data-hit=\"%d\"><title>%u chars: fitted %s, predicted for %s: %s; "
				     "measured %llu</title></circle>\n",
				b->lens[j], c->expected, (unsigned long long)c->lo,
				(unsigned long long)c->hi, (unsigned long long)c->measured, c->hit,
				b->lens[j], cut, at, num, (unsigned long long)c->measured);
		}
		fputs("</g>\n", out);
	}

	lp = (legend_pos){ f.left, f.bottom + 62, f.left, f.right, 18 };
	fputs("<g class=\"legend\">\n", out);
	for (size_t j = 0; j < b->nlens; j++) {
		snprintf(line, sizeof(line), "%u chars (%zu of %zu inside)", b->lens[j],
			 b->len_hits[j], b->len_cells[j]);
		legend_item(out, &lp, NULL, bt_colours[j], "circle", 0, line);
	}
	legend_item(out, &lp, NULL, "#888", "square", 0, "99% Poisson range of a prediction");
	line_legend(out, &lp, "#555", 1, "6 4", "measured = predicted (dashed)");
	fputs("</g>\n", out);
	y = lp.y + lp.row + 8;
	emit_backtest_summary(line, sizeof(line), b);
	y = svg_wrapped(out, f.left, y, 15, NOTE_WIDTH, "note",
			"A ring is a measured count outside its range; a measured 0, and a range "
			"from 0, lie on the bottom edge.");
	line[0] = (char)toupper((unsigned char)line[0]);
	y = svg_wrapped(out, f.left, y, 15, NOTE_WIDTH, "note", line);
	fputs("</g>\n", out);
	return y - 11;
}

/*
 * x: the length; y (log): the number of commits when two commits first
 * shared that many chars.  Measured moments are points labelled with
 * their year; the model's expectation, sqrt(pi/2 * 16^L) random IDs, is
 * the line; today's commit count is a dashed level, so the lengths above
 * it (not collided yet) show how far off they are.
 */
static int history_svg(FILE *out, const history_report *r)
{
	const history_results *h = r->h;
	int projected = r->p && r->p->status == PROJECTION_OK && h->times && h->commits >= 2;
	svg_frame f = { .left = 96, .top = 74, .right = WIDTH - 24, .bottom = 490 };
	unsigned maxL = (unsigned)(2 * h->rawsz), xmax;
	double ymin, ymax, lo, hi, y;
	char title[256], repos[160], num[32], line[256], date[32], zone[8], then[32], model[32];
	double mx[ABBREV_MAX_HEXSZ + 1], my[ABBREV_MAX_HEXSZ + 1], yn;
	label_spot year_at[ABBREV_MAX_HEXSZ + 1];
	svg_box inside;
	svg_marks m;
	legend_pos p;
	svg_doc doc;

	xmax = (h->longest > ABBREV_MIN_LEN ? h->longest : ABBREV_MIN_LEN) + 2;
	if (xmax < CHART_LEN_B)
		xmax = CHART_LEN_B;
	if (xmax > maxL)
		xmax = maxL;
	ymin = h->model[ABBREV_MIN_LEN].expected_commits;
	ymax = h->model[xmax].expected_commits;
	if (h->commits > 0 && (double)h->commits > ymax)
		ymax = (double)h->commits;
	if (h->commits > 0 && (double)h->commits < ymin)
		ymin = (double)h->commits; /* the "commits now" level inside the plot */
	for (unsigned L = ABBREV_MIN_LEN; L <= h->longest; L++)
		if (h->first[L].commits_then && (double)h->first[L].commits_then < ymin)
			ymin = (double)h->first[L].commits_then;
	if (!(ymin >= 1))
		ymin = 1;
	svg_log_range(&lo, &hi, ymin, ymax);
	svg_scale_init(&f.x, ABBREV_MIN_LEN - 0.4, xmax + 0.4, f.left, f.right, 0);
	f.x.whole = 1;
	svg_scale_init(&f.y, lo, hi, f.bottom, f.top, 1);

	repos_title(repos, sizeof(repos), r->repos, r->nrepos);
	fmt_count(num, sizeof(num), (double)h->commits);
	snprintf(title, sizeof(title), "%s%s%s %s: when each length first collided",
		 repos, r->nrepos ? ": " : "", num, emit_noun(h->commits, "commit", "commits"));
	if (!doc_open(&doc, out))
		return -1;
	out = doc.body;
	snprintf(line, sizeof(line), "%s%s%s %s (%s)", repos, r->nrepos ? ": " : "", num,
		 emit_noun(h->commits, "commit", "commits"),
		 hexid_hash_name(h->rawsz) ? hexid_hash_name(h->rawsz) : "unknown");
	text_at(out, f.left, 26, "title", NULL, r->title ? r->title : line);
	text_at(out, f.left, 48, "subtitle", NULL,
		"Commits in the repository when two first shared L hex chars (committer-time "
		"order), and the model's expectation");
	svg_axes(out, &f, "abbreviation length (hex chars)", "commits then (log scale)", 32, 16);
	svg_clip(out, &f, "plot");
	svg_mark_lengths(out, &f, chart_lengths, 2);
	inside = frame_box(&f);

	/*
	 * The labels first: each year beside its point where neither the
	 * model's line nor today's level runs through it (right, left, above,
	 * below), then "commits now" at either end of its level.
	 */
	svg_marks_init(&m);
	m.clip = frame_box(&f);
	m.clipped = 1;
	yn = h->commits >= 1 ? svg_scale_map(&f.y, (double)h->commits) : NAN;
	svg_marks_line(&m, f.left, yn, f.right, yn, 1);
	for (unsigned L = ABBREV_MIN_LEN; L <= xmax; L++) {
		mx[L - ABBREV_MIN_LEN] = svg_scale_map(&f.x, L);
		my[L - ABBREV_MIN_LEN] = svg_scale_map(&f.y, h->model[L].expected_commits);
	}
	marks_polyline(&m, mx, my, xmax - ABBREV_MIN_LEN + 1, 1.6);
	for (unsigned L = ABBREV_MIN_LEN; L <= h->longest; L++) {
		double x = svg_scale_map(&f.x, L);
		double yp = svg_scale_map(&f.y, (double)h->first[L].commits_then);

		svg_marks_box(&m, (svg_box){ x - 4.5, yp - 4.5, x + 4.5, yp + 4.5 });
	}
	for (unsigned L = ABBREV_MIN_LEN; L <= h->longest; L++) {
		const history_first *fi = &h->first[L];
		double x = svg_scale_map(&f.x, L), yp = svg_scale_map(&f.y, (double)fi->commits_then);
		const label_spot spot[] = {
			{ x + 8, yp + 4, NULL }, { x - 8, yp + 4, "end" }, { x, yp - 9, "middle" },
			{ x, yp + 18, "middle" }, { x + 8, yp - 6, NULL }, { x + 8, yp + 14, NULL },
			{ x - 8, yp - 6, "end" }, { x - 8, yp + 14, "end" },
		};

		fmt_date(date, sizeof(date), fi->time, fi->pair_tz[1]);
		date[4] = '\0';
		year_at[L] = place_label(&m, spot, sizeof(spot) / sizeof(spot[0]), date, &inside);
	}
	if (h->commits >= 1) {
		const label_spot spot[] = {
			{ f.right - 6, yn - 5, "end" }, { f.left + 6, yn - 5, NULL },
			{ f.right - 6, yn + 14, "end" }, { f.left + 6, yn + 14, NULL },
		};
		label_spot at;

		snprintf(line, sizeof(line), "commits now: %s", num);
		at = place_label(&m, spot, sizeof(spot) / sizeof(spot[0]), line, &inside);
		fprintf(out, "<g class=\"now\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			     "stroke=\"#999\" stroke-dasharray=\"5 4\"/>", f.left, yn, f.right, yn);
		text_at(out, at.x, at.y, "note", at.anchor, line);
		fputs("</g>\n", out);
	}
	svg_marks_free(&m);
	fprintf(out, "<g class=\"series set-commit\" id=\"series-commit\" data-set=\"commit\">\n"
		     "<polyline class=\"model\" clip-path=\"url(#plot)\" fill=\"none\" stroke=\"%s\" "
		     "stroke-width=\"1.6\" stroke-opacity=\"0.75\" points=\"", series[1].colour);
	for (unsigned L = ABBREV_MIN_LEN; L <= xmax; L++)
		fprintf(out, "%s%.1f,%.1f", L > ABBREV_MIN_LEN ? " " : "", mx[L - ABBREV_MIN_LEN],
			my[L - ABBREV_MIN_LEN]);
	fputs("\"/>\n<g class=\"measured\">\n", out);
	for (unsigned L = ABBREV_MIN_LEN; L <= h->longest; L++) {
		const history_first *fi = &h->first[L];
		double x = svg_scale_map(&f.x, L), yp = svg_scale_map(&f.y, (double)fi->commits_then);

		/* the committer's time and zone, as git log prints them */
		fmt_date(date, sizeof(date), fi->time, fi->pair_tz[1]);
		snprintf(zone, sizeof(zone), "%c%02d%02d", fi->pair_tz[1] < 0 ? '-' : '+',
			 abs(fi->pair_tz[1]) / 60 % 100, abs(fi->pair_tz[1]) % 60);
		fmt_count(then, sizeof(then), (double)fi->commits_then);
		fmt_count(model, sizeof(model), round(h->model[L].expected_commits));
		marker_open(out, "square", x, yp, series[1].colour);
		fprintf(out, " class=\"point\" data-length=\"%u\" data-commits=\"%llu\" "
			     "data-time=\"%lld\"><title>%u chars: first shared %s %s, after %s "
			     "commits; model %s</title></rect>\n",
			L, (unsigned long long)fi->commits_then, (long long)fi->time, L, date, zone, then,
			model);
		date[4] = '\0';
		text_at(out, year_at[L].x, year_at[L].y, "point-label", year_at[L].anchor, date);
	}
	fputs("</g>\n</g>\n", out);

	p = (legend_pos){ f.left, f.bottom + 64, f.left, f.right, 18 };
	fputs("<g class=\"legend\">\n", out);
	legend_item(out, &p, "commit", series[1].colour, "square", 0,
		    "first collision, labelled with its year");
	legend_item(out, &p, NULL, series[1].colour, NULL, 1,
		    "model: random IDs first collide after sqrt(pi/2 * 16^L)");
	fputs("</g>\n", out);
	y = p.y + p.row + 8;
	if (h->longest < ABBREV_MIN_LEN) {
		snprintf(line, sizeof(line), "No two commits share %d chars yet.", ABBREV_MIN_LEN);
		y = svg_wrapped(out, f.left, y, 15, NOTE_WIDTH, "note", line);
	} else if (h->longest < xmax) {
		fmt_count(num, sizeof(num), round(h->model[h->longest + 1].expected_commits));
		snprintf(line, sizeof(line), "Not collided yet: %u chars and more (the model "
			 "expects a first collision at %u after %s commits).", h->longest + 1,
			 h->longest + 1, num);
		y = svg_wrapped(out, f.left, y, 15, NOTE_WIDTH, "note", line);
	}
	for (int i = 0; emit_lacks_note(r->lacks, i); i++) {
		snprintf(line, sizeof(line), "Note: %s.", emit_lacks_note(r->lacks, i));
		y = svg_wrapped(out, f.left, y, 15, NOTE_WIDTH, "note", line);
	}
	if (r->p && !projected && h->commits >= 2) {
		char why[200];

		emit_projection_none(why, sizeof(why), r->p);
		snprintf(line, sizeof(line), "No projection: %s.", why);
		y = svg_wrapped(out, f.left, y, 15, NOTE_WIDTH, "note", line);
	}
	y -= 11; /* the last note's bottom */
	if (projected)
		y = projection_panel(out, r, fmax(MODEL_HEIGHT - 10, y + 10));
	if (r->bt)
		y = backtest_panel(out, r->bt, y + 20);
	return doc_close(&doc, WIDTH, MODEL_HEIGHT, y, r->title ? r->title : title);
}

/* ---- policy: the model now and grown, measured points, 12 and 16 ------- */

/*
 * A direct label of one of the policy chart's lines: the line's right end
 * (x, y), the label's baseline ly in the gutter right of every line end.
 */
typedef struct {
	double x, y, ly;
	const char *colour;
	char text[24];
} line_label;

/* Dash patterns of the model now (solid) and after each of the years. */
static const char *const policy_dash[1 + POLICY_NYEARS] = { NULL, "9 4", "4 4", "1.5 3" };

static const char *policy_colour(const char *name, const char **marker)
{
	for (int k = 0; k < ABBREV_SET_COUNT; k++)
		if (!strcmp(name, idset_name(series[k].set))) {
			*marker = series[k].marker;
			return series[k].colour;
		}
	*marker = "circle";
	return "#222222";
}

/* The expected pairs of row i of s now (y = 0) or after years[y - 1]. */
static double policy_pairs(const policy_row *row, int y)
{
	return y ? row->pairs_at[y - 1] : row->expected_pairs;
}

/*
 * The colour of a set's line after years[yy - 1] (yy = 0: now): the set's
 * colour mixed with white, paler the further ahead, so the years differ in
 * colour as well as in dashes.  colour is "#rrggbb"; tint gets 8 bytes.
 */
static void policy_tint(char *tint, const char *colour, int yy)
{
	static const double white[1 + POLICY_NYEARS] = { 0, 0.3, 0.5, 0.65 };
	unsigned rgb = (unsigned)strtoul(colour + 1, NULL, 16), c[3];

	for (int i = 0; i < 3; i++) {
		double v = (double)(rgb >> (16 - 8 * i) & 0xff);

		c[i] = (unsigned)lround(v + (255 - v) * white[yy]);
	}
	snprintf(tint, 8, "#%02x%02x%02x", c[0] & 0xff, c[1] & 0xff, c[2] & 0xff);
}

/*
 * The second y axis, at the right: P(collision) = 1 - exp(-E) of the
 * model's lines, whose expected pairs E the left axis counts; ticks at
 * 50% and the powers of ten of P, the 1% and 50% levels dashed across.
 */
static void policy_p_axis(FILE *out, const svg_frame *f)
{
	double t[40], lo = f->y.lo, hi = f->y.hi;
	size_t n = 0, every = 1;
	char label[48];

	t[n++] = MODEL_P_HIGH;
	for (int k = 1; k < 39; k++) {
		double pk = pow(10, -k);

		if (-log1p(-pk) < lo)
			break;
		t[n++] = pk;
	}
	while ((n - 1) / every + 1 > 10)
		every++;
	fputs("<g class=\"axis p\">\n", out);
	for (size_t i = 0; i < n; i++) {
		double e = -log1p(-t[i]), y = svg_scale_map(&f->y, e);
		int level = t[i] == MODEL_P_HIGH || t[i] == MODEL_P_LOW;

		if (!(e >= lo && e <= hi) || (!level && i > 0 && (i - 1) % every))
			continue;
		svg_fmt_number(label, sizeof(label), t[i]);
		fprintf(out, "<g class=\"tick\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			     "stroke=\"#888\"/><text x=\"%.1f\" y=\"%.1f\">%s</text></g>\n",
			f->right, y, f->right + 5, y, f->right + 8, y + 4, label);
		if (level)
			fprintf(out, "<g class=\"level\" data-p=\"%g\"><line x1=\"%.1f\" y1=\"%.1f\" "
				     "x2=\"%.1f\" y2=\"%.1f\" stroke=\"#999\" stroke-dasharray=\"5 4\"/></g>\n",
				t[i], f->left, y, f->right, y);
	}
	fprintf(out, "<text class=\"axis-label\" transform=\"translate(%.1f %.1f) rotate(-90)\" "
		     "text-anchor=\"middle\">P(collision) of the lines (log; dashed: 1%%, 50%%)</text>\n"
		     "</g>\n", f->right + 66, (f->top + f->bottom) / 2);
}

/*
 * The line labels (sorted by the y of their lines' ends) in the gutter at
 * x: each as near its line's end as it can be, at least 14 px from the one
 * above, clear of m's lines (the 1% and 50% levels cross the gutter) and
 * inside the plot; pushed out at the bottom, they move back up the same way.
 */
#define LABEL_STEP 14
static void policy_labels_place(line_label *l, size_t n, const svg_frame *f, double x,
				const svg_marks *m)
{
	line_label t;
	svg_box in = frame_box(f);

	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && l[j].y < l[j - 1].y; j--) {
			t = l[j];
			l[j] = l[j - 1];
			l[j - 1] = t;
		}
	/* the baseline 4 px under the line's end: the text's middle on it */
	for (size_t i = 0; i < n; i++) {
		double y = fmax(l[i].y + 4, i ? l[i - 1].ly + LABEL_STEP : f->top + 12);

		while (y < f->bottom &&
		       !svg_marks_clear(m, svg_text_box(x, y, 12, NULL, l[i].text), &in))
			y++;
		l[i].ly = y;
	}
	for (size_t i = n; i-- > 0;) {
		double max = i + 1 < n ? l[i + 1].ly - LABEL_STEP : f->bottom - 4;
		double y = fmin(l[i].ly, max);

		while (y > f->top + 12 &&
		       !svg_marks_clear(m, svg_text_box(x, y, 12, NULL, l[i].text), &in))
			y--;
		l[i].ly = y;
	}
}

/* The y range of the policy chart: every line drawn, every measured point, the 50% level. */
static void policy_range(const policy_results *r, int ny, double *lo, double *hi)
{
	double ymin = HUGE_VAL, ymax = 1;

	for (size_t k = 0; k < r->nsets; k++)
		for (size_t i = 0; i < r->nlengths; i++) {
			const policy_row *row = &r->sets[k].rows[i];

			for (int yy = 0; yy < ny; yy++) {
				double e = policy_pairs(row, yy);

				if (e > 0 && e < ymin)
					ymin = e;
				if (isfinite(e) && e > ymax)
					ymax = e;
			}
			if (row->measured && (double)row->prefixes > ymax)
				ymax = (double)row->prefixes;
		}
	if (!(ymin < 0.01))
		ymin = 0.01;
	if (ymin < CHART_YMIN)
		ymin = CHART_YMIN;
	if (ymax > 1e30)
		ymax = 1e30;
	svg_log_range(lo, hi, ymin, ymax);
}

/*
 * The sets drawn "cased": the commits come last, on top (commit-ish often
 * differs from them by a few tags only, and its lines would be hidden
 * exactly under theirs); a set whose line now runs within CASED_PX of a
 * set drawn over it at every length is drawn wide and pale, so both show.
 */
static void policy_cased(int *cased, const policy_results *r, const svg_frame *f)
{
	for (size_t k = 0; k < r->nsets; k++) {
		cased[k] = 0;
		for (size_t j = 0; j < k && !cased[k]; j++) {
			int near = 1;

			for (size_t i = 0; i < r->nlengths && near; i++) {
				double a = r->sets[k].rows[i].expected_pairs;
				double b = r->sets[j].rows[i].expected_pairs;

				near = a > 0 && b > 0 &&
				       fabs(svg_scale_map(&f->y, a) - svg_scale_map(&f->y, b)) < CASED_PX;
			}
			cased[k] = near;
		}
	}
}

/*
 * Set k's series, a <g>: its model lines now and grown, each with a label
 * at its right end added to labels[] (*nlabels), the model now as open
 * circles, the measured prefixes as filled markers.  lo and hi: the y range.
 */
static void policy_series(FILE *out, const policy_results *r, size_t k, const svg_frame *f,
			  int ny, int cased, double lo, double hi, line_label *labels,
			  size_t *nlabels)
{
	const policy_set *s = &r->sets[k];
	const char *marker, *colour = policy_colour(s->name, &marker);
	double dodge = ((double)k - ((double)r->nsets - 1) / 2) * 4;

	fprintf(out, "<g class=\"series set-%s\" id=\"series-%s\" data-set=\"%s\" "
		     "data-count=\"%llu\">\n", s->name, s->name, s->name,
		(unsigned long long)s->n);
	for (int yy = ny - 1; yy >= 0; yy--) {
		int any = 0;

		char tint[8];
		double e_end = policy_pairs(&s->rows[r->nlengths - 1], yy);

		policy_tint(tint, colour, yy);
		fprintf(out, "<polyline class=\"%s\" data-years=\"%g\" clip-path=\"url(#plot)\" "
			     "fill=\"none\" stroke=\"%s\" stroke-width=\"%s\"%s%s%s%s points=\"",
			yy ? "model projection" : "model", yy ? r->years[yy - 1] : 0.0, tint,
			cased ? (yy ? "4.4" : "6") : (yy ? "1.4" : "2"),
			cased ? " stroke-opacity=\"0.45\"" : "",
			policy_dash[yy] ? " stroke-dasharray=\"" : "",
			policy_dash[yy] ? policy_dash[yy] : "", policy_dash[yy] ? "\"" : "");
		for (size_t i = 0; i < r->nlengths; i++) {
			double e = policy_pairs(&s->rows[i], yy), yp;

			/* below the axis it only has to leave the plot, clipped */
			if (!(e > lo / 1000))
				e = lo / 1000;
			yp = svg_scale_map(&f->y, e);
			fprintf(out, "%s%.1f,%.1f", any++ ? " " : "",
				svg_scale_map(&f->x, s->rows[i].length), yp);
		}
		fputs("\"/>\n", out);
		/*
		 * a label for the line's right end (placed in the gutter by
		 * policy_labels_place); a cased set's lines lie under another's
		 */
		if (!cased && e_end >= lo && e_end <= hi && ny > 1) {
			line_label *l = &labels[(*nlabels)++];

			l->x = svg_scale_map(&f->x, s->rows[r->nlengths - 1].length);
			l->y = svg_scale_map(&f->y, e_end);
			l->colour = colour;
			if (yy)
				snprintf(l->text, sizeof(l->text), "in %g years", r->years[yy - 1]);
			else
				snprintf(l->text, sizeof(l->text), "now");
		}
	}
	/* the model now at each length: open circles; measured: filled markers */
	for (size_t i = 0; i < r->nlengths; i++) {
		const policy_row *row = &s->rows[i];
		double e = row->expected_pairs;
		char es[48], pc[32];

		if (!(e >= lo && e <= hi))
			continue;
		/* spelled as the text's rows spell them (fmt.h) */
		fmt_expected(es, sizeof(es), e);
		emit_fmt_p_collision(pc, sizeof(pc), row->p_now, s->n, row->length, 2);
		/* a cased set's circle rings the one drawn over it */
		fprintf(out, "<circle class=\"point model\" cx=\"%.1f\" cy=\"%.1f\" r=\"%s\" "
			     "fill=\"#fff\" stroke=\"%s\" stroke-width=\"1.5\" data-length=\"%u\" "
			     "data-pairs=\"%.6g\"><title>%s, %u chars: %s pairs expected now, "
			     "P = %s</title></circle>\n",
			svg_scale_map(&f->x, row->length), svg_scale_map(&f->y, e),
			cased ? "6" : "3.5", colour, row->length, e, emit_set_title(s->name),
			row->length, es, pc);
	}
	for (size_t i = 0; i < r->nlengths; i++) {
		const policy_row *row = &s->rows[i];

		if (!row->measured || !row->prefixes)
			continue;
		marker_open(out, marker, svg_scale_map(&f->x, row->length) + dodge,
			    svg_scale_map(&f->y, (double)row->prefixes), colour);
		fprintf(out, " class=\"point measured\" data-length=\"%u\" data-prefixes=\"%llu\">"
			     "<title>%s, %u chars: %llu colliding prefixes now</title></%s>\n",
			row->length, (unsigned long long)row->prefixes, emit_set_title(s->name),
			row->length, (unsigned long long)row->prefixes,
			!strcmp(marker, "circle") ? "circle" :
			!strcmp(marker, "square") ? "rect" : "path");
	}
	fputs("</g>\n", out);
}

/* The legend under the plot: the sets, the model now and grown, the markers; its last y. */
static double policy_legend(FILE *out, const policy_report *p, const svg_frame *f, int ny,
			    const int *cased)
{
	const policy_results *r = p->r;
	legend_pos lp = { f->left, f->bottom + 60, f->left, f->right, 18 };
	char num[48], line[512];

	fputs("<g class=\"legend\">\n", out);
	for (size_t k = 0; k < r->nsets; k++) {
		const char *marker, *colour = policy_colour(r->sets[k].name, &marker);
		int measured = r->sets[k].rows[0].measured;

		fmt_count(num, sizeof(num), (double)r->sets[k].n);
		snprintf(line, sizeof(line), "%s: %s%s", emit_set_title(r->sets[k].name), num,
			 cased[k] ? " (wide, under)" : "");
		legend_item(out, &lp, r->sets[k].name, colour, measured ? marker : NULL,
			    cased[k] ? 2 : 1, line);
	}
	lp.x = lp.left;
	lp.y += lp.row;
	dash_legend(out, &lp, NULL, "model now (open circles)");
	for (int yy = 1; yy < ny; yy++) {
		char tint[8];

		policy_tint(tint, "#555555", yy);
		snprintf(line, sizeof(line), "in %g years (paler)", r->years[yy - 1]);
		line_legend(out, &lp, tint, 2, policy_dash[yy], line);
	}
	if (p->nrepos) {
		lp.x = lp.left;
		lp.y += lp.row;
		legend_item(out, &lp, NULL, "#888", "circle", 0,
			    "filled markers: colliding prefixes measured now (0 is not drawn)");
	}
	fputs("</g>\n", out);
	return lp.y + lp.row;
}

static int policy_svg(FILE *out, const policy_report *p)
{
	const policy_results *r = p->r;
	svg_frame f = { .left = 96, .top = 96, .right = WIDTH - 84, .bottom = 500 };
	unsigned lo_len = r->lengths[0], hi_len = r->lengths[r->nlengths - 1];
	int ny = r->growth.kind == POLICY_GROWTH_NONE ? 1 : 1 + POLICY_NYEARS;
	double lo, hi, y;
	char title[320], names[160], num[48], line[512];
	int cased[POLICY_MAX_SETS];
	size_t o = 0, nlabels = 0;
	svg_doc doc;
	svg_marks m;
	line_label labels[POLICY_MAX_SETS * (1 + POLICY_NYEARS)];
	double gutter = 0, lx;

	if (lo_len > CHART_LEN_A)
		lo_len = CHART_LEN_A;
	if (hi_len < CHART_LEN_B)
		hi_len = CHART_LEN_B;
	policy_range(r, ny, &lo, &hi);
	/*
	 * the lines' labels go in a gutter right of their ends, where no
	 * line of a set runs: as wide as the widest label and a leader
	 */
	for (int yy = 1; yy < ny; yy++) {
		snprintf(line, sizeof(line), "in %g years", r->years[yy - 1]);
		gutter = fmax(gutter, svg_text_width(line, 12) + 20);
	}
	svg_scale_init(&f.x, lo_len - 0.4, hi_len + 0.4, f.left, f.right - gutter, 0);
	lx = f.right - gutter + 14;
	f.x.whole = 1;
	svg_scale_init(&f.y, lo, hi, f.bottom, f.top, 1);

	emit_repo_names(names, sizeof(names), p->repos, p->nrepos, 64);
	/* "git: abbreviation policy, 203,352 commits, ...", or for counts "Abbreviation policy: ..." */
	o = (size_t)snprintf(title, sizeof(title), "%s%s", names,
			     p->nrepos ? ": abbreviation policy," : "Abbreviation policy:");
	for (size_t k = 0; k < r->nsets && o < sizeof(title); k++) {
		fmt_count(num, sizeof(num), (double)r->sets[k].n);
		o += (size_t)snprintf(title + o, sizeof(title) - o, "%s %s %s", k ? "," : "", num,
				      emit_set_title(r->sets[k].name));
	}
	if (!doc_open(&doc, out))
		return -1;
	out = doc.body;
	fprintf(out, "<desc>Expected colliding pairs of random IDs (log scale) against the "
		     "abbreviation length, now and grown, with the measured colliding prefixes "
		     "as points; the 1%% and 50%% chances of a collision as levels.</desc>\n");
	text_at(out, f.left, 26, "title", NULL, p->title ? p->title : title);
	emit_policy_growth(line, sizeof(line), p);
	svg_wrapped(out, f.left, 48, 15, NOTE_WIDTH, "subtitle", line);
	svg_axes(out, &f, "abbreviation length (hex chars)",
		 "colliding pairs expected / prefixes measured (log)", 32, 16);
	svg_clip(out, &f, "plot");

	svg_mark_lengths(out, &f, chart_lengths, 2);
	policy_p_axis(out, &f);
	policy_cased(cased, r, &f);
	for (size_t k = r->nsets; k-- > 0;)
		policy_series(out, r, k, &f, ny, cased[k], lo, hi, labels, &nlabels);

	/* the 1% and 50% levels (policy_p_axis) run through the gutter */
	svg_marks_init(&m);
	for (int i = 0; i < 2; i++) {
		double e = -log1p(-(i ? MODEL_P_HIGH : MODEL_P_LOW)), yl = svg_scale_map(&f.y, e);

		if (e >= lo && e <= hi)
			svg_marks_line(&m, f.left, yl, f.right, yl, 1);
	}
	policy_labels_place(labels, nlabels, &f, lx, &m);
	svg_marks_free(&m);
	/* each label with a leader from its line's end (past its open circle) */
	fputs("<g class=\"line-labels\">\n", out);
	for (size_t i = 0; i < nlabels; i++)
		fprintf(out, "<line class=\"leader\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			     "y2=\"%.1f\" stroke=\"%s\" stroke-width=\"0.8\"/>"
			     "<text class=\"line-label\" x=\"%.1f\" y=\"%.1f\" style=\"fill: %s\">%s</text>\n",
			labels[i].x + 7, labels[i].y, lx - 4, labels[i].ly - 4, labels[i].colour, lx,
			labels[i].ly, labels[i].colour, labels[i].text);
	fputs("</g>\n", out);

	y = policy_legend(out, p, &f, ny, cased) + 8;
	y = svg_wrapped(out, f.left, y, 15, NOTE_WIDTH, "note",
			"To quote (P(collision) = 1%; years from the growth above; "
			"a year past the horizon is given as beyond it):");
	for (size_t i = 0; i < r->nlengths; i++) {
		emit_policy_quote(line, sizeof(line), r, i);
		y = svg_wrapped(out, f.left + 12, y, 15, NOTE_WIDTH - 2, "note quote", line);
	}
	for (int i = 0; emit_lacks_note(p->lacks, i); i++) {
		snprintf(line, sizeof(line), "Note: %s.", emit_lacks_note(p->lacks, i));
		y = svg_wrapped(out, f.left, y, 15, NOTE_WIDTH, "note", line);
	}
	return doc_close(&doc, WIDTH, 600, y - 11, p->title ? p->title : title);
}

const emit_format emit_format_svg = {
	.name = "svg",
	.carries = {
		[EMIT_NOTE_LACKS] = EMIT_KIND_BIT(EMIT_REPORT) | EMIT_KIND_BIT(EMIT_HISTORY) |
				    EMIT_KIND_BIT(EMIT_POLICY),
	},
	.report = report_svg,
	.model = model_svg,
	.history = history_svg,
	.policy = policy_svg,
};
