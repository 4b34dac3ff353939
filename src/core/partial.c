/*
 * partial.c - write and read partial results (see partial.h).
 *
 * The writer seals a part with the SHA-256 of its content; the reader
 * refuses a part whose digest does not match, so a damaged or edited
 * file is refused with its line number instead of giving a wrong merge.
 * The digest proves only that the file is the one written (anyone can
 * write a new one), so the reader also range-checks every number and
 * checks every record against the ones before it, and recomputes what a
 * part lists twice: the groups against the table's row at the longest
 * length, the member IDs against the shard, the type sets against the
 * set of all objects, the IDs kept against the input's spread.
 */
#include "partial.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <nettle/sha2.h>

#include "grow.h"
#include "hexid.h"
#include "idline.h"

_Static_assert(STATS_NOTHER == IDLINE_NOTHER, "stats_input counts the kinds of idline.h");

/* ---- writing ------------------------------------------------------------ */

static void put_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '\\' || *p == '"')
			fprintf(out, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", out);
		else if (*p == '\t')
			fputs("\\t", out);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(out, "\\x%02x", *p);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

static void write_set(FILE *out, const stats_set *st, const char *name, size_t rawsz)
{
	char hex[ABBREV_MAX_HEXSZ + 1];

	fprintf(out, "set %s count=%zu longest=%u last=%u\n", name, st->count, st->longest,
		st->last_len);
	for (unsigned L = ABBREV_MIN_LEN; L <= st->last_len; L++)
		fprintf(out, "length %s %u %zu %zu\n", name, L, st->objects[L], st->prefixes[L]);
	for (size_t g = 0; g < st->ngroups; g++) {
		const stats_group *gr = &st->groups[g];

		fprintf(out, "group %s %u %zu\n", name, gr->len, gr->n);
		for (size_t i = gr->first; i < gr->first + gr->n; i++) {
			hexid_fmt(hex, st->member_ids + i * rawsz, rawsz);
			fprintf(out, "member %s %s %s", name, hex,
				hexid_type_name(st->member_types[i]));
			if (st->member_desc && st->member_desc[i]) {
				fputc(' ', out);
				put_string(out, st->member_desc[i]);
			}
			fputc('\n', out);
		}
	}
}

static void put_print(FILE *out, const idset_print *p)
{
	fprintf(out, "ids=%" PRIu64 " print=%016" PRIx64 "%016" PRIx64, p->n, p->a, p->b);
}

static void write_body(FILE *out, const stats_report *r)
{
	const sources *src = r->sources;

	fprintf(out, "%s\nhash %s\nshard %u/%u\n", PARTIAL_HEADER, r->hash ? r->hash : "unknown",
		r->shard.k, r->shard.n);
	for (unsigned k = 0; k < r->shard.n; k++) {
		fprintf(out, "spread %u ", k);
		put_print(out, &r->spread[k]);
		fputc('\n', out);
	}
	fputs("kept ", out);
	put_print(out, &r->kept);
	fprintf(out, "\nlacks %u\nduplicates %" PRIu64 "\n", r->lacks,
		r->input ? r->input->duplicates : 0);
	for (size_t i = 0; !src && i < r->nrepos; i++) {
		fputs("source repository ", out);
		put_string(out, r->repos[i]);
		fputc('\n', out);
	}
	for (size_t i = 0; src && i < src->n; i++) {
		const source *s = &src->v[i];

		fprintf(out, "source %s ", s->stream ? "stream" : "repository");
		put_string(out, s->name);
		if (s->stream) {
			fprintf(out, " bytes=%" PRIu64 " crc32=%08" PRIx32 " lines=%" PRIu64
				" bad=%" PRIu64, s->bytes, s->crc, s->lines, s->bad);
			for (int k = 0; k < STATS_NOTHER; k++)
				fprintf(out, " %s=%" PRIu64, idline_other_name(k), s->other[k]);
		}
		fputc('\n', out);
	}
	for (int set = 0; set < ABBREV_SET_COUNT; set++)
		write_set(out, &r->sets[set], idset_name(set), r->rawsz);
	if (r->reach) {
		fprintf(out, "reachable refs=%zu missing=%zu bad_refs=%zu\n", r->reach->refs,
			r->reach->missing, r->reach->bad_refs);
		for (size_t i = 0; i < r->reach->npatterns; i++) {
			fputs("refpattern ", out);
			put_string(out, r->reach->patterns[i]);
			fputc('\n', out);
		}
	}
	fprintf(out, "cvo last=%u\n", r->cvo_last_len);
	for (unsigned L = ABBREV_MIN_LEN; L <= r->cvo_last_len; L++)
		fprintf(out, "cvo %u %zu\n", L, r->cvo[L]);
	fputs("end\n", out);
}

static void sha256_hex(char hex[2 * SHA256_DIGEST_SIZE + 1], const char *buf, size_t len)
{
	struct sha256_ctx ctx;
	uint8_t d[SHA256_DIGEST_SIZE];

	sha256_init(&ctx);
	sha256_update(&ctx, len, (const uint8_t *)buf);
	sha256_digest(&ctx, sizeof(d), d);
	hexid_fmt(hex, d, sizeof(d));
}

int partial_write(FILE *out, const stats_report *r)
{
	char *buf = NULL, hex[2 * SHA256_DIGEST_SIZE + 1];
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	int failed;

	/* the body first, in memory: the digest line follows it */
	if (!mem)
		return -2;
	write_body(mem, r);
	failed = ferror(mem);
	if (fclose(mem) || failed) {
		free(buf);
		return -2;
	}
	sha256_hex(hex, buf, len);
	fwrite(buf, 1, len, out);
	fprintf(out, "sha256 %s\n", hex);
	free(buf);
	return ferror(out) ? -1 : 0;
}

/* ---- reading ------------------------------------------------------------ */

#define MAXTOK 16

typedef struct {
	const char *path;
	uint64_t lineno;
	char *err;
	size_t errsz;
	partial *p;
	size_t rawsz;
	int have_hash, have_shard, ended, have_digest, have_kept;
	unsigned next_spread;                 /* the next "spread" expected */
	uint64_t kept_line, set_line[ABBREV_SET_COUNT], cvo_line;
	uint64_t len_line[ABBREV_SET_COUNT][ABBREV_MAX_HEXSZ + 1];
	int declared[ABBREV_SET_COUNT];
	unsigned next_len[ABBREV_SET_COUNT];  /* the next "length" expected */
	size_t cap_groups[ABBREV_SET_COUNT], cap_members[ABBREV_SET_COUNT];
	size_t want_groups_done[ABBREV_SET_COUNT];
	int have_cvo;
	unsigned next_cvo;
	int have_reach;
	int unsealed;   /* partial_read_unsealed(): the digest is not asked for */
	int sealed;     /* the last line is a digest, and it matched */
} reader;

static int fail_at(reader *rd, uint64_t lineno, const char *reason)
{
	snprintf(rd->err, rd->errsz, "%s:%" PRIu64 ": %s", rd->path, lineno, reason);
	return -1;
}

static int fail(reader *rd, const char *reason)
{
	return fail_at(rd, rd->lineno, reason);
}

/*
 * Split a line into tokens at single spaces; a token in double quotes is
 * unescaped in place.  Returns the number of tokens, or -1.
 */
static int tokenize(char *line, char **tok)
{
	int n = 0;
	char *p = line;

	while (*p) {
		if (n == MAXTOK)
			return -1;
		if (*p == '"') {
			char *o = p, *q = p + 1;

			tok[n++] = o;
			for (;; q++) {
				if (!*q)
					return -1;
				if (*q == '"')
					break;
				if (*q != '\\') {
					*o++ = *q;
					continue;
				}
				q++;
				if (*q == 'n')
					*o++ = '\n';
				else if (*q == 't')
					*o++ = '\t';
				else if (*q == '\\' || *q == '"')
					*o++ = *q;
				else if (*q == 'x') {
					unsigned char v;

					if (hexid_parse_prefix(&v, 1, q + 1, 2) || !v)
						return -1;
					*o++ = (char)v;
					q += 2;
				} else
					return -1;
			}
			*o = '\0';
			p = q + 1;
		} else {
			tok[n++] = p;
			while (*p && *p != ' ')
				p++;
		}
		if (*p == ' ') {
			*p++ = '\0';
			if (!*p)
				return -1;
		} else if (*p) {
			return -1;
		}
	}
	return n;
}

static int parse_u64(const char *s, uint64_t *v)
{
	uint64_t x = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || x > (UINT64_MAX - 9) / 10)
			return -1;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	*v = x;
	return 0;
}

