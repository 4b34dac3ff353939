/*
 * check_cite.c - cite_parse on hand-written texts: every form of
 * reference the verify command knows, with exact line numbers, IDs,
 * subjects and style flags; the parts of patches and mailboxes that are
 * not prose; garbage input (NULs, invalid UTF-8, huge lines, random
 * bytes from a fixed seed); the rewritten form --fix prints; and the
 * option parsing of `verify`.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "cli.h"
#include "emit.h"
#include "idset.h"
#include "cite_digest.h"
#include "cite_parse.h"
#include "cite_resolve.h"

#define ID12 "1234567890ab"
#define ID40 "0123456789abcdef0123456789abcdef01234567"

static cite_list L;

static void setup(void)
{
	memset(&L, 0, sizeof(L));
}

static void teardown(void)
{
	cite_list_free(&L);
}

static size_t parse(const char *text)
{
	cite_list_free(&L);
	ck_assert_int_eq(cite_parse(&L, text, strlen(text), 0), 0);
	return L.n;
}

static size_t parse_msg(const char *text)
{
	cite_list_free(&L);
	ck_assert_int_eq(cite_parse(&L, text, strlen(text), CITE_PARSE_MESSAGE), 0);
	return L.n;
}

/* Reference i is of `kind` at `line` with `id`, `subject` (NULL: none) and `style`. */
static void expect(size_t i, int kind, size_t line, const char *id, const char *subject,
		   unsigned style)
{
	const citation *r;

	ck_assert_uint_lt(i, L.n);
	r = &L.v[i];
	ck_assert_int_eq(r->kind, kind);
	ck_assert_uint_eq(r->line, line);
	ck_assert_str_eq(r->id, id);
	ck_assert_uint_eq(r->id_len, strlen(id));
	if (subject) {
		ck_assert_ptr_nonnull(r->subject);
		ck_assert_str_eq(r->subject, subject);
		ck_assert_uint_eq(r->subject_len, strlen(subject));
	} else {
		ck_assert_ptr_null(r->subject);
	}
	ck_assert_uint_eq(r->style, style);
}

/* How many references are CITE_F_MAYBE (a reference only if a commit has the ID). */
static size_t maybes(void)
{
	size_t n = 0;

	for (size_t i = 0; i < L.n; i++)
		n += !!(L.v[i].flags & CITE_F_MAYBE);
	return n;
}

/* The text of reference i's span. */
static void expect_span(const char *text, size_t i, const char *span)
{
	const citation *r = &L.v[i];

	ck_assert_uint_eq(r->end - r->start, strlen(span));
	ck_assert_int_eq(memcmp(text + r->start, span, strlen(span)), 0);
}

/* ---- Fixes: ------------------------------------------------------------------- */

START_TEST(test_fixes_canonical)
{
	const char *t = "net: fix the thing\n\nLong story.\n\n"
		"Fixes: " ID12 " (\"net: add the thing\")\nSigned-off-by: A <a@b>\n";

	ck_assert_uint_eq(parse(t), 1);
	expect(0, CITE_FIXES, 5, ID12, "net: add the thing", 0);
	expect_span(t, 0, "Fixes: " ID12 " (\"net: add the thing\")");
	ck_assert_uint_eq(L.v[0].flags, 0);
	ck_assert_uint_eq(L.v[0].id_start, (size_t)(strstr(t, ID12) - t));
}
END_TEST

START_TEST(test_fixes_style)
{
	ck_assert_uint_eq(parse("fixes: " ID12 " (\"a\")\n"), 1);
	expect(0, CITE_FIXES, 1, ID12, "a", CITE_STYLE_TAG);
	ck_assert_uint_eq(parse("FIXES: " ID12 " (\"a\")\n"), 1);
	expect(0, CITE_FIXES, 1, ID12, "a", CITE_STYLE_TAG);
	ck_assert_uint_eq(parse("Fixes " ID12 " (\"a\")\n"), 1);
	expect(0, CITE_FIXES, 1, ID12, "a", CITE_STYLE_TAG);
	ck_assert_uint_eq(parse("Fixes:  " ID12 " (\"a\")\n"), 1);
	expect(0, CITE_FIXES, 1, ID12, "a", CITE_STYLE_SPACING);
	ck_assert_uint_eq(parse("Fixes:" ID12 " (\"a\")\n"), 1);
	expect(0, CITE_FIXES, 1, ID12, "a", CITE_STYLE_SPACING);
	ck_assert_uint_eq(parse("Fixes: " ID12 "(\"a\")\n"), 1);
	expect(0, CITE_FIXES, 1, ID12, "a", CITE_STYLE_SPACING);
	ck_assert_uint_eq(parse("Fixes: commit " ID12 " (\"a\")\n"), 1);
	expect(0, CITE_FIXES, 1, ID12, "a", CITE_STYLE_COMMIT_WORD);
	ck_assert_uint_eq(parse("Fixes: " ID12 "\n"), 1);
	expect(0, CITE_FIXES, 1, ID12, NULL, CITE_STYLE_NO_SUBJECT);
	ck_assert_uint_eq(parse("Fixes: " ID12 " (a: b)\n"), 1);
	expect(0, CITE_FIXES, 1, ID12, "a: b", CITE_STYLE_NO_QUOTES);
	ck_assert_uint_eq(parse("Fixes: " ID12 " \"a: b\"\n"), 1);
	expect(0, CITE_FIXES, 1, ID12, "a: b", CITE_STYLE_NO_PARENS);
	ck_assert_uint_eq(parse("Fixes: " ID12 " (\"a: b\n\nnext paragraph\n"), 1);
	expect(0, CITE_FIXES, 1, ID12, "a: b", CITE_STYLE_UNCLOSED);
	/* upper case: flagged, the ID kept in lower case */
	ck_assert_uint_eq(parse("Fixes: 1234567890AB (\"a\")\n"), 1);
	expect(0, CITE_FIXES, 1, ID12, "a", 0);
	ck_assert_uint_eq(L.v[0].flags, CITE_F_UPPER);
	/* short and long IDs are still references */
	ck_assert_uint_eq(parse("Fixes: 12345 (\"a\")\n"), 1);
	expect(0, CITE_FIXES, 1, "12345", "a", 0);
	ck_assert_uint_eq(parse("Fixes: " ID40 "ab (\"a\")\n"), 1);
	expect(0, CITE_FIXES, 1, ID40 "ab", "a", 0);
	/* in `git log` output, indented */
	ck_assert_uint_eq(parse("    Fixes: " ID12 " (\"a\")\n"), 1);
	expect(0, CITE_FIXES, 1, ID12, "a", 0);
}
END_TEST

START_TEST(test_fixes_split)
{
	const char *t = "x\n\nFixes: " ID12 " (\"net: a long\n  subject\")\nCc: x\n";

	ck_assert_uint_eq(parse(t), 1);
	expect(0, CITE_FIXES, 3, ID12, "net: a long subject", CITE_STYLE_SPLIT);
	expect_span(t, 0, "Fixes: " ID12 " (\"net: a long\n  subject\")");
	/* the subject on the next line */
	ck_assert_uint_eq(parse("Fixes: " ID12 "\n(\"a\")\n"), 1);
	expect(0, CITE_FIXES, 1, ID12, "a", CITE_STYLE_SPLIT);
}
END_TEST

