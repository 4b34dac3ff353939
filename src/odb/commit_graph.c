/*
 * commit_graph.c - committer times and ancestry from objects/info/commit-graph.
 *
 * The format (git's Documentation/gitformat-commit-graph.txt): a header
 * "CGPH", version 1, hash version (1 SHA-1, 2 SHA-256), the number of
 * chunks and of base graphs; a table of (chunk id, 8-byte offset) ending
 * with id 0; chunk OIDF (256 fanout counts), OIDL (the IDs, ascending),
 * CDAT (per ID: tree ID, two 4-byte parent positions, then 8 bytes whose
 * top 30 bits are the generation and low 34 bits the commit time), EDGE
 * (the parents past the second of an octopus merge).  A parent position
 * 0x70000000 is none; a second parent with the top bit set is where its
 * list starts in EDGE, the last entry of a list having the top bit set.
 * Every offset is checked against the file's size before it is read,
 * every position against the number of commits.
 *
 * Ancestry: the generation (topological level) of a commit is more than
 * any of its ancestors', which bounds a walk down from the descendant.
 * In a long history that walk still crosses every commit between the two,
 * so the first-parent tree is numbered once (a depth-first walk, each
 * commit's first-parent descendants a range of numbers): a commit on the
 * first-parent line below another is an answer in two comparisons, and
 * the walk, which only merges need, stops as soon as it meets a commit
 * whose first-parent line passes through the ancestor.  A depth-first
 * walk over every parent also numbers each commit as it finishes (post)
 * and keeps the least number among its ancestors (low): an ancestor's
 * [low, post] lies within its descendant's (a reachability label as in
 * Yildirim, Chaoji and Zaki's GRAIL, VLDB 2010), so the walk leaves out
 * every commit whose range cannot hold the ancestor, and a "no" seldom
 * walks at all.
 */
#include <config.h>

#include "commit_graph.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hexid.h"
#include "mapguard.h"
#include "bytes.h"

#define CG_HEADER 8
#define CHUNK_OIDF 0x4f494446u
#define CHUNK_OIDL 0x4f49444cu
#define CHUNK_CDAT 0x43444154u
#define CHUNK_EDGE 0x45444745u
#define PARENT_NONE 0x70000000u
#define PARENT_EDGES 0x80000000u
#define GEN_MAX 0x3fffffffu  /* git writes larger levels as this */
#define UNNUMBERED UINT32_MAX
#define NO_MERGE (UINT32_MAX - 1)

struct commit_graph {
	const unsigned char *map;   /* the file's, or NULL */
	unsigned char *mem;         /* commit_graph_build()'s records */
	size_t size, rawsz;
	const unsigned char *oidf, *oidl, *cdat, *edge;
	size_t cstride;             /* a CDAT record's bytes: the tree ID and 16, or 16 built */
	size_t ctree;               /* its tree ID's (rawsz in the file, none built) */
	uint32_t n, nedge;
	/* ancestry, made on the first question */
	int numbered;         /* 1 done, -1 out of memory */
	uint32_t *pre, *end;  /* first-parent tree: own number, one past the subtree's */
	uint32_t *merge;      /* the first merge down each first-parent line (see number()) */
	uint32_t *post, *low; /* the labels (NULL: none, the walk alone answers) */
	uint32_t *seen;       /* the walk's marks: the walk's stamp */
	uint32_t stamp;
	uint32_t *stack;
	unsigned char *mark;  /* commit_graph_mark()'s, one byte a commit */
};