static int parse_size(const char *s, size_t *v)
{
	uint64_t x;

	if (parse_u64(s, &x) || x > SIZE_MAX / 2)
		return -1;
	*v = (size_t)x;
	return 0;
}

/* "key=<u64>" */
static int parse_kv(const char *tok, const char *key, uint64_t *v)
{
	size_t n = strlen(key);

	return strncmp(tok, key, n) || tok[n] != '=' ? -1 : parse_u64(tok + n + 1, v);
}

static int set_of(const char *name)
{
	for (int set = 0; set < ABBREV_SET_COUNT; set++)
		if (!strcmp(name, idset_name(set)))
			return set;
	return -1;
}

static int read_source(reader *rd, char **tok, int n)
{
	source s = { 0 };
	unsigned char b[4];

	if (n < 3)
		return fail(rd, "a source needs its kind and name");
	s.name = tok[2];
	if (!strcmp(tok[1], "repository") && n == 3) {
		s.stream = 0;
	} else if (!strcmp(tok[1], "stream") && n == 7 + STATS_NOTHER) {
		s.stream = 1;
		if (parse_kv(tok[3], "bytes", &s.bytes) || parse_kv(tok[5], "lines", &s.lines) ||
		    parse_kv(tok[6], "bad", &s.bad) || strncmp(tok[4], "crc32=", 6) ||
		    strlen(tok[4]) != 14 || hexid_parse_prefix(b, 4, tok[4] + 6, 8))
			return fail(rd, "a stream source has bytes=, crc32=, lines= and bad=");
		s.crc = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
		for (int k = 0; k < STATS_NOTHER; k++)
			if (parse_kv(tok[7 + k], idline_other_name(k), &s.other[k]))
				return fail(rd, "a stream source counts snp=, ori=, emd= and raw=");
	} else {
		return fail(rd, "a source is a stream or a repository");
	}
	return sources_add(&rd->p->src, &s) ? -2 : 0;
}

