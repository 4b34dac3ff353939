/*
 * range_walk.c - a revision range in libgit2's topological, time-sorted
 * order (range_walk.h).
 *
 * The steps are those of libgit2 1.5's revwalk.c, with indices where it
 * has pointers: prepare_walk() (the pushes, newest first, each parsed),
 * limit_list() (pop the newest commit of a date-ordered list, queue its
 * parents, drop what a hidden commit reaches; stop when only hidden
 * commits remain and SLOP of them in a row were older than the last
 * interesting one), sort_in_topological_order() (a commit is ready once
 * all its children in the range are out; the ready ones in a max-heap on
 * committer time, git_pqueue's own sift-up and sift-down, so that equal
 * times come out as they do there).  Every commit is numbered once in an
 * open-addressed table of its ID.
 */
#include <config.h>

#include "range_walk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "idbatch.h"

#define SLOP 5
#define NIL UINT32_MAX

enum { F_SEEN = 1, F_HIDDEN = 2, F_PARSED = 4, F_ADDED = 8 };

typedef struct {
	int64_t time;
	uint64_t note;        /* the source's */
	uint64_t hint;        /* the source's word on where it is, from its first child read */
	uint32_t pstart;      /* its parents: plist[pstart .. pstart + np) */
	uint32_t np;
	uint32_t indeg;       /* the topological sort's: 1 + children still to come out */
	unsigned char flags;
} node;

/* A growing array of commit numbers (a stack, a vector or a heap). */
typedef struct {
	uint32_t *v;
	size_t n, cap;
} u32vec;

typedef struct {
	const range_source *src;
	size_t rawsz;
	node *nodes;
	unsigned char *ids;
	size_t n, cap;
	uint32_t *table;      /* commit numbers by ID hash, NIL: empty */
	size_t tmask;
	u32vec plist;
	/* date-ordered lists as libgit2 keeps them: cells item/next, a free list */
	uint32_t *citem, *cnext;
	size_t ncell, ccap;
	uint32_t cfree;
	u32vec stack;
	char *err;
	size_t errsz;
} walk;

static int vec_push(u32vec *a, uint32_t x)
{
	if (GROW(a->v, a->cap, a->n + 1, 64))
		return -1;
	a->v[a->n++] = x;
	return 0;
}

static size_t hash(const walk *w, const unsigned char *id)
{
	uint64_t h = 0;

	memcpy(&h, id, w->rawsz < 8 ? w->rawsz : 8);
	return (size_t)((h * UINT64_C(0x9e3779b97f4a7c15)) >> 17) & w->tmask;
}

static int table_grow(walk *w)
{
	size_t size = w->table ? 2 * (w->tmask + 1) : 1024;
	uint32_t *t = malloc(size * sizeof(*t));

	if (!t)
		return -1;
	memset(t, 0xff, size * sizeof(*t));
	free(w->table);
	w->table = t;
	w->tmask = size - 1;
	for (size_t i = 0; i < w->n; i++) {
		size_t h = hash(w, w->ids + i * w->rawsz);

		while (t[h] != NIL)
			h = (h + 1) & w->tmask;
		t[h] = (uint32_t)i;
	}
	return 0;
}

/*
 * The number of commit `id`, made on first sight with the source's `hint`
 * (kept, handed back when it is read); NIL when out of memory.
 */
static uint32_t lookup(walk *w, const unsigned char *id, uint64_t hint)
{
	size_t h;

	if (w->table) {
		for (h = hash(w, id); w->table[h] != NIL; h = (h + 1) & w->tmask)
			if (!memcmp(w->ids + (size_t)w->table[h] * w->rawsz, id, w->rawsz))
				return w->table[h];
	}
	if (w->n >= NIL - 1)
		return NIL;
	if (w->n == w->cap) {
		size_t cap = grow_cap(w->cap, w->n + 1, 1024, sizeof(*w->nodes));

		if (!cap || grow_to(&w->nodes, cap, sizeof(*w->nodes)) ||
		    grow_to(&w->ids, cap, w->rawsz))
			return NIL;
		w->cap = cap;
	}
	if ((!w->table || 2 * (w->n + 1) > w->tmask + 1) && table_grow(w))
		return NIL;
	memcpy(w->ids + w->n * w->rawsz, id, w->rawsz);
	memset(&w->nodes[w->n], 0, sizeof(*w->nodes));
	w->nodes[w->n].hint = hint;
	for (h = hash(w, id); w->table[h] != NIL; h = (h + 1) & w->tmask)
		;
	w->table[h] = (uint32_t)w->n;
	return (uint32_t)w->n++;
}

