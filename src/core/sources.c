/*
 * sources.c - the distinct inputs of a report (see sources.h).
 */
#include "sources.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"

static int same_input(const source *a, const source *b)
{
	return a->stream == b->stream && !strcmp(a->name, b->name) && a->bytes == b->bytes &&
	       a->crc == b->crc && a->lines == b->lines;
}

static int add_name(sources *l, const char *name)
{
	char **names, *copy;

	for (size_t i = 0; i < l->nnames; i++)
		if (!strcmp(l->names[i], name))
			return 0;
	names = realloc(l->names, (l->nnames + 1) * sizeof(*names));
	if (!names)
		return -2;
	l->names = names;
	if (!(copy = strdup(name)))
		return -2;
	l->names[l->nnames++] = copy;
	return 0;
}

int sources_add(sources *l, const source *src)
{
	char *name;

	for (size_t i = 0; i < l->n; i++)
		if (same_input(&l->v[i], src))
			return 0;
	if (GROW(l->v, l->cap, l->n + 1, 4))
		return -2;
	if (!(name = strdup(src->name)) || add_name(l, src->name)) {
		free(name);
		return -2;
	}
	l->v[l->n] = *src;
	l->v[l->n].name = name;
	l->n++;
	l->any_stream |= src->stream;
	return 0;
}

void sources_totals(const sources *l, stats_input *t)
{
	t->lines = t->bad = 0;
	memset(t->other, 0, sizeof(t->other));
	for (size_t i = 0; i < l->n; i++) {
		t->lines += l->v[i].lines;
		t->bad += l->v[i].bad;
		for (int k = 0; k < STATS_NOTHER; k++)
			t->other[k] += l->v[i].other[k];
	}
}

void sources_clear(sources *l)
{
	for (size_t i = 0; i < l->n; i++)
		free((char *)l->v[i].name);
	for (size_t i = 0; i < l->nnames; i++)
		free(l->names[i]);
	free(l->v);
	free(l->names);
	memset(l, 0, sizeof(*l));
}