static int read_set(reader *rd, char **tok, int n)
{
	unsigned hexsz = (unsigned)(2 * rd->rawsz);
	uint64_t count, longest, last;
	int set;
	stats_set *st;

	if (!rd->have_hash || !rd->have_shard)
		return fail(rd, "a set before the hash and the shard");
	if (n != 5 || (set = set_of(tok[1])) < 0)
		return fail(rd, "unknown set");
	if (rd->declared[set])
		return fail(rd, "a set given twice");
	if (parse_kv(tok[2], "count", &count) || parse_kv(tok[3], "longest", &longest) ||
	    parse_kv(tok[4], "last", &last) || count > SIZE_MAX / 2 || last < ABBREV_MIN_LEN ||
	    last > hexsz || (longest && (longest < ABBREV_MIN_LEN || longest >= last)))
		return fail(rd, "a set has count=, longest= (0 or 4 .. last - 1) and last= (4 .. the "
				"hash's hex length)");
	rd->declared[set] = 1;
	rd->set_line[set] = rd->lineno;
	rd->next_len[set] = ABBREV_MIN_LEN;
	st = &rd->p->rep.sets[set];
	st->count = (size_t)count;
	st->hexsz = hexsz;
	st->longest = (unsigned)longest;
	st->last_len = (unsigned)last;
	st->min_unique = st->count ? st->last_len : 0;
	return 0;
}

static int read_length(reader *rd, char **tok, int n)
{
	int set = n == 5 ? set_of(tok[1]) : -1;
	uint64_t L;
	size_t obj, pre;
	stats_set *st;

	if (set < 0 || !rd->declared[set])
		return fail(rd, "a length of a set not declared");
	st = &rd->p->rep.sets[set];
	if (parse_u64(tok[2], &L) || L != rd->next_len[set] || L > st->last_len)
		return fail(rd, "lengths run from 4 to the set's last, in order");
	if (parse_size(tok[3], &obj) || parse_size(tok[4], &pre) || obj > st->count ||
	    pre > obj / 2)
		return fail(rd, "colliding objects and prefixes out of range");
	if (!obj != !pre)
		return fail(rd, "colliding objects without a colliding prefix, or a prefix without "
				"objects");
	if (L > ABBREV_MIN_LEN && obj > st->objects[L - 1])
		return fail(rd, "the table is not monotone: more objects collide at this length "
				"than at the one before");
	rd->len_line[set][L] = rd->lineno;
	st->objects[L] = obj;
	st->prefixes[L] = pre;
	rd->next_len[set]++;
	return 0;
}