START_TEST(test_fixes_not_ids)
{
	/*
	 * bug numbers, words, too short, not at the start of the line: at
	 * most a reference if a commit has the ID (a word of 7+ hex chars;
	 * a bare 12+ in prose)
	 */
	ck_assert_uint_eq(parse("Fixes: 123456\nFixes: #1234\nFixes: deadbeef\n"
				"Fixes: the bug\nFixes: abcd (\"x\")\nIt Fixes: " ID12 "\n"), 2);
	ck_assert_uint_eq(maybes(), 2);
	expect(0, CITE_FIXES, 3, "deadbeef", NULL, CITE_STYLE_NO_SUBJECT);
	expect(1, CITE_COMMIT, 6, ID12, NULL, CITE_STYLE_NO_SUBJECT);
	ck_assert_uint_eq(parse("Fixes: " ID12 "g (\"x\")\n"), 0);
}
END_TEST

/* ---- commit <id> ("subject") in prose ------------------------------------------- */

START_TEST(test_commit_prose)
{
	const char *t = "title\n\nAs commit " ID12 " (\"foo: bar\") did, and\n"
		"Commit 2345678901bc (\"baz\") too.\n";

	ck_assert_uint_eq(parse(t), 2);
	expect(0, CITE_COMMIT, 3, ID12, "foo: bar", 0);
	expect_span(t, 0, "commit " ID12 " (\"foo: bar\")");
	expect(1, CITE_COMMIT, 4, "2345678901bc", "baz", 0);
	ck_assert_uint_eq(L.v[1].flags, CITE_F_CAPITAL);
	/* two on one line */
	ck_assert_uint_eq(parse("commit " ID12 " (\"a\") and commit 2345678901bc (\"b\")\n"), 2);
	expect(0, CITE_COMMIT, 1, ID12, "a", 0);
	expect(1, CITE_COMMIT, 1, "2345678901bc", "b", 0);
	/* no subject: a warning, but only for something that looks like an ID */
	ck_assert_uint_eq(parse("see commit " ID12 ".\n"), 1);
	expect(0, CITE_COMMIT, 1, ID12, NULL, CITE_STYLE_NO_SUBJECT);
	ck_assert_uint_eq(parse("commit added, commit 123456 times, commit 1234567 times, "
				"commit deadbeefcafe\n"), 2);
	ck_assert_uint_eq(maybes(), 2);
	expect(0, CITE_COMMIT, 1, "1234567", NULL, CITE_STYLE_NO_SUBJECT);
	/* missing quotes / parentheses */
	ck_assert_uint_eq(parse("commit " ID12 " (foo)\n"), 1);
	expect(0, CITE_COMMIT, 1, ID12, "foo", CITE_STYLE_NO_QUOTES);
	ck_assert_uint_eq(parse("commit " ID12 " \"foo\"\n"), 1);
	expect(0, CITE_COMMIT, 1, ID12, "foo", CITE_STYLE_NO_PARENS);
	/* a quotation inside the quotes is the subject's (git.git 1c25d2d8ed4c) */
	ck_assert_uint_eq(parse("Commit " ID12 " \"unify the \"auto\" handling of CRLF\" introduced\n"), 1);
	expect(0, CITE_COMMIT, 1, ID12, "unify the \"auto\" handling of CRLF", CITE_STYLE_NO_PARENS);
	ck_assert_uint_eq(parse("commit " ID12 " \"Revert \"foo\"\" again\n"), 1);
	expect(0, CITE_COMMIT, 1, ID12, "Revert \"foo\"", CITE_STYLE_NO_PARENS);
	/* one that does not close: the first closing quote, as before */
	ck_assert_uint_eq(parse("commit " ID12 " \"say \"hi to all\" he did\n"), 1);
	expect(0, CITE_COMMIT, 1, ID12, "say \"hi to all", CITE_STYLE_NO_PARENS);
}
END_TEST

START_TEST(test_commit_split)
{
	/* "commit" ends the line, the ID begins the next */
	const char *t = "was broken by commit\n  " ID12 " (\"a: b\").\n";

	ck_assert_uint_eq(parse(t), 1);
	expect(0, CITE_COMMIT, 1, ID12, "a: b", 0);
	expect_span(t, 0, "commit\n  " ID12 " (\"a: b\")");
	/* the subject on the next line */
	ck_assert_uint_eq(parse("since commit " ID12 "\n(\"a: b\") we\n"), 1);
	expect(0, CITE_COMMIT, 1, ID12, "a: b", 0);
	/* the subject over two lines, joined by one space */
	t = "Rebase on top of commit 2f07b652384969f5 (\"checkpatch: always parse\n"
	    "    orig_commit in fixes tag\") in v6.13-rc1,\nand commit " ID12 " (\"x\")\n";
	ck_assert_uint_eq(parse(t), 2);
	expect(0, CITE_COMMIT, 1, "2f07b652384969f5", "checkpatch: always parse orig_commit in fixes tag", 0);
	expect(1, CITE_COMMIT, 3, ID12, "x", 0);
	/* over three lines: commit / ID / subject */
	ck_assert_uint_eq(parse("commit\n" ID12 "\n(\"a\")\n"), 1);
	expect(0, CITE_COMMIT, 1, ID12, "a", 0);
	/* but not over a blank line */
	ck_assert_uint_eq(parse("commit\n\n" ID12 " (\"a\")\n"), 1);
	expect(0, CITE_COMMIT, 3, ID12, "a", 0);
	ck_assert(L.v[0].flags & CITE_F_BARE);
}
END_TEST