/* Read commit c's time and parents once (git_commit_list_parse); 0, -1 or -2. */
static int parse(walk *w, uint32_t c)
{
	const unsigned char *parents;
	const uint64_t *hints = NULL;
	uint64_t note = 0;
	int64_t time;
	size_t np, start;
	int rc;

	if (w->nodes[c].flags & F_PARSED)
		return 0;
	rc = w->src->commit(w->src->ctx, w->ids + (size_t)c * w->rawsz, w->nodes[c].hint, &time,
			    &parents, &hints, &np, &note, w->err, w->errsz);
	if (rc)
		return rc;
	start = w->plist.n;
	if (start + np >= NIL)
		return -1;
	for (size_t k = 0; k < np; k++) {
		uint32_t p = lookup(w, parents + k * w->rawsz, hints ? hints[k] : 0);

		if (p == NIL || vec_push(&w->plist, p))
			return -1;
	}
	w->nodes[c].time = time;
	w->nodes[c].note = note;
	w->nodes[c].pstart = (uint32_t)start;
	w->nodes[c].np = (uint32_t)np;
	w->nodes[c].flags |= F_PARSED;
	return 0;
}

static uint32_t parent(const walk *w, uint32_t c, uint32_t k)
{
	return w->plist.v[w->nodes[c].pstart + k];
}

/* ---- lists ---------------------------------------------------------------------------- */

static uint32_t cell_new(walk *w, uint32_t item)
{
	uint32_t c = w->cfree;

	if (c != NIL) {
		w->cfree = w->cnext[c];
	} else {
		if (w->ncell == w->ccap) {
			size_t cap = grow_cap(w->ccap, w->ncell + 1, 256, sizeof(*w->citem));

			if (!cap || grow_to(&w->citem, cap, sizeof(*w->citem)) ||
			    grow_to(&w->cnext, cap, sizeof(*w->cnext)))
				return NIL;
			w->ccap = cap;
		}
		if (w->ncell >= NIL)
			return NIL;
		c = (uint32_t)w->ncell++;
	}
	w->citem[c] = item;
	return c;
}

/* git_commit_list_insert(): item in front of *head; 0 or -1. */
static int list_push(walk *w, uint32_t *head, uint32_t item)
{
	uint32_t c = cell_new(w, item);

	if (c == NIL)
		return -1;
	w->cnext[c] = *head;
	*head = c;
	return 0;
}

static uint32_t list_pop(walk *w, uint32_t *head)
{
	uint32_t c = *head, item;

	if (c == NIL)
		return NIL;
	item = w->citem[c];
	*head = w->cnext[c];
	w->cnext[c] = w->cfree;
	w->cfree = c;
	return item;
}

/* git_commit_list_insert_by_date(): before the first strictly older commit; 0 or -1. */
static int list_insert_by_date(walk *w, uint32_t *head, uint32_t item)
{
	uint32_t c = cell_new(w, item), prev = NIL, p;

	if (c == NIL)
		return -1;
	for (p = *head; p != NIL; prev = p, p = w->cnext[p])
		if (w->nodes[w->citem[p]].time < w->nodes[item].time)
			break;
	w->cnext[c] = p;
	if (prev == NIL)
		*head = c;
	else
		w->cnext[prev] = c;
	return 0;
}

/* ---- limit_list ----------------------------------------------------------------------- */

