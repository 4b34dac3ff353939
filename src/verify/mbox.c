/*
 * mbox.c - mail in verify's input, cut into messages and each read into
 * its commit message as `git mailinfo` reads it (mbox.h).
 *
 * The mbox format: RFC 4155 (https://www.rfc-editor.org/rfc/rfc4155) and
 * its ">From " quoting (mboxrd); encodings: RFC 2045 (quoted-printable,
 * base64), RFC 2046 (multipart: every part, one after the other, as git
 * mailinfo reads them), RFC 2047 (encoded words in Subject:).  Text in
 * another charset than UTF-8 (Content-Type's charset=, an encoded word's)
 * is converted to UTF-8 with iconv(3), as git mailinfo converts it.
 * Every loop goes forward over the input: linear time on any bytes.
 */
#include <config.h>

#include "mbox.h"

#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

/* ---- lines and headers ----------------------------------------------------- */

/* The end of the line at p (its newline, or len). */
static size_t eol(const char *b, size_t len, size_t p)
{
	const char *nl = memchr(b + p, '\n', len - p);

	return nl ? (size_t)(nl - b) : len;
}

static size_t next_line(const char *b, size_t len, size_t p)
{
	size_t e = eol(b, len, p);

	return e < len ? e + 1 : len;
}

/* The end of the line's text: before a "\r" at its end. */
static size_t cr_trim(const char *b, size_t s, size_t e)
{
	return e > s && b[e - 1] == '\r' ? e - 1 : e;
}

static int blank(const char *b, size_t s, size_t e)
{
	for (; s < e; s++)
		if (b[s] != ' ' && b[s] != '\t' && b[s] != '\r')
			return 0;
	return 1;
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c + 'a' - 'A') : c;
}

static int iprefix(const char *b, size_t s, size_t e, const char *w)
{
	size_t n = strlen(w);

	if (e - s < n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (lower(b[s + i]) != w[i])
			return 0;
	return 1;
}

/* A header's first line: a name of printable chars but ':', then ':'. */
static int is_header(const char *b, size_t s, size_t e)
{
	size_t q = s;

	while (q < e && b[q] > ' ' && b[q] < 127 && b[q] != ':')
		q++;
	return q > s && q < e && b[q] == ':';
}

/*
 * An mbox separator at p: "From " at the input's start or after a blank
 * line, with a time ("00:00:00" of git's "Mon Sep 17 00:00:00 2001"), over
 * a header.
 */
static int is_from_line(const char *b, size_t len, size_t p)
{
	size_t e = eol(b, len, p), n;
	int time = 0;

	if (e - p < 5 || memcmp(b + p, "From ", 5))
		return 0;
	if (p && !(p >= 2 && b[p - 1] == '\n' &&
		   (b[p - 2] == '\n' || (p >= 3 && b[p - 2] == '\r' && b[p - 3] == '\n'))))
		return 0;
	for (size_t q = p + 5; q + 4 < e && !time; q++)
		time = b[q] >= '0' && b[q] <= '9' && b[q + 1] >= '0' && b[q + 1] <= '9' &&
		       b[q + 2] == ':' && b[q + 3] >= '0' && b[q + 3] <= '9';
	n = next_line(b, len, p);
	return time && n < len && is_header(b, n, eol(b, len, n));
}

/* One header: its lines [s, e) (continuations too), its first line's end. */
typedef struct {
	size_t s, e, first_end;
} header;

/* The header at p (not blank, before `end`); the offset past it. */
static size_t read_header(const char *b, size_t len, size_t end, size_t p, header *h)
{
	h->s = p;
	h->first_end = h->e = eol(b, len, p);
	p = next_line(b, len, p);
	while (p < end && (b[p] == ' ' || b[p] == '\t') && !blank(b, p, eol(b, len, p))) {
		h->e = eol(b, len, p);
		p = next_line(b, len, p);
	}
	return p;
}

/* A header's value past "name:": unfolded, trimmed, NUL-terminated; NULL (memory). */
static char *header_value(const char *b, const header *h, size_t name_len)
{
	char *v = malloc(h->e - h->s + 1);
	size_t n = 0;
	int space = 0;

	if (!v)
		return NULL;
	for (size_t q = h->s + name_len; q < h->e; q++) {
		char c = b[q];

		if (c == '\n' || c == '\r' || c == '\t' || c == ' ') {
			space = n > 0;
			continue;
		}
		if (space)
			v[n++] = ' ';
		space = 0;
		v[n++] = c;
	}
	v[n] = '\0';
	return v;
}

/* ---- decoding ---------------------------------------------------------------- */

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = lower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static int b64val(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	return c == '+' ? 62 : c == '/' ? 63 : -1;
}

/* base64 of s[0..n) appended at out (room for 3n/4 bytes); acc and bits carry over. */
static size_t b64_decode(const char *s, size_t n, char *out, unsigned *acc, int *bits)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		int v = b64val(s[i]);

		if (v < 0)
			continue; /* '=', blanks, and what a mailer broke */
		*acc = (*acc << 6) | (unsigned)v;
		*bits += 6;
		if (*bits >= 8) {
			*bits -= 8;
			out[k++] = (char)((*acc >> *bits) & 0xff);
		}
	}
	return k;
}

