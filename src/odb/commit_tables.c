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

#include "hexid.h"

/*
 * The table of the jobs [lo, hi) of one pack (or the loose commits), for
 * the pack `sum` of nobjects: 0, 1 when some of them could not be read (a
 * table to use, not to keep: the next run tries again), or -1 (memory).
 */
static int table_of(subject_table **out, const commits *c, size_t lo, size_t hi, size_t rawsz,
		    const unsigned char *sum, uint32_t nobjects)
{
	subject_row *rows = malloc((hi > lo ? hi - lo : 1) * sizeof(*rows));
	size_t k = 0;
	int rc;

	if (!rows)
		return -1;
	for (size_t j = lo; j < hi; j++) {
		const commits_job *jb;
		const char *subject;
		int64_t time;

		if (commits_get(c, j, &jb, &subject, &time))
			rows[k++] = (subject_row){ subject, jb->pos, time };
	}
	rc = subject_table_build(out, rawsz, sum, nobjects, rows, k);
	free(rows);
	return rc ? rc : k < hi - lo;
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
		if (o->cache_dir && o->scan &&
		    subject_table_load(&tabs[k], o->cache_dir, rawsz, sum, n, &b) < 0)
			goto done;
	}
	for (uint32_t k = 0; k < np; k++) {
		int r = 1;

		from[k] = commits_count(c);
		if (tabs[k])
			continue;
		if (o->scan && (r = commits_scan(c, k)) < 0)
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
	rc = commits_read(c, o->parents, o->other ? o->other : &none, o->p);
	progress_stop(o->p);
	if (rc)
		goto done;
	rc = -1;
	for (uint32_t k = 0; k <= np; k++) {
		const unsigned char *sum = loose_sum, *ids;
		uint32_t n = (uint32_t)o->nloose;
		size_t stride;
		int whole;

		if (k < np)
			objread_pack(rd, k, &sum, &n, &ids, &stride);
		if (tabs[k])
			continue;
		whole = table_of(&tabs[k], c, from[k], from[k + 1], rawsz, sum, n);
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
