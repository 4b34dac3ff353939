/*
 * commits.c - every commit of the packs and the loose ones, read once on
 * two threads (commits.h).
 */
#include <config.h>

#include "commits.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "commit.h"
#include "grow.h"
#include "hexid.h"
#include "subject_cache.h"
#include "test_hooks.h"

enum { GOT_NOT, GOT_OK, GOT_RETRY };

/* Room for `need` IDs (rawsz bytes) in the array *pids of *cap: 0, or -1 (memory). */
static int pids_room(unsigned char **pids, size_t *cap, size_t need, size_t rawsz)
{
	unsigned char *b;
	size_t c = 2 * *cap + need + 1024;

	if (need <= *cap)
		return 0;
	if (!(b = realloc(*pids, c * rawsz)))
		return -1;
	*pids = b;
	*cap = c;
	return 0;
}

/*
 * The parents of the commit d[0..len) into *pids after its first n IDs
 * (the array grown): 0 with their count in *np (-1: commit_parents()
 * could not read them), or -1 (memory).
 */
static int pids_parse(const char *d, size_t len, size_t rawsz, unsigned char **pids, size_t n,
		      size_t *cap, int *np)
{
	for (;;) {
		*np = commit_parents(d, len, rawsz, *pids + n * rawsz, *cap - n);
		if (*np < 0 || (size_t)*np <= *cap - n)
			return 0;
		if (pids_room(pids, cap, n + (size_t)*np, rawsz))
			return -1;
	}
}

/* ---- commits read already ------------------------------------------------------- */

/* One commit known: its subject in text, its parents in pids (np UINT32_MAX: unreadable). */
typedef struct {
	size_t soff;
	int64_t time;
	size_t first;
	uint32_t np;
} known_row;

struct commits_known {
	size_t rawsz;
	unsigned char *ids;   /* row i's ID at ids + i * rawsz */
	known_row *rows;
	size_t n, cap;
	uint32_t *slot;       /* open addressing: a row + 1, 0 empty; nslot a power of 2 */
	size_t nslot;
	subject_text text;
	commit_buf subject;
	unsigned char *pids;
	size_t npids, pcap;   /* in IDs */
};

int commits_known_new(commits_known **out, size_t rawsz)
{
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return -1;
	(*out)->rawsz = rawsz;
	return 0;
}

void commits_known_free(commits_known *k)
{
	if (!k)
		return;
	free(k->ids);
	free(k->rows);
	free(k->slot);
	free(k->text.s);
	commit_buf_free(&k->subject);
	free(k->pids);
	free(k);
}

size_t commits_known_count(const commits_known *k)
{
	return k ? k->n : 0;
}

/* The hash of an ID: its first bytes (IDs are uniform). */
static size_t known_hash(const unsigned char *id)
{
	uint64_t h;

	memcpy(&h, id, sizeof(h));
	return (size_t)(h ^ h >> 29);
}

/* The row of id, or SIZE_MAX; with `at`, the slot where it is or would go. */
static size_t known_find(const commits_known *k, const unsigned char *id, size_t *at)
{
	size_t mask = k->nslot - 1, i;

	if (!k->nslot)
		return SIZE_MAX;
	for (i = known_hash(id) & mask; k->slot[i]; i = (i + 1) & mask)
		if (!memcmp(k->ids + (size_t)(k->slot[i] - 1) * k->rawsz, id, k->rawsz))
			break;
	if (at)
		*at = i;
	return k->slot[i] ? k->slot[i] - 1 : SIZE_MAX;
}

/* Slots for at least twice the rows: 0, or -1 (memory). */
static int known_rehash(commits_known *k, size_t need)
{
	size_t n = k->nslot ? k->nslot : 1024, at;
	uint32_t *old = k->slot;
	size_t nold = k->nslot;

	if (2 * need <= k->nslot)
		return 0;
	while (n < 2 * need)
		n *= 2;
	if (!(k->slot = calloc(n, sizeof(*k->slot)))) {
		k->slot = old;
		return -1;
	}
	k->nslot = n;
	for (size_t i = 0; i < nold; i++)
		if (old[i]) {
			(void)known_find(k, k->ids + (size_t)(old[i] - 1) * k->rawsz, &at);
			k->slot[at] = old[i];
		}
	free(old);
	return 0;
}