START_TEST(test_subjects)
{
	/* quotes and parentheses inside the subject */
	ck_assert_uint_eq(parse("Fixes: " ID12 " (\"Revert \"foo (bar)\"\")\n"), 1);
	expect(0, CITE_FIXES, 1, ID12, "Revert \"foo (bar)\"", 0);
	ck_assert_uint_eq(parse("Fixes: " ID12 " (\"x: call f(\"a\") twice\")\n"), 1);
	expect(0, CITE_FIXES, 1, ID12, "x: call f(\"a\") twice", 0);
	ck_assert_uint_eq(parse("Fixes: " ID12 " (\"doc: remove spurious \")\"\")\n"
				"Fixes: " ID12 " (\"doc: fix missing \")\" typo\")\n"), 2);
	expect(0, CITE_FIXES, 1, ID12, "doc: remove spurious \")\"", 0);
	expect(1, CITE_FIXES, 2, ID12, "doc: fix missing \")\" typo", 0);
	/* unbalanced parentheses: the closing ") decides */
	ck_assert_uint_eq(parse("Fixes: " ID12 " (\"smile :) more\")\n"), 1);
	expect(0, CITE_FIXES, 1, ID12, "smile :) more", 0);
	ck_assert_uint_eq(parse("Fixes: " ID12 " (\"open ( paren\") more\n"), 1);
	expect(0, CITE_FIXES, 1, ID12, "open ( paren", 0);
	/* shortened with ... or U+2026 */
	ck_assert_uint_eq(parse("Fixes: " ID12 " (\"net: a very long ...\")\n"), 1);
	expect(0, CITE_FIXES, 1, ID12, "net: a very long ...", 0);
	ck_assert_uint_eq(L.v[0].flags, CITE_F_ELLIPSIS);
	ck_assert_uint_eq(L.v[0].match_len, strlen("net: a very long"));
	ck_assert_uint_eq(parse("commit " ID12 " (\"net: long\xe2\x80\xa6\")\n"), 1);
	ck_assert_uint_eq(L.v[0].flags, CITE_F_ELLIPSIS);
	ck_assert_uint_eq(L.v[0].match_len, strlen("net: long"));
	/* git's --pretty=reference, bare or after "commit", quoted or not */
	ck_assert_uint_eq(parse("In " ID12 " (foo: bar, 2024-12-05), we\n"), 1);
	expect(0, CITE_COMMIT, 1, ID12, "foo: bar", 0);
	ck_assert_uint_eq(L.v[0].flags, CITE_F_BARE | CITE_F_DATED);
	ck_assert_uint_eq(parse("commit " ID12 " (\"foo, bar\", 2020-01-02)\n"), 1);
	expect(0, CITE_COMMIT, 1, ID12, "foo, bar", 0);
	ck_assert_uint_eq(L.v[0].flags, CITE_F_DATED | CITE_F_QUOTED_DATE);
	ck_assert_uint_eq(parse("since 4234a76167 (Extend\n--pretty=oneline,, 2007-06-11)\n"), 1);
	expect(0, CITE_COMMIT, 1, "4234a76167", "Extend --pretty=oneline,", 0);
	/* dated layouts people write besides git's: a layout warning, the subject kept */
	{
		static const struct {
			const char *text, *subject, *date;
			unsigned flags;
		} d[] = {
			{ "commit " ID12 " (subj - 2010-07-10)\n", "subj", "2010-07-10", 0 },
			{ "commit " ID12 " (\"subj\" 2006-06-09)\n", "subj", "2006-06-09",
			  CITE_F_QUOTED_DATE },
			{ "commit " ID12 " (\"subj\",\n26-04-2017)\n", "subj", "26-04-2017",
			  CITE_F_QUOTED_DATE },
			{ "commit " ID12 " (subj; 2007-09-14) x\n", "subj", "2007-09-14", 0 },
			{ "commit " ID12 " (\"a, b\", Jul 31, 2015)\n", "a, b", "Jul 31, 2015",
			  CITE_F_QUOTED_DATE },
			{ "commit " ID12 " (rebase -i: proper hook, 2008-10-3)\n", "rebase -i: proper hook",
			  "2008-10-3", 0 },
			{ "commit " ID12 " (Add --signoff. 2005-12-09)\n", "Add --signoff.", "2005-12-09",
			  0 },
			{ "commit " ID12 " (foo, 19 June 2006)\n", "foo", "19 June 2006", 0 },
		};

		for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++) {
			ck_assert_uint_eq(parse(d[i].text), 1);
			expect(0, CITE_COMMIT, 1, ID12, d[i].subject, CITE_STYLE_LAYOUT);
			ck_assert_uint_eq(L.v[0].flags, CITE_F_DATED | d[i].flags);
			ck_assert_uint_eq(L.v[0].date_len, strlen(d[i].date));
			ck_assert_int_eq(memcmp(d[i].text + L.v[0].date_start, d[i].date,
						strlen(d[i].date)), 0);
		}
	}
	/* a date alone is no subject; a number is no date */
	ck_assert_uint_eq(parse("fixed with commit " ID12 " (June 19, 2006).\n"), 1);
	expect(0, CITE_COMMIT, 1, ID12, NULL, CITE_STYLE_NO_SUBJECT);
	ck_assert_uint_eq(parse("commit " ID12 " (bump to 2.0-1)\n"), 1);
	expect(0, CITE_COMMIT, 1, ID12, "bump to 2.0-1", CITE_STYLE_NO_QUOTES);
	/* "[...]" shortens a subject as "..." does */
	ck_assert_uint_eq(parse("commit " ID12 " (\"pretty: respect [...]\", 2017-07-13)\n"), 1);
	ck_assert_uint_eq(L.v[0].flags, CITE_F_DATED | CITE_F_QUOTED_DATE | CITE_F_ELLIPSIS);
	ck_assert_uint_eq(L.v[0].match_len, strlen("pretty: respect"));
	/* a bare ID with a subject needs a quoted or dated one; else it is a bare word */
	ck_assert_uint_eq(parse("CID 1671512 (\"Resource leak\")\nsha " ID12 " (the old one)\n"), 1);
	ck_assert_uint_eq(maybes(), 1);
	expect(0, CITE_COMMIT, 2, ID12, NULL, CITE_STYLE_NO_SUBJECT);
	ck_assert_uint_eq(parse("  " ID12 " (\"x86/xxx: Replace foo with bar\")\n"), 1);
	expect(0, CITE_COMMIT, 1, ID12, "x86/xxx: Replace foo with bar", 0);
}
END_TEST