static int read_group(reader *rd, char **tok, int n)
{
	int set = n == 4 ? set_of(tok[1]) : -1;
	uint64_t len;
	size_t members;
	stats_set *st;

	if (set < 0 || !rd->declared[set])
		return fail(rd, "a group of a set not declared");
	st = &rd->p->rep.sets[set];
	if (st->ngroups && st->groups[st->ngroups - 1].n != rd->want_groups_done[set])
		return fail(rd, "a group before the last one's members");
	if (parse_u64(tok[2], &len) || len > st->hexsz || !st->longest ||
	    parse_size(tok[3], &members) || members < 2 || members > st->count)
		return fail(rd, "a group has a shared length (the set's longest) and 2 or more "
				"members");
	if (len != st->longest) {
		char msg[160];

		snprintf(msg, sizeof(msg), "a group at length %" PRIu64 ", where the set's longest "
			 "colliding length is %u (the table's row at %" PRIu64 " says %zu)", len,
			 st->longest, len, len <= st->last_len ? st->objects[len] : 0);
		return fail(rd, msg);
	}
	if (GROW(st->groups, rd->cap_groups[set], st->ngroups + 1, 4))
		return -2;
	st->groups[st->ngroups].first = st->nmembers;
	st->groups[st->ngroups].n = members;
	st->groups[st->ngroups].len = (unsigned)len;
	st->ngroups++;
	rd->want_groups_done[set] = 0;
	return 0;
}

static int read_member(reader *rd, char **tok, int n)
{
	int set = n == 4 || n == 5 ? set_of(tok[1]) : -1, type;
	size_t rawsz = rd->rawsz;
	stats_set *st;

	if (set < 0 || !rd->declared[set] || !rd->p->rep.sets[set].ngroups)
		return fail(rd, "a member outside a group");
	st = &rd->p->rep.sets[set];
	if (rd->want_groups_done[set] == st->groups[st->ngroups - 1].n)
		return fail(rd, "more members than the group has");
	if (!(type = hexid_type_from_name(tok[3])) || strlen(tok[2]) != 2 * rawsz)
		return fail(rd, "a member is a full ID and its type");
	if (st->nmembers == rd->cap_members[set]) {
		size_t cap = grow_cap(rd->cap_members[set], st->nmembers + 1, 8, rawsz);

		if (!cap || grow_to(&st->member_ids, cap, rawsz) ||
		    grow_to(&st->member_types, cap, 1) ||
		    grow_to(&st->member_desc, cap, sizeof(*st->member_desc)))
			return -2;
		rd->cap_members[set] = cap;
	}
	unsigned char *id = st->member_ids + st->nmembers * rawsz;

	if (hexid_parse_prefix(id, rawsz, tok[2], 2 * rawsz))
		return fail(rd, "a member's ID is not hex");
	if (set != ABBREV_SET_ALL && type != set &&
	    !(set == ABBREV_SET_COMMITISH && (type == ABBREV_TYPE_COMMIT || type == ABBREV_TYPE_TAG)))
		return fail(rd, "a member of another type than its set's");
	if (!shard_has_byte(rd->p->rep.shard, id[0])) {
		char msg[128], d[64];

		snprintf(msg, sizeof(msg), "a member outside the part's shard %s",
			 shard_describe(d, sizeof(d), rd->p->rep.shard));
		return fail(rd, msg);
	}
	if (st->nmembers) {
		const unsigned char *prev = id - rawsz;
		unsigned c = hexid_lcp(prev, id, rawsz);
		int first = rd->want_groups_done[set] == 0;

		if (memcmp(prev, id, rawsz) >= 0)
			return fail(rd, "members out of ID order");
		if (first ? c >= st->longest : c != st->longest)
			return fail(rd, first ? "a group that shares its prefix with the group before"
					      : "a member that does not share the group's prefix");
	}
	st->member_types[st->nmembers] = (unsigned char)type;
	st->member_desc[st->nmembers] = NULL;
	if (n == 5 && !(st->member_desc[st->nmembers] = strdup(tok[4])))
		return -2;
	st->nmembers++;
	rd->want_groups_done[set]++;
	return 0;
}

