/*
 * check_mbox.c - mbox_split() on hand-made mails: git format-patch's
 * "From <id>" separators, mboxrd's ">From " quoting, Message-ID:, a
 * Subject: folded over lines and its RFC 2047 words, an in-body Subject:
 * (folded too, as git mailinfo unfolds it), quoted-printable and base64
 * bodies, a last message cut short, CRLF line ends, bodies and subjects in
 * ISO-8859-1 and windows-1252 (read as UTF-8); and the way back from
 * each commit message's lines to the input's lines and bytes.  The
 * expected lines and offsets are found in the input by the test itself
 * (strstr, counting newlines), never taken from mbox.c.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "mbox.h"

#define ID1 "0123456789abcdef0123456789abcdef01234567"
#define ID2 "89abcdef0123456789abcdef0123456789abcdef"

static mbox_list L;

static void setup(void)
{
	memset(&L, 0, sizeof(L));
}

static void teardown(void)
{
	mbox_free(&L);
}

static int split(const char *s)
{
	mbox_free(&L);
	return mbox_split(s, strlen(s), &L);
}

/* The 1-based line of the input where `needle` starts (it must be there once). */
static size_t line_of(const char *in, const char *needle)
{
	const char *at = strstr(in, needle);
	size_t n = 1;

	ck_assert_msg(at != NULL, "'%s' is not in the input", needle);
	ck_assert_msg(strstr(at + 1, needle) == NULL, "'%s' is in the input twice", needle);
	for (const char *p = in; p < at; p++)
		n += *p == '\n';
	return n;
}

/* The 1-based line of m's text where `needle` starts. */
static size_t text_line(const mbox_msg *m, const char *needle)
{
	const char *at = strstr(m->text, needle);
	size_t n = 1;

	ck_assert_msg(at != NULL, "'%s' is not in the message:\n%s", needle, m->text);
	for (const char *p = m->text; p < at; p++)
		n += *p == '\n';
	return n;
}

static const char series[] =
	"From " ID1 " Mon Sep 17 00:00:00 2001\n"
	"From: A U Thor <author@example.com>\n"
	"Date: Thu, 7 Apr 2005 15:13:13 -0700\n"
	"Subject: [PATCH v2 1/2] core: a subject\n"
	" folded over two lines\n"
	"Message-ID: <20050407.1.thor@example.com>\n"
	"\n"
	"The first paragraph.\n"
	">From the quoted line: one '>' goes.\n"
	">>From twice quoted: one stays.\n"
	"\n"
	"Fixes: 1234567890ab (\"an old one\")\n"
	"---\n"
	" a.c | 1 +\n"
	"\n"
	"diff --git a/a.c b/a.c\n"
	"--\n"
	"2.45.0\n"
	"\n"
	"From " ID2 " Mon Sep 17 00:00:00 2001\n"
	"From: A U Thor <author@example.com>\n"
	"Message-Id:\n"
	"  <20050407.2.thor@example.com>\n"
	"Subject: [PATCH v2 2/2] =?UTF-8?q?caf=C3=A9:?= =?UTF-8?q?_na=C3=AFve?=\n"
	"\n"
	"Cites patch 1: commit 0123456789ab (\"core: a subject folded over two lines\").\n"
	"---\n";