/* No reference swallows another; a subject ends where its own words do. */
START_TEST(test_no_swallow)
{
	const char *t;
	char *big;
	size_t n = 3000;

	/* an unclosed subject does not take the next tag, nor a trailer */
	t = "Fixes: " ID12 " (\"net: add the thing\nFixes: 2345678901bc (\"b\")\n"
	    "Fixes: 3456789012cd (\"c\nSigned-off-by: A <a@b>\n";
	ck_assert_uint_eq(parse(t), 3);
	expect(0, CITE_FIXES, 1, ID12, "net: add the thing", CITE_STYLE_UNCLOSED);
	expect_span(t, 0, "Fixes: " ID12 " (\"net: add the thing");
	expect(1, CITE_FIXES, 2, "2345678901bc", "b", 0);
	expect(2, CITE_FIXES, 3, "3456789012cd", "c", CITE_STYLE_UNCLOSED);
	/* nor a line starting with commit <id> */
	ck_assert_uint_eq(parse("As commit " ID12 " (\"a: b\ncommit 2345678901bc (\"c\") did\n"), 2);
	expect(0, CITE_COMMIT, 1, ID12, "a: b", CITE_STYLE_UNCLOSED);
	expect(1, CITE_COMMIT, 2, "2345678901bc", "c", 0);
	/* ("subject", remark): the remark kept as a date is */
	t = "Fixes: " ID12 " (\"net: add the thing\", the second try)\n";
	ck_assert_uint_eq(parse(t), 1);
	expect(0, CITE_FIXES, 1, ID12, "net: add the thing", 0);
	ck_assert_uint_eq(L.v[0].flags, CITE_F_REMARK);
	ck_assert_uint_eq(L.v[0].end, strlen(t) - 1);
	/* a subject that lost its closing quote at a line wrap ends at its ')' */
	t = "Since commit " ID12 " (\"net: add the\n  thing) the loop ends.\n";
	ck_assert_uint_eq(parse(t), 1);
	expect(0, CITE_COMMIT, 1, ID12, "net: add the thing", CITE_STYLE_UNCLOSED);
	expect_span(t, 0, "commit " ID12 " (\"net: add the\n  thing)");
	/* git.git fe2005e7236a: a reference inside another's parentheses is its own */
	t = "style. Commit 51a7e8b654 (d93f1713b0 (\"gitk: Use\n"
	    "themed tk widgets\", 2009-04-17) that added themed widgets did not\n";
	ck_assert_uint_eq(parse(t), 2);
	expect(0, CITE_COMMIT, 1, "51a7e8b654", NULL, CITE_STYLE_NO_SUBJECT);
	expect(1, CITE_COMMIT, 1, "d93f1713b0", "gitk: Use themed tk widgets", 0);
	ck_assert_uint_eq(L.v[1].flags, CITE_F_BARE | CITE_F_DATED | CITE_F_QUOTED_DATE);
	/* a subject of any length is read whole */
	big = malloc(n + 64);
	ck_assert_ptr_nonnull(big);
	memcpy(big, "Fixes: " ID12 " (\"", 22);
	for (size_t i = 22; i < n + 22; i++)
		big[i] = "word "[i % 5];
	strcpy(big + n + 22, "\")\nFixes: 2345678901bc (\"b\")\n");
	ck_assert_uint_eq(parse(big), 2);
	ck_assert_uint_eq(L.v[0].style, 0);
	ck_assert_uint_eq(L.v[0].subject_len, n);
	ck_assert_int_eq(memcmp(L.v[0].subject, big + 22, n), 0);
	expect(1, CITE_FIXES, 2, "2345678901bc", "b", 0);
	free(big);
}
END_TEST

/* The text names a reference as another project's, or quotes it. */
static void expect_foreign(size_t i, int foreign, const char *project)
{
	ck_assert_uint_lt(i, L.n);
	ck_assert_int_eq(L.v[i].foreign, foreign);
	ck_assert_int_eq(!!(L.v[i].flags & CITE_F_FOREIGN), !!foreign);
	if (project)
		ck_assert_str_eq(L.v[i].project, project);
	else
		ck_assert_ptr_null(L.v[i].project);
}

START_TEST(test_foreign)
{
	ck_assert_uint_eq(parse("Backported from the Linux kernel commit " ID12 " (\"a\").\n"
				"Ported from Linux commit " ID12 " (\"a\").\n"
				"QEMU commit " ID12 " (\"a\") did it.\n"
				"As commit " ID12 " (\"a\") in git.git did.\n"
				"Backport of commit " ID12 " (\"a\").\n"
				"This was taken from foo.c. See commit " ID12 " (\"a\").\n"
				"The previous commit " ID12 " (\"a\") did.\n"
				"Fixes: " ID12 " (\"a\")\n"), 8);
	expect_foreign(0, CITE_FOREIGN_NAMED, "Linux kernel");
	expect_foreign(1, CITE_FOREIGN_NAMED, "Linux");
	expect_foreign(2, CITE_FOREIGN_NAMED, "QEMU");
	expect_foreign(3, CITE_FOREIGN_NAMED, "git.git");
	expect_foreign(4, CITE_FOREIGN_NAMED, "");
	expect_foreign(5, 0, NULL);
	expect_foreign(6, 0, NULL);
	expect_foreign(7, 0, NULL);
	/* "from" on the line before "commit <id>" */
	ck_assert_uint_eq(parse("This is ported from Linux\ncommit " ID12 " (\"a\").\n"), 1);
	expect_foreign(0, CITE_FOREIGN_NAMED, "Linux");
	/* quoted: an indented tag, prose indented by a tab or four blanks */
	ck_assert_uint_eq(parse("It said:\n\n  Fixes: " ID12 " (\"a\")\n\tcommit " ID12 " (\"a\")\n"
				"    commit " ID12 " (\"a\")\n  - commit " ID12 " (\"a\")\n"), 4);
	expect_foreign(0, CITE_FOREIGN_QUOTED, NULL);
	expect_foreign(1, CITE_FOREIGN_QUOTED, NULL);
	expect_foreign(2, CITE_FOREIGN_QUOTED, NULL);
	expect_foreign(3, 0, NULL);
	/* a message with upstream's marker: all of its references, before it too */
	ck_assert_uint_eq(parse_msg("x: port\n\nFixes: " ID12 " (\"a\")\n\n"
				    "[ upstream commit: " ID40 " ]\n"), 2);
	expect_foreign(0, CITE_FOREIGN_MESSAGE, NULL);
	expect_foreign(1, CITE_FOREIGN_MESSAGE, NULL); /* the bare ID: a reference if a commit has it */
	ck_assert_uint_eq(maybes(), 1);
	/* xfsprogs' libxfs commits: "Source kernel commit: <id>" (not "Source of the bug: commit") */
	ck_assert_uint_eq(parse_msg("xfs: port\n\nSource kernel commit: " ID40 "\n\n"
				    "Fixes: " ID12 " (\"a\")\n"), 2);
	expect_foreign(1, CITE_FOREIGN_MESSAGE, NULL);
	ck_assert_uint_eq(parse_msg("x: fix\n\nSource of the bug: commit " ID12 " (\"a\")\n\n"
				    "Fixes: " ID12 " (\"a\")\n"), 2);
	expect_foreign(0, 0, NULL);
	expect_foreign(1, 0, NULL);
	ck_assert_uint_eq(parse_msg("x: port\n\ncommit " ID40 " upstream.\n\n"
				    "Fixes: " ID12 " (\"a\")\n"), 2);
	ck_assert_uint_eq(L.v[0].flags & CITE_F_UPSTREAM, CITE_F_UPSTREAM);
	expect_foreign(0, CITE_FOREIGN_MESSAGE, NULL);
	expect_foreign(1, CITE_FOREIGN_MESSAGE, NULL);
	/* in a mailbox, only that message's */
	ck_assert_uint_eq(parse("From 2222222222222222222222222222222222222222 Mon Sep 17 00:00:00 2001\n"
				"Subject: [PATCH 1/2] one\n\nUpstream commit:\nFixes: " ID12 " (\"a\")\n"
				"From 3333333333333333333333333333333333333333 Mon Sep 17 00:00:00 2001\n"
				"Subject: [PATCH 2/2] two\n\nFixes: " ID12 " (\"a\")\n"), 2);
	expect_foreign(0, CITE_FOREIGN_MESSAGE, NULL);
	expect_foreign(1, 0, NULL);
	/* a note naming the project the message came from: all of its references */
	ck_assert_uint_eq(parse_msg("x: port\n\nFixes: " ID12 " (\"a\")\n"
				    "[Ported to Foo from the Linux kernel]\n"), 1);
	expect_foreign(0, CITE_FOREIGN_MESSAGE, NULL);
	ck_assert_uint_eq(parse_msg("x: fix\n\nFixes: " ID12 " (\"a\")\n"
				    "(cherry picked from commit " ID40 ")\n"), 2);
	expect_foreign(0, 0, NULL); /* git's own -x names no project: the resolver decides */
	ck_assert_uint_eq(L.v[1].flags & CITE_F_PICKED, CITE_F_PICKED);
	/* a sync commit: its title (git's %s) and the subjects it lists, a wrapped one joined */
	ck_assert_uint_eq(parse_msg("\nsync: latest\nchanges\n\nSyncing latest commits from kernel "
				    "repository.\n\nA U Thor (2):\n  x: one\n  x: two\n    wrapped\n\n"
				    "B Name (1):\n  y:  three \n\n src/a.c | 1 +\n"), 0);
	ck_assert_str_eq(L.title, "sync: latest changes");
	ck_assert_uint_eq(L.nimports, 3);
	ck_assert_str_eq(L.imports, "x: one");
	ck_assert_str_eq(L.imports + 7, "x: two wrapped");
	ck_assert_str_eq(L.imports + 22, "y: three");
	ck_assert_uint_eq(L.imports_len, 31);
}
END_TEST