int commit_graph_open(commit_graph **out, const char *objdir, size_t rawsz)
{
	char path[4096];
	struct stat st;
	commit_graph *g;
	const unsigned char *m;
	uint64_t size, oidl_len = 0, cdat_len = 0, edge_len = 0, oidf_len = 0;
	unsigned nchunks;
	int fd;

	*out = NULL;
	if ((size_t)snprintf(path, sizeof(path), "%s/info/commit-graph", objdir) >= sizeof(path))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) || st.st_size < CG_HEADER + 12) {
		close(fd);
		return 0;
	}
	size = (uint64_t)st.st_size;
	m = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return 0;
	g = calloc(1, sizeof(*g));
	/* cut short later by another process: a message, not SIGBUS (mapguard.h) */
	if (!g || mapguard_name(m, (size_t)size, path)) {
		munmap((void *)m, (size_t)size);
		free(g);
		return -1;
	}
	g->map = m;
	g->size = (size_t)size;
	g->rawsz = rawsz;
	nchunks = m[6];
	/* version 1, our hash, no base graphs (a split chain is not read) */
	if (memcmp(m, "CGPH", 4) || m[4] != 1 || m[5] != (rawsz == 32 ? 2 : 1) || m[7] != 0 ||
	    CG_HEADER + (uint64_t)(nchunks + 1) * 12 > size)
		goto unusable;
	for (unsigned c = 0; c < nchunks; c++) {
		const unsigned char *e = m + CG_HEADER + c * 12;
		uint32_t id = be32(e);
		uint64_t off = be64(e + 4), end = be64(e + 16);

		if (off > end || end > size)
			goto unusable;
		if (id == CHUNK_OIDF) {
			g->oidf = m + off;
			oidf_len = end - off;
		} else if (id == CHUNK_OIDL) {
			g->oidl = m + off;
			oidl_len = end - off;
		} else if (id == CHUNK_CDAT) {
			g->cdat = m + off;
			cdat_len = end - off;
		} else if (id == CHUNK_EDGE) {
			g->edge = m + off;
			edge_len = end - off;
		}
	}
	if (!g->oidl || !g->cdat || oidl_len % rawsz || oidl_len / rawsz >= PARENT_NONE ||
	    cdat_len / (rawsz + 16) < oidl_len / rawsz || edge_len / 4 > UINT32_MAX)
		goto unusable;
	g->n = (uint32_t)(oidl_len / rawsz);
	g->nedge = (uint32_t)(edge_len / 4);
	g->cstride = rawsz + 16;
	g->ctree = rawsz;
	if (oidf_len < 256 * 4 || be32(g->oidf + 255 * 4) != g->n)
		g->oidf = NULL; /* the IDs are then searched without it */
	*out = g;
	return 0;
unusable:
	commit_graph_close(g);
	return 0;
}

void commit_graph_close(commit_graph *g)
{
	if (!g)
		return;
	if (g->map) {
		mapguard_forget(g->map);
		munmap((void *)g->map, g->size);
	}
	free(g->mem);
	free(g->pre);
	free(g->end);
	free(g->merge);
	free(g->post);
	free(g->low);
	free(g->seen);
	free(g->stack);
	free(g->mark);
	free(g);
}

/* The merge of the sorted IDs with the graph's sorted OIDL; returns how many matched. */
static size_t merge(const commit_graph *g, const unsigned char *ids, size_t n, int64_t *times,
		    unsigned char *found)
{
	size_t i = 0, hits = 0, rawsz = g->rawsz;
	uint64_t k = 0;

	while (i < n && k < g->n) {
		int c = memcmp(ids + i * rawsz, g->oidl + k * rawsz, rawsz);

		if (c < 0) {
			i++;
		} else if (c > 0) {
			k++;
		} else {
			if (!found[i]) {
				const unsigned char *d = g->cdat + k * (rawsz + 16) + rawsz + 8;

				times[i] = (int64_t)(be64(d) & ((UINT64_C(1) << 34) - 1));
				found[i] = 1;
				hits++;
			}
			i++;
			k++;
		}
	}
	return hits;
}

size_t commit_graph_times(const char *objdir, size_t rawsz, const unsigned char *ids, size_t n,
			  int64_t *times, unsigned char *found)
{
	commit_graph *g;
	size_t hits;

	if (!n || commit_graph_open(&g, objdir, rawsz) || !g)
		return 0;
	hits = merge(g, ids, n, times, found);
	commit_graph_close(g);
	return hits;
}

/*
 * The generation of every commit: 1 for a root, else one more than its
 * parents' highest, by a depth-first walk (frames of commit and next
 * parent).  0, 1 for a cycle, -1 when out of memory.
 */