int commits_known_add(commits_known *k, const unsigned char *id, const char *d, size_t len)
{
	known_row *r;
	size_t at, cap;
	int np;

	if (k->n >= UINT32_MAX - 1 || known_rehash(k, k->n + 1))
		return -1;
	if (known_find(k, id, &at) != SIZE_MAX)
		return 0;
	cap = k->cap;
	if (GROW(k->rows, k->cap, k->n + 1, 1024) ||
	    (k->cap != cap && grow_to(&k->ids, k->cap, k->rawsz)) ||
	    commit_subject(d, len, &k->subject))
		return -1;
	r = &k->rows[k->n];
	if ((r->soff = subject_text_add(&k->text, k->subject.s)) == SIZE_MAX)
		return -1;
	r->time = commit_time(d, len);
	r->first = k->npids;
	if (pids_parse(d, len, k->rawsz, &k->pids, k->npids, &k->pcap, &np))
		return -1;
	r->np = np < 0 ? UINT32_MAX : (uint32_t)np;
	if (np > 0)
		k->npids += (size_t)np;
	memcpy(k->ids + k->n * k->rawsz, id, k->rawsz);
	k->slot[at] = (uint32_t)++k->n;
	return 0;
}

/* What reading a job gave. */
typedef struct {
	size_t soff;          /* the subject, in the text of the part that read it */
	int64_t time;
	uint32_t first, np;   /* its parents in the part's pids */
	unsigned char part;
	unsigned char state;  /* GOT_*: GOT_RETRY, the packs could not: the other reader's */
} got;

/*
 * A share of the jobs, [lo, hi), read by one thread with a reader of its
 * own: the threads write disjoint results and their own texts.
 */
typedef struct part part;
struct part {
	objread *rd;
	const commits_job *jobs;
	got *res;
	size_t rawsz;
	size_t lo, hi;
	unsigned char idx;
	int parents;          /* note parents */
	int parents_ok;       /* every parent line read so far */
	subject_text text;
	commit_buf subject;
	unsigned char *pids;
	size_t npids, pcap;
	const commits_known *known; /* jobs read already, or NULL */
	_Atomic size_t done;
	int rc;               /* 0 or -1 (memory) */
	progress *p;          /* the first part's: the count of all, shown here */
	part *other;
};

struct commits {
	objread *rd;
	size_t rawsz;
	commits_job *v;
	size_t n, cap;
	size_t npacked;       /* the jobs in packs: [0, npacked) */
	got *res;             /* after commits_read() */
	int read, parents;
	const commits_known *known;
	part pt[2];
	unsigned char *pids;  /* after commits_drop_text(): the parts' parent IDs, joined */
	size_t np0;           /* how many of them are the first part's */
};

int commits_new(commits **out, objread *rd, size_t rawsz)
{
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return -1;
	(*out)->rd = rd;
	(*out)->rawsz = rawsz;
	return 0;
}

static void parts_free(commits *c)
{
	for (int i = 0; i < 2; i++) {
		free(c->pt[i].text.s);
		c->pt[i].text = (subject_text){ 0 };
		commit_buf_free(&c->pt[i].subject);
	}
}

void commits_free(commits *c)
{
	if (!c)
		return;
	parts_free(c);
	for (int i = 0; i < 2; i++)
		free(c->pt[i].pids);
	free(c->pids);
	free(c->v);
	free(c->res);
	free(c);
}

