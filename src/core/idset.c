/*
 * idset.c - ordered, exact sets of object IDs on Judy.
 *
 * Layout: every distinct ID has one entry in a chunked arena: a pointer
 * to its raw bytes and its type.  The bytes are the caller's when it
 * promises to keep them (the pack walker's mapped .idx files, handed over
 * with idsets_keep()), else a copy in the collection's own store, so a
 * packed ID is held once, in the page cache, not copied into the heap.
 *
 * The sets are Judy arrays keyed by the first eight bytes of the ID read
 * big-endian, so that Judy's numeric key order is the IDs' byte order:
 * one Judy1 per type (keys only), and one array for all objects.  While
 * every ID came in ascending order (the pack walker merges the sorted
 * pack indexes), the arena itself is sorted, and the set of all objects
 * is a Judy1 too: an ID's entry is then found by a binary search of the
 * arena among the IDs with its key.  Once an ID comes out of order (the
 * libgit2 walker, a second repository of a union), the set of all objects
 * becomes a JudyL whose value is either (arena index << 1) | 1 for a key
 * held by one ID, or a pointer to a sorted overflow list of arena indices
 * for the rare keys shared by several IDs (crafted prefix collisions of
 * 16+ hex chars exist), which keeps lengths beyond 16 exact.  A typed
 * Judy1 says that some ID of the type has the key; the entry (or the list)
 * under the key in the set of all objects says which.
 *
 * Why: at 13M objects a JudyL costs ~27 bytes a key, a Judy1 ~17 (typed
 * sets ~17 together) and an inline arena 21 bytes an ID: pointers and
 * Judy1 arrays bring the collection from ~76 to ~45 bytes an object.
 *
 * While the arena is sorted, an ordered iteration is a plain scan of it
 * instead of one Judy lookup per ID (~40 ns at 13M keys, against a few
 * for the next array slot), and a seek a binary search in it.  Nothing
 * then reads the typed Judy1 arrays, and the one of all objects only
 * spares a lookup that misses its binary search, so bulk adding (the
 * pack walker's merge) leaves them owed: they are built from the arena
 * only when the collection stops being a sorted arena or grows by a
 * plain add (a second repository of a union, a later ID out of order).
 * A report of one repository, which only iterates, builds none: on
 * git.git that was a quarter of a warm report's CPU time.
 *
 * Judy's error-returning calls are used throughout (never the macros that
 * print and exit), so running out of memory is an ordinary error.
 *
 * The commit-ish set (commits and the tags that peel to one) has no
 * array of its own: a tag in it carries COMMITISH_FLAG beside its type in
 * the arena, and iterating it filters the set of all objects.  Tags are
 * few (one object in a thousand in git.git and Linux), so the records of
 * what each tag points at are a plain sorted array.
 */
#include "idset.h"

#include <Judy.h>
#include <stdlib.h>
#include <string.h>

#include "bigvec.h"
#include "grow.h"

/*
 * An arena chunk's ID pointers fill one 2 MB huge page (bigvec.h): at
 * 849k objects 4 faults instead of 1,660, 0.02 s of a warm report.
 */
#define CHUNK_BITS 18
#define CHUNK_SIZE ((size_t)1 << CHUNK_BITS)
#define STORE_SIZE ((size_t)1 << 16) /* IDs in a chunk of the store */
#define TYPE_MASK IDSET_TYPE_MASK
#define COMMITISH_FLAG IDSET_COMMITISH_FLAG

/* What an annotated tag's header says (zero-padded IDs, so memcmp orders them). */
typedef struct {
	unsigned char tag[ABBREV_MAX_RAWSZ];
	unsigned char target[ABBREV_MAX_RAWSZ];
	unsigned char type;
} tag_rec;

typedef struct {
	uint32_t n, cap;
	uint32_t idx[];
} ovf_list;

/* Memory an external ID lives in, released when the collection is freed. */
typedef struct {
	void (*release)(void *ctx);
	void *ctx;
} keep_rec;