static int generations(uint32_t n, const uint32_t *pstart, const uint32_t *plist, uint32_t *gen)
{
	uint32_t (*st)[2] = malloc((n ? n : 1) * sizeof(*st));
	size_t sp;

	if (!st)
		return -1;
	memset(gen, 0, (size_t)n * sizeof(*gen)); /* 0: not yet; UINT32_MAX: on the stack */
	for (uint32_t r = 0; r < n; r++) {
		if (gen[r])
			continue;
		sp = 0;
		st[sp][0] = r;
		st[sp++][1] = pstart[r];
		gen[r] = UINT32_MAX;
		while (sp) {
			uint32_t v = st[sp - 1][0], k = st[sp - 1][1];

			if (k < pstart[v + 1]) {
				uint32_t p = plist[k];

				st[sp - 1][1]++;
				if (gen[p] == UINT32_MAX) {
					free(st);
					return 1;
				}
				if (!gen[p]) {
					gen[p] = UINT32_MAX;
					st[sp][0] = p;
					st[sp++][1] = pstart[p];
				}
			} else {
				uint32_t best = 0;

				for (k = pstart[v]; k < pstart[v + 1]; k++)
					if (gen[plist[k]] > best)
						best = gen[plist[k]];
				gen[v] = best + 1 < GEN_MAX ? best + 1 : GEN_MAX;
				sp--;
			}
		}
	}
	free(st);
	return 0;
}

int commit_graph_build(commit_graph **out, size_t rawsz, const unsigned char *ids, uint32_t n,
		       const uint32_t *pstart, const uint32_t *plist)
{
	size_t rec = 16, nedge = 0; /* the file's records without the tree ID */
	uint32_t *gen;
	commit_graph *g;
	unsigned char *m;
	int rc;

	*out = NULL;
	if (n >= PARENT_NONE)
		return 0;
	for (uint32_t i = 0; i < n; i++) {
		if (pstart[i + 1] < pstart[i])
			return 0;
		if (pstart[i + 1] - pstart[i] > 2)
			nedge += pstart[i + 1] - pstart[i] - 1;
	}
	for (uint32_t k = 0; k < pstart[n]; k++)
		if (plist[k] >= n)
			return 0;
	if (nedge >= PARENT_EDGES)
		return 0;
	gen = malloc((n ? n : 1) * sizeof(*gen));
	g = calloc(1, sizeof(*g));
	/* the IDs, the records, the extra parents, then a fan-out as the file's OIDF */
	m = malloc((size_t)n * rawsz + (size_t)n * rec + nedge * 4 + 256 * 4);
	if (!gen || !g || !m) {
		free(gen);
		free(g);
		free(m);
		return -1;
	}
	rc = generations(n, pstart, plist, gen);
	if (rc) {
		free(gen);
		free(g);
		free(m);
		return rc < 0 ? -1 : 0;
	}
	/* the file's layout, so that one reader serves both */
	g->mem = m;
	g->rawsz = rawsz;
	g->n = n;
	g->oidl = m;
	g->cdat = m + (size_t)n * rawsz;
	g->cstride = rec;
	g->ctree = 0;
	g->edge = g->cdat + (size_t)n * rec;
	g->nedge = (uint32_t)nedge;
	memcpy(m, ids, (size_t)n * rawsz);
	nedge = 0;
	for (uint32_t i = 0; i < n; i++) {
		unsigned char *c = m + (size_t)n * rawsz + (size_t)i * rec;
		uint32_t np = pstart[i + 1] - pstart[i];
		const uint32_t *pl = plist + pstart[i];

		put_be32(c, np > 0 ? pl[0] : PARENT_NONE);
		if (np > 2) {
			put_be32(c + 4, PARENT_EDGES | (uint32_t)nedge);
			for (uint32_t k = 1; k < np; k++)
				put_be32(g->mem + (size_t)n * rawsz + (size_t)n * rec + 4 * nedge++,
				      pl[k] | (k == np - 1 ? PARENT_EDGES : 0));
		} else {
			put_be32(c + 4, np > 1 ? pl[1] : PARENT_NONE);
		}
		put_be32(c + 8, gen[i] << 2);
		put_be32(c + 12, 0);
	}
	/* each ID's first byte narrows position()'s search, as with the file */
	{
		unsigned char *f = (unsigned char *)g->edge + nedge * 4;
		uint32_t at = 0;

		for (unsigned b = 0; b < 256; b++) {
			while (at < n && ids[(size_t)at * rawsz] <= b)
				at++;
			f[4 * b] = (unsigned char)(at >> 24);
			f[4 * b + 1] = (unsigned char)(at >> 16);
			f[4 * b + 2] = (unsigned char)(at >> 8);
			f[4 * b + 3] = (unsigned char)at;
		}
		g->oidf = f;
	}
	free(gen);
	*out = g;
	return 0;
}