/*
 * A converter from charset cs[0..n) to UTF-8, or (iconv_t)-1: for UTF-8
 * and US-ASCII (nothing to convert), a name iconv does not know, or one
 * that is no charset name (only letters, digits and "-_.:"; RFC 2231's
 * "*language" left out).
 */
static iconv_t charset_open(const char *cs, size_t n)
{
	char name[40];
	const char *star = memchr(cs, '*', n);

	if (star)
		n = (size_t)(star - cs);
	if (!n || n >= sizeof(name))
		return (iconv_t)-1;
	for (size_t i = 0; i < n; i++) {
		char c = lower(cs[i]);

		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
		      c == '.' || c == ':'))
			return (iconv_t)-1;
		name[i] = c;
	}
	name[n] = '\0';
	if (!strcmp(name, "utf-8") || !strcmp(name, "utf8") || !strcmp(name, "us-ascii") ||
	    !strcmp(name, "ascii"))
		return (iconv_t)-1;
	return iconv_open("UTF-8", name);
}

/*
 * s[0..n) converted by cd to UTF-8 at out (room: 4n + 4 bytes, enough for
 * any charset mail uses); a byte iconv cannot read is kept as it is.  The
 * length written.
 */
static size_t to_utf8(iconv_t cd, const char *s, size_t n, char *out)
{
	char *in = (char *)s, *o = out;
	size_t left = n, room = 4 * n + 4;

	iconv(cd, NULL, NULL, NULL, NULL);
	while (left && iconv(cd, &in, &left, &o, &room) == (size_t)-1) {
		if (errno == E2BIG || !room)
			break;
		*o++ = *in++; /* EILSEQ, EINVAL: a byte of no character */
		left--;
		room--;
	}
	iconv(cd, NULL, NULL, &o, &room);
	return (size_t)(o - out);
}

/*
 * RFC 2047's encoded words in a header value ("=?UTF-8?q?caf=C3=A9?=",
 * "=?iso-8859-1?B?...?="), decoded into a new string in UTF-8 (NULL:
 * memory); blanks between two encoded words go, as the RFC says.
 */
static char *decode_words(const char *v)
{
	size_t len = strlen(v);
	char *out = malloc(4 * len + 4), *tmp = malloc(len + 1), *w = out, *after_word = NULL;
	const char *r = v;

	if (!out || !tmp) {
		free(out);
		free(tmp);
		return NULL;
	}
	while (*r) {
		const char *q1, *q2, *end;

		if (r[0] == '=' && r[1] == '?' && (q1 = strchr(r + 2, '?')) && q1[1] &&
		    q1[2] == '?' && (lower(q1[1]) == 'q' || lower(q1[1]) == 'b') &&
		    (end = strstr(q1 + 3, "?="))) {
			char enc = lower(q1[1]);
			unsigned acc = 0;
			int bits = 0;
			size_t t = 0;
			iconv_t cd;

			if (after_word)
				w = after_word; /* drop the blanks between two words */
			q2 = q1 + 3;
			if (enc == 'b') {
				t = b64_decode(q2, (size_t)(end - q2), tmp, &acc, &bits);
			} else {
				for (const char *p = q2; p < end; p++) {
					if (*p == '_') {
						tmp[t++] = ' ';
					} else if (*p == '=' && p + 2 < end && hexval(p[1]) >= 0 &&
						   hexval(p[2]) >= 0) {
						tmp[t++] = (char)(hexval(p[1]) * 16 + hexval(p[2]));
						p += 2;
					} else {
						tmp[t++] = *p;
					}
				}
			}
			cd = charset_open(r + 2, (size_t)(q1 - (r + 2)));
			if (cd != (iconv_t)-1) {
				w += to_utf8(cd, tmp, t, w);
				iconv_close(cd);
			} else {
				memcpy(w, tmp, t);
				w += t;
			}
			r = end + 2;
			after_word = w;
			continue;
		}
		if (*r != ' ' && *r != '\t')
			after_word = NULL;
		*w++ = *r++;
	}
	*w = '\0';
	free(tmp);
	return out;
}

/*
 * The commit's subject from a Subject: value, as git mailinfo cleans it:
 * leading "Re:", blanks, ':' and "[...]" blocks away, trailing blanks too.
 */