struct idsets {
	size_t rawsz;
	Pvoid_t all1;   /* Judy1 of every key, while sorted */
	Pvoid_t allL;   /* JudyL key -> arena index or overflow list, once not sorted */
	Pvoid_t typed[ABBREV_SET_COUNT]; /* Judy1 per type (ABBREV_TYPE_COMMIT ..) */
	size_t count[ABBREV_SET_COUNT];
	/* arena: chunk c holds entries c*CHUNK_SIZE .. : ID pointers and types */
	const unsigned char ***ids;
	unsigned char **types;
	size_t nchunks, chunk_alloc;
	size_t nids;
	/* the store of copied IDs: chunks of STORE_SIZE IDs, the last one filling */
	unsigned char **store;
	size_t nstore, store_alloc, store_used;
	keep_rec *keeps;
	size_t nkeeps, keeps_alloc;
	size_t ovf_bytes;
	int broken;     /* ran out of memory halfway through an add */
	int sorted; /* arena index order is byte order (every add came in order) */
	int judy_owed; /* sorted, and all1 and typed[] not built yet (judy_build()) */
	int huge;      /* a bulk add of a chunk's worth or more announced: huge pages */
	/* records of tag targets, sorted by tag (and unique) while tags_sorted */
	tag_rec *tags;
	size_t ntags, tags_cap;
	int tags_sorted;
	size_t commitish_tags; /* tags flagged by idsets_peel() */
	unsigned keep_lo, keep_hi; /* only IDs whose first byte is in [keep_lo, keep_hi) */
	unsigned store_mask; /* types stored (1 << type); the others only counted */
	int no_spread;  /* idsets_skip_spread(): the spread is not kept */
	idset_spread spread; /* every ID handed in (idsets_spread()) */
};

static const char *const set_names[ABBREV_SET_COUNT] = {
	"all", "commit", "tree", "blob", "tag", "commit-ish"
};

const char *idset_name(int set)
{
	if (set < 0 || set >= ABBREV_SET_COUNT)
		return "unknown";
	return set_names[set];
}

int idset_from_name(const char *name)
{
	for (int set = 0; set < ABBREV_SET_COUNT; set++)
		if (!strcmp(name, set_names[set]))
			return set;
	return -1;
}

/* splitmix64's finaliser: every input bit moves every output bit */
static uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

void idset_spread_add(idset_spread *sp, const unsigned char *id, size_t rawsz)
{
	idset_print *p = &sp->byte[id[0]];
	uint64_t ha = 0x6a09e667f3bcc908ULL ^ rawsz, hb = 0xbb67ae8584caa73bULL ^ rawsz;

	for (size_t i = 0; i < rawsz; i += 8) {
		uint64_t w = 0;

		for (size_t j = i; j < i + 8 && j < rawsz; j++)
			w = w << 8 | id[j];
		ha = mix64(ha ^ w);
		hb = mix64(hb + w);
	}
	p->n++;
	p->a += ha;
	p->b += hb;
}

void idset_print_sum(idset_print *p, const idset_print *q)
{
	p->n += q->n;
	p->a += q->a;
	p->b += q->b;
}

int idset_print_eq(const idset_print *p, const idset_print *q)
{
	return p->n == q->n && p->a == q->a && p->b == q->b;
}

idset_print idset_spread_range(const idset_spread *sp, unsigned lo, unsigned hi)
{
	idset_print p = { 0, 0, 0 };

	for (unsigned i = lo; i < hi && i < 256; i++)
		idset_print_sum(&p, &sp->byte[i]);
	return p;
}

const idset_spread *idsets_spread(const idsets *s)
{
	return &s->spread;
}

idsets *idsets_new(size_t rawsz)
{
	idsets *s;

	if (rawsz < 1 || rawsz > ABBREV_MAX_RAWSZ)
		return NULL;
	s = calloc(1, sizeof(*s));
	if (s) {
		s->rawsz = rawsz;
		s->sorted = 1;
		s->keep_hi = 256;
		s->store_mask = ~0u;
	}
	return s;
}

void idsets_keep_range(idsets *s, unsigned lo, unsigned hi)
{
	s->keep_lo = lo;
	s->keep_hi = hi;
}

void idsets_store_only(idsets *s, unsigned mask)
{
	s->store_mask = mask;
}

void idsets_skip_spread(idsets *s)
{
	s->no_spread = 1;
}

/* Whether an ID of this type is counted only, not stored (idsets_store_only()). */
static int count_only(const idsets *s, int type)
{
	return !(s->store_mask & (1u << type));
}

int idsets_counts_only(const idsets *s, int type)
{
	return type >= ABBREV_TYPE_COMMIT && type <= ABBREV_TYPE_TAG && count_only(s, type) &&
	       s->keep_lo == 0 && s->keep_hi == 256 && s->no_spread && !s->broken;
}

int idsets_add_counted(idsets *s, int type, size_t n)
{
	if (!idsets_counts_only(s, type))
		return -1;
	s->count[ABBREV_SET_ALL] += n;
	s->count[type] += n;
	return 0;
}

/* Whether an ID is outside the range the collection keeps (tags never are). */
static int dropped(const idsets *s, const unsigned char *id, int type)
{
	return type != ABBREV_TYPE_TAG && (id[0] < s->keep_lo || id[0] >= s->keep_hi);
}


static void free_lists(Pvoid_t judy)
{
	Word_t key = 0;
	PWord_t pv;

	for (pv = (PWord_t)JudyLFirst(judy, &key, PJE0); pv;
	     pv = (PWord_t)JudyLNext(judy, &key, PJE0))
		if (!(*pv & 1))
			free((void *)*pv);
}

