/*
 * svg.c - scales, ticks, labels, escaping and axes for the SVG charts.
 *
 * A log scale maps log10(v) linearly, so each decade gets the same room:
 * the right picture for collision counts, which fall by a factor of about
 * 16 per hex char once collisions are rare (E = n(n-1)/2 / 16^L).
 */
#include <config.h>

#include "svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "grow.h"
#include "utf8.h"

int svg_scale_init(svg_scale *s, double lo, double hi, double p0, double p1, int log)
{
	s->lo = lo;
	s->hi = hi;
	s->p0 = p0;
	s->p1 = p1;
	s->log = log;
	s->whole = 0;
	s->years = 0;
	if (!(hi > lo) || (log && !(lo > 0)) || !isfinite(lo) || !isfinite(hi)) {
		s->lo = 0;
		s->hi = 0;
		s->log = 0;
		return -1;
	}
	return 0;
}

double svg_scale_map(const svg_scale *s, double v)
{
	double f;

	if (!(s->hi > s->lo))
		return s->p0;
	if (s->log) {
		if (!(v > 0))
			return NAN;
		f = (log10(v) - log10(s->lo)) / (log10(s->hi) - log10(s->lo));
	} else {
		f = (v - s->lo) / (s->hi - s->lo);
	}
	return s->p0 + f * (s->p1 - s->p0);
}

int svg_log_range(double *lo, double *hi, double min, double max)
{
	double a, b;

	if (!(min > 0) || !(max > 0) || !isfinite(min) || !isfinite(max))
		return -1;
	if (max < min) {
		double t = min;

		min = max;
		max = t;
	}
	/* round first, so that 1000 (log10 = 2.9999999999999996) stays 10^3 */
	a = floor(log10(min) + 1e-9);
	b = ceil(log10(max) - 1e-9);
	if (b <= a)
		b = a + 1;
	*lo = pow(10, a);
	*hi = pow(10, b);
	return 0;
}

/* The smallest of 1, 2, 5 x 10^k that is at least raw (raw > 0). */
static double nice_step(double raw)
{
	double mag = pow(10, floor(log10(raw)));
	static const double steps[] = { 1, 2, 5, 10 };

	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		if (steps[i] * mag >= raw * (1 - 1e-9))
			return steps[i] * mag;
	return 10 * mag;
}

size_t svg_ticks(double *t, size_t max, const svg_scale *s)
{
	size_t n = 0;

	if (max < 2 || !(s->hi > s->lo))
		return 0;
	if (s->log) {
		long a = lround(ceil(log10(s->lo) - 1e-9));
		long b = lround(floor(log10(s->hi) + 1e-9));
		long every = 1;

		if (b < a)
			return 0;
		while ((b - a) / every + 1 > (long)max)
			every++;
		for (long k = a; k <= b; k += every)
			t[n++] = pow(10, (double)k);
		return n;
	}
	double step = nice_step((s->hi - s->lo) / (double)(max - 1));

	if (s->whole && step < 1)
		step = 1;
	double first = ceil(s->lo / step - 1e-9) * step;

	for (double v = first; v <= s->hi + step * 1e-9 && n < max; v = first + (double)n * step)
		t[n++] = fabs(v) < step * 1e-9 ? 0 : v;
	return n;
}

/* The superscript of each digit, then of the minus sign, in UTF-8. */
static const char *const superscript[] = { "\u2070", "\u00b9", "\u00b2", "\u00b3", "\u2074",
					   "\u2075", "\u2076", "\u2077", "\u2078", "\u2079" };
#define SUPERSCRIPT_MINUS "\u207b"

/*
 * v as m x 10^e the way a chart's reader reads it: "10⁹", "2.5×10⁹",
 * "10⁻⁵" (a power of ten alone), into buf (at least 64 bytes).
 */
static void fmt_power(char *buf, size_t n, double v)
{
	int e = (int)floor(log10(fabs(v)) + 1e-9);
	double m = v / pow(10, e);
	char digits[16];
	size_t o;

	if (fabs(m) >= 9.995) { /* %.3g would round it to 10 */
		m /= 10;
		e++;
	}
	if (fabs(fabs(m) - 1) < 5e-4)
		o = (size_t)snprintf(buf, n, "%s10", m < 0 ? "-" : "");
	else
		o = (size_t)snprintf(buf, n, "%.3g\u00d710", m);
	snprintf(digits, sizeof(digits), "%d", e < 0 ? -e : e);
	if (e < 0 && o < n)
		o += (size_t)snprintf(buf + o, n - o, "%s", SUPERSCRIPT_MINUS);
	for (const char *d = digits; *d && o < n; d++)
		o += (size_t)snprintf(buf + o, n - o, "%s", superscript[*d - '0']);
}