/* ---- ancestry ---------------------------------------------------------------------- */

/* Position of `id` in the graph, or UINT32_MAX. */
static uint32_t position(const commit_graph *g, const unsigned char *id)
{
	uint32_t lo = 0, hi = g->n;
	size_t i;

	if (g->oidf) {
		lo = id[0] ? be32(g->oidf + (id[0] - 1) * 4) : 0;
		hi = be32(g->oidf + id[0] * 4);
		if (lo > hi || hi > g->n)
			lo = 0, hi = g->n;
	}
	i = hexid_find(g->oidl, lo, hi, g->rawsz, id);
	return i == SIZE_MAX ? UINT32_MAX : (uint32_t)i;
}

static const unsigned char *cdat(const commit_graph *g, uint32_t i)
{
	return g->cdat + (size_t)i * g->cstride + g->ctree;
}

static uint32_t generation(const commit_graph *g, uint32_t i)
{
	return be32(cdat(g, i) + 8) >> 2;
}

/*
 * The parents of commit i, one by one: *k is 0 at first; UINT32_MAX when
 * there are no more, or the file is damaged (*bad set).
 */
static uint32_t parent(const commit_graph *g, uint32_t i, uint32_t *k, int *bad)
{
	uint32_t p;

	if (*k == 0) {
		*k = 1;
		p = be32(cdat(g, i));
	} else if (*k == 1) {
		*k = 2;
		p = be32(cdat(g, i) + 4);
		if (p & PARENT_EDGES) {
			*k = 3 + (p & ~PARENT_EDGES); /* 3 + where the list starts in EDGE */
			return parent(g, i, k, bad);
		}
	} else if (*k >= 3 && *k - 3 < g->nedge) {
		p = be32(g->edge + (size_t)(*k - 3) * 4);
		*k = p & PARENT_EDGES ? 2 : *k + 1;
		p &= ~PARENT_EDGES;
	} else {
		if (*k != 2)
			*bad = 1; /* an EDGE list running off the chunk */
		return UINT32_MAX;
	}
	if (p == PARENT_NONE) {
		*k = 2;
		return UINT32_MAX;
	}
	if (p >= g->n) {
		*bad = 1;
		return UINT32_MAX;
	}
	return p;
}

static void label(commit_graph *g);

/* Whether commit i has a second parent (or a damaged field: the walk stops there to meet it). */
static int is_merge(const commit_graph *g, uint32_t i)
{
	return be32(cdat(g, i) + 4) != PARENT_NONE;
}

/*
 * Number the first-parent tree: pre[i] and end[i] (UNNUMBERED: in no
 * tree, a damaged file), and merge[i], the first commit at or below i on
 * its first-parent line that has another parent (NO_MERGE: none down to
 * its root; UNNUMBERED: not known, a damaged file); then the labels.
 */