static const char *clean_subject(const char *s, size_t *n)
{
	size_t len = strlen(s);

	for (;;) {
		if (len >= 3 && lower(s[0]) == 'r' && lower(s[1]) == 'e' && s[2] == ':') {
			s += 3, len -= 3;
		} else if (len && (*s == ' ' || *s == '\t' || *s == ':')) {
			s++, len--;
		} else if (len && *s == '[' && memchr(s, ']', len)) {
			const char *c = memchr(s, ']', len);

			len -= (size_t)(c + 1 - s);
			s = c + 1;
		} else {
			break;
		}
	}
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	*n = len;
	return s;
}

/* ---- lines of text being built ---------------------------------------------- */

typedef struct {
	char *t;
	size_t n, cap;
	mbox_line *l;
	size_t nl, lcap;
	int nomem;
} builder;

static void add_bytes(builder *b, const char *s, size_t n)
{
	if (b->nomem)
		return;
	if (n > SIZE_MAX - b->n - 1 || GROW(b->t, b->cap, b->n + n + 1, 256)) {
		b->nomem = 1;
		return;
	}
	memcpy(b->t + b->n, s, n);
	b->n += n;
	b->t[b->n] = '\0';
}

/* Start a line of text: from input line `line`, its bytes at input offset raw (or SIZE_MAX). */
static void begin_line(builder *b, size_t raw, size_t line)
{
	if (b->nomem)
		return;
	if (GROW(b->l, b->lcap, b->nl + 1, 32)) {
		b->nomem = 1;
		return;
	}
	b->l[b->nl++] = (mbox_line){ b->n, raw, line, 0 };
}

static void add_line(builder *b, const char *s, size_t n, size_t raw, size_t line)
{
	begin_line(b, raw, line);
	add_bytes(b, s, n);
	add_bytes(b, "\n", 1);
}

static void builder_free(builder *b)
{
	free(b->t);
	free(b->l);
	memset(b, 0, sizeof(*b));
}

/* ---- a message's body -------------------------------------------------------- */

enum { ENC_PLAIN, ENC_QP, ENC_BASE64 };

/* A part of the body: [s, e) of the input, its encoding and charset ("" for none). */
typedef struct {
	size_t s, e;
	int enc;
	char charset[40];
} part;

/* Content-Type's type ("multipart/mixed"), boundary and charset; lower case / as written. */
typedef struct {
	char *type;
	char *boundary;
	int enc;
	char charset[40];
} part_headers;

static int iword(const char *p, const char *w)
{
	for (; *w; p++, w++)
		if (lower(*p) != *w)
			return 0;
	return 1;
}

/*
 * The value of the parameter `name` (lower case, "=" ending it) of a
 * Content-Type: value ("boundary=", "charset="), quoted or not, as
 * written: where it starts, and its length in *n; NULL when there is none.
 */
static const char *ct_param(const char *v, const char *name, size_t *n)
{
	for (const char *p = v; *p; p++) {
		if ((p != v && p[-1] != ';' && p[-1] != ' ' && p[-1] != '\t') || !iword(p, name))
			continue;
		p += strlen(name);
		if (*p == '"') {
			p++;
			*n = strcspn(p, "\"");
		} else {
			*n = strcspn(p, "; \t");
		}
		return p;
	}
	return NULL;
}

static void part_headers_free(part_headers *ph)
{
	free(ph->type);
	free(ph->boundary);
	memset(ph, 0, sizeof(*ph));
}

/* Content-Type: and Content-Transfer-Encoding: of the header h; -1 (memory). */
static int mime_header(const char *b, const header *h, part_headers *ph)
{
	char *v;

	if (iprefix(b, h->s, h->e, "content-transfer-encoding:")) {
		if (!(v = header_value(b, h, 26)))
			return -1;
		for (char *c = v; *c; c++)
			*c = lower(*c);
		ph->enc = !strncmp(v, "quoted-printable", 16) ? ENC_QP :
			  !strncmp(v, "base64", 6)             ? ENC_BASE64 :
								 ENC_PLAIN;
		free(v);
	} else if (iprefix(b, h->s, h->e, "content-type:") && !ph->type) {
		const char *pv;
		size_t n;

		if (!(v = header_value(b, h, 13)))
			return -1;
		ph->type = v;
		/* boundary="..." or boundary=token: the parameter name is case-blind */
		if ((pv = ct_param(v, "boundary=", &n)) && n && !(ph->boundary = strndup(pv, n)))
			return -1;
		if ((pv = ct_param(v, "charset=", &n)) && n < sizeof(ph->charset)) {
			memcpy(ph->charset, pv, n);
			ph->charset[n] = '\0';
		}
		for (char *c = v; *c && *c != ';'; c++)
			*c = lower(*c);
	}
	return 0;
}

/* A "--boundary" line (or its closing "--boundary--"). */
static int is_boundary(const char *b, size_t s, size_t e, const char *bd)
{
	size_t n = strlen(bd);

	return e - s >= n + 2 && b[s] == '-' && b[s + 1] == '-' && !memcmp(b + s + 2, bd, n);
}

