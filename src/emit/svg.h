/*
 * svg.h - the pieces of an SVG chart written as text: scales (linear and
 * log10), "nice" ticks, tick labels, XML escaping, and a frame with
 * labelled axes and grid lines, so that each chart emitter only places
 * its own series.  No results structs here and no plotting library.
 *
 * Ownership: nothing is allocated; callers own every buffer and FILE *.
 * Numbers are printed with the C locale's decimal point (git-abbrev
 * never calls setlocale for LC_NUMERIC).
 */
#ifndef ABBREV_SVG_H
#define ABBREV_SVG_H

#include <stddef.h>
#include <stdio.h>

/* A map from data values [lo, hi] to pixel positions [p0, p1] (p1 < p0 is fine). */
typedef struct {
	double lo, hi;
	double p0, p1;
	int log;   /* 1: log10 scale; lo and hi must then be > 0 */
	int whole; /* linear ticks at whole numbers only (lengths, counts) */
	int years; /* tick labels are calendar years: "2031", never "2,031" */
} svg_scale;

/*
 * Set up a scale (whole = 0).  Returns 0, or -1 (and a scale that maps
 * everything to p0) when the range is empty or, for a log scale, not
 * positive.
 */
int svg_scale_init(svg_scale *s, double lo, double hi, double p0, double p1, int log);

/*
 * The pixel position of v; values outside [lo, hi] extrapolate.  On a log
 * scale, v <= 0 has no position: the result is NAN (callers leave such
 * values out of the chart, and say so).
 */
double svg_scale_map(const svg_scale *s, double v);

/*
 * The whole decades around [min, max] (0 < min <= max):
 * *lo = 10^floor(log10 min), *hi = 10^ceil(log10 max), at least one
 * decade apart.  Returns 0, or -1 if min or max is not positive.
 */
int svg_log_range(double *lo, double *hi, double min, double max);

/*
 * Tick values for a scale, at most `max` (>= 2) of them, into t[],
 * ascending; returns how many.  Linear: multiples of 1, 2 or 5 x 10^k
 * inside [lo, hi] (at least 1 apart if s->whole).  Log: the powers of ten inside [lo, hi], every
 * second (third, ...) one when there are more than `max`.
 */
size_t svg_ticks(double *t, size_t max, const svg_scale *s);

/*
 * A tick label: "0.001", "0.5", "7", "1,000", "65,536", "1,000,000";
 * from 10^9 on, and below 10^-4, a power of ten as it is read, with a
 * superscript: "10⁹", "2.5×10⁹", "10⁻⁵" (never
 * "1e+09").  Always NUL-terminated, never cut inside a UTF-8 sequence.
 */
void svg_fmt_number(char *buf, size_t n, double v);

/*
 * s as XML character data or attribute value: & < > " ' escaped, and
 * what XML 1.0 cannot hold (control chars but tab and newline, bytes that
 * are not UTF-8) written as U+FFFD, so any path gives a well-formed file.
 */
void svg_text(FILE *out, const char *s);

/* A plot area in pixels and the scales that map into it. */
typedef struct {
	double left, top, right, bottom;
	svg_scale x, y;
} svg_frame;

/*
 * The document start: the <svg> element with its size, a <title> (the
 * tooltip and the name a browser tab shows), a white background and the
 * shared style (fonts, grid, axes).
 */
void svg_begin(FILE *out, int width, int height, const char *title);

/*
 * Grid lines and tick labels of both axes (at most max_xticks /
 * max_yticks ticks), the frame around the plot area, and the axis
 * labels: `xlabel` centred below, `ylabel` turned along the left side.
 * Groups: <g class="axis x"> and <g class="axis y">, each with one
 * <g class="tick"> per tick and a <text class="axis-label">.
 */
void svg_axes(FILE *out, const svg_frame *f, const char *xlabel, const char *ylabel,
	      size_t max_xticks, size_t max_yticks);

/* A clipPath named `id` over the plot area, for lines that leave it. */
void svg_clip(FILE *out, const svg_frame *f, const char *id);

/*
 * Text broken into lines of at most `width` chars at spaces (a longer
 * word gets a line of its own), each a <text class="cls"> at x, the
 * first at y, `step` px apart.  Returns the y after the last line.
 */
double svg_wrapped(FILE *out, double x, double y, double step, size_t width,
		   const char *cls, const char *text);

/* How many lines svg_wrapped() breaks text into at `width` chars. */
size_t svg_wrapped_lines(size_t width, const char *text);

/*
 * Mark the given lengths on a length x axis: a pale band over the plot
 * and "<L> chars" above it (<g class="debate" data-length="L">); the
 * bands alternate orange and blue.  Lengths off the axis are skipped.
 */
void svg_mark_lengths(FILE *out, const svg_frame *f, const unsigned *lengths, size_t n);

/*
 * Label placement.  A browser's text metrics are not known here, so a
 * text's width is estimated as tests/svgcheck.py measures it (DejaVu Sans:
 * most chars 0.62 em, narrow ones 0.36, capitals, m, w and % 0.78), a
 * little wider than drawn; its box runs from 0.75 em above the baseline
 * to 0.22 em below.
 */
double svg_text_width(const char *s, double size);

typedef struct {
	double x0, y0, x1, y1;
} svg_box;

/* The box of s drawn at (x, y) (its baseline), anchor NULL (start), "middle" or "end". */
svg_box svg_text_box(double x, double y, double size, const char *anchor, const char *s);

/*
 * What a label has to keep clear of: the lines drawn (segments with their
 * stroke width, cut to `clip` when one is set) and the boxes taken (other
 * labels, markers).  Growing fails quietly: the placement then sees fewer
 * obstacles, it still draws every label.
 */
typedef struct {
	double (*seg)[5]; /* x0, y0, x1, y1, half the stroke width */
	size_t nseg, segcap;
	svg_box *box;
	size_t nbox, boxcap;
	svg_box clip;
	int clipped; /* 1: lines added are cut to clip (their clip-path) */
} svg_marks;

void svg_marks_init(svg_marks *m);
void svg_marks_free(svg_marks *m);
void svg_marks_line(svg_marks *m, double x0, double y0, double x1, double y1, double width);
void svg_marks_box(svg_marks *m, svg_box b);

/*
 * Whether box b is clear: no line within SVG_LINE_GAP px of it, no box
 * overlapping it, and inside `within` when that is not NULL.
 */
#define SVG_LINE_GAP 1.5
int svg_marks_clear(const svg_marks *m, svg_box b, const svg_box *within);

/* The document end.  Returns 0, or -1 if anything failed to write. */
int svg_end(FILE *out);

#endif