START_TEST(test_series)
{
	const mbox_msg *m;

	ck_assert_int_eq(split(series), 1);
	ck_assert_uint_eq(L.n, 2);
	m = &L.v[0];
	ck_assert_str_eq(m->commit, ID1);
	ck_assert_str_eq(m->message_id, "20050407.1.thor@example.com");
	ck_assert_str_eq(m->subject, "[PATCH v2 1/2] core: a subject folded over two lines");
	ck_assert_str_eq(m->title, "core: a subject folded over two lines");
	ck_assert_str_eq(m->text, "core: a subject folded over two lines\n"
				  "\n"
				  "The first paragraph.\n"
				  "From the quoted line: one '>' goes.\n"
				  ">From twice quoted: one stays.\n"
				  "\n"
				  "Fixes: 1234567890ab (\"an old one\")\n");
	ck_assert_uint_eq(m->start, 0);
	ck_assert_uint_eq(m->end, (size_t)(strstr(series, "From " ID2) - series));
	/* each line back to the input's */
	ck_assert_uint_eq(mbox_input_line(m, 1), line_of(series, "Subject: [PATCH v2 1/2]"));
	ck_assert_uint_eq(mbox_input_line(m, text_line(m, "The first")), line_of(series, "The first"));
	ck_assert_uint_eq(mbox_input_line(m, text_line(m, "Fixes:")), line_of(series, "Fixes: 1234"));
	ck_assert_uint_eq(mbox_input_line(m, text_line(m, "From the quoted")),
			  line_of(series, ">From the quoted"));
	/* bytes: the ID of the Fixes: line is the input's; past the '>' of a quoted line */
	{
		size_t off = (size_t)(strstr(m->text, "1234567890ab") - m->text), is, ie;

		ck_assert_uint_eq(mbox_input_offset(m, off),
				  (size_t)(strstr(series, "1234567890ab") - series));
		ck_assert_int_eq(mbox_input_span(m, off, off + 12, &is, &ie), 1);
		ck_assert_int_eq(memcmp(series + is, "1234567890ab", 12), 0);
		ck_assert_uint_eq(ie - is, 12);
		off = (size_t)(strstr(m->text, "the quoted") - m->text);
		ck_assert_int_eq(memcmp(series + mbox_input_offset(m, off), "the quoted", 10), 0);
		/* "From the quoted": the 'F' is column 2 of ">From the quoted" */
		ck_assert_uint_eq(mbox_input_column(m, off - 5), 2);
	}
	/* the folded subject is not the input's bytes in one piece */
	ck_assert_uint_eq(mbox_input_offset(m, 0), SIZE_MAX);

	m = &L.v[1];
	ck_assert_str_eq(m->commit, ID2);
	ck_assert_str_eq(m->message_id, "20050407.2.thor@example.com");
	ck_assert_str_eq(m->title, "caf\xc3\xa9: na\xc3\xafve");
	ck_assert_str_eq(m->text, "caf\xc3\xa9: na\xc3\xafve\n\nCites patch 1: commit 0123456789ab "
				  "(\"core: a subject folded over two lines\").\n");
	ck_assert_uint_eq(mbox_input_line(m, 3), line_of(series, "Cites patch 1"));
}
END_TEST

/* an in-body From:/Subject: (a patch sent for another author), its Subject: folded */
static const char inbody[] =
	"From " ID1 " Mon Sep 17 00:00:00 2001\n"
	"From: Sender <sender@example.com>\n"
	"Subject: [PATCH] the mail's own subject\n"
	"\n"
	"From: Other Author <other@example.com>\n"
	"Subject: [PATCH] the commit's subject,\n"
	" folded in the body\n"
	"Date: Fri, 8 Apr 2005 10:00:00 +0000\n"
	"\n"
	"The body.\n";

START_TEST(test_inbody)
{
	const mbox_msg *m;

	ck_assert_int_eq(split(inbody), 1);
	ck_assert_uint_eq(L.n, 1);
	m = &L.v[0];
	ck_assert_str_eq(m->subject, "[PATCH] the mail's own subject");
	ck_assert_str_eq(m->title, "the commit's subject, folded in the body");
	ck_assert_str_eq(m->text, "the commit's subject, folded in the body\n\nThe body.\n");
	ck_assert_uint_eq(mbox_input_line(m, 1), line_of(inbody, "Subject: [PATCH] the commit's"));
	ck_assert_uint_eq(mbox_input_line(m, 3), line_of(inbody, "The body."));
}
END_TEST

/* one message (a Maildir file): quoted-printable, then a multipart with base64 */
static const char qp[] =
	"Subject: qp: decoded\n"
	"Message-ID: <qp@example.com>\n"
	"Content-Type: text/plain; charset=utf-8\n"
	"Content-Transfer-Encoding: quoted-printable\n"
	"\n"
	"caf=C3=A9 and a soft=\n"
	" break, =3D kept\n"
	"Fixes: 1234567890ab (\"plain\")\n";