/* The parts of a body, in order. */
typedef struct {
	part *v;
	size_t n, cap;
} parts;

static int add_part(parts *ps, size_t s, size_t e, const part_headers *ph)
{
	if (GROW(ps->v, ps->cap, ps->n + 1, 4))
		return -1;
	ps->v[ps->n] = (part){ s, e, ph->enc, "" };
	memcpy(ps->v[ps->n++].charset, ph->charset, sizeof(ph->charset));
	return 0;
}

/*
 * The parts of the body [s, e) of type ph, as git mailinfo reads them:
 * itself, or of a multipart each of its parts (depth: how many multiparts
 * are around it), the preamble and epilogue left out.  0 or -1 (memory).
 */
static int body_parts(const char *b, size_t len, size_t s, size_t e, const part_headers *ph,
		      int depth, parts *out)
{
	if (!ph->type || strncmp(ph->type, "multipart/", 10) || !ph->boundary || depth >= 4)
		return add_part(out, s, e, ph);
	for (size_t p = s; p < e;) {
		size_t ps, pe, q;
		part_headers sub = { 0 };
		header h;
		int rc;

		while (p < e && !is_boundary(b, p, eol(b, len, p), ph->boundary))
			p = next_line(b, len, p);
		if (p >= e)
			return 0;
		/* the closing boundary: no part after it */
		q = cr_trim(b, p, eol(b, len, p));
		if (q - p >= strlen(ph->boundary) + 4 && !memcmp(b + q - 2, "--", 2))
			return 0;
		p = next_line(b, len, p);
		while (p < e && !blank(b, p, eol(b, len, p))) {
			p = read_header(b, len, e, p, &h);
			if (mime_header(b, &h, &sub)) {
				part_headers_free(&sub);
				return -1;
			}
		}
		ps = p < e ? next_line(b, len, p) : e;
		for (pe = ps; pe < e && !is_boundary(b, pe, eol(b, len, pe), ph->boundary);)
			pe = next_line(b, len, pe);
		rc = body_parts(b, len, ps, pe, &sub, depth + 1, out);
		part_headers_free(&sub);
		if (rc)
			return rc;
		p = pe;
	}
	return 0;
}

/* The input line number at offset p, counting on from (*at, *line). */
static size_t line_at(const char *b, size_t p, size_t *at, size_t *line)
{
	for (const char *q; *at < p && (q = memchr(b + *at, '\n', p - *at));) {
		++*line;
		*at = (size_t)(q - b) + 1;
	}
	*at = p;
	return *line;
}

/*
 * The part's lines, decoded, into out: each with its input line (and its
 * input bytes when they are the input's own).  mboxrd's ">From " quoting
 * is undone first, one '>' a line.
 */
static void decode_body(const char *b, size_t len, const part *pt, size_t line0, size_t at0,
			builder *out)
{
	size_t at = at0, line = line0;
	char *bin = NULL, *qp = NULL;
	size_t nbin = 0, *seg_off = NULL, *seg_line = NULL, nseg = 0;
	unsigned acc = 0;
	int bits = 0, open = 0, decoded = 0;
	size_t qn = 0;

	if (pt->enc == ENC_BASE64) {
		bin = malloc(pt->e - pt->s + 1);
		seg_off = malloc((pt->e - pt->s + 1) * sizeof(*seg_off));
		seg_line = malloc((pt->e - pt->s + 1) * sizeof(*seg_line));
		if (!bin || !seg_off || !seg_line)
			goto nomem;
	} else if (pt->enc == ENC_QP && !(qp = malloc(pt->e - pt->s + 1))) {
		goto nomem;
	}
	for (size_t p = pt->s; p < pt->e; p = next_line(b, len, p)) {
		size_t e = eol(b, len, p), s = p, ln = line_at(b, p, &at, &line);

		if (e > pt->e)
			e = pt->e;
		e = cr_trim(b, s, e);
		/* ">From " and ">>From ": one '>' less (mboxrd) */
		{
			size_t q = s;

			while (q < e && b[q] == '>')
				q++;
			if (q > s && e - q >= 5 && !memcmp(b + q, "From ", 5))
				s++;
		}
		if (pt->enc == ENC_BASE64) {
			seg_off[nseg] = nbin;
			seg_line[nseg++] = ln;
			nbin += b64_decode(b + s, e - s, bin + nbin, &acc, &bits);
		} else if (pt->enc == ENC_QP) {
			size_t t = e;
			int soft;

			while (t > s && (b[t - 1] == ' ' || b[t - 1] == '\t'))
				t--;
			soft = t > s && b[t - 1] == '=';
			if (soft)
				t--;
			if (!open) {
				begin_line(out, s, ln);
				decoded = 0;
				qn = 0;
			}
			for (size_t q = s; q < t; q++) {
				if (b[q] == '=' && q + 2 < t && hexval(b[q + 1]) >= 0 &&
				    hexval(b[q + 2]) >= 0) {
					qp[qn++] = (char)(hexval(b[q + 1]) * 16 + hexval(b[q + 2]));
					q += 2;
					decoded = 1;
				} else {
					qp[qn++] = b[q];
				}
			}
			if (soft || decoded || open) {
				/* its bytes are not the input's as they stand */
				if (!out->nomem)
					out->l[out->nl - 1].raw = SIZE_MAX;
			}
			add_bytes(out, qp, qn);
			qn = 0;
			open = soft;
			if (!open)
				add_bytes(out, "\n", 1);
		} else {
			add_line(out, b + s, e - s, s, ln);
			if (!out->nomem)
				out->l[out->nl - 1].skip = s - p;
		}
	}
	if (open)
		add_bytes(out, "\n", 1);
	if (pt->enc == ENC_BASE64) {
		size_t k = 0;

		for (size_t d = 0; d < nbin;) {
			const char *nl = memchr(bin + d, '\n', nbin - d);
			size_t n = nl ? (size_t)(nl - (bin + d)) : nbin - d;

			while (k + 1 < nseg && seg_off[k + 1] <= d)
				k++;
			add_line(out, bin + d, n && bin[d + n - 1] == '\r' ? n - 1 : n, SIZE_MAX,
				 seg_line[k]);
			d += n + 1;
		}
	}
	free(bin);
	free(qp);
	free(seg_off);
	free(seg_line);
	return;
nomem:
	out->nomem = 1;
	free(bin);
	free(qp);
	free(seg_off);
	free(seg_line);
}

