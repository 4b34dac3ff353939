/*
 * commit_tables.c - every pack's commit table from the cache, else read
 * and kept (commit_tables.h).
 */
#include <config.h>

#include "commit_tables.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "hexid.h"

/* Where pack k's commits name their parents: its .idx IDs, or the loose commits' array. */
typedef struct {
	objread *rd;
	uint32_t pack;              /* objread_npacks(): the loose ones */
	const unsigned char *loose;
	size_t nloose;
} id_space;

/* The position of id among the space's IDs, or UINT32_MAX. */
static uint32_t position_of(const id_space *s, size_t rawsz, const unsigned char *id)
{
	size_t i;

	if (s->pack < objread_npacks(s->rd))
		return objread_find_in(s->rd, s->pack, id);
	i = hexid_find(s->loose, 0, s->nloose, rawsz, id);
	return i == SIZE_MAX || i >= UINT32_MAX ? UINT32_MAX : (uint32_t)i;
}

/*
 * The position of id when it is one of the jobs right after job j (below
 * hi): a commit's first parent mostly is, as git packs commits newest
 * first.  UINT32_MAX when it is not (position_of() then searches).
 */
static uint32_t position_next(const commits *c, size_t j, size_t hi, size_t rawsz,
			      const unsigned char *id)
{
	for (size_t n = j + 1; n < hi && n <= j + 2; n++) {
		const commits_job *jb;
		const char *subject;
		int64_t time;

		(void)commits_get(c, n, &jb, &subject, &time);
		if (!memcmp(jb->id, id, rawsz))
			return jb->pos;
	}
	return UINT32_MAX;
}

/*
 * The parents of the jobs [lo, hi) as a table keeps them (rows[] get
 * their pfirst, np): a position in the space, else an ID kept apart.
 * 0 with *par filled (its arrays malloc'ed), 1 when some were not read
 * (no parents kept), -1 (memory).
 */
static int parents_of(subject_parents *par, uint32_t **list, unsigned char **ext,
		      const commits *c, size_t hi, subject_row *rows, size_t nrows,
		      const size_t *job_of, const id_space *sp, size_t rawsz, uint32_t nobjects)
{
	size_t n = 0, cap = 0, ne = 0, ecap = 0;

	*list = NULL;
	*ext = NULL;
	for (size_t k = 0; k < nrows; k++) {
		const unsigned char *pids;
		uint32_t np;

		if (!commits_parents(c, job_of[k], &pids, &np))
			return 1;
		rows[k].pfirst = (uint32_t)n;
		rows[k].np = np;
		for (uint32_t q = 0; q < np; q++) {
			const unsigned char *id = pids + (size_t)q * rawsz;
			uint32_t pos = position_next(c, job_of[k], hi, rawsz, id);

			if (pos == UINT32_MAX)
				pos = position_of(sp, rawsz, id);

			if (pos == UINT32_MAX || pos >= nobjects) { /* not the pack's: kept whole */
				if (ne >= UINT32_MAX - nobjects || GROW(*ext, ecap, (ne + 1) * rawsz, 64 * rawsz))
					return -1;
				memcpy(*ext + ne * rawsz, id, rawsz);
				pos = nobjects + (uint32_t)ne++;
			}
			if (GROW(*list, cap, n + 1, 1024))
				return -1;
			(*list)[n++] = pos;
		}
	}
	*par = (subject_parents){ *list, n, *ext, (uint32_t)ne };
	return 0;
}

/*
 * The table of the jobs [lo, hi) of one pack (or the loose commits), for
 * the pack `sum` of nobjects, with their parents when all were read: 0,
 * 1 when some of them could not be read (a table to use, not to keep: the
 * next run tries again), or -1 (memory).
 */