/* Hide everything c's parsed ancestry reaches that is not hidden yet. */
static int mark_parents_hidden(walk *w, uint32_t c)
{
	w->stack.n = 0;
	for (uint32_t k = 0; k < w->nodes[c].np; k++)
		if (vec_push(&w->stack, parent(w, c, k)))
			return -1;
	while (w->stack.n) {
		uint32_t v = w->stack.v[--w->stack.n];

		if (w->nodes[v].flags & F_HIDDEN)
			continue;
		w->nodes[v].flags |= F_HIDDEN;
		if (!(w->nodes[v].flags & F_PARSED))
			continue; /* what it reaches is hidden when it is parsed */
		for (uint32_t k = 0; k < w->nodes[v].np; k++)
			if (vec_push(&w->stack, parent(w, v, k)))
				return -1;
	}
	return 0;
}

/* Queue c's parents on *list (add_parents_to_list); 0, -1 or -2. */
static int add_parents(walk *w, uint32_t c, uint32_t *list)
{
	int rc;

	if (w->nodes[c].flags & F_ADDED)
		return 0;
	w->nodes[c].flags |= F_ADDED;
	for (uint32_t k = 0; k < w->nodes[c].np; k++) {
		uint32_t p = parent(w, c, k);

		if (w->nodes[c].flags & F_HIDDEN) {
			/* queued even when seen: what they reach is to be hidden too */
			w->nodes[p].flags |= F_HIDDEN;
			if ((rc = parse(w, p)) || (rc = mark_parents_hidden(w, p)))
				return rc;
		} else {
			if ((rc = parse(w, p)))
				return rc;
			if (w->nodes[p].flags & F_SEEN)
				continue;
		}
		w->nodes[p].flags |= F_SEEN;
		if (list_insert_by_date(w, list, p))
			return -1;
	}
	return 0;
}

/* SLOP while the list may still hold what is interesting, else one less. */
static int still_interesting(const walk *w, uint32_t list, int64_t time, int slop)
{
	if (list == NIL)
		return 0;
	if (time <= w->nodes[w->citem[list]].time)
		return SLOP;
	for (uint32_t p = list; p != NIL; p = w->cnext[p]) {
		const node *x = &w->nodes[w->citem[p]];

		if (!(x->flags & F_HIDDEN) || x->time > time)
			return SLOP;
	}
	return slop - 1;
}

/* The interesting commits of the list `list` and what it reaches, in visiting order. */
static int limit_list(walk *w, uint32_t list, u32vec *out)
{
	int64_t time = INT64_MAX;
	int slop = SLOP, rc;

	while (list != NIL) {
		uint32_t c = list_pop(w, &list);

		if ((rc = add_parents(w, c, &list)))
			return rc;
		if (w->nodes[c].flags & F_HIDDEN) {
			if (mark_parents_hidden(w, c))
				return -1;
			slop = still_interesting(w, list, time, slop);
			if (slop)
				continue;
			break;
		}
		time = w->nodes[c].time;
		if (vec_push(out, c))
			return -1;
	}
	return 0;
}

/* ---- the topological sort ------------------------------------------------------------- */

/* git_commit_list_time_cmp(): > 0 when a is older than b. */
static int time_cmp(const walk *w, uint32_t a, uint32_t b)
{
	int64_t ta = w->nodes[a].time, tb = w->nodes[b].time;

	return ta < tb ? 1 : ta > tb ? -1 : 0;
}

static int heap_insert(walk *w, u32vec *h, uint32_t item)
{
	size_t el;

	if (vec_push(h, item))
		return -1;
	for (el = h->n - 1; el > 0; el = (el - 1) >> 1) {
		uint32_t up = h->v[(el - 1) >> 1];

		if (time_cmp(w, up, item) <= 0)
			break;
		h->v[el] = up;
	}
	h->v[el] = item;
	return 0;
}

static uint32_t heap_pop(walk *w, u32vec *h)
{
	uint32_t top, x;
	size_t el = 0;

	if (!h->n)
		return NIL;
	top = h->v[0];
	x = h->v[--h->n];
	if (!h->n)
		return top;
	for (;;) {
		size_t kid = 2 * el + 1;

		if (kid >= h->n)
			break;
		if (kid + 1 < h->n && time_cmp(w, h->v[kid], h->v[kid + 1]) > 0)
			kid++;
		if (time_cmp(w, x, h->v[kid]) <= 0)
			break;
		h->v[el] = h->v[kid];
		el = kid;
	}
	h->v[el] = x;
	return top;
}