void idsets_free(idsets *s)
{
	if (!s)
		return;
	if (s->ovf_bytes)
		free_lists(s->allL);
	JudyLFreeArray(&s->allL, PJE0);
	Judy1FreeArray(&s->all1, PJE0);
	for (int i = 0; i < ABBREV_SET_COUNT; i++)
		Judy1FreeArray(&s->typed[i], PJE0);
	for (size_t c = 0; c < s->nchunks; c++) {
		free(s->ids[c]);
		free(s->types[c]);
	}
	free(s->ids);
	free(s->types);
	free(s->tags);
	for (size_t c = 0; c < s->nstore; c++)
		free(s->store[c]);
	free(s->store);
	for (size_t k = 0; k < s->nkeeps; k++)
		s->keeps[k].release(s->keeps[k].ctx);
	free(s->keeps);
	free(s);
}

int idsets_keep(idsets *s, void (*release)(void *ctx), void *ctx)
{
	if (GROW(s->keeps, s->keeps_alloc, s->nkeeps + 1, 8))
		return -2;
	s->keeps[s->nkeeps++] = (keep_rec){ release, ctx };
	return 0;
}

size_t idsets_rawsz(const idsets *s)
{
	return s->rawsz;
}

size_t idsets_count(const idsets *s, int set)
{
	if (set < 0 || set >= ABBREV_SET_COUNT)
		return 0;
	if (set == ABBREV_SET_COMMITISH)
		return s->count[ABBREV_SET_COMMIT] + s->commitish_tags;
	return s->count[set];
}

/* The first 8 bytes, big-endian (zero-padded for IDs shorter than that). */
static Word_t id_key(const idsets *s, const unsigned char *id)
{
	Word_t k = 0;

	if (s->rawsz >= 8) {
		for (size_t i = 0; i < 8; i++) /* a load and a byte swap */
			k = (k << 8) | id[i];
		return k;
	}
	for (size_t i = 0; i < 8; i++)
		k = (k << 8) | (i < s->rawsz ? id[i] : 0);
	return k;
}

static const unsigned char *arena_id(const idsets *s, size_t idx)
{
	return s->ids[idx >> CHUNK_BITS][idx & (CHUNK_SIZE - 1)];
}

static unsigned char *arena_type_byte(const idsets *s, size_t idx)
{
	return &s->types[idx >> CHUNK_BITS][idx & (CHUNK_SIZE - 1)];
}

static int arena_type(const idsets *s, size_t idx)
{
	return *arena_type_byte(s, idx) & TYPE_MASK;
}

/* Whether arena entry idx belongs to `set`. */
static int arena_in_set(const idsets *s, size_t idx, int set)
{
	int t = *arena_type_byte(s, idx);

	switch (set) {
	case ABBREV_SET_ALL:
		return 1;
	case ABBREV_SET_COMMITISH:
		return t == ABBREV_TYPE_COMMIT || (t & COMMITISH_FLAG);
	default:
		return (t & TYPE_MASK) == set;
	}
}


/* A copy of `id` in the store; NULL when out of memory. */
static const unsigned char *store_copy(idsets *s, const unsigned char *id)
{
	unsigned char *p;

	if (!s->nstore || s->store_used == STORE_SIZE) {
		if (GROW(s->store, s->store_alloc, s->nstore + 1, 16))
			return NULL;
		if (!(s->store[s->nstore] = malloc(STORE_SIZE * s->rawsz)))
			return NULL;
		s->nstore++;
		s->store_used = 0;
	}
	p = s->store[s->nstore - 1] + s->store_used++ * s->rawsz;
	memcpy(p, id, s->rawsz);
	return p;
}

/*
 * Store a new ID (a copy of it, or with `external` the caller's bytes);
 * its index in *idx.  0, or -2 when out of memory.
 */
static int arena_add(idsets *s, const unsigned char *id, int type, int external, size_t *idx)
{
	size_t c = s->nids >> CHUNK_BITS;

	if (s->nids >= UINT32_MAX)
		return -2;
	if (c == s->nchunks) {
		if (s->nchunks == s->chunk_alloc) {
			size_t n = grow_cap(s->chunk_alloc, s->nchunks + 1, 16, sizeof(*s->ids));

			if (!n || grow_to(&s->ids, n, sizeof(*s->ids)) ||
			    grow_to(&s->types, n, sizeof(*s->types)))
				return -2;
			s->chunk_alloc = n;
		}
		/* a set of a few IDs (tests, a small repository) stays in malloc's pages */
		s->ids[c] = c || s->huge ? bigvec_huge_block(CHUNK_SIZE * sizeof(**s->ids))
				 : malloc(CHUNK_SIZE * sizeof(**s->ids));
		s->types[c] = malloc(CHUNK_SIZE);
		if (!s->ids[c] || !s->types[c]) {
			free(s->ids[c]);
			free(s->types[c]);
			return -2;
		}
		s->nchunks++;
	}
	if (!external && !(id = store_copy(s, id)))
		return -2;
	*idx = s->nids++;
	s->ids[c][*idx & (CHUNK_SIZE - 1)] = id;
	s->types[c][*idx & (CHUNK_SIZE - 1)] = (unsigned char)type;
	return 0;
}