static int number(commit_graph *g)
{
	uint32_t n = g->n, sz = n ? n : 1, cnt = 0;
	uint32_t *child = malloc(sz * sizeof(*child)), *sib = malloc(sz * sizeof(*sib));
	int rc = -1;

	g->pre = malloc(sz * sizeof(*g->pre));
	g->end = malloc(sz * sizeof(*g->end));
	g->merge = malloc(sz * sizeof(*g->merge));
	g->seen = calloc(sz, sizeof(*g->seen));
	g->stack = malloc(sz * sizeof(*g->stack));
	if (!child || !sib || !g->pre || !g->end || !g->merge || !g->seen || !g->stack)
		goto done;
	for (uint32_t i = 0; i < n; i++)
		child[i] = sib[i] = g->pre[i] = g->end[i] = g->merge[i] = UNNUMBERED;
	/* each commit in its first parent's list of children */
	for (uint32_t i = n; i-- > 0;) {
		uint32_t p = be32(cdat(g, i));

		if (p < n) {
			sib[i] = child[p];
			child[p] = i;
		}
	}
	/* depth first from each root; a first-parent cycle (damage) stays unnumbered */
	for (uint32_t r = 0; r < n; r++) {
		uint32_t sp = 0;

		if (be32(cdat(g, r)) < n)
			continue;
		g->pre[r] = cnt++;
		/* no parent (a damaged one: r itself, the walk meets the damage there) */
		g->merge[r] = be32(cdat(g, r)) == PARENT_NONE ? NO_MERGE : r;
		g->stack[sp++] = r;
		while (sp) {
			uint32_t v = g->stack[sp - 1], c = child[v];

			if (c != UNNUMBERED) {
				child[v] = sib[c];
				g->pre[c] = cnt++;
				g->merge[c] = is_merge(g, c) ? c : g->merge[v];
				g->stack[sp++] = c;
			} else {
				g->end[v] = cnt;
				sp--;
			}
		}
	}
	label(g);
	rc = 0;
done:
	free(child);
	free(sib);
	return rc;
}

/*
 * The labels post[] and low[] (see the top), or none (g->post NULL) when
 * memory runs out or the graph is damaged (a cycle, a parent out of
 * range): then the walk alone answers, and says so where it meets the
 * damage.
 */
static void label(commit_graph *g)
{
	uint32_t n = g->n, sz = n ? n : 1, cnt = 0;
	uint32_t *post = malloc(sz * sizeof(*post)), *low = malloc(sz * sizeof(*low));
	uint32_t (*st)[2] = malloc(sz * sizeof(*st)); /* commit, parent iterator */
	int bad = 0;

	if (!post || !low || !st)
		goto fail;
	/* post UNNUMBERED: not finished; then low UNNUMBERED: on the stack, else not seen */
	for (uint32_t i = 0; i < n; i++) {
		post[i] = UNNUMBERED;
		low[i] = 0;
	}
	for (uint32_t r = 0; r < n; r++) {
		uint32_t sp = 0;

		if (post[r] != UNNUMBERED)
			continue;
		low[r] = UNNUMBERED;
		st[sp][0] = r;
		st[sp++][1] = 0;
		while (sp) {
			uint32_t v = st[sp - 1][0], p = parent(g, v, &st[sp - 1][1], &bad);

			if (bad)
				goto fail;
			if (p == UINT32_MAX) {
				uint32_t m = cnt, k = 0, q;

				while ((q = parent(g, v, &k, &bad)) != UINT32_MAX)
					if (low[q] < m)
						m = low[q];
				post[v] = cnt++;
				low[v] = m;
				sp--;
			} else if (post[p] == UNNUMBERED) {
				if (low[p] == UNNUMBERED || sp == n)
					goto fail; /* on the stack: a cycle */
				low[p] = UNNUMBERED;
				st[sp][0] = p;
				st[sp++][1] = 0;
			}
		}
	}
	free(st);
	g->post = post;
	g->low = low;
	return;
fail:
	free(post);
	free(low);
	free(st);
}

/* Whether d's label holds a's: else a is no ancestor of d (labels made). */
static int holds(const commit_graph *g, uint32_t d, uint32_t a)
{
	return g->low[d] <= g->low[a] && g->post[a] <= g->post[d];
}

/* Whether a lies on the first-parent line below d (or is d). */
static int fp_below(const commit_graph *g, uint32_t a, uint32_t d)
{
	return g->pre[a] != UNNUMBERED && g->pre[d] != UNNUMBERED && g->pre[a] <= g->pre[d] &&
	       g->pre[d] < g->end[a];
}