static int table_of(subject_table **out, const commits *c, size_t lo, size_t hi, size_t rawsz,
		    const unsigned char *sum, uint32_t nobjects, const id_space *sp)
{
	subject_row *rows = malloc((hi > lo ? hi - lo : 1) * sizeof(*rows));
	size_t *job_of = malloc((hi > lo ? hi - lo : 1) * sizeof(*job_of));
	subject_parents par;
	uint32_t *list = NULL;
	unsigned char *ext = NULL;
	size_t k = 0;
	int rc = -1, pr;

	if (!rows || !job_of)
		goto done;
	for (size_t j = lo; j < hi; j++) {
		const commits_job *jb;
		const char *subject;
		int64_t time;

		if (commits_get(c, j, &jb, &subject, &time)) {
			job_of[k] = j;
			rows[k++] = (subject_row){ subject, jb->pos, time, 0, 0 };
		}
	}
	pr = parents_of(&par, &list, &ext, c, hi, rows, k, job_of, sp, rawsz, nobjects);
	if (pr < 0)
		goto done;
	rc = subject_table_build_with(out, rawsz, sum, nobjects, rows, k, pr ? NULL : &par);
	if (!rc)
		rc = k < hi - lo;
done:
	free(rows);
	free(job_of);
	free(list);
	free(ext);
	return rc;
}

/* A table not written (a full disk, a read-only cache): one note, the answer is the same. */
static void save_failed(const char *dir)
{
	static int noted;

	if (!noted++)
		fprintf(stderr, "git-abbrev: note: cannot write the cache '%s': %s (later runs read "
			"every commit again)\n", dir, strerror(errno));
}

/* Nothing the packs cannot give is read: what is not there is the caller's to find. */
static int read_none(void *ctx, const commits_job *j, int packed, const char **d, size_t *len,
		     void **hold)
{
	(void)ctx, (void)j, (void)packed, (void)d, (void)len, (void)hold;
	return 0;
}

static void release_none(void *ctx, void *hold)
{
	(void)ctx, (void)hold;
}

/*
 * Pack k's commits from the types the walker kept in the cache (history
 * walks every object first: its entry headers are not read twice): 0, 1
 * when there are none to use (commits_scan() then), -1 (memory).
 */
static int scan_cached(commits *c, objread *rd, size_t rawsz, const char *dir, uint32_t k)
{
	const unsigned char *sum, *ids;
	unsigned char *types;
	subject_tag *tags = NULL;
	size_t stride, ntags = 0;
	uint32_t n;
	subject_bind b;
	int rc;

	if (!dir)
		return 1;
	objread_pack(rd, k, &sum, &n, &ids, &stride);
	objread_pack_files(rd, k, &b.pack, &b.idx);
	b.pack_path = NULL;
	if (!(types = malloc(n ? n : 1)))
		return -1;
	rc = subject_types_load(dir, rawsz, sum, n, &b, types, &tags, &ntags);
	if (!rc)
		rc = commits_scan_types(c, k, types);
	free(tags);
	free(types);
	return rc;
}