/*
 * The lines of b from line `from` on, in charset cs, converted to UTF-8:
 * a line with a byte past ASCII is no longer the input's bytes.  Nothing
 * changes when cs is UTF-8, none or unknown.  0, or -1 (memory).
 */
static int convert_lines(builder *b, size_t from, const char *cs)
{
	size_t base, oldn, nl = b->nl;
	char *old = NULL, *buf = NULL;
	mbox_line *ls = NULL;
	int eight = 0;
	iconv_t cd;

	if (b->nomem || from >= b->nl)
		return b->nomem ? -1 : 0;
	base = b->l[from].off;
	for (size_t q = base; q < b->n && !eight; q++)
		eight = (unsigned char)b->t[q] >= 0x80;
	if (!eight || (cd = charset_open(cs, strlen(cs))) == (iconv_t)-1)
		return 0;
	oldn = b->n - base;
	old = malloc(oldn);
	buf = malloc(4 * oldn + 4);
	ls = malloc((nl - from) * sizeof(*ls));
	if (!old || !buf || !ls) {
		b->nomem = 1;
		goto done;
	}
	memcpy(old, b->t + base, oldn);
	memcpy(ls, b->l + from, (nl - from) * sizeof(*ls));
	b->n = base;
	b->nl = from;
	for (size_t k = 0; k < nl - from; k++) {
		size_t s = ls[k].off - base, e = (k + 1 < nl - from ? ls[k + 1].off - base : oldn) - 1;
		int high = 0;

		for (size_t q = s; q < e && !high; q++)
			high = (unsigned char)old[q] >= 0x80;
		if (high) {
			begin_line(b, SIZE_MAX, ls[k].line);
			add_bytes(b, buf, to_utf8(cd, old + s, e - s, buf));
		} else {
			begin_line(b, ls[k].raw, ls[k].line);
			add_bytes(b, old + s, e - s);
		}
		add_bytes(b, "\n", 1);
		if (!b->nomem)
			b->l[b->nl - 1].skip = ls[k].skip;
	}
done:
	iconv_close(cd);
	free(old);
	free(buf);
	free(ls);
	return b->nomem ? -1 : 0;
}

/* git mailinfo's patchbreak(): the line where the patch starts. */
static int is_patch_break(const char *s, size_t n)
{
	if ((n >= 6 && !memcmp(s, "diff -", 6)) || (n >= 7 && !memcmp(s, "Index: ", 7)))
		return 1;
	if (n >= 3 && !memcmp(s, "---", 3)) {
		if (n > 4 && s[3] == ' ' && s[4] != ' ' && s[4] != '\t')
			return 1; /* "--- a/file" */
		for (size_t i = 3; i < n; i++)
			if (s[i] != ' ' && s[i] != '\t')
				return 0;
		return 1;
	}
	return 0;
}

static int is_inbody_header(const char *s, size_t n)
{
	return iprefix(s, 0, n, "from:") || iprefix(s, 0, n, "subject:") ||
	       iprefix(s, 0, n, "date:");
}

/* ---- one message ----------------------------------------------------------- */

/* The length of line i of b, its newline left out. */
static size_t body_line_len(const builder *b, size_t i)
{
	return (i + 1 < b->nl ? b->l[i + 1].off : b->n) - b->l[i].off - 1;
}