void svg_fmt_number(char *buf, size_t n, double v)
{
	double a = fabs(v);
	char b[64];
	size_t len;

	if (!n)
		return;
	if (v == 0 || !isfinite(v))
		snprintf(b, sizeof(b), v == 0 ? "0" : "%g", v);
	else if (a >= 1e9 || a < 1e-4)
		fmt_power(b, sizeof(b), v); /* where %g would print 1e+09 and 1e-05 */
	else if (a >= 1 && fabs(v - round(v)) <= 1e-9 * a)
		fmt_count(b, sizeof(b), round(v));
	else
		snprintf(b, sizeof(b), "%.3g", v);
	/* cut to fit, never inside a UTF-8 sequence */
	len = strlen(b);
	if (len >= n) {
		len = n - 1;
		while (len && ((unsigned char)b[len] & 0xc0) == 0x80)
			len--;
	}
	memcpy(buf, b, len);
	buf[len] = '\0';
}

/* The length of the UTF-8 sequence at s that XML can hold, or 0. */
static size_t utf8_ok(const unsigned char *s)
{
	unsigned c = s[0], cp;
	size_t len;

	if (c < 0x80)
		return c >= 0x20 || c == '\t' || c == '\n' ? 1 : 0;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, cp = c & 0x07;
	else
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe || cp == 0xffff ||
	    (cp >= 0x7f && cp <= 0x9f))
		return 0;
	return len;
}

void svg_text(FILE *out, const char *str)
{
	char *text = utf8_text(str, strlen(str), NULL);
	const unsigned char *s = (const unsigned char *)(text ? text : str);

	/*
	 * utf8.h's rule first (Latin-1 bytes become characters), then XML's;
	 * without memory for the copy, a byte that is not UTF-8 is U+FFFD
	 */
	while (*s) {
		size_t len = utf8_ok(s);

		if (!len) {
			/* U+FFFD for the whole character (or the one byte) XML cannot hold */
			size_t skip = utf8_seq_len(s, strlen((const char *)s));

			fputs("\xef\xbf\xbd", out);
			s += skip ? skip : 1;
			continue;
		}
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&apos;", out); break;
		default: fwrite(s, 1, len, out);
		}
		s += len;
	}
	free(text);
}

void svg_begin(FILE *out, int width, int height, const char *title)
{
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		     "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		     "viewBox=\"0 0 %d %d\">\n<title>", width, height, width, height);
	svg_text(out, title);
	fprintf(out, "</title>\n"
		     "<style>\n"
		     "text { font-family: DejaVu Sans, Helvetica, Arial, sans-serif; font-size: 12px; fill: #222; }\n"
		     ".title { font-size: 16px; font-weight: bold; }\n"
		     ".subtitle, .note { font-size: 12px; fill: #555; }\n"
		     ".axis-label { font-size: 13px; }\n"
		     ".grid { stroke: #e3e3e3; stroke-width: 1; }\n"
		     ".frame { fill: none; stroke: #888; stroke-width: 1; }\n"
		     ".tick text { font-size: 11px; fill: #444; }\n"
		     ".legend-box { fill: #fff; fill-opacity: 0.92; stroke: #bbb; }\n"
		     "</style>\n"
		     "<rect class=\"background\" width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n",
		width, height);
}

#define MAX_TICKS 64

