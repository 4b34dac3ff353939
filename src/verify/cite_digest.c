/*
 * cite_digest.c - a message's parse kept as bytes (cite_digest.h).
 *
 * The bytes, every number an unsigned LEB128 varint (7 bits a byte, low
 * first: most take one or two):
 *
 *   the message's length, the count of kept spans, each span: its offset
 *   after the last span's end, its length, its bytes
 *   the title's length + 1 (0: none) and its bytes
 *   the imports' length, their count, their bytes
 *   the count of citations, each: kind, style, flags, line, start, end,
 *   id_start, id_len, subj_start, subj_end, match_len, date_start,
 *   date_len, foreign, then the ID (0: the message's own bytes at
 *   id_start in lower case, else its length + 1 and its bytes), the
 *   subject (0: none, 1: the message's bytes [subj_start, subj_end), else
 *   its length + 2 and its bytes), the project (0: none, else its length
 *   + 1 and its bytes)
 *
 * Most IDs and subjects are written on one line as the parser keeps
 * them: those are the message's own bytes, kept once.
 *
 * The bytes come from a sealed notes file of this very build (the notes'
 * stamp), so they are what cite_digest_pack() wrote; still, every length
 * and offset is checked against what holds it, so bytes that are no
 * digest are told apart rather than read out of bounds.
 */
#include <config.h>

#include "cite_digest.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bigvec.h"
#include "bytes.h"
#include "grow.h"

typedef struct {
	unsigned char *p;
	size_t n, cap;
	int nomem;
} wbuf;

static void put(wbuf *w, const void *b, size_t n)
{
	if (w->nomem || !n)
		return;
	if (GROW(w->p, w->cap, w->n + n, 256)) {
		w->nomem = 1;
		return;
	}
	memcpy(w->p + w->n, b, n);
	w->n += n;
}