START_TEST(test_bare_ids)
{
	static const char *const yes[] = {
		ID12, "since " ID12 " the loop", "see " ID12 ".", "(" ID12 ")", "\"" ID12 "\"",
		"`" ID12 "`", ID12 ", then", ID12 ": why", "git show " ID40, "IDs " ID12 "; more",
		"1234567890AB here",
	};
	static const char *const no[] = {
		"12345678901", "123456789012", "abcdefabcdef", "[" ID12 "]", "<" ID12 ">",
		ID12 ".." ID12, "x" ID12, ID12 "x", "https://example.com/" ID12, ID12 "/a",
		"a/" ID12, ID12 ".c", ID12 ":2", "=" ID12, "Link: https://l.org/r/" ID12,
		"> quoted " ID12, "changes made to " ID12 ".", "reversing changes made to " ID12 ".", ID40 "0123456789abcdef0123456789ab",
	};
	char t[256];

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		snprintf(t, sizeof(t), "%s\n", yes[i]);
		ck_assert_msg(parse(t) == 1 && maybes() == 1, "not seen: %s", yes[i]);
		ck_assert_uint_eq(L.v[0].kind, CITE_COMMIT);
		ck_assert(L.v[0].flags & CITE_F_BARE);
		ck_assert_uint_eq(L.v[0].style, CITE_STYLE_NO_SUBJECT);
	}
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		snprintf(t, sizeof(t), "%s\n", no[i]);
		ck_assert_msg(parse(t) == 0, "seen: %s", no[i]);
	}
	/* the span is the ID alone; in a diff it is no reference */
	ck_assert_uint_eq(parse("x " ID12 " y\n"), 1);
	expect_span("x " ID12 " y\n", 0, ID12);
	ck_assert_uint_eq(parse("diff --git a/f b/f\nindex 1234567..89abcde 100644\n--- a/f\n+++ b/f\n"
				"@@ -1 +1 @@\n-" ID12 "\n+" ID40 "\n"), 0);
}
END_TEST

START_TEST(test_revert)
{
	const char *t = "Revert \"net: add \"x\"\"\n\nThis reverts commit " ID40 ".\n";

	ck_assert_uint_eq(parse_msg(t), 1);
	expect(0, CITE_REVERT, 3, ID40, "net: add \"x\"", 0);
	ck_assert_uint_eq(L.v[0].flags, CITE_F_TITLE);
	expect_span(t, 0, ID40);
	/* a merge's revert; no title */
	ck_assert_uint_eq(parse("This reverts commit " ID40 ", reversing\nchanges made to " ID12 ".\n"), 1);
	expect(0, CITE_REVERT, 1, ID40, NULL, 0);
	/* a title two paragraphs up is not this revert's */
	ck_assert_uint_eq(parse("Revert \"a\"\n\nSomething else.\n\nThis reverts commit " ID40 ".\n"), 1);
	expect(0, CITE_REVERT, 5, ID40, NULL, 0);
	/* the mail's Subject: is the title */
	ck_assert_uint_eq(parse("From: A <a@b>\nSubject: [PATCH v2 1/2] Revert \"a: b\"\n\n"
				"This reverts commit " ID12 ".\n"), 1);
	expect(0, CITE_REVERT, 4, ID12, "a: b", 0);
}
END_TEST

/* ---- what is not prose ---------------------------------------------------------- */

START_TEST(test_mbox)
{
	const char *t =
		"From " ID40 " Mon Sep 17 00:00:00 2001\n"          /* 1 */
		"From: A U Thor <a@example.com>\n"
		"Subject: [PATCH 1/2] Fixes: " ID12 " (\"in the header\")\n"
		" continued header commit " ID12 " (\"x\")\n"
		"\n"                                                   /* 5 */
		"Body.  commit 2345678901bc (\"first\").\n"
		"> Fixes: 3456789012cd (\"quoted\")\n"
		"  > commit 3456789012cd (\"quoted too\")\n"
		"\n"
		"Fixes: 4567890123de (\"message part\")\n"             /* 10 */
		"---\n"
		"v2: rebased on commit 5678901234ef (\"notes\")\n"
		" a.c | 2 +-\n"
		"\n"
		"diff --git a/a.c b/a.c\n"                             /* 15 */
		"index 1..2 100644\n"
		"--- a/a.c\n"
		"+++ b/a.c\n"
		"@@ -1,3 +1,3 @@\n"
		" Fixes: 6789012345f0 (\"context\")\n"                 /* 20 */
		"-Fixes: 6789012345f0 (\"old\")\n"
		"+Fixes: 6789012345f0 (\"new\")\n"
		"\n"
		" commit 6789012345f0 (\"context\")\n"
		"-- \n"                                                /* 25 */
		"2.34.1\n"
		"\n"
		"From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
		"From: B <b@example.com>\n"
		"Date: Thu,  5 Dec 2024 19:16:34 +0100\n"              /* 30 */
		"Subject: [PATCH 2/2] second\n"
		"\n"
		"Fixes: 7890123456a1 (\"second patch\")\n"
		"---\n"
		"diff --git a/b.c b/b.c\n"                             /* 35 */
		"+commit 7890123456a1 (\"added\")\n";

	ck_assert_uint_eq(parse(t), 4);
	expect(0, CITE_COMMIT, 6, "2345678901bc", "first", 0);
	expect(1, CITE_FIXES, 10, "4567890123de", "message part", 0);
	expect(2, CITE_COMMIT, 12, "5678901234ef", "notes", 0);
	expect(3, CITE_FIXES, 33, "7890123456a1", "second patch", 0);
}
END_TEST