/* The commits of `list` (visiting order), children before parents, not hidden ones. */
static int topo_sort(walk *w, const u32vec *list, range_list *out)
{
	u32vec heap = { 0 };
	size_t n = 0;
	uint32_t c;
	int rc = -1;

	for (size_t i = 0; i < list->n; i++)
		w->nodes[list->v[i]].indeg = 1;
	for (size_t i = 0; i < list->n; i++)
		for (uint32_t k = 0; k < w->nodes[list->v[i]].np; k++) {
			node *p = &w->nodes[parent(w, list->v[i], k)];

			if (p->indeg)
				p->indeg++;
		}
	for (size_t i = 0; i < list->n; i++)
		if (w->nodes[list->v[i]].indeg == 1 && heap_insert(w, &heap, list->v[i]))
			goto done;
	out->ids = malloc((list->n ? list->n : 1) * w->rawsz);
	out->notes = malloc((list->n ? list->n : 1) * sizeof(*out->notes));
	if (!out->ids || !out->notes)
		goto done;
	while ((c = heap_pop(w, &heap)) != NIL) {
		for (uint32_t k = 0; k < w->nodes[c].np; k++) {
			uint32_t p = parent(w, c, k);

			if (w->nodes[p].indeg && --w->nodes[p].indeg == 1 && heap_insert(w, &heap, p))
				goto done;
		}
		w->nodes[c].indeg = 0;
		/* hidden after it was visited: libgit2 skips it as it comes out */
		if (!(w->nodes[c].flags & F_HIDDEN)) {
			memcpy(out->ids + n * w->rawsz, w->ids + (size_t)c * w->rawsz, w->rawsz);
			out->notes[n++] = w->nodes[c].note;
		}
	}
	out->n = n;
	rc = 0;
done:
	free(heap.v);
	return rc;
}

/*
 * The commit numbers in ID order: records of ID and number sorted by
 * their bytes (a radix sort: ~10x qsort_r()'s calls of memcmp() on 100k
 * commits); each ID is there once, so the numbers never decide.  0 or -1.
 */
static int order_by_id(const walk *w, uint32_t *order)
{
	size_t recsz = w->rawsz + sizeof(uint32_t);
	unsigned char *rec = malloc((w->n ? w->n : 1) * recsz);

	if (!rec)
		return -1;
	for (uint32_t k = 0; k < w->n; k++) {
		memcpy(rec + k * recsz, w->ids + (size_t)k * w->rawsz, w->rawsz);
		memcpy(rec + k * recsz + w->rawsz, &k, sizeof(k));
	}
	idbatch_sort_records(rec, w->n, recsz);
	for (size_t k = 0; k < w->n; k++)
		memcpy(&order[k], rec + k * recsz + w->rawsz, sizeof(*order));
	free(rec);
	return 0;
}

/* All that commit c reaches, read; 0, -1 or -2. */
static int read_history(walk *w, uint32_t c)
{
	int rc;

	w->stack.n = 0;
	if (vec_push(&w->stack, c))
		return -1;
	while (w->stack.n) {
		uint32_t v = w->stack.v[--w->stack.n];

		if (w->nodes[v].flags & F_PARSED)
			continue;
		if ((rc = parse(w, v)))
			return rc;
		for (uint32_t k = 0; k < w->nodes[v].np; k++)
			if (!(w->nodes[parent(w, v, k)].flags & F_PARSED) &&
			    vec_push(&w->stack, parent(w, v, k)))
				return -1;
	}
	return 0;
}

/*
 * Every commit met, when all were read, and what the RANGE_READ tips
 * reach, in ID order with their parents; 0 or -1.
 */