int commit_tables_get(objread *rd, size_t rawsz, commit_tables_opts *o, subject_table **tabs,
		      commits **read)
{
	static const commits_other none = { read_none, release_none, NULL };
	static const unsigned char loose_sum[ABBREV_MAX_RAWSZ];
	uint32_t np = objread_npacks(rd);
	size_t *from = calloc(np + 2, sizeof(*from)); /* pack k's jobs: [from[k], from[k + 1]) */
	const unsigned char *all = NULL;
	size_t nall = 0;
	commits *c = NULL;
	int rc = -1;

	*read = NULL;
	if (!from || commits_new(&c, rd, rawsz))
		goto done;
	for (uint32_t k = 0; k < np; k++) {
		const unsigned char *sum, *ids;
		uint32_t n;
		size_t stride;
		subject_bind b;

		objread_pack(rd, k, &sum, &n, &ids, &stride);
		objread_pack_files(rd, k, &b.pack, &b.idx);
		b.pack_path = NULL;
		if (!tabs[k] && o->cache_dir && o->scan &&
		    subject_table_load(&tabs[k], o->cache_dir, rawsz, sum, n, &b) < 0)
			goto done;
	}
	for (uint32_t k = 0; k < np; k++) {
		int r = 1;

		from[k] = commits_count(c);
		if (tabs[k])
			continue;
		if (o->scan && (r = scan_cached(c, rd, rawsz, o->cache_dir, k)) < 0)
			goto done;
		if (o->scan && r > 0 && (r = commits_scan(c, k)) < 0)
			goto done;
		if (r > 0 && o->scan) { /* a header the packs cannot read: the list's word on it */
			o->scan = 0;
			commits_restart(c);
			k = UINT32_MAX; /* all again, from the list */
			continue;
		}
		if (r > 0 && !all && o->commits_of(o->arg, &all, &nall))
			goto done;
		if (r > 0 && commits_pick(c, k, all, nall))
			goto done;
	}
	from[np] = commits_count(c);
	if (commits_add_loose(c, o->loose, o->nloose))
		goto done;
	from[np + 1] = commits_count(c);
	progress_start(o->p, o->title, commits_count(c));
	commits_use_known(c, o->known);
	/* parents always: the tables keep them */
	rc = commits_read(c, 1, o->other ? o->other : &none, o->p);
	progress_stop(o->p);
	if (o->drop_known) { /* copied into c: not needed for the tables */
		commits_use_known(c, NULL);
		commits_known_free(o->known);
		o->known = NULL;
	}
	if (rc)
		goto done;
	rc = -1;
	for (uint32_t k = 0; k <= np; k++) {
		const unsigned char *sum = loose_sum, *ids;
		uint32_t n = (uint32_t)o->nloose;
		size_t stride;
		id_space sp;
		int whole;

		if (k < np)
			objread_pack(rd, k, &sum, &n, &ids, &stride);
		if (tabs[k])
			continue;
		sp = (id_space){ rd, k, o->loose, o->nloose };
		whole = table_of(&tabs[k], c, from[k], from[k + 1], rawsz, sum, n, &sp);
		if (whole < 0)
			goto done;
		/* no cache (a read-only home, a full disk) is no error: the next run reads again */
		if (k < np && o->cache_dir && !whole && o->scan) {
			subject_bind b; /* for these very files, not any claiming the checksum */

			objread_pack_files(rd, k, &b.pack, &b.idx);
			b.pack_path = objread_pack_path(rd, k);
			if (!subject_table_bind(tabs[k], &b) &&
			    subject_table_save(tabs[k], o->cache_dir))
				save_failed(o->cache_dir);
		}
	}
	rc = 0;
done:
	free(from);
	*read = c;
	return rc;
}

/* ---- the parents of every commit, from the tables ------------------------------- */

typedef struct {
	const unsigned char *id;
	uint32_t tab, i;
} commit_ref;

static size_t cmp_rawsz; /* for qsort, set just before it (one sort at a time) */

static int cmp_ref(const void *pa, const void *pb)
{
	const commit_ref *a = pa, *b = pb;

	return memcmp(a->id, b->id, cmp_rawsz);
}

/*
 * Sort v[0 .. nv), made of the runs starting at run[0 .. nrun) (each run
 * one table's rows, ascending when it is a pack's: its .idx order), by
 * ID: a run out of order sorted alone, then the runs merged pairwise,
 * log2(nrun) linear passes instead of one qsort of all (1.0 G of the
 * 2.9 G instructions of a partial --range over three packs' 1.3M
 * commits).  0, or -1 (memory).
 */
static int sort_runs(commit_ref *v, size_t nv, size_t *run, size_t nrun, size_t rawsz)
{
	commit_ref *w, *from = v, *to;

	for (size_t r = 0; r < nrun; r++) {
		size_t a = run[r], b = r + 1 < nrun ? run[r + 1] : nv;

		for (size_t i = a + 1; i < b; i++)
			if (memcmp(v[i - 1].id, v[i].id, rawsz) > 0) {
				cmp_rawsz = rawsz;
				qsort(v + a, b - a, sizeof(*v), cmp_ref);
				break;
			}
	}
	if (nrun < 2)
		return 0;
	if (!(w = malloc(nv * sizeof(*w))))
		return -1;
	to = w;
	for (; nrun > 1; nrun = (nrun + 1) / 2) {
		commit_ref *tmp;
		size_t r;

		for (r = 0; r < nrun; r += 2) {
			size_t a = run[r], m = r + 1 < nrun ? run[r + 1] : nv,
			       b = r + 2 < nrun ? run[r + 2] : nv, i = a, j = m, o = a;

			while (i < m && j < b)
				to[o++] = memcmp(from[i].id, from[j].id, rawsz) <= 0 ? from[i++] : from[j++];
			while (i < m)
				to[o++] = from[i++];
			while (j < b)
				to[o++] = from[j++];
			run[r / 2] = a;
		}
		tmp = from;
		from = to;
		to = tmp;
	}
	if (from != v)
		memcpy(v, from, nv * sizeof(*v));
	free(w);
	return 0;
}