static int read_cvo(reader *rd, char **tok, int n)
{
	stats_report *r = &rd->p->rep;
	uint64_t v, L;

	if (!rd->have_hash)
		return fail(rd, "commit-vs-other before the hash");
	if (n == 2 && !parse_kv(tok[1], "last", &v)) {
		if (rd->have_cvo || v < ABBREV_MIN_LEN || v > 2 * rd->rawsz)
			return fail(rd, "commit-vs-other's last length given twice or out of range");
		rd->have_cvo = 1;
		rd->cvo_line = rd->lineno;
		r->cvo_last_len = (unsigned)v;
		rd->next_cvo = ABBREV_MIN_LEN;
		return 0;
	}
	if (n != 3 || !rd->have_cvo || parse_u64(tok[1], &L) || L != rd->next_cvo ||
	    L > r->cvo_last_len || parse_u64(tok[2], &v) || v > SIZE_MAX / 2)
		return fail(rd, "commit-vs-other lengths run from 4 to its last, in order");
	if (L > ABBREV_MIN_LEN && v > r->cvo[L - 1])
		return fail(rd, "the commit-vs-other table is not monotone");
	if (!v != (L == r->cvo_last_len))
		return fail(rd, "commit-vs-other is 0 at its last length only");
	r->cvo[L] = (size_t)v;
	rd->next_cvo++;
	return 0;
}

/* "ids=<u64> print=<32 hex>" in tok[0], tok[1] */
static int parse_print(char **tok, idset_print *p)
{
	unsigned char b[16];

	if (parse_kv(tok[0], "ids", &p->n) || strncmp(tok[1], "print=", 6) ||
	    strlen(tok[1]) != 6 + 32 || hexid_parse_prefix(b, 16, tok[1] + 6, 32))
		return -1;
	p->a = p->b = 0;
	for (int i = 0; i < 8; i++) {
		p->a = p->a << 8 | b[i];
		p->b = p->b << 8 | b[8 + i];
	}
	return 0;
}

static int read_spread(reader *rd, char **tok, int n)
{
	partial *p = rd->p;
	uint64_t k;

	if (!rd->have_shard || n != 4 || parse_u64(tok[1], &k) || k != rd->next_spread ||
	    k >= p->rep.shard.n)
		return fail(rd, "the spread runs from 0 to the shard count - 1, in order, after "
				"the shard");
	if (parse_print(tok + 2, &p->rep.spread[k]))
		return fail(rd, "a spread entry has ids= and print= (32 hex chars)");
	p->spread_line[k] = rd->lineno;
	rd->next_spread++;
	return 0;
}

static int read_kept(reader *rd, char **tok, int n)
{
	partial *p = rd->p;

	if (rd->have_kept || !rd->have_shard || rd->next_spread != p->rep.shard.n || n != 3)
		return fail(rd, "kept comes once, after the whole spread");
	if (parse_print(tok + 1, &p->rep.kept))
		return fail(rd, "kept has ids= and print= (32 hex chars)");
	/* the IDs this run kept are the spread's at its shard, or it is another shard's part */
	if (!idset_print_eq(&p->rep.kept, &p->rep.spread[p->rep.shard.k])) {
		char msg[160], d[64];

		snprintf(msg, sizeof(msg), "the IDs kept are not those of shard %s of the spread "
			 "(line %" PRIu64 "): the part of another shard, relabelled",
			 shard_describe(d, sizeof(d), p->rep.shard), p->spread_line[p->rep.shard.k]);
		return fail(rd, msg);
	}
	rd->have_kept = 1;
	rd->kept_line = rd->lineno;
	return 0;
}