START_TEST(test_log_pasted)
{
	/* `git log` pasted into a commit message: indented, under --graph, CRLF */
	ck_assert_uint_eq(parse_msg("t\n\nlike this:\n\n    commit " ID40 "\n    Author: A <a@b>\n"
				    "    Date:   now\n\nend\n"), 0);
	ck_assert_uint_eq(parse_msg("t\r\n\r\n  commit " ID40 "\r\n  Author: A <a@b>\r\n"), 0);
	ck_assert_uint_eq(parse_msg("t\n\n* commit " ID40 " (HEAD -> main)\n| Author: A <a@b>\n"
				    "| * commit " ID12 "\n| | Merge: 1 2\n"), 0);
	ck_assert_uint_eq(parse("From: x\n\n  commit " ID40 "\r\n  Author: A <a@b>\r\n\ntext\n"), 0);
	/* but a stable backport's first line is a reference, whatever follows it */
	ck_assert_uint_eq(parse_msg("t\n\ncommit " ID40 " upstream.\nSigned-off-by: x <y@z>\n"), 1);
	ck_assert_uint_eq(L.v[0].flags, CITE_F_UPSTREAM | CITE_F_FOREIGN);
}
END_TEST

START_TEST(test_log_output)
{
	const char *t =
		"commit " ID40 " (HEAD -> main)\n"
		"Author: A <a@b>\n"
		"Date:   Thu Apr 7 15:13:13 2005 -0700\n"
		"\n"
		"    x: fix y\n"
		"\n"
		"    Fixes: " ID12 " (\"x: add y\")\n"
		"\n"
		"diff --git a/x b/x\n"
		"+Fixes: 2345678901bc (\"in the diff\")\n"
		"commit 1111111111111111111111111111111111111111\n"
		"Merge: 1 2\n"
		"Author: A <a@b>\n"
		"\n"
		"    see commit 3456789012cd (\"z\")\n";

	ck_assert_uint_eq(parse(t), 2);
	expect(0, CITE_FIXES, 7, ID12, "x: add y", 0);
	expect(1, CITE_COMMIT, 15, "3456789012cd", "z", 0);
	/* --abbrev-commit: the header is not a reference without a subject */
	ck_assert_uint_eq(parse("commit 1234567 (tag: v1)\nAuthor: A <a@b>\n\n    x\n"
				"commit 2345678\nAuthor: A <a@b>\n\n    see commit 3456789012cd (\"z\")\n"), 1);
	expect(0, CITE_COMMIT, 8, "3456789012cd", "z", 0);
}
END_TEST

START_TEST(test_links_and_upstream)
{
	ck_assert_uint_eq(parse("Link: https://x/commit " ID12 " (\"a\")\n"
				"https://github.com/x/y/commit/" ID12 "\n"
				"base-commit: " ID40 "\n"), 0);
	ck_assert_uint_eq(parse("commit " ID40 " upstream.\n[ Upstream commit " ID40 " ]\n"), 2);
	expect(0, CITE_COMMIT, 1, ID40, NULL, 0);
	expect(1, CITE_COMMIT, 2, ID40, NULL, 0);
	ck_assert(L.v[0].flags & CITE_F_UPSTREAM);
	ck_assert(L.v[1].flags & CITE_F_UPSTREAM);
}
END_TEST

/* ---- garbage ----------------------------------------------------------------------- */

START_TEST(test_garbage)
{
	static const char nul[] = "Fixes: " ID12 " (\"a\0b\")\n\0\0commit\0" ID12 "\n"
		"\xff\xfe commit " ID12 " (\"caf\xe9\")\n";
	size_t n = 4 << 20;
	char *big = malloc(n + 1);

	ck_assert_int_eq(cite_parse(&L, nul, sizeof(nul) - 1, 0), 0);
	ck_assert_uint_eq(L.n, 2);
	ck_assert_uint_eq(L.v[0].subject_len, 3);
	ck_assert_int_eq(memcmp(L.v[0].subject, "a\0b", 3), 0);
	ck_assert_str_eq(L.v[1].subject, "caf\xe9");
	ck_assert_uint_eq(L.v[1].line, 3);
	cite_list_free(&L);

	/* one huge line of unclosed references: the first one's subject runs to its end */
	ck_assert_ptr_nonnull(big);
	for (size_t i = 0; i < n; i++)
		big[i] = "commit 1234567 (\"x "[i % 19];
	big[n] = '\0';
	ck_assert_int_eq(cite_parse(&L, big, n, 0), 0);
	ck_assert_uint_eq(L.n, 1);
	ck_assert_uint_eq(L.v[0].style, CITE_STYLE_UNCLOSED);
	ck_assert_uint_eq(L.v[0].end, n);
	ck_assert_uint_eq(L.v[0].subject_len, n - 17);
	cite_list_free(&L);
	/* lines of 3,000 such bytes: each read whole once, a reference a line */
	for (size_t i = 0; i < n; i++)
		big[i] = i % 3000 == 2999 ? '\n' : "commit 1234567 (\"x "[i % 3000 % 19];
	ck_assert_int_eq(cite_parse(&L, big, n, 0), 0);
	ck_assert_uint_eq(L.n, (n + 2999) / 3000);
	for (size_t i = 0; i < L.n; i++) {
		ck_assert_uint_eq(L.v[i].style, CITE_STYLE_UNCLOSED);
		ck_assert_uint_eq(L.v[i].line, i + 1);
	}
	cite_list_free(&L);
	/* and no newline at all in 4 MiB of hex */
	memset(big, 'a', n);
	ck_assert_int_eq(cite_parse(&L, big, n, 0), 0);
	ck_assert_uint_eq(L.n, 0);
	free(big);
}
END_TEST

/* Random bytes, and random runs of the tokens the parser looks for (fixed seed). */
START_TEST(test_fuzz)
{
	static const char *const tokens[] = {
		"Fixes: ", "fixes ", "commit ", "commit\n", ID12, ID40, " (\"", "\")", "(", ")", "\"",
		"\n", "\n\n", "> ", "From x Mon Sep 17 00:00:00 2001\n", "Subject: ", "diff --git a b\n",
		"@@ -1 +1 @@\n", "+", "-", " ", "...", ", 2024-12-05)", "This reverts commit ",
		"Revert \"", "\xe2\x80\xa6", "\xff", "\0", "commit " ID40 "\nAuthor: x\n",
	};
	uint64_t st = 20241205;
	char buf[4096];

	for (int round = 0; round < 3000; round++) {
		size_t n = 0, want = test_rand(&st) % sizeof(buf);

		while (n < want) {
			if (round % 3 == 0) {
				buf[n++] = (char)(test_rand(&st) >> 8);
			} else {
				const char *tk = tokens[test_rand(&st) % (sizeof(tokens) / sizeof(tokens[0]))];
				size_t len = tk[0] ? strlen(tk) : 1;

				if (n + len > want)
					break;
				memcpy(buf + n, tk, len);
				n += len;
			}
		}
		ck_assert_int_eq(cite_parse(&L, buf, n, round % 2 ? CITE_PARSE_MESSAGE : 0), 0);
		for (size_t i = 0; i < L.n; i++) {
			const citation *r = &L.v[i];

			ck_assert_uint_le(r->start, r->end);
			ck_assert_uint_le(r->end, n);
			ck_assert_uint_le(r->id_start + r->id_len, n);
			ck_assert_uint_ge(r->line, 1);
			if (r->subject)
				ck_assert_uint_le(r->subj_end, n);
		}
		cite_list_free(&L);
	}
}
END_TEST

