/*
 * progress.c - "walking objects:  45% (382000/849014), 512k/s" on stderr,
 * shown as git shows its meters.
 *
 * As git's progress.c: a phase shows nothing until it has run for the
 * delay (GIT_PROGRESS_DELAY seconds, default 2), so a quick run leaves no
 * lines behind; a phase that ends with nothing counted is not shown (its
 * line is wiped if it was); a redraw pads with spaces over the rest of a
 * longer line before it.  Redraws are throttled by the clock, and the
 * clock is read only every 4096 updates, so calling progress_update() per
 * object costs nothing.
 */
#include <config.h>

#include "progress.h"

#include <stdlib.h>
#include <time.h>

#define DEFAULT_DELAY 2.0 /* seconds, git's progress_delay */
#define REDRAW_EVERY 0.1  /* seconds between redraws */

struct progress {
	FILE *out;
	int enabled;
	const char *title;
	size_t total, done, calls;
	double delay, start, last;
	int shown;            /* this phase has drawn its line */
	int width;            /* of the line last drawn, to pad over */
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

progress *progress_new(FILE *out, int enabled)
{
	progress *p = calloc(1, sizeof(*p));
	const char *d = getenv("GIT_PROGRESS_DELAY");
	char *end;

	if (p) {
		p->out = out;
		p->enabled = enabled;
		p->delay = DEFAULT_DELAY;
		if (d && *d) {
			double x = strtod(d, &end);

			if (!*end && x >= 0)
				p->delay = x;
		}
	}
	return p;
}

void progress_free(progress *p)
{
	free(p);
}

void progress_start(progress *p, const char *title, size_t total)
{
	if (!p || !p->enabled)
		return;
	p->title = title;
	p->total = total;
	p->done = p->calls = 0;
	p->shown = p->width = 0;
	p->start = p->last = now();
}

/* The line (after "\r"), padded over the rest of the one before, then `end`. */
static void draw(progress *p, double t, const char *end)
{
	double secs = t - p->start;
	double rate = secs > 0 ? (double)p->done / secs : 0;
	int w;

	if (p->total)
		w = fprintf(p->out, "\r%s: %3u%% (%zu/%zu), %.0fk/s", p->title,
			    (unsigned)(100.0 * (double)p->done / (double)p->total),
			    p->done, p->total, rate / 1000);
	else
		w = fprintf(p->out, "\r%s: %zu, %.0fk/s", p->title, p->done, rate / 1000);
	if (w > 0 && w < p->width)
		fprintf(p->out, "%*s", p->width - w, "");
	fputs(end, p->out);
	fflush(p->out);
	p->width = w > p->width ? w : p->width;
	p->shown = 1;
}

void progress_update(progress *p, size_t done)
{
	if (!p || !p->enabled)
		return;
	p->done = done;
	if ((++p->calls & 4095) == 0) {
		double t = now();

		if (p->shown ? t - p->last >= REDRAW_EVERY : t - p->start >= p->delay) {
			p->last = t;
			draw(p, t, "");
		}
	}
}

void progress_stop(progress *p)
{
	double t;

	if (!p || !p->enabled || !p->title)
		return;
	t = now();
	if (p->done && (p->shown || t - p->start >= p->delay)) {
		draw(p, t, ", done.\n");
	} else if (p->shown) {
		/* a phase that counted nothing: wipe its line */
		fprintf(p->out, "\r%*s\r", p->width, "");
		fflush(p->out);
	}
	p->title = NULL;
}
