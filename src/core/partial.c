/*
 * partial.c - write and read partial results (see partial.h).
 *
 * The reader trusts nothing: every number is range-checked and every
 * record must fit the ones before it, so a damaged or hand-edited file
 * is refused with its line number instead of giving a wrong merge.
 */
#include "partial.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

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

int partial_write(FILE *out, const stats_report *r)
{
	const sources *src = r->sources;

	fprintf(out, "%s\nhash %s\nshard %u/%u\nlacks %u\nduplicates %" PRIu64 "\n",
		PARTIAL_HEADER, r->hash ? r->hash : "unknown", r->shard.k, r->shard.n, r->lacks,
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
	int have_hash, have_shard, ended;
	int declared[ABBREV_SET_COUNT];
	unsigned next_len[ABBREV_SET_COUNT];  /* the next "length" expected */
	size_t cap_groups[ABBREV_SET_COUNT], cap_members[ABBREV_SET_COUNT];
	size_t want_groups_done[ABBREV_SET_COUNT];
	int have_cvo;
	unsigned next_cvo;
	int have_reach;
} reader;

static int fail(reader *rd, const char *reason)
{
	snprintf(rd->err, rd->errsz, "%s:%" PRIu64 ": %s", rd->path, rd->lineno, reason);
	return -1;
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

	if (!rd->have_hash)
		return fail(rd, "a set before the hash");
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
	if (parse_u64(tok[2], &len) || len < st->longest || len > st->hexsz ||
	    !st->longest || parse_size(tok[3], &members) || members < 2 || members > st->count)
		return fail(rd, "a group has a shared length (the set's longest or more) and 2 or "
				"more members");
	if (st->ngroups == rd->cap_groups[set]) {
		size_t cap = rd->cap_groups[set] ? 2 * rd->cap_groups[set] : 4;
		stats_group *g = realloc(st->groups, cap * sizeof(*g));

		if (!g)
			return -2;
		st->groups = g;
		rd->cap_groups[set] = cap;
	}
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
		size_t cap = rd->cap_members[set] ? 2 * rd->cap_members[set] : 8;
		unsigned char *ids = realloc(st->member_ids, cap * rawsz), *types;
		char **desc;

		if (!ids)
			return -2;
		st->member_ids = ids;
		if (!(types = realloc(st->member_types, cap)))
			return -2;
		st->member_types = types;
		if (!(desc = realloc(st->member_desc, cap * sizeof(*desc))))
			return -2;
		st->member_desc = desc;
		rd->cap_members[set] = cap;
	}
	if (hexid_parse_prefix(st->member_ids + st->nmembers * rawsz, rawsz, tok[2], 2 * rawsz))
		return fail(rd, "a member's ID is not hex");
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
		r->cvo_last_len = (unsigned)v;
		rd->next_cvo = ABBREV_MIN_LEN;
		return 0;
	}
	if (n != 3 || !rd->have_cvo || parse_u64(tok[1], &L) || L != rd->next_cvo ||
	    L > r->cvo_last_len || parse_u64(tok[2], &v) || v > SIZE_MAX / 2)
		return fail(rd, "commit-vs-other lengths run from 4 to its last, in order");
	r->cvo[L] = (size_t)v;
	rd->next_cvo++;
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
	if (rd->ended)
		return fail(rd, "a record after \"end\"");
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

/* After "end": everything a report needs is there and adds up. */
static int read_complete(reader *rd)
{
	stats_report *r = &rd->p->rep;

	if (!rd->ended)
		return fail(rd, "cut short (no \"end\" line)");
	if (!rd->have_shard || !rd->have_cvo)
		return fail(rd, "no shard or commit-vs-other table");
	if (rd->next_cvo != r->cvo_last_len + 1)
		return fail(rd, "commit-vs-other lengths missing");
	for (int set = 0; set < ABBREV_SET_COUNT; set++) {
		const stats_set *st = &r->sets[set];

		if (!rd->declared[set]) {
			char msg[64];

			snprintf(msg, sizeof(msg), "no set '%s'", idset_name(set));
			return fail(rd, msg);
		}
		if (rd->next_len[set] != st->last_len + 1)
			return fail(rd, "lengths of a set missing");
		if (!st->longest != !st->ngroups ||
		    (st->ngroups && rd->want_groups_done[set] != st->groups[st->ngroups - 1].n))
			return fail(rd, "groups of a set missing or incomplete");
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

int partial_read(partial *p, FILE *in, const char *path, char *err, size_t errsz)
{
	reader rd = { .path = path, .err = err, .errsz = errsz, .p = p };
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int rc = 0;

	memset(p, 0, sizeof(*p));
	p->rep.shard = SHARD_ALL;
	while ((len = getline(&line, &cap, in)) >= 0) {
		rd.lineno++;
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if ((size_t)len != strlen(line)) {
			rc = fail(&rd, "a NUL byte in the file");
			break;
		}
		if (rd.lineno == 1) {
			if (strcmp(line, PARTIAL_HEADER)) {
				rc = fail(&rd, "not a partial result of git-abbrev (--format=partial)");
				break;
			}
			continue;
		}
		if ((rc = read_record(&rd, line)))
			break;
	}
	free(line);
	if (!rc && ferror(in)) {
		snprintf(err, errsz, "%s: read error", path);
		rc = -1;
	}
	if (!rc && !rd.lineno)
		rc = fail(&rd, "empty file, not a partial result");
	if (!rc)
		rc = read_complete(&rd);
	if (rc == -2)
		snprintf(err, errsz, "out of memory");
	if (rc)
		partial_clear(p);
	return rc;
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