int commit_graph_is_ancestor(commit_graph *g, const unsigned char *anc, const unsigned char *of)
{
	uint32_t a = position(g, anc), d = position(g, of), ga, sp = 0;
	int bad = 0;

	if (a == UINT32_MAX || d == UINT32_MAX)
		return -1;
	if (a == d)
		return 0;
	if (!g->numbered)
		g->numbered = number(g) ? -1 : 1;
	if (g->numbered < 0)
		return -1;
	if (fp_below(g, a, d))
		return 1;
	ga = generation(g, a);
	/* 0: written by a git without generations; GEN_MAX: capped */
	if (ga == 0 || ga >= GEN_MAX || generation(g, d) == 0)
		return -1;
	if (ga >= generation(g, d))
		return 0;
	if (g->post && !holds(g, d, a))
		return 0;
	if (++g->stamp == 0) { /* wrapped: clear the marks */
		memset(g->seen, 0, (size_t)g->n * sizeof(*g->seen));
		g->stamp = 1;
	}
	g->seen[d] = g->stamp;
	g->stack[sp++] = d;
	while (sp) {
		uint32_t v = g->stack[--sp], k = 0, p;

		while ((p = parent(g, v, &k, &bad)) != UINT32_MAX) {
			uint32_t q = g->merge[p];

			if (p == a || fp_below(g, a, p))
				return 1;
			/*
			 * a is not on p's first-parent line: what p reaches
			 * besides passes through the first merge down it, so
			 * the walk goes on from there (a line without merges
			 * reaches nothing more)
			 */
			if (q == NO_MERGE)
				continue;
			if (q == UNNUMBERED)
				q = p;
			if (g->seen[q] == g->stamp || generation(g, q) <= ga ||
			    (g->post && !holds(g, q, a)))
				continue;
			g->seen[q] = g->stamp;
			g->stack[sp++] = q; /* each commit once: the stack holds at most n */
		}
		if (bad)
			return -1;
	}
	return 0;
}

int commit_graph_parents(const commit_graph *g, const unsigned char *id, int64_t *time,
			 unsigned char *out, size_t max)
{
	uint32_t i = g->mem ? UINT32_MAX : position(g, id), k = 0, p;
	int n = 0, bad = 0;

	if (i == UINT32_MAX)
		return -1;
	*time = (int64_t)(be64(cdat(g, i) + 8) & ((UINT64_C(1) << 34) - 1));
	while ((p = parent(g, i, &k, &bad)) != UINT32_MAX) {
		if (n == INT32_MAX)
			return -1;
		if ((size_t)n < max)
			memcpy(out + (size_t)n * g->rawsz, g->oidl + (size_t)p * g->rawsz, g->rawsz);
		n++;
	}
	return bad ? -1 : n;
}

int commit_graph_mark(commit_graph *g, const unsigned char *tip)
{
	uint32_t t = position(g, tip), sp = 0;
	int bad = 0;

	if (t == UINT32_MAX)
		return 1;
	if (!g->numbered) /* the stack is numbering's */
		g->numbered = number(g) ? -1 : 1;
	if (g->numbered < 0 || (!g->mark && !(g->mark = calloc(g->n, 1))))
		return -1;
	if (g->mark[t])
		return 0;
	g->mark[t] = 1;
	g->stack[sp++] = t;
	while (sp) {
		uint32_t v = g->stack[--sp], k = 0, p;

		while ((p = parent(g, v, &k, &bad)) != UINT32_MAX) {
			if (g->mark[p])
				continue;
			g->mark[p] = 1;
			g->stack[sp++] = p; /* each commit once: the stack holds at most n */
		}
		if (bad)
			return 1;
	}
	return 0;
}

int commit_graph_marked(const commit_graph *g, const unsigned char *id)
{
	uint32_t i = position(g, id);

	if (i == UINT32_MAX)
		return -1;
	return g->mark && g->mark[i];
}