/* Line i of b goes on the header above it: it starts with a blank and is not blank. */
static int folded_line(const builder *b, size_t i)
{
	const char *s = b->t + b->l[i].off;
	size_t n = body_line_len(b, i);

	return n && (s[0] == ' ' || s[0] == '\t') && !blank(s, 0, n);
}

/* m's commit message from its headers and body; 0 or -1 (memory). */
static int read_message(const char *b, size_t len, mbox_msg *m, size_t line0)
{
	size_t p = m->start, at = m->start, line = line0, subj_line = line0, title_raw = SIZE_MAX;
	size_t title_skip = 0;
	char *inbody = NULL;
	part_headers ph = { 0 };
	builder body = { 0 }, text = { 0 };
	header h;
	parts pts = { 0 };
	const char *title;
	size_t tlen, i, first, last;
	int rc = -1;

	if (!memcmp(b + p, "From ", 5)) {
		size_t e = eol(b, len, p), q = p + 5, k = 0;

		while (q < e && k < ABBREV_MAX_HEXSZ && hexval(b[q]) >= 0 && lower(b[q]) == b[q])
			m->commit[k++] = b[q++];
		/* git format-patch: "From <full id> Mon Sep 17 00:00:00 2001" */
		if (!(k == 40 || k == 64) || q >= e || b[q] != ' ')
			k = 0;
		m->commit[k] = '\0';
		p = next_line(b, len, p);
	}
	while (p < m->end && !blank(b, p, eol(b, len, p))) {
		size_t hs = p;

		p = read_header(b, len, m->end, p, &h);
		if (mime_header(b, &h, &ph))
			goto done;
		if (!m->message_id && iprefix(b, h.s, h.e, "message-id:")) {
			char *v = header_value(b, &h, 11), *lt, *gt;

			if (!v)
				goto done;
			lt = strchr(v, '<');
			gt = lt ? strchr(lt, '>') : NULL;
			if (lt && gt) {
				*gt = '\0';
				memmove(v, lt + 1, strlen(lt + 1) + 1);
			}
			m->message_id = v;
		} else if (!m->subject && iprefix(b, h.s, h.e, "subject:")) {
			size_t q = cr_trim(b, h.s, h.first_end);

			if (!(m->subject = header_value(b, &h, 8)))
				goto done;
			subj_line = line_at(b, hs, &at, &line);
			/* one line, no encoded word: the title is the input's own bytes */
			if (h.e == h.first_end && !strstr(m->subject, "=?")) {
				const char *t = clean_subject(m->subject, &tlen);

				while (q > h.s && (b[q - 1] == ' ' || b[q - 1] == '\t'))
					q--;
				if (q - h.s >= tlen + 8 && !memcmp(b + q - tlen, t, tlen)) {
					title_raw = q - tlen;
					title_skip = title_raw - h.s;
				}
			}
			{
				char *d = decode_words(m->subject);

				if (!d)
					goto done;
				free(m->subject);
				m->subject = d;
			}
		}
	}
	p = next_line(b, len, p);
	if (p > m->end)
		p = m->end;
	if (body_parts(b, len, p, m->end, &ph, 0, &pts))
		goto done;
	for (i = 0; i < pts.n; i++) {
		size_t from = body.nl;

		decode_body(b, len, &pts.v[i], line_at(b, pts.v[i].s, &at, &line), pts.v[i].s, &body);
		if (convert_lines(&body, from, pts.v[i].charset))
			goto done;
	}
	if (body.nomem)
		goto done;
	title = clean_subject(m->subject ? m->subject : "", &tlen);
	/* in-body From:, Date:, Subject: (git format-patch, another's patch) */
	for (i = 0; i < body.nl && blank(body.t, body.l[i].off, (i + 1 < body.nl ? body.l[i + 1].off : body.n) - 1); i++)
		;
	first = i;
	if (i < body.nl && is_inbody_header(body.t + body.l[i].off, body.n - body.l[i].off)) {
		for (; i < body.nl; i++) {
			const char *s = body.t + body.l[i].off;
			size_t n = (i + 1 < body.nl ? body.l[i + 1].off : body.n) - body.l[i].off - 1;

			if (blank(s, 0, n))
				break;
			if (iprefix(s, 0, n, "subject:")) {
				size_t j, vn = n - 8;
				char *v;

				/* folded over lines: each next line joined as it is, as git mailinfo does */
				for (j = i + 1; j < body.nl && folded_line(&body, j); j++)
					vn += body_line_len(&body, j);
				/* the commit's subject; the mail keeps its own Subject: as its name */
				if (!(v = malloc(vn + 1)))
					goto done;
				memcpy(v, s + 8, n - 8);
				vn = n - 8;
				for (size_t k = i + 1; k < j; k++) {
					memcpy(v + vn, body.t + body.l[k].off, body_line_len(&body, k));
					vn += body_line_len(&body, k);
				}
				v[vn] = '\0';
				free(inbody);
				inbody = decode_words(v);
				free(v);
				if (!(v = inbody))
					goto done;
				title = clean_subject(v, &tlen);
				subj_line = body.l[i].line;
				/* the input's own bytes when the line was, and nothing was decoded or joined */
				title_raw = SIZE_MAX;
				if (body.l[i].raw != SIZE_MAX && j == i + 1 &&
				    (size_t)(title - v) + tlen <= n - 8 &&
				    !memcmp(s + 8 + (title - v), title, tlen)) {
					title_raw = body.l[i].raw + 8 + (size_t)(title - v);
					title_skip = body.l[i].skip + 8 + (size_t)(title - v);
				}
				i = j - 1;
			}
		}
		first = i;
	}
	if (!(m->title = strndup(title, tlen)))
		goto done;
	/* the body: from its first line of text to the patch, blank lines at the end left out */
	while (first < body.nl &&
	       blank(body.t, body.l[first].off, (first + 1 < body.nl ? body.l[first + 1].off : body.n) - 1))
		first++;
	for (last = first; last < body.nl; last++) {
		size_t n = (last + 1 < body.nl ? body.l[last + 1].off : body.n) - body.l[last].off - 1;

		if (is_patch_break(body.t + body.l[last].off, n))
			break;
	}
	while (last > first &&
	       blank(body.t, body.l[last - 1].off, (last < body.nl ? body.l[last].off : body.n) - 1))
		last--;
	if (tlen) {
		add_line(&text, m->title, tlen, title_raw, subj_line);
		if (!text.nomem)
			text.l[0].skip = title_skip;
		if (last > first)
			add_line(&text, "", 0, SIZE_MAX, subj_line);
	}
	for (i = first; i < last; i++) {
		size_t n = (i + 1 < body.nl ? body.l[i + 1].off : body.n) - body.l[i].off - 1;

		add_line(&text, body.t + body.l[i].off, n, body.l[i].raw, body.l[i].line);
		if (!text.nomem)
			text.l[text.nl - 1].skip = body.l[i].skip;
	}
	if (text.nomem)
		goto done;
	if (!text.t && !(text.t = calloc(1, 1)))
		goto done;
	m->text = text.t;
	m->len = text.n;
	m->lines = text.l;
	m->nlines = text.nl;
	memset(&text, 0, sizeof(text));
	rc = 0;
done:
	free(inbody);
	free(pts.v);
	part_headers_free(&ph);
	builder_free(&body);
	builder_free(&text);
	return rc;
}