/*
 * Position of `id` among the arena indices of one list: returns 1 and its
 * slot if present, else 0 and the slot where it would go.
 */
static int list_find(const idsets *s, const ovf_list *l, const unsigned char *id, uint32_t *slot)
{
	uint32_t lo = 0, hi = l->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int c = memcmp(arena_id(s, l->idx[mid]), id, s->rawsz);

		if (!c) {
			*slot = mid;
			return 1;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*slot = lo;
	return 0;
}

/* The arena index of `id` under one non-empty value, or -1 if absent. */
static long value_find(const idsets *s, Word_t v, const unsigned char *id)
{
	uint32_t slot;

	if (v & 1) {
		size_t idx = v >> 1;
		return memcmp(arena_id(s, idx), id, s->rawsz) ? -1 : (long)idx;
	}
	const ovf_list *l = (const ovf_list *)v;
	return list_find(s, l, id, &slot) ? (long)l->idx[slot] : -1;
}

/*
 * Put arena index idx (not yet under *pv, which is non-empty) under *pv;
 * the bytes of new lists are counted in *ovf.
 */
static int value_add(idsets *s, PWord_t pv, size_t idx, size_t *ovf)
{
	const unsigned char *id = arena_id(s, idx);
	ovf_list *l;
	uint32_t slot;

	if (*pv & 1) {
		size_t other = *pv >> 1;

		l = malloc(sizeof(*l) + 4 * sizeof(uint32_t));
		if (!l)
			return -2;
		l->cap = 4;
		l->n = 2;
		int before = memcmp(arena_id(s, other), id, s->rawsz) < 0;
		l->idx[0] = (uint32_t)(before ? other : idx);
		l->idx[1] = (uint32_t)(before ? idx : other);
		*ovf += sizeof(*l) + 4 * sizeof(uint32_t);
		*pv = (Word_t)l;
		return 0;
	}
	l = (ovf_list *)*pv;
	list_find(s, l, id, &slot);
	if (l->n == l->cap) {
		ovf_list *nl = realloc(l, sizeof(*l) + 2 * l->cap * sizeof(uint32_t));

		if (!nl)
			return -2;
		*ovf += nl->cap * sizeof(uint32_t);
		nl->cap *= 2;
		l = nl;
		*pv = (Word_t)l;
	}
	memmove(&l->idx[slot + 1], &l->idx[slot], (l->n - slot) * sizeof(uint32_t));
	l->idx[slot] = (uint32_t)idx;
	l->n++;
	return 0;
}

/*
 * Insert arena index idx under key k in the JudyL of all objects,
 * counting the bytes of new overflow lists.
 */
static int allL_add(idsets *s, Word_t k, size_t idx)
{
	PWord_t pv = (PWord_t)JudyLIns(&s->allL, k, PJE0);

	if (pv == PJERR)
		return -2;
	if (!*pv)
		*pv = ((Word_t)idx << 1) | 1;
	else if (value_add(s, pv, idx, &s->ovf_bytes))
		return -2;
	return 0;
}

/* Set key k in a Judy1: 0, or -2 when out of memory. */
static int judy1_set(Pvoid_t *j, Word_t k)
{
	return Judy1Set(j, k, PJE0) == JERR ? -2 : 0;
}

/*
 * An ID came out of order: the set of all objects becomes a JudyL that
 * leads from a key to its arena entries, built from the sorted arena
 * (in key order, so cheap), and the Judy1 it replaces is freed.
 */
static int make_unsorted(idsets *s)
{
	for (size_t idx = 0; idx < s->nids; idx++)
		if (allL_add(s, id_key(s, arena_id(s, idx)), idx))
			return -2;
	Judy1FreeArray(&s->all1, PJE0);
	s->sorted = 0;
	return 0;
}

/* The first arena index whose ID is >= `from` (a sorted arena only). */
static size_t arena_lower_bound(const idsets *s, const unsigned char *from)
{
	size_t lo = 0, hi = s->nids;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (memcmp(arena_id(s, mid), from, s->rawsz) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The arena index of a stored ID, or -1. */
static long find_idx(const idsets *s, const unsigned char *id)
{
	Word_t k = id_key(s, id);

	if (s->sorted) {
		size_t idx;

		if (!s->judy_owed && Judy1Test(s->all1, k, PJE0) != 1)
			return -1;
		idx = arena_lower_bound(s, id);
		return idx < s->nids && !memcmp(arena_id(s, idx), id, s->rawsz) ? (long)idx : -1;
	}
	PWord_t pv = (PWord_t)JudyLGet(s->allL, k, PJE0);
	return pv ? value_find(s, *pv, id) : -1;
}

/* One more ID of `type` in count[]: the set of all objects and its type's. */
static inline void count_one(size_t *count, int type)
{
	count[ABBREV_SET_ALL]++;
	count[type]++;
}

#define ADD_STORE 2

/*
 * What every add checks first: -1 for a type that is none, -2 for a
 * broken collection, 0 for an ID dropped (outside the kept range), 1 for
 * one counted in count[] but not stored; ADD_STORE when it is to be stored.
 */
static inline int add_gate(idsets *s, const unsigned char *id, int type, size_t *count)
{
	if (type < ABBREV_TYPE_COMMIT || type > ABBREV_TYPE_TAG)
		return -1;
	if (s->broken)
		return -2;
	if (dropped(s, id, type))
		return 0;
	if (count_only(s, type)) {
		count_one(count, type);
		return 1;
	}
	return ADD_STORE;
}

static int judy_build(idsets *s);

static int add_one(idsets *s, const unsigned char *id, int type, int external)
{
	Word_t k = id_key(s, id);
	size_t idx;
	int c = add_gate(s, id, type, s->count);

	if (c != ADD_STORE)
		return c;
	c = s->nids ? memcmp(arena_id(s, s->nids - 1), id, s->rawsz) : -1;
	/* in a sorted arena every ID is <= the last: one above it is new */
	if (s->sorted && !c)
		return 0;
	/* the arrays bulk adding left owed: this add and the ones after use them */
	if (judy_build(s))
		goto oom;
	if (s->sorted && c > 0 && make_unsorted(s))
		goto oom;
	if (!s->sorted && find_idx(s, id) >= 0)
		return 0;
	/*
	 * Out of memory halfway, an undo could itself need memory (a Judy
	 * delete may allocate), so the collection is marked broken instead:
	 * it can only be freed now.
	 */
	if (arena_add(s, id, type, external, &idx) ||
	    (s->sorted ? judy1_set(&s->all1, k) : allL_add(s, k, idx)) ||
	    judy1_set(&s->typed[type], k))
		goto oom;
	count_one(s->count, type);
	return 1;
oom:
	s->broken = 1;
	return -2;
}

int idsets_add(idsets *s, const unsigned char *id, int type)
{
	if (type >= ABBREV_TYPE_COMMIT && type <= ABBREV_TYPE_TAG && !s->no_spread)
		idset_spread_add(&s->spread, id, s->rawsz);
	return add_one(s, id, type, 0);
}

/*
 * Bulk adding.  Into an empty collection, with IDs in ascending order,
 * each ID goes to the arena only: the arena stays sorted, and the Judy1
 * arrays are left owed (judy_owed) until a plain add needs them, when
 * judy_build() makes them from the arena, each in one Judy1SetArray()
 * call from its keys in order (Judy builds the tree bottom-up then: at
 * 849k keys 12 ns a key against 52 for Judy1Set() in key order, at 10.8M
 * 40 against 75, and the arrays come out smaller, 15 bytes a key against
 * 20 at 10.8M).  Anything out of that pattern (a non-empty collection, an
 * ID below the last, more than `max` IDs) goes on as idsets_add() does,
 * which builds the arrays owed first.
 */
struct idsets_bulk {
	idsets *s;
	size_t max;
	int collecting; /* into the arena only; 0: plain adds */
	Word_t last_key; /* the key of the arena's last ID, while collecting */
	size_t count[ABBREV_SET_COUNT];
};

#define SETARRAY_MIN 64 /* Judy1SetArray() only for more keys (see set_array()) */

/* One Judy1 array from distinct keys in order: 0 or -2. */
static int set_array(Pvoid_t *judy, const Word_t *keys, size_t n)
{
	JError_t je;
	int rc = 0;

	if (!n)
		return 0;
	/*
	 * libJudy 1.0.5 sizes the single leaf of 31 keys one slot short
	 * (JudyInsArray.c allocates the leaf for Count + 1, read past its
	 * table at 31: a leaf of 0 words, then 31 keys written into it), so
	 * small arrays are set key by key.
	 */
	if (n <= SETARRAY_MIN) {
		for (size_t i = 0; i < n && !rc; i++)
			rc = judy1_set(judy, keys[i]);
		return rc;
	}
	return Judy1SetArray(judy, n, keys, &je) == JERR ? -2 : 0;
}

/*
 * The keys of the arena's IDs of one type (0: all), in order, each once
 * (IDs that share 16 hex chars share a key), into keys[]: how many.
 */
static size_t arena_keys(const idsets *s, int type, Word_t *keys)
{
	size_t m = 0;

	for (size_t c = 0; c < s->nchunks; c++) {
		const unsigned char *types = s->types[c];
		size_t base = c << CHUNK_BITS, end = s->nids - base;

		if (end > CHUNK_SIZE)
			end = CHUNK_SIZE;
		for (size_t i = 0; i < end; i++) {
			Word_t k;

			if (type && (types[i] & TYPE_MASK) != type)
				continue;
			k = id_key(s, s->ids[c][i]);
			if (!m || keys[m - 1] != k)
				keys[m++] = k;
		}
	}
	return m;
}

/*
 * The Judy1 arrays a bulk add left owed, built from the sorted arena:
 * the set of all objects, then the typed sets one type at a time from
 * one buffer of keys (8 bytes an ID, freed at the end).  0 or -2.
 */
static int judy_build(idsets *s)
{
	Word_t *buf;
	int rc;

	if (!s->judy_owed)
		return 0;
	if (!(buf = malloc(s->nids * sizeof(*buf))))
		return -2;
	rc = set_array(&s->all1, buf, arena_keys(s, 0, buf));
	for (int t = ABBREV_TYPE_COMMIT; t <= ABBREV_TYPE_TAG && !rc; t++)
		if (s->count[t])
			rc = set_array(&s->typed[t], buf, arena_keys(s, t, buf));
	free(buf);
	if (!rc)
		s->judy_owed = 0;
	return rc;
}

/* Stop collecting: the counts go to the collection, its arrays owed. */
static void bulk_end(idsets_bulk *b)
{
	idsets *s = b->s;

	if (!b->collecting)
		return;
	b->collecting = 0;
	if (s->nids)
		s->judy_owed = 1;
	for (int set = 0; set < ABBREV_SET_COUNT; set++) {
		s->count[set] += b->count[set];
		b->count[set] = 0;
	}
}

idsets_bulk *idsets_bulk_start(idsets *s, size_t max)
{
	idsets_bulk *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->s = s;
	b->max = max;
	b->collecting = !s->nids && !s->broken && s->sorted && max && max < UINT32_MAX &&
			!s->all1;
	if (max >= CHUNK_SIZE)
		s->huge = 1;
	return b;
}

static int bulk_add(idsets_bulk *b, const unsigned char *id, int type, int external)
{
	idsets *s = b->s;
	size_t idx;
	Word_t k;
	int c;

	if (type >= ABBREV_TYPE_COMMIT && type <= ABBREV_TYPE_TAG && !s->no_spread)
		idset_spread_add(&s->spread, id, s->rawsz);
	if (!b->collecting)
		return add_one(s, id, type, external);
	c = add_gate(s, id, type, b->count);
	if (c != ADD_STORE)
		return c;
	/* above the last ID's key it is above the last ID: no memcmp */
	k = id_key(s, id);
	c = s->nids && k <= b->last_key ? memcmp(arena_id(s, s->nids - 1), id, s->rawsz) : -1;
	if (!c)
		return 0;
	if (c > 0 || s->nids == b->max) {
		bulk_end(b);
		return add_one(s, id, type, external);
	}
	if (arena_add(s, id, type, external, &idx)) {
		s->broken = 1;
		return -2;
	}
	b->last_key = k;
	count_one(b->count, type);
	return 1;
}

int idsets_bulk_add(idsets_bulk *b, const unsigned char *id, int type)
{
	return bulk_add(b, id, type, 0);
}

int idsets_bulk_add_ref(idsets_bulk *b, const unsigned char *id, int type)
{
	return bulk_add(b, id, type, 1);
}

int idsets_bulk_finish(idsets_bulk *b)
{
	int rc;

	if (!b)
		return 0;
	bulk_end(b);
	rc = b->s->broken ? -2 : 0;
	free(b);
	return rc;
}

int idsets_lookup(const idsets *s, const unsigned char *id)
{
	long idx = find_idx(s, id);

	return idx < 0 ? ABBREV_TYPE_NONE : arena_type(s, (size_t)idx);
}

int idsets_in_set(const idsets *s, const unsigned char *id, int set)
{
	long idx = find_idx(s, id);

	return idx >= 0 && set >= 0 && set < ABBREV_SET_COUNT && arena_in_set(s, (size_t)idx, set);
}

/* ---- tag targets and the commit-ish set ---- */

int idsets_tag_target(idsets *s, const unsigned char *tag, const unsigned char *target,
		      int type)
{
	tag_rec *r;

	if (type < ABBREV_TYPE_COMMIT || type > ABBREV_TYPE_TAG)
		return -1;
	if (GROW(s->tags, s->tags_cap, s->ntags + 1, 64))
		return -2;
	r = &s->tags[s->ntags++];
	memset(r, 0, sizeof(*r));
	memcpy(r->tag, tag, s->rawsz);
	memcpy(r->target, target, s->rawsz);
	r->type = (unsigned char)type;
	s->tags_sorted = 0;
	return 0;
}

static int cmp_tag_rec(const void *a, const void *b)
{
	return memcmp(((const tag_rec *)a)->tag, ((const tag_rec *)b)->tag, ABBREV_MAX_RAWSZ);
}

/* Sort the records and drop a tag's second record (the same object twice). */
static void tags_sort(idsets *s)
{
	size_t n = 0;

	if (s->tags_sorted)
		return;
	if (s->ntags)
		qsort(s->tags, s->ntags, sizeof(*s->tags), cmp_tag_rec);
	for (size_t i = 0; i < s->ntags; i++)
		if (!n || cmp_tag_rec(&s->tags[n - 1], &s->tags[i]))
			s->tags[n++] = s->tags[i];
	s->ntags = n;
	s->tags_sorted = 1;
}

/* The record of `tag` (sorted records), or NULL. */
static const tag_rec *tags_find(const idsets *s, const unsigned char *tag)
{
	tag_rec key;

	if (!s->ntags)
		return NULL; /* bsearch() of no records: s->tags may be NULL */
	memset(key.tag, 0, sizeof(key.tag));
	memcpy(key.tag, tag, s->rawsz);
	return bsearch(&key, s->tags, s->ntags, sizeof(*s->tags), cmp_tag_rec);
}

int idsets_tag_has_target(idsets *s, const unsigned char *tag)
{
	tags_sort(s);
	return tags_find(s, tag) != NULL;
}

/*
 * Whether the tag at arena index idx peels to a commit (see idset.h);
 * *unread is set when the tag itself has no record.  A chain is at most
 * as long as there are records (a cycle cannot be built with a hash, but
 * the records come from files).
 */
static int peels_to_commit(const idsets *s, size_t idx, int *unread)
{
	const unsigned char *cur = arena_id(s, idx);

	*unread = 0;
	for (size_t depth = 0; depth <= s->ntags; depth++) {
		const tag_rec *r = tags_find(s, cur);
		long t;

		if (!r) {
			*unread = depth == 0;
			return 0;
		}
		t = find_idx(s, r->target);
		if (t < 0) /* missing: the type line is all there is */
			return r->type == ABBREV_TYPE_COMMIT;
		if (arena_type(s, (size_t)t) != r->type)
			return 0; /* git: "object ... is a tree, not a commit" */
		if (r->type != ABBREV_TYPE_TAG)
			return r->type == ABBREV_TYPE_COMMIT;
		cur = r->target;
	}
	return 0;
}

long idsets_peel(idsets *s)
{
	long unread = 0;

	if (s->broken)
		return -2;
	tags_sort(s);
	s->commitish_tags = 0;
	for (size_t idx = 0; idx < s->nids; idx++) {
		unsigned char *b = arena_type_byte(s, idx);
		int u;

		*b &= TYPE_MASK;
		if (*b != ABBREV_TYPE_TAG)
			continue;
		if (peels_to_commit(s, idx, &u)) {
			*b |= COMMITISH_FLAG;
			s->commitish_tags++;
		}
		unread += u;
	}
	return unread;
}


void idset_iter_init(idset_iter *it, const idsets *s, int set)
{
	memset(it, 0, sizeof(*it));
	it->s = s;
	it->set = set;
}

void idset_iter_seek(idset_iter *it, const unsigned char *from)
{
	it->state = 0;
	it->from = from;
}

/* idset_iter_next() over a sorted arena: the IDs of the set, in place. */
static int iter_next_sorted(idset_iter *it, const unsigned char **id, int *type)
{
	const idsets *s = it->s;

	if (it->state == 2)
		return 0;
	if (it->state == 0) {
		it->pos = it->from ? arena_lower_bound(s, it->from) : 0;
		it->from = NULL;
		it->state = 1;
	}
	while (it->pos < s->nids) {
		size_t idx = it->pos++;

		if (arena_in_set(s, idx, it->set)) {
			*id = arena_id(s, idx);
			if (type)
				*type = arena_type(s, idx);
			it->last = idx;
			return 1;
		}
	}
	it->state = 2;
	return 0;
}

/*
 * The first key >= *k (first) or the next key > *k of the iterated set:
 * the JudyL of all objects, or a typed Judy1.  1 and *k, or 0 at the end.
 */
static int iter_key(const idset_iter *it, Word_t *k, int first)
{
	const idsets *s = it->s;

	if (it->set == ABBREV_SET_ALL || it->set == ABBREV_SET_COMMITISH)
		return (first ? JudyLFirst(s->allL, k, PJE0) : JudyLNext(s->allL, k, PJE0)) != NULL;
	return (first ? Judy1First(s->typed[it->set], k, PJE0)
		      : Judy1Next(s->typed[it->set], k, PJE0)) == 1;
}

int idset_iter_next(idset_iter *it, const unsigned char **id, int *type)
{
	const idsets *s = it->s;
	size_t idx;

	if (it->set < 0 || it->set >= ABBREV_SET_COUNT)
		return 0;
	if (s->sorted)
		return iter_next_sorted(it, id, type);
	for (;;) {
		if (it->state == 2)
			return 0;
		if (it->state == 1 && !(it->val & 1) &&
		    it->sub + 1 < ((const ovf_list *)it->val)->n) {
			it->sub++; /* the next ID under the same key */
		} else {
			Word_t k = it->state == 0 ? (it->from ? id_key(s, it->from) : 0) : (Word_t)it->key;

			if (!iter_key(it, &k, it->state == 0)) {
				it->state = 2;
				return 0;
			}
			/* a typed key has its entries in the set of all objects */
			it->key = k;
			it->val = *(PWord_t)JudyLGet(s->allL, k, PJE0);
			it->sub = 0;
			it->state = 1;
		}
		idx = (it->val & 1) ? it->val >> 1 : ((const ovf_list *)it->val)->idx[it->sub];
		if (!arena_in_set(s, idx, it->set))
			continue; /* a key shared with an ID of another type */
		if (it->from) {
			if (memcmp(arena_id(s, idx), it->from, s->rawsz) < 0)
				continue;
			it->from = NULL;
		}
		it->last = idx;
		*id = arena_id(s, idx);
		if (type)
			*type = arena_type(s, idx);
		return 1;
	}
}

size_t idsets_run(const idsets *s, size_t at, const unsigned char *const **ids,
		  const unsigned char **types)
{
	size_t off = at & (CHUNK_SIZE - 1), n;

	if (!s->sorted || at >= s->nids)
		return 0;
	n = CHUNK_SIZE - off;
	if (n > s->nids - at)
		n = s->nids - at;
	*ids = s->ids[at >> CHUNK_BITS] + off;
	*types = s->types[at >> CHUNK_BITS] + off;
	return n;
}

int idset_iter_in_set(const idset_iter *it, int set)
{
	return it->state == 1 && set >= 0 && set < ABBREV_SET_COUNT &&
	       arena_in_set(it->s, it->last, set);
}


size_t idsets_memory(const idsets *s)
{
	size_t bytes = sizeof(*s) + s->ovf_bytes;

	bytes += Judy1MemUsed(s->all1) + JudyLMemUsed(s->allL);
	for (int i = 0; i < ABBREV_SET_COUNT; i++)
		bytes += Judy1MemUsed(s->typed[i]);
	bytes += s->nchunks * (CHUNK_SIZE * (sizeof(**s->ids) + 1));
	bytes += s->chunk_alloc * (sizeof(*s->ids) + sizeof(*s->types));
	bytes += s->nstore * STORE_SIZE * s->rawsz + s->store_alloc * sizeof(*s->store);
	bytes += s->keeps_alloc * sizeof(*s->keeps);
	bytes += s->tags_cap * sizeof(*s->tags);
	return bytes;
}

idsets *idsets_copy_range(const idsets *s, unsigned lo, unsigned hi)
{
	idsets *c = idsets_new(s->rawsz);
	idsets_bulk *b = c ? idsets_bulk_start(c, s->count[ABBREV_SET_ALL]) : NULL;
	const unsigned char *id;
	unsigned char from[ABBREV_MAX_RAWSZ] = { (unsigned char)lo };
	int type, rc = 0;
	idset_iter it;

	if (!b) {
		idsets_free(c);
		return NULL;
	}
	idsets_keep_range(c, lo, hi);
	idset_iter_init(&it, s, ABBREV_SET_ALL);
	idset_iter_seek(&it, from);
	while (!rc && idset_iter_next(&it, &id, &type) && id[0] < hi)
		rc = idsets_bulk_add(b, id, type) < 0;
	if (idsets_bulk_finish(b) || rc) {
		idsets_free(c);
		return NULL;
	}
	c->spread = s->spread;
	/* the tags that peel to a commit stay in the commit-ish set */
	for (size_t idx = 0; idx < c->nids; idx++)
		if (arena_type(c, idx) == ABBREV_TYPE_TAG &&
		    idsets_in_set(s, arena_id(c, idx), ABBREV_SET_COMMITISH)) {
			*arena_type_byte(c, idx) |= COMMITISH_FLAG;
			c->commitish_tags++;
		}
	return c;
}