void svg_axes(FILE *out, const svg_frame *f, const char *xlabel, const char *ylabel,
	      size_t max_xticks, size_t max_yticks)
{
	double t[MAX_TICKS];
	char label[48];
	size_t n;

	n = svg_ticks(t, max_xticks < MAX_TICKS ? max_xticks : MAX_TICKS, &f->x);
	fputs("<g class=\"axis x\">\n", out);
	for (size_t i = 0; i < n; i++) {
		double x = svg_scale_map(&f->x, t[i]);

		if (f->x.years)
			snprintf(label, sizeof(label), "%.0f", t[i]);
		else
			svg_fmt_number(label, sizeof(label), t[i]);
		fprintf(out, "<g class=\"tick\"><line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" "
			     "x2=\"%.1f\" y2=\"%.1f\"/><text x=\"%.1f\" y=\"%.1f\" "
			     "text-anchor=\"middle\">%s</text></g>\n",
			x, f->top, x, f->bottom + 5, x, f->bottom + 19, label);
	}
	fprintf(out, "<text class=\"axis-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
		(f->left + f->right) / 2, f->bottom + 40);
	svg_text(out, xlabel);
	fputs("</text>\n</g>\n", out);

	n = svg_ticks(t, max_yticks < MAX_TICKS ? max_yticks : MAX_TICKS, &f->y);
	fputs("<g class=\"axis y\">\n", out);
	for (size_t i = 0; i < n; i++) {
		double y = svg_scale_map(&f->y, t[i]);

		svg_fmt_number(label, sizeof(label), t[i]);
		fprintf(out, "<g class=\"tick\"><line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" "
			     "x2=\"%.1f\" y2=\"%.1f\"/><text x=\"%.1f\" y=\"%.1f\" "
			     "text-anchor=\"end\">%s</text></g>\n",
			f->left - 5, y, f->right, y, f->left - 8, y + 4, label);
	}
	fprintf(out, "<text class=\"axis-label\" transform=\"translate(%.1f %.1f) rotate(-90)\" "
		     "text-anchor=\"middle\">", f->left - 80, (f->top + f->bottom) / 2);
	svg_text(out, ylabel);
	fputs("</text>\n</g>\n", out);
	fprintf(out, "<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n",
		f->left, f->top, f->right - f->left, f->bottom - f->top);
}

void svg_clip(FILE *out, const svg_frame *f, const char *id)
{
	fprintf(out, "<defs><clipPath id=\"%s\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		     "height=\"%.1f\"/></clipPath></defs>\n",
		id, f->left, f->top, f->right - f->left, f->bottom - f->top);
}

/* The length of the next line of s at most `width` chars (s has no leading space). */
static size_t wrap_cut(const char *s, size_t width)
{
	size_t len = strlen(s), cut = len;

	if (len > width) {
		/* the last space within the width, else the first after it */
		for (cut = width; cut > 0 && s[cut] != ' '; cut--)
			;
		if (!cut)
			for (cut = width; cut < len && s[cut] != ' '; cut++)
				;
	}
	return cut;
}

static const char *wrap_next(const char *s, size_t cut)
{
	s += cut;
	while (*s == ' ')
		s++;
	return s;
}

size_t svg_wrapped_lines(size_t width, const char *text)
{
	size_t n = 0;

	for (const char *s = text; *s; s = wrap_next(s, wrap_cut(s, width)))
		n++;
	return n;
}

double svg_wrapped(FILE *out, double x, double y, double step, size_t width,
		   const char *cls, const char *text)
{
	const char *s = text;

	while (*s) {
		size_t cut = wrap_cut(s, width);
		char line[512];

		if (cut >= sizeof(line))
			cut = sizeof(line) - 1;
		memcpy(line, s, cut);
		line[cut] = '\0';
		fprintf(out, "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\">", cls, x, y);
		svg_text(out, line);
		fputs("</text>\n", out);
		y += step;
		s = wrap_next(s, cut);
	}
	return y;
}

void svg_mark_lengths(FILE *out, const svg_frame *f, const unsigned *lengths, size_t n)
{
	static const char *const fill[] = { "#ff7f0e", "#1f77b4" };

	for (size_t i = 0; i < n; i++) {
		double x = svg_scale_map(&f->x, lengths[i]);

		if (!(x >= f->left && x <= f->right))
			continue;
		fprintf(out, "<g class=\"debate\" data-length=\"%u\"><rect x=\"%.1f\" y=\"%.1f\" "
			     "width=\"%.1f\" height=\"%.1f\" fill=\"%s\" fill-opacity=\"0.10\"/>"
			     "<text class=\"note\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
			     "%u chars</text></g>\n",
			lengths[i], x - 14, f->top, 28.0, f->bottom - f->top, fill[i % 2], x,
			f->top - 6, lengths[i]);
	}
}