START_TEST(test_quoted_printable)
{
	const mbox_msg *m;
	size_t off, fx;

	ck_assert_int_eq(split(qp), 1);
	ck_assert_uint_eq(L.n, 1);
	m = &L.v[0];
	ck_assert_str_eq(m->commit, "");
	ck_assert_str_eq(m->message_id, "qp@example.com");
	ck_assert_str_eq(m->text, "qp: decoded\n\ncaf\xc3\xa9 and a soft break, = kept\n"
				  "Fixes: 1234567890ab (\"plain\")\n");
	off = (size_t)(strstr(m->text, "caf") - m->text);
	ck_assert_uint_eq(mbox_input_offset(m, off), SIZE_MAX); /* decoded */
	ck_assert_uint_eq(mbox_input_line(m, 3), line_of(qp, "caf=C3"));
	fx = (size_t)(strstr(m->text, "1234567890ab") - m->text);
	ck_assert_uint_eq(mbox_input_offset(m, fx), (size_t)(strstr(qp, "1234567890ab") - qp));
	ck_assert_uint_eq(mbox_input_line(m, 4), line_of(qp, "Fixes: 1234"));
}
END_TEST

/*
 * "Fixes: 1234567890ab (\"in base 64\")\r\nsecond line\n" in base64, a line
 * of the input each, in the second part of a multipart.
 */
static const char b64[] =
	"From nobody Mon Sep 17 00:00:00 2001\n"
	"Subject: [PATCH] b64: decoded\n"
	"Message-ID: <b64@example.com>\n"
	"MIME-Version: 1.0\n"
	"Content-Type: multipart/mixed; boundary=\"XyZ\"\n"
	"\n"
	"the preamble, not read\n"
	"--XyZ\n"
	"Content-Type: text/plain\n"
	"\n"
	"The first part.\n"
	"--XyZ\n"
	"Content-Type: text/plain\n"
	"Content-Transfer-Encoding: base64\n"
	"\n"
	"Rml4ZXM6IDEyMzQ1Njc4OTBhYiAoImluIGJhc2UgNjQiKQ0K\n"
	"c2Vjb25kIGxpbmUK\n"
	"--XyZ--\n"
	"the epilogue, not read\n";

START_TEST(test_base64)
{
	const mbox_msg *m;

	ck_assert_int_eq(split(b64), 1);
	ck_assert_uint_eq(L.n, 1);
	m = &L.v[0];
	ck_assert_str_eq(m->commit, "");
	ck_assert_str_eq(m->text, "b64: decoded\n\nThe first part.\n"
				  "Fixes: 1234567890ab (\"in base 64\")\nsecond line\n");
	ck_assert_uint_eq(mbox_input_line(m, text_line(m, "The first")), line_of(b64, "The first"));
	ck_assert_uint_eq(mbox_input_line(m, text_line(m, "Fixes:")), line_of(b64, "Rml4"));
	ck_assert_uint_eq(mbox_input_line(m, text_line(m, "second")), line_of(b64, "c2Vj"));
	ck_assert_uint_eq(mbox_input_offset(m, (size_t)(strstr(m->text, "1234") - m->text)), SIZE_MAX);
}
END_TEST