static int job_add(commits *c, const unsigned char *id, uint32_t pack, uint32_t pos, uint64_t off)
{
	if (GROW(c->v, c->cap, c->n + 1, 1024))
		return -1;
	c->v[c->n++] = (commits_job){ id, off, pack, pos };
	return 0;
}

void commits_use_known(commits *c, const commits_known *k)
{
	c->known = k;
}

size_t commits_count(const commits *c)
{
	return c->n;
}

void commits_restart(commits *c)
{
	c->n = 0;
}

int commits_scan(commits *c, uint32_t pack)
{
	const unsigned char *sum, *ids;
	uint32_t *pos, nobj;
	uint64_t *off;
	size_t n, stride, first = c->n;
	char err[512];
	int rc = objread_pack_commits(c->rd, pack, &pos, &off, &n, err, sizeof(err));

	if (!rc)
		objread_pack(c->rd, pack, &sum, &nobj, &ids, &stride);
	for (size_t i = 0; !rc && i < n; i++)
		rc = job_add(c, ids + (size_t)pos[i] * stride, pack, pos[i], off[i]);
	free(pos);
	free(off);
	if (rc)
		c->n = first;
	return rc == -2 ? 1 : rc;
}

static int cmp_job_off(const void *pa, const void *pb)
{
	const commits_job *a = pa, *b = pb;

	return a->off < b->off ? -1 : a->off > b->off;
}

#define RADIX_BITS 11
#define RADIX_SIZE (1u << RADIX_BITS)

/*
 * off[0 .. n) and pos[] with them into offset order: an LSD radix sort,
 * 11 bits a pass (as odb_pack.c orders a pack), through off2[], pos2[];
 * the result in whichever pair *off, *pos point at after.  0 or -1.
 */
