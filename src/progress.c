/*
 * progress.c - "walking objects:  45% (382000/849014), 512k/s" on stderr.
 *
 * Redraws are throttled by the clock, and the clock is read only every
 * 4096 updates, so calling progress_update() per object costs nothing.
 */
#include <config.h>

#include "progress.h"

#include <stdlib.h>
#include <time.h>

struct progress {
	FILE *out;
	int enabled;
	const char *title;
	size_t total, done, calls;
	double start, last;
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

	if (p) {
		p->out = out;
		p->enabled = enabled;
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
	p->start = p->last = now();
}

static void draw(progress *p, double t, const char *end)
{
	double secs = t - p->start;
	double rate = secs > 0 ? (double)p->done / secs : 0;

	if (p->total)
		fprintf(p->out, "\r%s: %3u%% (%zu/%zu), %.0fk/s%s", p->title,
			(unsigned)(100.0 * (double)p->done / (double)p->total),
			p->done, p->total, rate / 1000, end);
	else
		fprintf(p->out, "\r%s: %zu, %.0fk/s%s", p->title, p->done, rate / 1000, end);
	fflush(p->out);
}

void progress_update(progress *p, size_t done)
{
	if (!p || !p->enabled)
		return;
	p->done = done;
	if ((++p->calls & 4095) == 0) {
		double t = now();

		if (t - p->last >= 0.1) {
			p->last = t;
			draw(p, t, "");
		}
	}
}

void progress_stop(progress *p)
{
	if (!p || !p->enabled || !p->title)
		return;
	draw(p, now(), ", done.\n");
	p->title = NULL;
}