/* One message, the first lines all headers, with Subject: and From:, Date: or Message-ID:. */
static int is_one_message(const char *b, size_t len)
{
	int subject = 0, other = 0;

	for (size_t p = 0; p < len; p = next_line(b, len, p)) {
		size_t e = eol(b, len, p);

		if (blank(b, p, e) && p)
			break;
		if (b[p] == ' ' || b[p] == '\t') {
			if (!p)
				return 0;
			continue;
		}
		if (!is_header(b, p, e))
			return 0;
		subject |= iprefix(b, p, e, "subject:");
		other |= iprefix(b, p, e, "from:") || iprefix(b, p, e, "date:") ||
			 iprefix(b, p, e, "message-id:");
	}
	return subject && other;
}

int mbox_split(const char *buf, size_t len, mbox_list *out)
{
	size_t cap = 0, line = 1, at = 0;
	int mbox = len && is_from_line(buf, len, 0);

	memset(out, 0, sizeof(*out));
	if (!mbox && !is_one_message(buf, len))
		return 0;
	for (size_t p = 0; p < len;) {
		mbox_msg *m;
		size_t q = p;

		if (GROW(out->v, cap, out->n + 1, 8))
			goto nomem;
		m = &out->v[out->n++];
		memset(m, 0, sizeof(*m));
		m->start = p;
		/* the next separator */
		do
			q = next_line(buf, len, q);
		while (q < len && !(mbox && is_from_line(buf, len, q)));
		m->end = q;
		if (read_message(buf, len, m, line_at(buf, p, &at, &line)))
			goto nomem;
		p = q;
	}
	return 1;
nomem:
	mbox_free(out);
	return -1;
}

void mbox_free(mbox_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].message_id);
		free(l->v[i].subject);
		free(l->v[i].title);
		free(l->v[i].text);
		free(l->v[i].lines);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* ---- mapping back to the input ----------------------------------------------- */

/* The index of the line that holds text offset off (m->nlines when none). */
static size_t line_of(const mbox_msg *m, size_t off)
{
	size_t lo = 0, hi = m->nlines;

	if (!m->nlines || off >= m->len)
		return m->nlines;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->lines[mid].off <= off)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

size_t mbox_input_line(const mbox_msg *m, size_t line)
{
	if (!m->nlines)
		return 1;
	return m->lines[line && line <= m->nlines ? line - 1 : m->nlines - 1].line;
}