static int read_record(reader *rd, char *line)
{
	char *tok[MAXTOK];
	int n = tokenize(line, tok);
	uint64_t v;
	char err[128];

	if (n <= 0)
		return fail(rd, "not a record of a partial result");
	if (rd->have_digest)
		return fail(rd, "a record after the digest");
	if (rd->ended) {
		/* the digest itself was checked before any record was read */
		if (strcmp(tok[0], "sha256") || n != 2)
			return fail(rd, "a record after \"end\" other than its sha256 digest");
		if (!rd->sealed && !rd->unsealed)
			return fail(rd, "a sha256 digest that is not a whole last line of 64 hex "
				    "chars");
		rd->have_digest = 1;
		return 0;
	}
	if (!strcmp(tok[0], "hash") && n == 2) {
		if (rd->have_hash)
			return fail(rd, "the hash given twice");
		if (!strcmp(tok[1], "sha1"))
			rd->rawsz = 20;
		else if (!strcmp(tok[1], "sha256"))
			rd->rawsz = 32;
		else
			return fail(rd, "unknown hash (sha1 or sha256)");
		rd->have_hash = 1;
		return 0;
	}
	if (!strcmp(tok[0], "spread"))
		return read_spread(rd, tok, n);
	if (!strcmp(tok[0], "kept"))
		return read_kept(rd, tok, n);
	if (!strcmp(tok[0], "shard") && n == 2) {
		if (rd->have_shard || shard_parse(&rd->p->rep.shard, tok[1], err, sizeof(err)))
			return fail(rd, "a shard is K/N, given once, N a divisor of 256");
		rd->have_shard = 1;
		return 0;
	}
	if (!strcmp(tok[0], "lacks") && n == 2) {
		if (parse_u64(tok[1], &v) || v > 3)
			return fail(rd, "lacks is 0 to 3");
		rd->p->rep.lacks = (unsigned)v;
		return 0;
	}
	if (!strcmp(tok[0], "duplicates") && n == 2) {
		if (parse_u64(tok[1], &rd->p->input.duplicates))
			return fail(rd, "duplicates is a count");
		return 0;
	}
	if (!strcmp(tok[0], "source"))
		return read_source(rd, tok, n);
	if (!strcmp(tok[0], "set"))
		return read_set(rd, tok, n);
	if (!strcmp(tok[0], "length"))
		return read_length(rd, tok, n);
	if (!strcmp(tok[0], "group"))
		return read_group(rd, tok, n);
	if (!strcmp(tok[0], "member"))
		return read_member(rd, tok, n);
	if (!strcmp(tok[0], "cvo"))
		return read_cvo(rd, tok, n);
	if (!strcmp(tok[0], "reachable") && n == 4) {
		uint64_t refs, missing, bad;

		if (rd->have_reach || parse_kv(tok[1], "refs", &refs) ||
		    parse_kv(tok[2], "missing", &missing) || parse_kv(tok[3], "bad_refs", &bad) ||
		    refs > SIZE_MAX / 2 || missing > SIZE_MAX / 2 || bad > SIZE_MAX / 2)
			return fail(rd, "reachable has refs=, missing= and bad_refs=, once");
		rd->have_reach = 1;
		rd->p->reach.refs = (size_t)refs;
		rd->p->reach.missing = (size_t)missing;
		rd->p->reach.bad_refs = (size_t)bad;
		return 0;
	}
	if (!strcmp(tok[0], "refpattern") && n == 2) {
		partial *p = rd->p;
		char **pats;

		if (!rd->have_reach || p->reach.npatterns >= 4096)
			return fail(rd, "a ref pattern outside a reachable record");
		if (!(pats = realloc(p->patterns, (p->reach.npatterns + 1) * sizeof(*pats))))
			return -2;
		p->patterns = pats;
		if (!(pats[p->reach.npatterns] = strdup(tok[1])))
			return -2;
		p->reach.npatterns++;
		return 0;
	}
	if (!strcmp(tok[0], "end") && n == 1) {
		rd->ended = 1;
		return 0;
	}
	return fail(rd, "not a record of a partial result");
}

/* Whether every input is an ID stream (none a repository). */
static int streams_only(const sources *l)
{
	for (size_t i = 0; i < l->n; i++)
		if (!l->v[i].stream)
			return 0;
	return l->n > 0;
}