void commit_parents_free(parent_set *p)
{
	free(p->ids);
	free(p->count);
	free(p->first);
	free(p->pids);
	memset(p, 0, sizeof(*p));
}

/* The most parents a commit may have here (git.git's and Linux's most: 66). */
#define MAX_PARENTS 1024

int commit_tables_parents(objread *rd, size_t rawsz, subject_table *const *tabs,
			  const unsigned char *loose, size_t nloose, parent_set *out)
{
	uint32_t np = objread_npacks(rd);
	const unsigned char **par = NULL;
	commit_ref *v = NULL;
	size_t total = 0, k = 0, cap = 0, nv = 0, *run = NULL, nrun = 0;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	out->rawsz = rawsz;
	for (uint32_t t = 0; t <= np; t++) {
		if (!tabs[t] || !subject_table_has_parents(tabs[t]))
			return 1;
		total += subject_table_count(tabs[t]);
	}
	if (total >= UINT32_MAX)
		return 1;
	v = malloc((total ? total : 1) * sizeof(*v));
	par = malloc(MAX_PARENTS * sizeof(*par));
	run = malloc(((size_t)np + 1) * sizeof(*run));
	if (!v || !par || !run)
		goto done;
	/* each table's commits in position order: ID order */
	for (uint32_t t = 0; t <= np; t++) {
		const unsigned char *sum, *ids = loose;
		uint32_t n = (uint32_t)nloose;
		size_t stride = rawsz, cnt = subject_table_count(tabs[t]);

		if (t < np)
			objread_pack(rd, t, &sum, &n, &ids, &stride);
		if (cnt)
			run[nrun++] = nv;
		for (size_t i = 0; i < cnt; i++) {
			uint32_t pos;
			int64_t time;

			if (subject_table_at(tabs[t], i, &pos, &time) || pos >= n) {
				rc = 1;
				goto done;
			}
			v[nv++] = (commit_ref){ ids + (size_t)pos * stride, t, (uint32_t)i };
		}
	}
	if (sort_runs(v, nv, run, nrun, rawsz))
		goto done;
	out->ids = malloc((nv ? nv : 1) * rawsz);
	out->count = malloc((nv ? nv : 1) * sizeof(*out->count));
	out->first = malloc((nv ? nv : 1) * sizeof(*out->first));
	if (!out->ids || !out->count || !out->first)
		goto done;
	for (size_t j = 0; j < nv; j++) {
		const subject_table *t = tabs[v[j].tab];
		const unsigned char *sum, *ids = loose;
		uint32_t n = (uint32_t)nloose;
		size_t stride = rawsz;
		int c;

		if (k && !memcmp(out->ids + (k - 1) * rawsz, v[j].id, rawsz))
			continue; /* in two packs */
		if (v[j].tab < np)
			objread_pack(rd, v[j].tab, &sum, &n, &ids, &stride);
		c = subject_table_parents(t, v[j].i, ids, stride, n, par, MAX_PARENTS);
		if (c < 0 || c > MAX_PARENTS || out->npids + (size_t)c >= UINT32_MAX) {
			rc = 1;
			goto done;
		}
		if (GROW(out->pids, cap, (out->npids + (size_t)c) * rawsz + 1, 1 << 16))
			goto done;
		for (int q = 0; q < c; q++)
			memcpy(out->pids + (out->npids + (size_t)q) * rawsz, par[q], rawsz);
		memcpy(out->ids + k * rawsz, v[j].id, rawsz);
		out->first[k] = (uint32_t)out->npids;
		out->count[k++] = (uint32_t)c;
		out->npids += (size_t)c;
	}
	out->n = k;
	rc = 0;
done:
	free(v);
	free(par);
	free(run);
	if (rc)
		commit_parents_free(out);
	return rc;
}

int commit_parents_graph(const parent_set *p, commit_graph **out)
{
	return commits_graph_of(out, p->rawsz, p->ids, p->n, p->count, p->first, p->pids,
				p->npids);
}