double svg_text_width(const char *s, double size)
{
	const unsigned char *u = (const unsigned char *)s;
	double w = 0;

	while (*u) {
		unsigned c = *u;
		size_t len = c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;

		if (c < 0x80)
			w += strchr(" .,:;'!|iljtfr()[]", (int)c) ? 0.36 :
			     strchr("ABCDEFGHKMNOQRUVWXYmw%@", (int)c) ? 0.78 : 0.62;
		else if ((c == 0xc2 && (u[1] == 0xb9 || u[1] == 0xb2 || u[1] == 0xb3)) ||
			 (c == 0xe2 && u[1] == 0x81))
			w += 0.36; /* superscript digits and minus */
		else
			w += 0.62;
		while (len-- && *u)
			u++;
	}
	return w * size;
}

svg_box svg_text_box(double x, double y, double size, const char *anchor, const char *s)
{
	double w = svg_text_width(s, size);
	svg_box b;

	b.x0 = x - (anchor && !strcmp(anchor, "end") ? w :
		    anchor && !strcmp(anchor, "middle") ? w / 2 : 0);
	b.x1 = b.x0 + w;
	b.y0 = y - 0.75 * size;
	b.y1 = y + 0.22 * size;
	return b;
}

void svg_marks_init(svg_marks *m)
{
	memset(m, 0, sizeof(*m));
}

void svg_marks_free(svg_marks *m)
{
	free(m->seg);
	free(m->box);
	svg_marks_init(m);
}

/*
 * The part of the segment inside b, into s (Liang-Barsky); 0 if none.
 * s[0..3] may be the segment itself.
 */
static int clip_segment(double s[4], const svg_box *b)
{
	double t0 = 0, t1 = 1, dx = s[2] - s[0], dy = s[3] - s[1];
	const double p[4] = { -dx, dx, -dy, dy };
	const double q[4] = { s[0] - b->x0, b->x1 - s[0], s[1] - b->y0, b->y1 - s[1] };

	for (int i = 0; i < 4; i++) {
		if (p[i] == 0) {
			if (q[i] < 0)
				return 0;
			continue;
		}
		if (p[i] < 0)
			t0 = fmax(t0, q[i] / p[i]);
		else
			t1 = fmin(t1, q[i] / p[i]);
		if (t0 > t1)
			return 0;
	}
	s[2] = s[0] + t1 * dx;
	s[3] = s[1] + t1 * dy;
	s[0] += t0 * dx;
	s[1] += t0 * dy;
	return 1;
}

void svg_marks_line(svg_marks *m, double x0, double y0, double x1, double y1, double width)
{
	double s[4] = { x0, y0, x1, y1 };

	if (!isfinite(x0) || !isfinite(y0) || !isfinite(x1) || !isfinite(y1))
		return;
	if (m->clipped && !clip_segment(s, &m->clip))
		return;
	if (GROW(m->seg, m->segcap, m->nseg + 1, 256))
		return;
	memcpy(m->seg[m->nseg], s, sizeof(s));
	m->seg[m->nseg++][4] = width / 2;
}

void svg_marks_box(svg_marks *m, svg_box b)
{
	if (GROW(m->box, m->boxcap, m->nbox + 1, 64))
		return;
	m->box[m->nbox++] = b;
}

int svg_marks_clear(const svg_marks *m, svg_box b, const svg_box *within)
{
	if (within && (b.x0 < within->x0 || b.x1 > within->x1 || b.y0 < within->y0 ||
		       b.y1 > within->y1))
		return 0;
	for (size_t i = 0; i < m->nbox; i++)
		if (b.x0 < m->box[i].x1 && m->box[i].x0 < b.x1 && b.y0 < m->box[i].y1 &&
		    m->box[i].y0 < b.y1)
			return 0;
	for (size_t i = 0; i < m->nseg; i++) {
		double g = m->seg[i][4] + SVG_LINE_GAP, s[4];
		svg_box grown = { b.x0 - g, b.y0 - g, b.x1 + g, b.y1 + g };

		memcpy(s, m->seg[i], sizeof(s));
		if (clip_segment(s, &grown))
			return 0;
	}
	return 1;
}

int svg_end(FILE *out)
{
	fputs("</svg>\n", out);
	return ferror(out) ? -1 : 0;
}