/* After "end": everything a report needs is there and adds up. */
static int read_complete(reader *rd)
{
	stats_report *r = &rd->p->rep;

	size_t types = 0, kept_min;
	char msg[200];

	if (!rd->ended)
		return fail(rd, "cut short (no \"end\" line)");
	if (!rd->have_digest && !rd->unsealed)
		return fail(rd, "cut short (no sha256 digest after \"end\")");
	if (!rd->have_shard || !rd->have_cvo || !rd->have_kept)
		return fail(rd, "no shard, spread or commit-vs-other table");
	if (rd->next_cvo != r->cvo_last_len + 1)
		return fail(rd, "commit-vs-other lengths missing");
	for (int set = 0; set < ABBREV_SET_COUNT; set++) {
		const stats_set *st = &r->sets[set];

		if (!rd->declared[set]) {
			snprintf(msg, sizeof(msg), "no set '%s'", idset_name(set));
			return fail(rd, msg);
		}
		if (rd->next_len[set] != st->last_len + 1)
			return fail(rd, "lengths of a set missing");
		if (!st->longest != !st->ngroups ||
		    (st->ngroups && rd->want_groups_done[set] != st->groups[st->ngroups - 1].n))
			return fail(rd, "groups of a set missing or incomplete");
		/* the table ends at the first length without a collision, after the longest */
		if (st->last_len != (st->longest ? st->longest + 1 : ABBREV_MIN_LEN) ||
		    st->objects[st->last_len] || (st->longest && !st->objects[st->longest]))
			return fail_at(rd, rd->set_line[set], "the set's longest and last lengths "
				       "disagree with its table");
		/* the groups listed are the table's row at the longest length */
		if (st->longest && (st->objects[st->longest] != st->nmembers ||
				    st->prefixes[st->longest] != st->ngroups)) {
			snprintf(msg, sizeof(msg), "the row at length %u says %zu objects in %zu "
				 "prefixes, the groups listed have %zu in %zu", st->longest,
				 st->objects[st->longest], st->prefixes[st->longest], st->nmembers,
				 st->ngroups);
			return fail_at(rd, rd->len_line[set][st->longest], msg);
		}
	}
	/* the types split the set of all objects, and their collisions are among its */
	for (int set = ABBREV_SET_COMMIT; set <= ABBREV_SET_TAG; set++)
		types += r->sets[set].count;
	if (types != r->sets[ABBREV_SET_ALL].count) {
		snprintf(msg, sizeof(msg), "the set of all objects counts %zu, its types %zu",
			 r->sets[ABBREV_SET_ALL].count, types);
		return fail_at(rd, rd->set_line[ABBREV_SET_ALL], msg);
	}
	if (r->sets[ABBREV_SET_COMMITISH].count < r->sets[ABBREV_SET_COMMIT].count ||
	    r->sets[ABBREV_SET_COMMITISH].count - r->sets[ABBREV_SET_COMMIT].count >
	    r->sets[ABBREV_SET_TAG].count)
		return fail_at(rd, rd->set_line[ABBREV_SET_COMMITISH], "commit-ish counts other "
			       "than the commits and some tags");
	for (unsigned L = ABBREV_MIN_LEN; L <= r->sets[ABBREV_SET_ALL].last_len; L++) {
		size_t sum = 0;

		for (int set = ABBREV_SET_COMMIT; set <= ABBREV_SET_TAG; set++)
			sum += r->sets[set].last_len >= L ? r->sets[set].objects[L] : 0;
		if (sum > r->sets[ABBREV_SET_ALL].objects[L] ||
		    (L <= r->cvo_last_len && r->cvo[L] > r->sets[ABBREV_SET_ALL].objects[L])) {
			snprintf(msg, sizeof(msg), "fewer objects collide at length %u than "
				 "commits with other objects or objects within their type", L);
			return fail_at(rd, rd->len_line[ABBREV_SET_ALL][L], msg);
		}
	}
	for (int set = ABBREV_SET_COMMIT; set <= ABBREV_SET_COMMITISH; set++)
		if (r->sets[set].last_len > r->sets[ABBREV_SET_ALL].last_len)
			return fail_at(rd, rd->set_line[set], "a set collides longer than the set of "
				       "all objects");
	if (r->cvo_last_len > r->sets[ABBREV_SET_ALL].last_len)
		return fail_at(rd, rd->cvo_line, "commits collide with other objects longer than "
			       "the set of all objects does");
	/*
	 * Every ID kept was read (and folded into the spread) at least once;
	 * an ID list's repeats are counted, so there the count is exact.
	 */
	kept_min = r->sets[ABBREV_SET_ALL].count;
	if (r->kept.n < kept_min ||
	    (streams_only(&rd->p->src) && r->kept.n != kept_min + rd->p->input.duplicates)) {
		snprintf(msg, sizeof(msg), "%" PRIu64 " IDs kept, but the sets count %zu (and %"
			 PRIu64 " repeats)", r->kept.n, kept_min, rd->p->input.duplicates);
		return fail_at(rd, rd->kept_line, msg);
	}
	for (int set = 0; set < ABBREV_SET_COUNT; set++)
		stats_set_model(&r->sets[set]);
	r->rawsz = rd->rawsz;
	r->hash = hexid_hash_name(rd->rawsz);
	r->git_auto_abbrev = stats_git_auto_abbrev(r->sets[ABBREV_SET_ALL].count);
	r->sources = &rd->p->src;
	r->repos = (const char *const *)rd->p->src.names;
	r->nrepos = rd->p->src.nnames;
	sources_totals(&rd->p->src, &rd->p->input);
	r->input = rd->p->src.any_stream ? &rd->p->input : NULL;
	rd->p->reach.patterns = (const char *const *)rd->p->patterns;
	r->reach = rd->have_reach ? &rd->p->reach : NULL;
	return 0;
}