static int sort_by_offset(uint64_t **off, uint32_t **pos, uint64_t *off2, uint32_t *pos2,
			  size_t n)
{
	uint64_t max = 0;
	unsigned passes = 0;
	uint32_t *count = malloc(RADIX_SIZE * sizeof(*count));

	if (!count)
		return -1;
	for (size_t i = 0; i < n; i++)
		max |= (*off)[i];
	while (passes < 6 && (max >> (passes * RADIX_BITS)))
		passes++;
	for (unsigned p = 0; p < passes; p++) {
		unsigned shift = p * RADIX_BITS;
		uint32_t sum = 0, *tp;
		uint64_t *to;

		memset(count, 0, RADIX_SIZE * sizeof(*count));
		for (size_t i = 0; i < n; i++)
			count[((*off)[i] >> shift) & (RADIX_SIZE - 1)]++;
		for (unsigned d = 0; d < RADIX_SIZE; d++) {
			uint32_t c = count[d];

			count[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++) {
			uint32_t r = count[((*off)[i] >> shift) & (RADIX_SIZE - 1)]++;

			off2[r] = (*off)[i];
			pos2[r] = (*pos)[i];
		}
		to = *off;
		*off = off2;
		off2 = to;
		tp = *pos;
		*pos = pos2;
		pos2 = tp;
	}
	free(count);
	return 0;
}

int commits_scan_types(commits *c, uint32_t pack, const unsigned char *types)
{
	const unsigned char *sum, *ids;
	uint32_t nobj, *pos = NULL, *pos2 = NULL, *pb;
	uint64_t *off = NULL, *off2 = NULL, *ob;
	size_t stride, k = 0, first = c->n;
	int rc = -1;

	objread_pack(c->rd, pack, &sum, &nobj, &ids, &stride);
	for (uint32_t i = 0; i < nobj; i++)
		k += types[i] == ABBREV_TYPE_COMMIT;
	pos = malloc((k ? k : 1) * sizeof(*pos));
	pos2 = malloc((k ? k : 1) * sizeof(*pos2));
	off = malloc((k ? k : 1) * sizeof(*off));
	off2 = malloc((k ? k : 1) * sizeof(*off2));
	if (!pos || !pos2 || !off || !off2)
		goto done;
	k = 0;
	for (uint32_t i = 0; i < nobj; i++) {
		if (types[i] != ABBREV_TYPE_COMMIT)
			continue;
		if (objread_offset(c->rd, pack, i, &off[k])) {
			rc = 1;
			goto done;
		}
		pos[k++] = i;
	}
	ob = off;
	pb = pos;
	if (sort_by_offset(&ob, &pb, off2, pos2, k))
		goto done;
	for (size_t j = 0; j < k; j++)
		if (job_add(c, ids + (size_t)pb[j] * stride, pack, pb[j], ob[j]))
			goto done;
	rc = 0;
done:
	if (rc)
		c->n = first;
	free(pos);
	free(pos2);
	free(off);
	free(off2);
	return rc;
}

int commits_pick(commits *c, uint32_t pack, const unsigned char *all, size_t nall)
{
	size_t first = c->n;

	for (size_t a = 0; a < nall; a++) {
		const unsigned char *id = all + a * c->rawsz;
		uint32_t pos = objread_find_in(c->rd, pack, id);
		uint64_t off;

		if (pos == UINT32_MAX)
			continue;
		if (objread_offset(c->rd, pack, pos, &off))
			off = 0; /* cannot be read there: the other reader says */
		if (job_add(c, id, pack, pos, off))
			return -1;
	}
	if (c->n > first)
		qsort(c->v + first, c->n - first, sizeof(*c->v), cmp_job_off);
	return 0;
}

int commits_add_loose(commits *c, const unsigned char *ids, size_t n)
{
	uint32_t np = objread_npacks(c->rd);

	c->npacked = c->n;
	for (size_t l = 0; l < n; l++)
		if (job_add(c, ids + l * c->rawsz, np, (uint32_t)l, 0))
			return -1;
	return 0;
}

/* The commit d[0..len) of job j into the part: subject, time, parents.  0 or -1. */
static int part_take(part *pt, size_t j, const char *d, size_t len)
{
	got *r = &pt->res[j];
	int np;

	if (commit_subject(d, len, &pt->subject) ||
	    (r->soff = subject_text_add(&pt->text, pt->subject.s)) == SIZE_MAX)
		return -1;
	r->time = commit_time(d, len);
	r->part = pt->idx;
	r->state = GOT_OK;
	if (!pt->parents || !pt->parents_ok)
		return 0;
	if (pids_parse(d, len, pt->rawsz, &pt->pids, pt->npids, &pt->pcap, &np))
		return -1;
	if (np < 0 || pt->npids + (size_t)np >= UINT32_MAX) {
		pt->parents_ok = 0; /* git could not walk it either: no graph */
		return 0;
	}
	r->first = (uint32_t)pt->npids;
	r->np = (uint32_t)np;
	pt->npids += (size_t)np;
	return 0;
}

/*
 * Job j from the commit known as row kr: as part_take() would have read
 * it from the same bytes.  0 or -1.
 */
static int part_known(part *pt, size_t j, size_t kr)
{
	const commits_known *k = pt->known;
	const known_row *kw = &k->rows[kr];
	got *r = &pt->res[j];
	size_t np = kw->np;

	if ((r->soff = subject_text_add(&pt->text, k->text.s + kw->soff)) == SIZE_MAX)
		return -1;
	r->time = kw->time;
	r->part = pt->idx;
	r->state = GOT_OK;
	if (!pt->parents || !pt->parents_ok)
		return 0;
	if (kw->np == UINT32_MAX || pt->npids + np >= UINT32_MAX) {
		pt->parents_ok = 0; /* git could not walk it either: no graph */
		return 0;
	}
	if (pids_room(&pt->pids, &pt->pcap, pt->npids + np, pt->rawsz))
		return -1;
	if (np)
		memcpy(pt->pids + pt->npids * pt->rawsz, k->pids + kw->first * pt->rawsz,
		       np * pt->rawsz);
	r->first = (uint32_t)pt->npids;
	r->np = (uint32_t)np;
	pt->npids += np;
	return 0;
}

static int enough(const char *d, size_t n)
{
	return commit_head_complete(d, n);
}

/* Pack bytes read between two releases of the pages behind (objread_release()). */
#define READ_RELEASE (4u << 20)

/*
 * Before job j: give back the pages of the pack below it that this part
 * read since *from (its jobs are in offset order, pack by pack; only its
 * own: the other part's first page is not wholly below its first job).
 * A 500 MB pack's commits no longer stay in the RSS until all are read.
 */
static void part_release(const part *pt, size_t j, uint64_t *from)
{
	const commits_job *jb = &pt->jobs[j];

	if (j > pt->lo && jb->pack != jb[-1].pack) {
		objread_release(pt->rd, jb[-1].pack, *from, jb[-1].off);
		*from = jb->off;
	} else if (jb->off >= *from + READ_RELEASE) {
		objread_release(pt->rd, jb->pack, *from, jb->off);
		*from = jb->off;
	}
}

static void part_run(part *pt)
{
	uint64_t released = pt->lo < pt->hi ? pt->jobs[pt->lo].off : 0;

	for (size_t j = pt->lo; j < pt->hi && !pt->rc; j++) {
		const commits_job *jb = &pt->jobs[j];
		const unsigned char *b;
		size_t len, kr = pt->known ? known_find(pt->known, jb->id, NULL) : SIZE_MAX;
		int type, rc;

		part_release(pt, j, &released);
		rc = kr != SIZE_MAX ? 2 :
			objread_read_head(pt->rd, jb->pack, jb->off, enough, &type, &b, &len);
		if (rc == 2) {
			if (part_known(pt, j, kr))
				pt->rc = -1;
		} else if (rc == -1)
			pt->rc = -1;
		else if (rc != 1)
			pt->res[j].state = GOT_RETRY;
		else if (type != ABBREV_TYPE_COMMIT)
			pt->parents_ok = 0; /* no table of it kept, no graph */
		else if (part_take(pt, j, (const char *)b, len))
			pt->rc = -1;
		/* the count of both parts, shown by the first (progress is not for two threads) */
		atomic_store_explicit(&pt->done, j + 1 - pt->lo, memory_order_relaxed);
		if (pt->p)
			progress_update(pt->p, j + 1 - pt->lo +
					       atomic_load_explicit(&pt->other->done, memory_order_relaxed));
	}
}

static void *part_thread(void *arg)
{
	part_run(arg);
	return NULL;
}

/* Below this many commits one thread reads them all. */
#define SPLIT_MIN 4096

int commits_read(commits *c, int parents, const commits_other *other, progress *p)
{
	part *pt = c->pt;
	size_t n = c->n, npacked = c->npacked;
	pthread_t thread;
	int threaded = 0, rc = 0;

	if (c->read || !(c->res = calloc(n ? n : 1, sizeof(*c->res))))
		return -1;
	c->read = 1;
	c->parents = parents;
	for (int i = 0; i < 2; i++) {
		pt[i] = (part){ .rd = c->rd, .jobs = c->v, .res = c->res, .rawsz = c->rawsz,
				.idx = (unsigned char)i, .parents = parents, .parents_ok = 1,
				.known = c->known && c->known->n ? c->known : NULL,
				.other = &pt[!i] };
		atomic_init(&pt[i].done, 0);
	}
	pt[0].p = p;
	pt[0].hi = pt[1].lo = pt[1].hi = npacked;
	if (npacked >= test_hook_split_min(SPLIT_MIN) && npacked >= 2 &&
	    !objread_fork(c->rd, &pt[1].rd)) {
		pt[0].hi = pt[1].lo = npacked / 2;
		threaded = !pthread_create(&thread, NULL, part_thread, &pt[1]);
		if (!threaded) {
			objread_free(pt[1].rd);
			pt[1].rd = c->rd;
			pt[0].hi = pt[1].lo = npacked;
		}
	}
	part_run(&pt[0]);
	if (threaded) {
		pthread_join(thread, NULL);
		objread_free(pt[1].rd);
		pt[1].rd = c->rd;
	}
	if (pt[0].rc || pt[1].rc)
		return -1;
	/* the rest on this thread: loose commits, and entries the packs could not give */
	for (size_t j = 0; j < n && !rc; j++) {
		void *hold = NULL;
		const char *d;
		size_t len;

		if (j < npacked && c->res[j].state != GOT_RETRY)
			continue;
		c->res[j].state = GOT_NOT;
		rc = other->read(other->ctx, &c->v[j], j < npacked, &d, &len, &hold);
		if (rc == 1)
			rc = part_take(&pt[0], j, d, len);
		else if (rc == 0)
			pt[0].parents_ok = 0;
		if (hold)
			other->release(other->ctx, hold);
		progress_update(p, j + 1);
	}
	return rc < 0 ? -1 : 0;
}

int commits_get(const commits *c, size_t j, const commits_job **job, const char **subject,
		int64_t *time)
{
	const got *r;

	*job = &c->v[j];
	if (!c->res || (r = &c->res[j])->state != GOT_OK || !c->pt[r->part].text.s)
		return 0;
	*subject = c->pt[r->part].text.s + r->soff;
	*time = r->time;
	return 1;
}

int commits_parents(const commits *c, size_t j, const unsigned char **pids, uint32_t *np)
{
	const got *r;

	if (!c->res || !c->parents || !commits_parents_ok(c) || (r = &c->res[j])->state != GOT_OK)
		return 0;
	*np = r->np;
	if (c->pids) /* joined: the first part's first */
		*pids = c->pids + ((size_t)r->first + (r->part ? c->np0 : 0)) * c->rawsz;
	else
		*pids = c->pt[r->part].pids ? c->pt[r->part].pids + (size_t)r->first * c->rawsz : c->pids;
	return 1;
}

int commits_parents_ok(const commits *c)
{
	return c->read && c->parents && c->pt[0].parents_ok && c->pt[1].parents_ok;
}

int commits_whole(const commits *c)
{
	if (!c->read || !c->parents || !c->pt[0].parents_ok || !c->pt[1].parents_ok ||
	    c->n >= UINT32_MAX || c->pt[0].npids + c->pt[1].npids >= UINT32_MAX)
		return 0;
	for (size_t j = 0; j < c->n; j++)
		if (c->res[j].state != GOT_OK)
			return 0;
	return 1;
}

void commits_drop_text(commits *c)
{
	parts_free(c);
	if (c->pids || !c->read)
		return;
	/* the parent IDs in one array, the first part's first (out of memory: kept apart) */
	if (!(c->pids = malloc((c->pt[0].npids + c->pt[1].npids + 1) * c->rawsz)))
		return;
	if (c->pt[0].npids) /* none: pids may be NULL, and memcpy's source must not be (UBSan) */
		memcpy(c->pids, c->pt[0].pids, c->pt[0].npids * c->rawsz);
	if (c->pt[1].npids)
		memcpy(c->pids + c->pt[0].npids * c->rawsz, c->pt[1].pids, c->pt[1].npids * c->rawsz);
	c->np0 = c->pt[0].npids;
	for (int i = 0; i < 2; i++) {
		free(c->pt[i].pids);
		c->pt[i].pids = NULL;
		c->pt[i].pcap = 0;
	}
}

static size_t cmp_rawsz; /* for qsort, set just before it (one sort at a time) */

/* Jobs in ID order, for the graph of their parents. */
static int cmp_job_id(const void *pa, const void *pb)
{
	const commits_job *const *a = pa, *const *b = pb;

	return memcmp((*a)->id, (*b)->id, cmp_rawsz);
}

int commits_graph(const commits *c, commit_graph **out)
{
	const commits_job **by = NULL;
	unsigned char *ids = NULL, *joined = c->pids;
	uint32_t *count = NULL, *first = NULL;
	size_t k = 0, n = c->n, rawsz = c->rawsz, np0 = c->np0,
	       npids = c->pt[0].npids + c->pt[1].npids;
	int rc = -1;

	*out = NULL;
	if (!commits_whole(c))
		return 0;
	if (!joined) { /* the parts' arrays not joined yet */
		np0 = c->pt[0].npids;
		if (!(joined = malloc((npids + 1) * rawsz)))
			return -1;
		if (np0)
			memcpy(joined, c->pt[0].pids, np0 * rawsz);
		if (c->pt[1].npids)
			memcpy(joined + np0 * rawsz, c->pt[1].pids, c->pt[1].npids * rawsz);
	}
	by = malloc((n ? n : 1) * sizeof(*by));
	ids = malloc((n ? n : 1) * rawsz);
	count = malloc((n ? n : 1) * sizeof(*count));
	first = malloc((n ? n : 1) * sizeof(*first));
	if (!by || !ids || !count || !first)
		goto done;
	for (size_t j = 0; j < n; j++)
		by[j] = &c->v[j];
	cmp_rawsz = rawsz;
	if (n > 1)
		qsort(by, n, sizeof(*by), cmp_job_id);
	for (size_t i = 0; i < n; i++) {
		const got *r = &c->res[by[i] - c->v];

		if (k && !memcmp(ids + (k - 1) * rawsz, by[i]->id, rawsz))
			continue; /* in two packs */
		memcpy(ids + k * rawsz, by[i]->id, rawsz);
		first[k] = r->first + (r->part ? (uint32_t)np0 : 0);
		count[k++] = r->np;
	}
	rc = commits_graph_of(out, rawsz, ids, k, count, first, joined, npids);
done:
	if (joined != c->pids)
		free(joined);
	free(by);
	free(ids);
	free(count);
	free(first);
	return rc;
}

int commits_graph_of(commit_graph **out, size_t rawsz, const unsigned char *ids, size_t n,
		     const uint32_t *count, const uint32_t *first, const unsigned char *pids,
		     size_t npids)
{
	uint32_t *pstart = NULL, *plist = NULL, *fan = NULL;
	int rc = 0;

	*out = NULL;
	/*
	 * No commit read (every pack's subjects came from the cache): no
	 * graph, or an empty one would stand for the file and send every
	 * "public" question of --range to libgit2's walk (2x the time on git.git)
	 */
	if (!n || n >= UINT32_MAX || npids >= UINT32_MAX)
		return 0;
	pstart = malloc((n + 1) * sizeof(*pstart));
	plist = malloc((npids ? npids : 1) * sizeof(*plist));
	fan = malloc((HEXID_FAN16 + 1) * sizeof(*fan));
	if (!pstart || !plist || !fan) {
		rc = -1;
		goto done;
	}
	/*
	 * fan[k]: the first commit whose ID's first two bytes are k or more,
	 * each search's bounds (1.3M commits: buckets of 20, where the first
	 * byte's left 5,000 and the searches took 0.3 G instructions)
	 */
	hexid_fan16(ids, rawsz, n, fan);
	pstart[0] = 0;
	for (size_t i = 0; i < n; i++) {
		for (uint32_t k = 0; k < count[i]; k++) {
			const unsigned char *pid = pids + ((size_t)first[i] + k) * rawsz;
			size_t b = (size_t)pid[0] << 8 | pid[1],
			       p = hexid_find(ids, fan[b], fan[b + 1], rawsz, pid);

			if (p == SIZE_MAX)
				goto done;
			plist[pstart[i] + k] = (uint32_t)p;
		}
		pstart[i + 1] = pstart[i] + count[i];
	}
	rc = commit_graph_build(out, rawsz, ids, (uint32_t)n, pstart, plist);
done:
	free(pstart);
	free(plist);
	free(fan);
	return rc;
}