static int make_graph(walk *w, range_graph *g, const range_tip *tips, size_t ntips)
{
	uint32_t *order, *pos, k, np = 0;
	int rc;

	for (size_t i = 0; i < w->n; i++)
		if (!(w->nodes[i].flags & F_PARSED))
			return 0; /* its parents unknown: no whole history */
	for (size_t i = 0; i < ntips; i++) {
		uint32_t c;

		if (tips[i].kind != RANGE_READ)
			continue;
		if ((c = lookup(w, tips[i].id, 0)) == NIL)
			return -1;
		if ((rc = read_history(w, c)))
			return rc == -2 ? 0 : -1; /* a tip that cannot be read: no graph */
	}
	rc = -1;
	order = malloc((w->n ? w->n : 1) * sizeof(*order));
	pos = malloc((w->n ? w->n : 1) * sizeof(*pos));
	g->ids = malloc((w->n ? w->n : 1) * w->rawsz);
	g->pstart = malloc((w->n + 1) * sizeof(*g->pstart));
	g->plist = malloc((w->plist.n ? w->plist.n : 1) * sizeof(*g->plist));
	if (!order || !pos || !g->ids || !g->pstart || !g->plist)
		goto done;
	if (order_by_id(w, order))
		goto done;
	for (k = 0; k < w->n; k++)
		pos[order[k]] = k;
	for (k = 0; k < w->n; k++) {
		const node *c = &w->nodes[order[k]];

		memcpy(g->ids + (size_t)k * w->rawsz, w->ids + (size_t)order[k] * w->rawsz, w->rawsz);
		g->pstart[k] = np;
		for (uint32_t j = 0; j < c->np; j++)
			g->plist[np++] = pos[w->plist.v[c->pstart + j]];
	}
	g->pstart[w->n] = np;
	g->n = (uint32_t)w->n;
	rc = 0;
done:
	free(order);
	free(pos);
	if (rc)
		range_graph_free(g);
	return rc;
}

int range_walk(range_list *out, range_graph *graph, const range_source *src, size_t rawsz,
	       const range_tip *tips, size_t ntips, char *err, size_t errsz)
{
	walk w = { .src = src, .rawsz = rawsz, .cfree = NIL, .err = err, .errsz = errsz };
	u32vec input = { 0 }, visited = { 0 };
	uint32_t commits = NIL;
	int pushed = 0, rc = -1;

	memset(out, 0, sizeof(*out));
	if (graph)
		memset(graph, 0, sizeof(*graph));
	/* the pushes (git_revwalk__push_commit): a commit already hidden is not pushed */
	for (size_t i = 0; i < ntips; i++) {
		uint32_t c;

		if (tips[i].kind == RANGE_READ)
			continue; /* after the walk, for the graph */
		if ((c = lookup(&w, tips[i].id, 0)) == NIL)
			goto done;
		if (w.nodes[c].flags & F_HIDDEN)
			continue;
		if (tips[i].kind == RANGE_HIDE)
			w.nodes[c].flags |= F_HIDDEN;
		else
			pushed = 1;
		if (vec_push(&input, c))
			goto done;
	}
	if (!pushed) {
		rc = 0;
		goto done;
	}
	/* prepare_walk(): the last push first, each put in front of the list */
	for (size_t i = input.n; i-- > 0;) {
		uint32_t c = input.v[i];

		if ((rc = parse(&w, c)))
			goto done;
		rc = -1;
		if ((w.nodes[c].flags & F_HIDDEN) && mark_parents_hidden(&w, c))
			goto done;
		if (!(w.nodes[c].flags & F_SEEN)) {
			w.nodes[c].flags |= F_SEEN;
			if (list_push(&w, &commits, c))
				goto done;
		}
	}
	if ((rc = limit_list(&w, commits, &visited)))
		goto done;
	rc = topo_sort(&w, &visited, out);
	if (!rc && graph)
		rc = make_graph(&w, graph, tips, ntips);
done:
	if (rc)
		range_list_free(out);
	free(input.v);
	free(visited.v);
	free(w.nodes);
	free(w.ids);
	free(w.table);
	free(w.plist.v);
	free(w.citem);
	free(w.cnext);
	free(w.stack.v);
	return rc;
}

void range_graph_free(range_graph *g)
{
	free(g->ids);
	free(g->pstart);
	free(g->plist);
	memset(g, 0, sizeof(*g));
}

void range_list_free(range_list *l)
{
	free(l->ids);
	free(l->notes);
	memset(l, 0, sizeof(*l));
}