/* ---- the text --fix writes ----------------------------------------------------------- */

START_TEST(test_format_fixed)
{
	const char *t = "Fixes:  " ID12 " (x)\nCommit\n" ID12 " (\"a\")\n"
		"In " ID12 " (x, 2024-12-05) and commit 2345678 (\"y\", 2020-01-02)\n"
		"Revert \"a\"\n\nThis reverts commit 2345678.\n";
	char *s;

	ck_assert_uint_eq(parse(t), 5);
	s = cite_format_fixed(t, &L.v[0], "abcdefabcdef", "real");
	ck_assert_str_eq(s, "Fixes: abcdefabcdef (\"real\")");
	free(s);
	s = cite_format_fixed(t, &L.v[1], "abcdefabcdef", "real");
	ck_assert_str_eq(s, "Commit abcdefabcdef (\"real\")");
	free(s);
	s = cite_format_fixed(t, &L.v[2], "abcdefabcdef", "real");
	ck_assert_str_eq(s, "abcdefabcdef (real, 2024-12-05)");
	free(s);
	s = cite_format_fixed(t, &L.v[3], "abcdefabcdef", "real");
	ck_assert_str_eq(s, "commit abcdefabcdef (\"real\", 2020-01-02)");
	free(s);
	s = cite_format_fixed(t, &L.v[4], ID40, "a");
	ck_assert_str_eq(s, ID40);
	free(s);
}
END_TEST

/* ---- the length a suggestion needs ------------------------------------------------- */

START_TEST(test_unique_length)
{
	static const struct {
		const char *hex;
		int type;
		unsigned all, commits; /* unique length among all objects, among commits */
	} ids[] = {
		{ "1234567890aaaa", ABBREV_TYPE_COMMIT, 11, 11 },
		{ "1234567890bbbb", ABBREV_TYPE_COMMIT, 11, 11 },
		{ "abcdef01234567", ABBREV_TYPE_COMMIT, 13, 4 }, /* shares 12 with a blob only */
		{ "abcdef01234599", ABBREV_TYPE_BLOB, 13, 0 },
		{ "f0", ABBREV_TYPE_COMMIT, 4, 4 },               /* alone: git's minimum */
		{ "f1000000000000000000000000000000000000a1", ABBREV_TYPE_TREE, 40, 0 },
		{ "f1000000000000000000000000000000000000a2", ABBREV_TYPE_TREE, 40, 0 },
		{ "55555", ABBREV_TYPE_COMMIT, 5, 4 },
		{ "55550", ABBREV_TYPE_TAG, 5, 0 },
	};
	idsets *s = idsets_new(20);
	unsigned char raw[20];

	ck_assert_ptr_nonnull(s);
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		test_id(raw, 20, ids[i].hex);
		ck_assert_int_eq(idsets_add(s, raw, ids[i].type), 1);
	}
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		test_id(raw, 20, ids[i].hex);
		ck_assert_uint_eq(cite_unique_length(s, ABBREV_SET_ALL, raw), ids[i].all);
		if (ids[i].commits)
			ck_assert_uint_eq(cite_unique_length(s, ABBREV_SET_COMMIT, raw), ids[i].commits);
	}
	idsets_free(s);
}
END_TEST

/* ---- cli_parse_verify ------------------------------------------------------------------ */

static int verify_args(cli_verify_opts *o, const char *const *args, char *err, size_t errsz)
{
	static char buf[16][64];
	static char *argv[16];
	int n = 0;

	for (; args[n]; n++) {
		strcpy(buf[n], args[n]);
		argv[n] = buf[n];
	}
	return cli_parse_verify(o, n, argv, err, errsz);
}

START_TEST(test_cli_verify)
{
	cli_verify_opts o;
	char err[256];
	const char *const none[] = { NULL };
	const char *const all[] = { "-C", "repo", "--min-length=16", "a.patch", "--format", "json",
				    "-", NULL };
	const char *const range[] = { "-Crepo", "--range", "v1..v2", "--no-progress", NULL };
	const char *const fix[] = { "--fix", "x", NULL };
	const char *const sizes[][2] = { { "--max-input=512k", "524288" }, { "--max-input=2G", "2147483648" },
					 { "--max-input=100", "100" }, { "--max-input=3m", "3145728" } };

	ck_assert_int_eq(verify_args(&o, none, err, sizeof(err)), CLI_OK);
	ck_assert_uint_eq(o.min_length, 0); /* not given: abbrev.minLength, else 12 */
	ck_assert_uint_eq(o.r.nchdir, 0);
	ck_assert_ptr_null(o.range);
	ck_assert_int_eq(o.fix, 0);
	ck_assert_uint_eq(o.nfiles, 0);
	ck_assert_int_eq(o.r.format, ABBREV_FORMAT_TEXT);
	ck_assert_int_eq(verify_args(&o, all, err, sizeof(err)), CLI_OK);
	ck_assert_uint_eq(o.r.nchdir, 1);
	ck_assert_str_eq(o.r.chdir[0], "repo");
	ck_assert_uint_eq(o.min_length, 16);
	ck_assert_int_eq(o.r.format, ABBREV_FORMAT_JSON);
	ck_assert_uint_eq(o.nfiles, 2);
	ck_assert_str_eq(o.files[0], "a.patch");
	ck_assert_str_eq(o.files[1], "-");
	ck_assert_int_eq(verify_args(&o, range, err, sizeof(err)), CLI_OK);
	ck_assert_str_eq(o.r.chdir[0], "repo");
	ck_assert_str_eq(o.range, "v1..v2");
	ck_assert_int_eq(o.r.progress, 0);
	ck_assert_int_eq(verify_args(&o, fix, err, sizeof(err)), CLI_OK);
	ck_assert_int_eq(o.fix, 1);
	ck_assert_uint_eq(o.max_input, 256u << 20);
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		const char *const args[] = { sizes[i][0], NULL };

		ck_assert_int_eq(verify_args(&o, args, err, sizeof(err)), CLI_OK);
		ck_assert_uint_eq(o.max_input, strtoull(sizes[i][1], NULL, 10));
	}
}
END_TEST

