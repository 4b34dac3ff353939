/*
 * fuzz_cite.c - libFuzzer target for the reference parser of verify, and
 * for the mail reader before it.
 *
 * Any bytes are a patch, a mail or a commit message to cite_parse(); it
 * must neither crash nor report a reference outside the input, and every
 * ID it reports must be lower-case hex of the length it says.  When the
 * bytes are mail, mbox_split() cuts them into messages: they must cover
 * the input in order, each commit message's lines said to be the input's
 * own bytes must be those bytes, and each reference in a message must map
 * back to the input's lines, and to its bytes when mbox_input_span() says so.
 * Every parse is kept as a digest (what verify --range keeps in the notes,
 * cite_digest.h) and read back: the same parse, field by field, and the
 * input's bytes on each reference's lines; the digest cut short is refused.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cite_digest.h"
#include "mbox.h"
#include "cite_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_refs(const cite_list *l, size_t size)
{
	for (size_t i = 0; i < l->n; i++) {
		const citation *r = &l->v[i];
		size_t idl = strlen(r->id);

		if (r->start > r->end || r->end > size || r->id_start + r->id_len > size ||
		    r->line < 1 || idl > CITE_ID_MAX || idl > r->id_len)
			abort();
		for (size_t k = 0; k < idl; k++)
			if (!strchr("0123456789abcdef", r->id[k]))
				abort();
		if (r->subject && r->subject[r->subject_len] != '\0')
			abort();
	}
}

static int same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* A warm verify --range judges the digest's parse and bytes, not the message's: they must agree. */
static void check_digest(const cite_list *l, const char *in, size_t size)
{
	unsigned char *d;
	size_t dlen, blen;
	cite_list got;
	char *buf;

	if (cite_digest_pack(l, in, size, &d, &dlen) || cite_digest_unpack(d, dlen, &got, &buf, &blen))
		abort();
	if (blen != size || buf[blen] != '\0' || !same_str(got.title, l->title) ||
	    got.nimports != l->nimports || got.imports_len != l->imports_len ||
	    (l->imports_len && memcmp(got.imports, l->imports, l->imports_len)) || got.n != l->n)
		abort();
	for (size_t i = 0; i < l->n; i++) {
		const citation *a = &l->v[i], *b = &got.v[i];
		size_t ls = a->start < a->id_start ? a->start : a->id_start, le = a->end;

		if (b->kind != a->kind || b->style != a->style || b->flags != a->flags ||
		    b->line != a->line || b->start != a->start || b->end != a->end ||
		    b->id_start != a->id_start || b->id_len != a->id_len || strcmp(b->id, a->id) ||
		    b->subj_start != a->subj_start || b->subj_end != a->subj_end ||
		    b->subject_len != a->subject_len || !same_str(b->subject, a->subject) ||
		    (a->subject && memcmp(b->subject, a->subject, a->subject_len)) ||
		    b->match_len != a->match_len || b->date_start != a->date_start ||
		    b->date_len != a->date_len || b->foreign != a->foreign ||
		    !same_str(b->project, a->project))
			abort();
		/* the reference's lines whole: what the resolver and the emitters read */
		if (a->id_start + a->id_len > le)
			le = a->id_start + a->id_len;
		while (ls && in[ls - 1] != '\n')
			ls--;
		while (le < size && in[le] != '\n')
			le++;
		if (memcmp(buf + ls, in + ls, le - ls))
			abort();
	}
	cite_list_free(&got);
	free(buf);
	/* cut short (the last byte, or half): no digest */
	if (cite_digest_unpack(d, dlen - 1, &got, &buf, &blen) != 1 ||
	    cite_digest_unpack(d, dlen / 2, &got, &buf, &blen) != 1)
		abort();
	free(d);
}

static void check_mail(const char *in, size_t size)
{
	mbox_list ml;
	size_t lines = 1, prev = 0;

	if (mbox_split(in, size, &ml) != 1)
		return;
	for (size_t i = 0; i < size; i++)
		lines += in[i] == '\n';
	for (size_t k = 0; k < ml.n; k++) {
		const mbox_msg *m = &ml.v[k];
		cite_list l = { 0 };

		/* the messages cover the input, in order */
		if (m->start != prev || m->end < m->start || m->end > size || !m->title || !m->text ||
		    m->text[m->len] != '\0')
			abort();
		prev = m->end;
		for (size_t j = 0; j < m->nlines; j++) {
			const mbox_line *ln = &m->lines[j];
			size_t end = j + 1 < m->nlines ? m->lines[j + 1].off : m->len, n;

			if (ln->off >= end || end > m->len || m->text[end - 1] != '\n' || ln->line < 1 ||
			    ln->line > lines)
				abort();
			n = end - ln->off - 1;
			/* a line said to be the input's bytes is them */
			if (ln->raw != SIZE_MAX &&
			    (ln->raw > size || n > size - ln->raw || memcmp(in + ln->raw, m->text + ln->off, n)))
				abort();
		}
		if (cite_parse(&l, m->text, m->len, CITE_PARSE_MESSAGE) < 0)
			continue;
		check_refs(&l, m->len);
		check_digest(&l, m->text, m->len);
		for (size_t i = 0; i < l.n; i++) {
			const citation *r = &l.v[i];
			size_t is, ie, il = mbox_input_line(m, r->line), off;

			if (il < 1 || il > lines || mbox_input_column(m, r->id_start) < 1)
				abort();
			off = mbox_input_offset(m, r->id_start);
			if (off != SIZE_MAX && (off >= size || in[off] != m->text[r->id_start]))
				abort();
			if (mbox_input_span(m, r->start, r->end, &is, &ie) &&
			    (is > ie || ie > size || ie - is != r->end - r->start ||
			     memcmp(in + is, m->text + r->start, ie - is)))
				abort();
		}
		cite_list_free(&l);
	}
	if (ml.n && prev != size)
		abort();
	mbox_free(&ml);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	cite_list l = { 0 };
	unsigned opts = size && (data[0] & 1) ? CITE_PARSE_MESSAGE : 0;

	check_mail((const char *)data, size);
	if (cite_parse(&l, (const char *)data, size, opts) < 0)
		return 0;
	check_refs(&l, size);
	check_digest(&l, (const char *)data, size);
	cite_list_free(&l);
	return 0;
}