size_t mbox_input_offset(const mbox_msg *m, size_t off)
{
	size_t i = line_of(m, off);

	if (i == m->nlines || m->lines[i].raw == SIZE_MAX)
		return SIZE_MAX;
	return m->lines[i].raw + (off - m->lines[i].off);
}

size_t mbox_input_column(const mbox_msg *m, size_t off)
{
	size_t i = line_of(m, off);

	if (i == m->nlines)
		return 1;
	return off - m->lines[i].off + (m->lines[i].raw == SIZE_MAX ? 0 : m->lines[i].skip) + 1;
}

int mbox_input_span(const mbox_msg *m, size_t s, size_t e, size_t *is, size_t *ie)
{
	size_t i = line_of(m, s), j = e > s ? line_of(m, e - 1) : i;

	if (i == m->nlines || j == m->nlines)
		return 0;
	for (size_t k = i; k <= j; k++)
		if (m->lines[k].raw == SIZE_MAX ||
		    m->lines[k].raw - m->lines[i].raw != m->lines[k].off - m->lines[i].off)
			return 0;
	*is = m->lines[i].raw + (s - m->lines[i].off);
	*ie = m->lines[i].raw + (e - m->lines[i].off);
	return 1;
}

/* ---- a series citing itself -------------------------------------------------- */

/* Two subjects alike once runs of blanks are one space. */
static int same_subject(const char *a, size_t an, const char *b)
{
	size_t i = 0, j = 0, bn = strlen(b);

	while (i < an && j < bn) {
		if ((a[i] == ' ' || a[i] == '\t') && (b[j] == ' ' || b[j] == '\t')) {
			while (i < an && (a[i] == ' ' || a[i] == '\t'))
				i++;
			while (j < bn && (b[j] == ' ' || b[j] == '\t'))
				j++;
			continue;
		}
		if (a[i++] != b[j++])
			return 0;
	}
	return i == an && j == bn;
}

/* The earlier message of the series that ref names, or NULL. */
static const mbox_msg *series_patch(const mbox_list *l, size_t k, const citation *ref)
{
	size_t idn = strlen(ref->id);

	for (size_t i = 0; i < k; i++) {
		const mbox_msg *m = &l->v[i];
		int by_id = m->commit[0] && idn >= 4 && idn <= strlen(m->commit) &&
			    !strncmp(m->commit, ref->id, idn);
		int by_subject = m->title[0] && ref->subject &&
				 same_subject(ref->subject, ref->subject_len, m->title);

		/* its title, or the ID of the sender's tree with no subject to say otherwise */
		if (by_subject || (by_id && !ref->subject))
			return m;
	}
	return NULL;
}

int mbox_series_notes(const mbox_list *l, size_t k, const cite_list *refs, cite_results *res)
{
	for (size_t i = 0; i < res->n; i++) {
		cite_result *x = &res->v[i];
		const citation *ref = &refs->v[x->ref];
		const mbox_msg *m;
		int nowhere = 0, n;
		char *msg;
		const char *mid;

		for (size_t f = 0; f < x->nf; f++)
			nowhere |= x->f[f].problem == CITE_P_UNKNOWN ||
				   x->f[f].problem == CITE_P_NOT_HERE;
		if (!nowhere || !(m = series_patch(l, k, ref)))
			continue;
		mid = m->message_id;
		n = snprintf(NULL, 0, "%s is patch \"%s\" earlier in this series%s%s%s", ref->id,
			     m->subject ? m->subject : m->title, mid ? " (" : "", mid ? mid : "",
			     mid ? ")" : "");
		if (n < 0 || !(msg = malloc((size_t)n + 1)))
			return -1;
		snprintf(msg, (size_t)n + 1, "%s is patch \"%s\" earlier in this series%s%s%s", ref->id,
			 m->subject ? m->subject : m->title, mid ? " (" : "", mid ? mid : "",
			 mid ? ")" : "");
		/* the "names nothing" findings become the note; the rest (style) stay */
		size_t kept = 0;

		x->severity = CITE_NOTE;
		for (size_t f = 0; f < x->nf; f++) {
			int p = x->f[f].problem, sev = cite_problem_severity(p);

			if (p != CITE_P_UNKNOWN && p != CITE_P_NOT_HERE) {
				x->f[kept++] = x->f[f];
				if (sev > x->severity)
					x->severity = sev;
				continue;
			}
			if (sev == CITE_ERROR)
				res->errors--;
			else if (sev == CITE_WARNING)
				res->warnings--;
			else
				res->notes--;
			free(x->f[f].message);
			if (msg) {
				x->f[kept++] = (cite_finding){ CITE_P_IN_SERIES, msg };
				res->notes++;
				msg = NULL;
			}
		}
		x->nf = kept;
		/* no commit here is the one meant: nothing to suggest or choose from */
		x->suggest = 0;
		x->ncands = 0;
	}
	return 0;
}