/* the last message cut short: in its headers, in a base64 body, in a header name */
START_TEST(test_truncated)
{
	static const char *const cut[] = {
		"From " ID1 " Mon Sep 17 00:00:00 2001\nSubject: [PATCH 1/2] whole\n\nbody\n\n"
		"From " ID2 " Mon Sep 17 00:00:00 2001\nSubject: [PATCH 2/2] cut",
		"From " ID1 " Mon Sep 17 00:00:00 2001\nSubject: [PATCH 1/2] whole\n\nbody\n\n"
		"From " ID2 " Mon Sep 17 00:00:00 2001\nSubject: [PATCH 2/2] cut\n"
		"Content-Transfer-Encoding: base64\n\nRml4ZXM6IDEyMz",
		"From " ID1 " Mon Sep 17 00:00:00 2001\nSubject: [PATCH 1/2] whole\n\nbody\n\n"
		"From " ID2 " Mon Sep 17 00:00:00 2001\nSubject: [PATCH 2/2] cut\n"
		"Content-Transfer-Encoding: quoted-printable\n\nend =C",
		"From " ID1 " Mon Sep 17 00:00:00 2001\nSubject: [PATCH 1/2] whole\n\nbody\n\n"
		"From " ID2 " Mon Sep 17 00:00:00 2001\nSubject: [PATCH 2/2] cut\nMessage-I",
	};
	static const char *const want[] = {
		"cut\n", "cut\n\nFixes: 123\n", "cut\n\nend =C\n", "cut\n",
	};

	for (size_t i = 0; i < sizeof(cut) / sizeof(cut[0]); i++) {
		ck_assert_int_eq(split(cut[i]), 1);
		ck_assert_uint_eq(L.n, 2);
		ck_assert_str_eq(L.v[0].text, "whole\n\nbody\n");
		ck_assert_str_eq(L.v[1].commit, ID2);
		ck_assert_str_eq(L.v[1].title, "cut");
		ck_assert_str_eq(L.v[1].text, want[i]);
		ck_assert_uint_eq(L.v[1].end, strlen(cut[i]));
		ck_assert_ptr_null(L.v[1].message_id);
		/* every text line maps into the input or is decoded */
		for (size_t k = 0; k < L.v[1].nlines; k++)
			ck_assert(L.v[1].lines[k].raw == SIZE_MAX || L.v[1].lines[k].raw <= strlen(cut[i]));
	}
	/* a lone "From " line at the end is no message: it stays in the body */
	ck_assert_int_eq(split("From " ID1 " Mon Sep 17 00:00:00 2001\nSubject: one\n\nbody\n\n"
			       "From " ID2 " Mon Sep 17 00:00:00 2001\n"), 1);
	ck_assert_uint_eq(L.n, 1);
}
END_TEST

/* The same mbox with CRLF line ends: the same messages, no '\r' in them. */
START_TEST(test_crlf)
{
	char *crlf = malloc(2 * sizeof(series));
	size_t n = 0;
	mbox_list lf;

	ck_assert_ptr_nonnull(crlf);
	for (const char *p = series; *p; p++) {
		if (*p == '\n')
			crlf[n++] = '\r';
		crlf[n++] = *p;
	}
	crlf[n] = '\0';
	ck_assert_int_eq(mbox_split(series, strlen(series), &lf), 1);
	ck_assert_int_eq(split(crlf), 1);
	ck_assert_uint_eq(L.n, lf.n);
	for (size_t i = 0; i < L.n; i++) {
		const mbox_msg *a = &L.v[i], *b = &lf.v[i];

		ck_assert_str_eq(a->text, b->text);
		ck_assert_str_eq(a->title, b->title);
		ck_assert_str_eq(a->subject, b->subject);
		ck_assert_str_eq(a->message_id, b->message_id);
		ck_assert_str_eq(a->commit, b->commit);
		ck_assert_uint_eq(a->nlines, b->nlines);
		for (size_t k = 1; k <= a->nlines; k++)
			ck_assert_uint_eq(mbox_input_line(a, k), mbox_input_line(b, k));
		ck_assert_ptr_null(strchr(a->text, '\r'));
	}
	/* the Fixes: ID in bytes of the CRLF input */
	{
		const mbox_msg *m = &L.v[0];
		size_t off = (size_t)(strstr(m->text, "1234567890ab") - m->text);

		ck_assert_uint_eq(mbox_input_offset(m, off),
				  (size_t)(strstr(crlf, "1234567890ab") - crlf));
	}
	mbox_free(&lf);
	free(crlf);
}
END_TEST

/*
 * Mail in other charsets than UTF-8: a body in ISO-8859-1, a Subject: of
 * windows-1252 encoded words, a multipart whose parts differ; the text is
 * UTF-8, a line converted is no longer the input's bytes, an ASCII line is.
 */