static void putv(wbuf *w, uint64_t v)
{
	unsigned char b[10];
	size_t n = 0;

	do {
		b[n++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	put(w, b, n);
}

/* A string of n bytes: its length + `bias` and the bytes. */
static void put_str(wbuf *w, const char *s, size_t n, unsigned bias)
{
	putv(w, (uint64_t)n + bias);
	put(w, s, n);
}

typedef struct {
	size_t lo, hi;
} span;

static int cmp_span(const void *a, const void *b)
{
	const span *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The lines of buf[lo .. hi) whole: from its first line's start through its last line's break. */
static span whole_lines(const char *buf, size_t len, size_t lo, size_t hi)
{
	span s;
	const char *nl;
	size_t from = hi > lo ? hi - 1 : lo;

	while (lo && buf[lo - 1] != '\n')
		lo--;
	nl = from < len ? memchr(buf + from, '\n', len - from) : NULL;
	s.lo = lo;
	s.hi = nl ? (size_t)(nl - buf) + 1 : len;
	return s;
}

static unsigned char lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

/* Whether r's ID is the message's own bytes at id_start in lower case (as cite_parse.c sets it). */
static int id_is_text(const citation *r, const char *buf)
{
	size_t n = r->id_len < CITE_ID_MAX ? r->id_len : CITE_ID_MAX;

	if (strlen(r->id) != n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)r->id[i] != lower((unsigned char)buf[r->id_start + i]))
			return 0;
	return 1;
}

int cite_digest_pack(const cite_list *l, const char *buf, size_t len, unsigned char **out,
		     size_t *outlen)
{
	wbuf w = { 0 };
	span *sp;
	size_t ns = 0, last = 0;
	int rc = 1;

	*out = NULL;
	*outlen = 0;
	if (len > UINT32_MAX)
		return 1;
	if (!(sp = malloc((l->n ? l->n : 1) * sizeof(*sp))))
		return -1;
	for (size_t i = 0; i < l->n; i++) {
		const citation *r = &l->v[i];
		size_t lo = r->start, hi = r->end, e = r->id_start + r->id_len;

		if (r->id_start < lo)
			lo = r->id_start;
		if (e > hi)
			hi = e;
		if (r->subj_end > r->subj_start) {
			if (r->subj_start < lo)
				lo = r->subj_start;
			if (r->subj_end > hi)
				hi = r->subj_end;
		}
		if (r->date_len) {
			if (r->date_start < lo)
				lo = r->date_start;
			if (r->date_start + r->date_len > hi)
				hi = r->date_start + r->date_len;
		}
		if (lo > len || hi > len || r->start > r->end || r->subj_start > len ||
		    r->subj_end > len || r->kind < 0 || r->foreign < 0)
			goto done; /* not offsets of this message: keep nothing */
		sp[i] = whole_lines(buf, len, lo, hi);
	}
	qsort(sp, l->n, sizeof(*sp), cmp_span);
	for (size_t i = 0; i < l->n; i++) {
		if (ns && sp[i].lo <= sp[ns - 1].hi) {
			if (sp[i].hi > sp[ns - 1].hi)
				sp[ns - 1].hi = sp[i].hi;
		} else {
			sp[ns++] = sp[i];
		}
	}
	putv(&w, len);
	putv(&w, ns);
	for (size_t i = 0; i < ns; i++) {
		putv(&w, sp[i].lo - last);
		put_str(&w, buf + sp[i].lo, sp[i].hi - sp[i].lo, 0);
		last = sp[i].hi;
	}
	if (l->title)
		put_str(&w, l->title, strlen(l->title), 1);
	else
		putv(&w, 0);
	putv(&w, l->imports_len);
	putv(&w, l->nimports);
	put(&w, l->imports, l->imports_len);
	putv(&w, l->n);
	for (size_t i = 0; i < l->n; i++) {
		const citation *r = &l->v[i];
		size_t v[] = { (size_t)r->kind, r->style, r->flags, r->line, r->start, r->end,
			       r->id_start, r->id_len, r->subj_start, r->subj_end, r->match_len,
			       r->date_start, r->date_len, (size_t)r->foreign };

		for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++)
			putv(&w, v[k]);
		if (id_is_text(r, buf))
			putv(&w, 0);
		else
			put_str(&w, r->id, strlen(r->id), 1);
		if (!r->subject)
			putv(&w, 0);
		else if (r->subj_end - r->subj_start == r->subject_len && r->subj_end > r->subj_start &&
			 !memcmp(r->subject, buf + r->subj_start, r->subject_len))
			putv(&w, 1);
		else
			put_str(&w, r->subject, r->subject_len, 2);
		if (r->project)
			put_str(&w, r->project, strlen(r->project), 1);
		else
			putv(&w, 0);
	}
	if (w.nomem) {
		rc = -1;
		goto done;
	}
	*out = w.p;
	*outlen = w.n;
	w.p = NULL;
	rc = 0;
done:
	free(w.p);
	free(sp);
	return rc;
}

typedef struct {
	const unsigned char *p;
	size_t n, at;
	int bad;
} rbuf;

/* The next varint; one past 64 bits, or cut short, sets r->bad. */
static uint64_t getv(rbuf *r)
{
	uint64_t v = 0;

	for (unsigned sh = 0; !r->bad; sh += 7) {
		unsigned char c;

		if (r->at >= r->n || sh > 63) {
			r->bad = 1;
			break;
		}
		c = r->p[r->at++];
		v |= (uint64_t)(c & 0x7f) << sh;
		if (!(c & 0x80))
			return v;
	}
	return 0;
}

static const unsigned char *get(rbuf *r, uint64_t n)
{
	const unsigned char *p = r->p + r->at;

	if (r->bad || r->n - r->at < n) {
		r->bad = 1;
		return NULL;
	}
	r->at += (size_t)n;
	return p;
}

/* A NUL-ended copy of the n bytes at p in the list's arena, or NULL (*nomem). */
static char *copy_str(arena *a, const void *p, size_t n, int *nomem)
{
	char *s;

	if (!(s = arena_alloc(a, n + 1))) {
		*nomem = 1;
		return NULL;
	}
	memcpy(s, p, n);
	s[n] = '\0';
	return s;
}

/* The next string (its length less `bias` first), copied as copy_str(). */
static char *get_str(rbuf *r, arena *a, uint64_t code, unsigned bias, int *nomem)
{
	const unsigned char *p;
	uint64_t n = code - bias;

	if (code < bias || !(p = get(r, n)))
		return NULL;
	return copy_str(a, p, (size_t)n, nomem);
}

int cite_digest_unpack(const unsigned char *d, size_t n, cite_list *l, char **buf, size_t *len)
{
	rbuf r = { d, n, 0, 0 };
	uint64_t mlen, ns, t, cnt, last = 0;
	char *m = NULL;
	int nomem = 0;

	*buf = NULL;
	*len = 0;
	memset(l, 0, sizeof(*l));
	mlen = getv(&r);
	ns = getv(&r);
	/* a message of 4 GiB or more is never kept (the notes' bytes are fewer) */
	if (r.bad || mlen > UINT32_MAX || !(m = malloc((size_t)mlen + 1)))
		return r.bad || mlen > UINT32_MAX ? 1 : -1;
	memset(m, '\n', (size_t)mlen);
	m[mlen] = '\0';
	for (uint64_t i = 0; i < ns && !r.bad; i++) {
		uint64_t off = last + getv(&r), k = getv(&r);
		const unsigned char *p = get(&r, k);

		if (p && off <= mlen && k <= mlen - off) {
			memcpy(m + off, p, (size_t)k);
			last = off + k;
		} else {
			r.bad = 1;
		}
	}
	t = getv(&r);
	if (t && !r.bad)
		l->title = get_str(&r, &l->text, t, 1, &nomem);
	l->imports_len = (size_t)getv(&r);
	l->nimports = (size_t)getv(&r);
	if (l->imports_len && !r.bad && !nomem) {
		const unsigned char *p = get(&r, l->imports_len);

		if (p && !(l->imports = malloc(l->imports_len)))
			nomem = 1;
		else if (p)
			memcpy(l->imports, p, l->imports_len);
		l->imports_cap = l->imports_len;
	}
	cnt = getv(&r);
	if (!r.bad && !nomem && cnt) {
		void *v = NULL;

		/* each citation takes 17 bytes or more: a count the bytes cannot hold is no digest */
		if (cnt > (r.n - r.at) / 17)
			r.bad = 1;
		else if (bigvec_reserve(&v, &l->vbytes, (size_t)cnt * sizeof(*l->v)))
			nomem = 1;
		else {
			l->v = v;
			l->cap = l->vbytes / sizeof(*l->v);
		}
	}
	for (uint64_t i = 0; i < cnt && !r.bad && !nomem; i++) {
		citation *c = &l->v[i];
		uint64_t v[14], code;

		memset(c, 0, sizeof(*c));
		for (size_t k = 0; k < 14; k++)
			if ((v[k] = getv(&r)) > mlen && k != 0 && k != 1 && k != 2 && k != 13)
				r.bad = 1; /* an offset, a length or a line: within the message */
		if (r.bad || v[0] > INT32_MAX || v[13] > INT32_MAX || v[1] > UINT32_MAX ||
		    v[2] > UINT32_MAX)
			break;
		c->kind = (int)v[0];
		c->style = (unsigned)v[1];
		c->flags = (unsigned)v[2];
		c->line = (size_t)v[3];
		c->start = (size_t)v[4];
		c->end = (size_t)v[5];
		c->id_start = (size_t)v[6];
		c->id_len = (size_t)v[7];
		c->subj_start = (size_t)v[8];
		c->subj_end = (size_t)v[9];
		c->match_len = (size_t)v[10];
		c->date_start = (size_t)v[11];
		c->date_len = (size_t)v[12];
		c->foreign = (int)v[13];
		if (c->start > c->end || c->id_len > mlen - c->id_start ||
		    c->date_len > mlen - c->date_start) {
			r.bad = 1;
			break;
		}
		code = getv(&r);
		if (!code) { /* the message's bytes, in lower case */
			size_t k = c->id_len < CITE_ID_MAX ? c->id_len : CITE_ID_MAX;

			for (size_t q = 0; q < k; q++)
				c->id[q] = (char)lower((unsigned char)m[c->id_start + q]);
			c->id[k] = '\0';
		} else {
			const unsigned char *p;

			if (code - 1 > CITE_ID_MAX || !(p = get(&r, code - 1))) {
				r.bad = 1;
				break;
			}
			memcpy(c->id, p, (size_t)(code - 1));
			c->id[code - 1] = '\0';
		}
		code = getv(&r);
		if (code == 1) {
			if (c->subj_end <= c->subj_start) {
				r.bad = 1;
				break;
			}
			c->subject_len = c->subj_end - c->subj_start;
			c->subject = copy_str(&l->text, m + c->subj_start, c->subject_len, &nomem);
		} else if (code > 1) {
			c->subject_len = (size_t)(code - 2);
			c->subject = get_str(&r, &l->text, code, 2, &nomem);
		}
		code = getv(&r);
		if (code && !r.bad && !nomem)
			c->project = get_str(&r, &l->text, code, 1, &nomem);
		if (!r.bad && !nomem)
			l->n++;
	}
	if (!r.bad && r.at != r.n)
		r.bad = 1;
	if (r.bad || nomem) {
		cite_list_free(l);
		free(m);
		return nomem ? -1 : 1;
	}
	*buf = m;
	*len = (size_t)mlen;
	return 0;
}