/* The whole file in memory: 0, -1 on a read error, -2 when out of memory. */
static int slurp(FILE *in, char **buf, size_t *len)
{
	size_t cap = 0, n = 0, got;
	char *b = NULL;

	do {
		if (GROW(b, cap, n + 4096, 65536)) {
			free(b);
			return -2;
		}
		got = fread(b + n, 1, cap - n, in);
		n += got;
	} while (got);
	if (ferror(in)) {
		free(b);
		return -1;
	}
	*buf = b;
	*len = n;
	return 0;
}

/*
 * The last line, when it is "sha256 <hex>", must be the digest of every
 * byte before it.  A file without one is read on and refused at its end
 * (cut short), so that it is told by its first damaged record.
 */
static int check_digest(reader *rd, const char *buf, size_t len)
{
	char hex[2 * SHA256_DIGEST_SIZE + 1];
	size_t start, lines = 0;

	if (!len || buf[len - 1] != '\n')
		return 0;
	for (start = len - 1; start > 0 && buf[start - 1] != '\n'; start--)
		;
	if (len - start != 7 + 2 * SHA256_DIGEST_SIZE + 1 || memcmp(buf + start, "sha256 ", 7))
		return 0;
	for (size_t i = 0; i < len; i++)
		lines += buf[i] == '\n';
	sha256_hex(hex, buf, start);
	if (memcmp(buf + start + 7, hex, 2 * SHA256_DIGEST_SIZE))
		return fail_at(rd, lines, "the sha256 digest does not match the content: the part "
			       "was changed after it was written");
	rd->sealed = 1;
	return 0;
}

static int read_unsealed(partial *p, FILE *in, const char *path, char *err, size_t errsz,
			 int unsealed)
{
	reader rd = { .path = path, .err = err, .errsz = errsz, .p = p, .unsealed = unsealed };
	char *buf = NULL, *line, *end;
	size_t len = 0;
	int rc;

	memset(p, 0, sizeof(*p));
	p->rep.shard = SHARD_ALL;
	rc = slurp(in, &buf, &len);
	if (rc == -1) {
		snprintf(err, errsz, "%s: read error", path);
		return -1;
	}
	if (rc)
		goto done;
	if (!len) {
		rc = fail_at(&rd, 0, "empty file, not a partial result");
		goto done;
	}
	for (line = buf; !rc && line < buf + len; line = end + 1) {
		size_t n;

		end = memchr(line, '\n', (size_t)(buf + len - line));
		if (!end)
			end = buf + len;
		*end = '\0';
		n = (size_t)(end - line);
		rd.lineno++;
		if (n != strlen(line)) {
			rc = fail(&rd, "a NUL byte in the file");
			break;
		}
		if (rd.lineno == 1) {
			if (!strcmp(line, "git-abbrev partial 1"))
				rc = fail(&rd, "a partial result of an older git-abbrev, without a "
					  "digest: write the parts again with this version");
			else if (strcmp(line, PARTIAL_HEADER))
				rc = fail(&rd, "not a partial result of git-abbrev (--format=partial)");
			else if (!unsealed) {
				/* the line ends were cut: the digest needs them back */
				*end = end < buf + len ? '\n' : '\0';
				rc = check_digest(&rd, buf, len);
				*end = '\0';
			}
			continue;
		}
		rc = read_record(&rd, line);
	}
	if (!rc)
		rc = read_complete(&rd);
done:
	free(buf);
	if (rc == -2)
		snprintf(err, errsz, "out of memory");
	if (rc)
		partial_clear(p);
	return rc;
}

int partial_read(partial *p, FILE *in, const char *path, char *err, size_t errsz)
{
	return read_unsealed(p, in, path, err, errsz, 0);
}

int partial_read_unsealed(partial *p, FILE *in, const char *path, char *err, size_t errsz)
{
	return read_unsealed(p, in, path, err, errsz, 1);
}

void partial_clear(partial *p)
{
	for (size_t i = 0; i < p->reach.npatterns; i++)
		free(p->patterns[i]);
	free(p->patterns);
	stats_report_clear(&p->rep);
	sources_clear(&p->src);
	memset(p, 0, sizeof(*p));
}