static const char latin1[] =
	"Subject: =?windows-1252?q?=93quoted=94?= =?ISO-8859-1?B?Y2Fm6Q==?=\n"
	"Message-ID: <latin1@example.com>\n"
	"Content-Type: text/plain; charset=iso-8859-1; format=flowed\n"
	"\n"
	"Fixes: 1234567890ab (\"caf\xe9: na\xefve\")\n"
	"Fixes: 234567890abc (\"plain\")\n";

static const char mixed[] =
	"Subject: [PATCH] mixed\n"
	"From: a@example.com\n"
	"Content-Type: multipart/mixed; boundary=b1\n"
	"\n"
	"--b1\n"
	"Content-Type: text/plain; charset=\"Windows-1252\"\n"
	"Content-Transfer-Encoding: quoted-printable\n"
	"\n"
	"=93one=94 \x80\n"
	"--b1\n"
	"Content-Type: text/plain; charset=utf-8\n"
	"\n"
	"two \xc3\xa9\n"
	"--b1\n"
	"Content-Type: text/plain; charset=x-no-such-charset\n"
	"\n"
	"three \xe9\n"
	"--b1--\n";

START_TEST(test_charsets)
{
	const mbox_msg *m;
	size_t off;

	ck_assert_int_eq(split(latin1), 1);
	ck_assert_uint_eq(L.n, 1);
	m = &L.v[0];
	ck_assert_str_eq(m->title, "\xe2\x80\x9c" "quoted" "\xe2\x80\x9d" "caf\xc3\xa9");
	ck_assert_str_eq(m->text, "\xe2\x80\x9c" "quoted" "\xe2\x80\x9d" "caf\xc3\xa9\n\n"
				  "Fixes: 1234567890ab (\"caf\xc3\xa9: na\xc3\xafve\")\n"
				  "Fixes: 234567890abc (\"plain\")\n");
	ck_assert_uint_eq(mbox_input_line(m, 3), line_of(latin1, "Fixes: 1234"));
	off = (size_t)(strstr(m->text, "1234567890ab") - m->text);
	ck_assert_uint_eq(mbox_input_offset(m, off), SIZE_MAX);
	off = (size_t)(strstr(m->text, "234567890abc") - m->text);
	ck_assert_uint_eq(mbox_input_offset(m, off), (size_t)(strstr(latin1, "234567890abc") - latin1));

	/* each part in its own charset; one iconv does not know is kept as sent */
	ck_assert_int_eq(split(mixed), 1);
	ck_assert_uint_eq(L.n, 1);
	ck_assert_str_eq(L.v[0].text, "mixed\n\n"
				      "\xe2\x80\x9c" "one" "\xe2\x80\x9d" " \xe2\x82\xac\n"
				      "two \xc3\xa9\n"
				      "three \xe9\n");
}
END_TEST

/* Not mail: a commit message, a patch without headers, nothing. */
START_TEST(test_not_mail)
{
	ck_assert_int_eq(split("core: a subject\n\nFixes: 1234567890ab (\"x\")\n"), 0);
	ck_assert_uint_eq(L.n, 0);
	ck_assert_int_eq(split("diff --git a/a b/a\n--- a/a\n+++ b/a\n"), 0);
	ck_assert_int_eq(split(""), 0);
	/* "From " with no time and no header under it */
	ck_assert_int_eq(split("From me to you\nhello\n"), 0);
	/* a header block without Subject: */
	ck_assert_int_eq(split("From: a@example.com\nDate: today\n\nbody\n"), 0);
}
END_TEST

Suite *make_mbox_suite(void)
{
	Suite *s = suite_create("mbox");
	TCase *tc = tcase_create("split");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_series);
	tcase_add_test(tc, test_inbody);
	tcase_add_test(tc, test_quoted_printable);
	tcase_add_test(tc, test_base64);
	tcase_add_test(tc, test_truncated);
	tcase_add_test(tc, test_crlf);
	tcase_add_test(tc, test_charsets);
	tcase_add_test(tc, test_not_mail);
	suite_add_tcase(s, tc);
	return s;
}