static const char *const bad_verify[][5] = {
	{ "--min-length=3", NULL },
	{ "--min-length=65", NULL },
	{ "--min-length", NULL },
	{ "--format=csv", NULL },
	{ "--format=bogus", NULL },
	{ "-C", NULL },
	{ "--range", NULL },
	{ "--range=a..b", "file", NULL },
	{ "--fix", "--range=a..b", NULL },
	{ "--fix", "a", "b", NULL },
	{ "--fix", "--format=json", NULL },
	{ "--bogus", NULL },
	{ "--max-input=0", NULL },
	{ "--max-input=", NULL },
	{ "--max-input=12q", NULL },
	{ "--max-input=1mb", NULL },
	{ "--max-input=-1", NULL },
	{ "--max-input=17179869184g", NULL },
};

START_TEST(test_cli_verify_errors)
{
	cli_verify_opts o;
	char err[256] = "";

	ck_assert_int_eq(verify_args(&o, bad_verify[_i], err, sizeof(err)), CLI_USAGE);
	ck_assert_msg(err[0] != '\0', "no message for case %d", _i);
}
END_TEST

/* ---- digests (cite_digest.h) ------------------------------------------------- */

/* Whether two strings (either NULL) are the same. */
static int same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/*
 * A message's parse kept as a digest and read back: every field of every
 * citation, the title and the imports the same, and the message's bytes
 * the same on each citation's lines (what the resolver and the emitters
 * read); cut short at any length, or one byte more: no digest.
 */
START_TEST(test_digest)
{
	static const char *msgs[] = {
		"net: fix the thing\n\nLong story.\n\n"
		"Fixes: " ID12 " (\"net: add the thing\")\nSigned-off-by: A <a@b>\n",
		"x: upper\n\nFixes: ABCDEF012345 (\"an upper-case ID, a subject\n"
		"  split over two lines\")\n",
		"Revert \"x: add y\"\n\nThis reverts commit " ID12 ".\n",
		"x: dated\n\nAs 0123456789ab (\"x: add z\", 2024-12-05) did, and\n"
		"commit fedcba987654 upstream.  Ported from Linux commit 00112233aabb.\n",
		"Sync\n\nSyncing latest commits from kernel repository\n\n"
		"Ann (2):\n      x: one\n      x: two\n\nFixes: " ID12 " (\"x\")\n",
	};

	for (size_t m = 0; m < sizeof(msgs) / sizeof(msgs[0]); m++) {
		const char *t = msgs[m];
		size_t len = strlen(t), dlen, blen;
		unsigned char *d;
		cite_list got;
		char *buf;

		cite_list_free(&L);
		ck_assert_int_eq(cite_parse(&L, t, len, CITE_PARSE_MESSAGE), 0);
		ck_assert_uint_gt(L.n, 0);
		ck_assert_int_eq(cite_digest_pack(&L, t, len, &d, &dlen), 0);
		ck_assert_int_eq(cite_digest_unpack(d, dlen, &got, &buf, &blen), 0);
		ck_assert_uint_eq(blen, len);
		ck_assert_int_eq(buf[blen], '\0');
		ck_assert(same_str(got.title, L.title));
		ck_assert_uint_eq(got.nimports, L.nimports);
		ck_assert_uint_eq(got.imports_len, L.imports_len);
		if (L.imports_len)
			ck_assert_mem_eq(got.imports, L.imports, L.imports_len);
		ck_assert_uint_eq(got.n, L.n);
		for (size_t i = 0; i < L.n; i++) {
			const citation *a = &L.v[i], *b = &got.v[i];
			size_t ls = a->start, le = a->end;

			ck_assert_int_eq(b->kind, a->kind);
			ck_assert_uint_eq(b->style, a->style);
			ck_assert_uint_eq(b->flags, a->flags);
			ck_assert_uint_eq(b->line, a->line);
			ck_assert_uint_eq(b->start, a->start);
			ck_assert_uint_eq(b->end, a->end);
			ck_assert_uint_eq(b->id_start, a->id_start);
			ck_assert_uint_eq(b->id_len, a->id_len);
			ck_assert_str_eq(b->id, a->id);
			ck_assert_uint_eq(b->subj_start, a->subj_start);
			ck_assert_uint_eq(b->subj_end, a->subj_end);
			ck_assert(same_str(b->subject, a->subject));
			ck_assert_uint_eq(b->subject_len, a->subject_len);
			ck_assert_uint_eq(b->match_len, a->match_len);
			ck_assert_uint_eq(b->date_start, a->date_start);
			ck_assert_uint_eq(b->date_len, a->date_len);
			ck_assert_int_eq(b->foreign, a->foreign);
			ck_assert(same_str(b->project, a->project));
			while (ls && t[ls - 1] != '\n')
				ls--;
			while (t[le] && t[le] != '\n')
				le++;
			ck_assert_int_eq(memcmp(buf + ls, t + ls, le - ls), 0);
		}
		cite_list_free(&got);
		free(buf);
		for (size_t cut = 0; cut < dlen; cut++)
			ck_assert_int_eq(cite_digest_unpack(d, cut, &got, &buf, &blen), 1);
		d = realloc(d, dlen + 1);
		ck_assert_ptr_nonnull(d);
		d[dlen] = 0;
		ck_assert_int_eq(cite_digest_unpack(d, dlen + 1, &got, &buf, &blen), 1);
		free(d);
	}
}
END_TEST

Suite *make_cite_suite(void)
{
	Suite *s = suite_create("cite");
	TCase *core = tcase_create("core");
	TCase *prose = tcase_create("prose");
	TCase *errors = tcase_create("errors");
	TCase *cli = tcase_create("cli");

	tcase_add_checked_fixture(core, setup, teardown);
	tcase_add_checked_fixture(prose, setup, teardown);
	tcase_add_checked_fixture(errors, setup, teardown);
	tcase_add_test(core, test_fixes_canonical);
	tcase_add_test(core, test_digest);
	tcase_add_test(core, test_fixes_style);
	tcase_add_test(core, test_fixes_split);
	tcase_add_test(core, test_fixes_not_ids);
	tcase_add_test(core, test_commit_prose);
	tcase_add_test(core, test_commit_split);
	tcase_add_test(core, test_subjects);
	tcase_add_test(core, test_revert);
	tcase_add_test(core, test_format_fixed);
	tcase_add_test(core, test_bare_ids);
	tcase_add_test(core, test_no_swallow);
	tcase_add_test(core, test_foreign);
	tcase_add_test(core, test_unique_length);
	tcase_add_test(prose, test_mbox);
	tcase_add_test(prose, test_log_output);
	tcase_add_test(prose, test_log_pasted);
	tcase_add_test(prose, test_links_and_upstream);
	tcase_add_test(errors, test_garbage);
	tcase_add_test(errors, test_fuzz);
	tcase_set_timeout(errors, 60);
	tcase_add_test(cli, test_cli_verify);
	tcase_add_loop_test(cli, test_cli_verify_errors, 0,
			    (int)(sizeof(bad_verify) / sizeof(bad_verify[0])));
	suite_add_tcase(s, core);
	suite_add_tcase(s, prose);
	suite_add_tcase(s, errors);
	suite_add_tcase(s, cli);
	return s;
}
