/*
 * cite_parse.c - find commit references in commit messages, patches and
 * mailboxes.
 *
 * One pass over the lines with a small state machine: mail and `git log`
 * headers, the prose of a message, and diffs.  Only prose is searched.
 * A reference may run over up to three lines, as checkpatch accepts
 * ("commit" at the end of a line, the ID or the subject on the next), so
 * the text after an ID is copied into a bounded window with the lines
 * trimmed and joined by one space, each byte remembering where it came
 * from.  The window's bound keeps every reference O(1) however long a
 * line is, so garbage input of any size costs linear time.
 */
#include <config.h>

#include "cite_parse.h"
#include "bigvec.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ST_TEXT, ST_HEADER, ST_DIFF };

/* The shortest ID of a `git log` "commit <id>" header line (git's minimum abbrev). */
#define ABBREV_LOG_MIN_HEX 4

/* How far back (in lines) a `Revert "..."` title belongs to "This reverts commit". */
#define TITLE_REACH 20

typedef struct {
	size_t start, end, next; /* [start, end) without the newline; next line */
} line_t;

/*
 * The text after an ID: its line and up to two more, each trimmed, joined
 * by one space.  Where each byte came from is kept per line, not per byte
 * (the window is filled for every reference): line i's bytes are
 * c[at[i] .. at[i + 1] - 1) (the last line's run to n), copied from the
 * buffer at from[i] on; for i > 0, c[at[i] - 1] is the space that stands
 * for the newline at nl[i].
 */
typedef struct {
	char *c;                          /* small, or the parser's big buffer */
	size_t n, cap;
	int cut;                          /* a line did not fit */
	unsigned lines;                   /* 1 to 3 */
	size_t at[3], from[3], nl[3];
	char small[CITE_WINDOW];
} window;

/* The line (0: the ID's, 1, 2: the next ones) of window byte k. */
static unsigned win_line(const window *w, size_t k)
{
	unsigned ln = 0;

	while (ln + 1 < w->lines && k + 1 >= w->at[ln + 1])
		ln++;
	return ln;
}

/* The offset in the buffer of window byte k (a joining space: its newline). */
static size_t win_off(const window *w, size_t k)
{
	unsigned ln = win_line(w, k);

	return ln && k + 1 == w->at[ln] ? w->nl[ln] : w->from[ln] + (k - w->at[ln]);
}

typedef struct {
	const char *buf;
	size_t len;
	unsigned opts;
	cite_list *out;
	int state;
	size_t resume;        /* a reference ran over lines: go on scanning here */
	char *title;          /* X of a recent `Revert "X"` title, or NULL */
	size_t title_len, title_line;
	char *hsubj;          /* a mail's Subject: header, continuation lines joined */
	size_t hsubj_len;
	int in_subject;       /* the last header line was Subject: */
	int nomem;
	size_t msg_first;     /* the first reference of the message being read */
	int msg_foreign;      /* that message carries another project's marker */
	int msg_stable;       /* CITE_PARSE_MESSAGE: that message is Cc'd to Linux's stable list */
	int imp;              /* CITE_PARSE_MESSAGE: 1 once it says it brings commits in, 2 in a shortlog group */
	size_t imp_ind;       /* the indent of that group's subjects */
	size_t imp_last;      /* where the last subject listed starts in out->imports, or SIZE_MAX */
	size_t big_line;      /* the line whose references were given a big window (+1) */
	char *big;            /* that window's bytes */
	size_t big_cap;
	window w;
} parser;

/* ---- bytes (no locale: the input may be anything) ------------------------ */

/* Each byte's classes, one load per test (these are asked of every byte of a message). */
enum { C_DIGIT = 1, C_HEX = 2, C_ALPHA = 4, C_WORD = 8, C_SPACE = 16 };

#define D_ (C_DIGIT | C_HEX | C_WORD)
#define X_ (C_HEX | C_ALPHA | C_WORD)
#define A_ (C_ALPHA | C_WORD)
static const unsigned char cls[256] = {
	['\t'] = C_SPACE, ['\v'] = C_SPACE, ['\f'] = C_SPACE, ['\r'] = C_SPACE, [' '] = C_SPACE,
	['0'] = D_, ['1'] = D_, ['2'] = D_, ['3'] = D_, ['4'] = D_,
	['5'] = D_, ['6'] = D_, ['7'] = D_, ['8'] = D_, ['9'] = D_,
	['A'] = X_, ['B'] = X_, ['C'] = X_, ['D'] = X_, ['E'] = X_, ['F'] = X_,
	['G'] = A_, ['H'] = A_, ['I'] = A_, ['J'] = A_, ['K'] = A_, ['L'] = A_, ['M'] = A_,
	['N'] = A_, ['O'] = A_, ['P'] = A_, ['Q'] = A_, ['R'] = A_, ['S'] = A_, ['T'] = A_,
	['U'] = A_, ['V'] = A_, ['W'] = A_, ['X'] = A_, ['Y'] = A_, ['Z'] = A_,
	['_'] = C_WORD,
	['a'] = X_, ['b'] = X_, ['c'] = X_, ['d'] = X_, ['e'] = X_, ['f'] = X_,
	['g'] = A_, ['h'] = A_, ['i'] = A_, ['j'] = A_, ['k'] = A_, ['l'] = A_, ['m'] = A_,
	['n'] = A_, ['o'] = A_, ['p'] = A_, ['q'] = A_, ['r'] = A_, ['s'] = A_, ['t'] = A_,
	['u'] = A_, ['v'] = A_, ['w'] = A_, ['x'] = A_, ['y'] = A_, ['z'] = A_,
};
#undef D_
#undef X_
#undef A_

static int is_digit(unsigned char c)
{
	return cls[c] & C_DIGIT;
}

static int is_hex(unsigned char c)
{
	return cls[c] & C_HEX;
}

static int is_alpha(unsigned char c)
{
	return cls[c] & C_ALPHA;
}

static int is_word(unsigned char c)
{
	return cls[c] & C_WORD;
}

static int is_space(unsigned char c)
{
	return cls[c] & C_SPACE;
}

static unsigned char lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 'a' - 'A') : c;
}

/*
 * The word tests below are asked on every line, mostly with a literal:
 * inline, so that its strlen() is a constant.
 */

/* buf[s..e) starts with `word`, ignoring case. */
static inline int iprefix(const char *b, size_t s, size_t e, const char *word)
{
	size_t n = strlen(word);

	if (s > e || e - s < n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (lower((unsigned char)b[s + i]) != (unsigned char)word[i])
			return 0;
	return 1;
}

/* buf[s..e) starts with the whole word `word` (lower case), ignoring case. */
static inline int iword(const char *b, size_t s, size_t e, const char *word)
{
	size_t n = strlen(word);

	return iprefix(b, s, e, word) && (s + n == e || !is_word((unsigned char)b[s + n]));
}

static inline int prefix(const char *b, size_t s, size_t e, const char *word)
{
	size_t n = strlen(word);

	return s <= e && e - s >= n && !memcmp(b + s, word, n);
}

static void line_at(const parser *p, size_t start, line_t *l)
{
	const char *nl = memchr(p->buf + start, '\n', p->len - start);

	l->start = start;
	l->end = nl ? (size_t)(nl - p->buf) : p->len;
	l->next = nl ? l->end + 1 : p->len;
}

static size_t skip_ws(const parser *p, size_t s, size_t e)
{
	while (s < e && is_space((unsigned char)p->buf[s]))
		s++;
	return s;
}

static size_t trim_end(const parser *p, size_t s, size_t e)
{
	while (e > s && is_space((unsigned char)p->buf[e - 1]))
		e--;
	return e;
}

/* ---- what a line is ------------------------------------------------------ */

static size_t skip_digits(const char *b, size_t q, size_t e, size_t min, size_t max)
{
	size_t n = 0;

	while (q + n < e && n < max && is_digit((unsigned char)b[q + n]))
		n++;
	return n >= min ? q + n : SIZE_MAX;
}

/* An mbox separator: "From <who> Mon Sep 17 00:00:00 2001" (asctime date). */
static int is_mbox_from(const parser *p, const line_t *l)
{
	const char *b = p->buf;
	size_t q = l->start + 5, e = l->end;

	if (!prefix(b, l->start, e, "From "))
		return 0;
	while (q < e && !is_space((unsigned char)b[q]))
		q++;
	while (q < e && b[q] == ' ')
		q++;
	for (int part = 0; part < 2; part++) { /* "Mon " "Sep " */
		if (e - q < 4 || !is_alpha((unsigned char)b[q]) || !is_alpha((unsigned char)b[q + 1]) ||
		    !is_alpha((unsigned char)b[q + 2]) || b[q + 3] != ' ')
			return 0;
		q += 4;
	}
	while (q < e && b[q] == ' ')
		q++;
	if ((q = skip_digits(b, q, e, 1, 2)) == SIZE_MAX || q >= e || b[q] != ' ')
		return 0;
	q++;
	for (int part = 0; part < 3; part++) { /* "00:00:00" */
		if ((q = skip_digits(b, q, e, 2, 2)) == SIZE_MAX)
			return 0;
		if (part < 2 && (q >= e || b[q++] != ':'))
			return 0;
	}
	return 1;
}

static size_t hex_run(const char *b, size_t q, size_t e)
{
	size_t n = 0;

	while (q + n < e && is_hex((unsigned char)b[q + n]))
		n++;
	return n;
}

/*
 * `git log` output: "commit <id>[ (decorations)]" followed by a header
 * line such as "Author: " or "Merge: ".  The ID may be abbreviated
 * (--abbrev-commit, log.abbrevCommit).
 */
static size_t skip_graph(const parser *p, size_t q, size_t e)
{
	/* " \t*|/\\" (and a NUL, as strchr() found it) */
	while (q < e && (p->buf[q] == ' ' || p->buf[q] == '\t' || p->buf[q] == '*' ||
			 p->buf[q] == '|' || p->buf[q] == '/' || p->buf[q] == '\\' || !p->buf[q]))
		q++;
	return q;
}

static int is_log_header(const parser *p, const line_t *l)
{
	const char *b = p->buf;
	size_t n, q, e = trim_end(p, l->start, l->end), s = skip_graph(p, l->start, e);
	line_t nx;

	/* pasted into a message, indented or under --graph's "* " and "| " */
	if (!prefix(b, s, e, "commit "))
		return 0;
	n = hex_run(b, s + 7, e);
	q = s + 7 + n;
	/* only decorations may follow: "commit <id> upstream." is a reference */
	if (n < ABBREV_LOG_MIN_HEX || n > 64 || (q < e && !prefix(b, q, e, " (")))
		return 0;
	if (l->next >= p->len)
		return 0;
	line_at(p, l->next, &nx);
	q = skip_graph(p, nx.start, nx.end);
	if (q >= nx.end || b[q] < 'A' || b[q] > 'Z')
		return 0;
	while (q < nx.end && (is_alpha((unsigned char)b[q]) || b[q] == '-'))
		q++;
	return q < nx.end && b[q] == ':';
}

/* The first line of a mail or a `git format-patch` file without its From line. */
static int is_mail_header(const parser *p, const line_t *l)
{
	static const char *const names[] = {
		"from:", "date:", "subject:", "to:", "cc:", "message-id:", "return-path:",
		"received:", "delivered-to:", "mime-version:", "content-type:", "in-reply-to:",
		"references:", "reply-to:", "sender:", "x-", "list-", "arc-", "dkim-signature:",
		"authentication-results:", "envelope-to:",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (iprefix(p->buf, l->start, l->end, names[i]))
			return 1;
	return 0;
}

static int is_diff_start(const parser *p, const line_t *l)
{
	const char *b = p->buf;
	size_t s = l->start, e = l->end;
	line_t nx;

	if (prefix(b, s, e, "diff -") || prefix(b, s, e, "Index: "))
		return 1;
	if (prefix(b, s, e, "@@ -") && e - s > 4 && is_digit((unsigned char)b[s + 4]))
		return 1;
	if (prefix(b, s, e, "--- ") && l->next < p->len) {
		line_at(p, l->next, &nx);
		return prefix(b, nx.start, nx.end, "+++ ");
	}
	return 0;
}

/* Inside a diff: hunk lines, file headers, blank lines (mailers eat spaces). */
static int is_diff_content(const parser *p, const line_t *l)
{
	static const char *const heads[] = {
		"diff ", "index ", "new file mode", "deleted file mode", "old mode", "new mode",
		"similarity index", "dissimilarity index", "rename from", "rename to",
		"copy from", "copy to", "Binary files", "GIT binary patch", "literal ", "delta ",
	};
	const char *b = p->buf;

	if (trim_end(p, l->start, l->end) == l->start)
		return 1;
	if (strchr(" +-@\\", b[l->start]) && b[l->start])
		return 1;
	for (size_t i = 0; i < sizeof(heads) / sizeof(heads[0]); i++)
		if (prefix(b, l->start, l->end, heads[i]))
			return 1;
	return 0;
}

/* Lines whose IDs are links, not references (checkpatch skips them too). */
static int is_link_line(const parser *p, size_t s, size_t e)
{
	static const char *const heads[] = {
		"link:", "buglink:", "closes:", "patchwork:", "base-commit:", "http://", "https://",
	};

	/* every line of prose asks: most start with none of their first letters */
	if (s >= e || !strchr("lbcph", lower((unsigned char)p->buf[s])) || !p->buf[s])
		return 0;
	for (size_t i = 0; i < sizeof(heads) / sizeof(heads[0]); i++)
		if (iprefix(p->buf, s, e, heads[i]))
			return 1;
	return 0;
}

/*
 * Whether the line b[s..e) (from its first non-blank) starts a reference
 * or a trailer of its own: `Fixes: <id>`, `commit <id>`, `This reverts
 * commit`, `Signed-off-by:` and the like.  Such a line is never the rest
 * of the reference before it (an unclosed subject ends at its line).
 */
static int starts_own(const parser *p, size_t s, size_t e)
{
	const char *b = p->buf;
	size_t q;

	if (iword(b, s, e, "fixes")) {
		q = s + 5;
		if (q < e && b[q] == ':')
			q++;
		q = skip_ws(p, q, e);
		if (iword(b, q, e, "commit"))
			q = skip_ws(p, q + 6, e);
		return hex_run(b, q, e) >= 5;
	}
	if (iword(b, s, e, "commit")) {
		q = skip_ws(p, s + 6, e);
		return q > s + 6 && hex_run(b, q, e) >= 5;
	}
	if (iprefix(b, s, e, "this reverts commit"))
		return 1;
	/* a trailer: Signed-off-by:, Reviewed-by:, Cc:, Link:, Closes: */
	if (iprefix(b, s, e, "cc:") || iprefix(b, s, e, "link:") || iprefix(b, s, e, "closes:"))
		return 1;
	for (q = s; q < e && (is_alpha((unsigned char)b[q]) || b[q] == '-'); q++)
		;
	return q > s + 3 && q + 1 < e && b[q] == ':' && b[q + 1] == ' ' && b[q - 1] != '-' &&
	       iprefix(b, q - 3, q, "-by");
}

/* A line that can carry on a reference begun on the line before. */
static int is_continuation(const parser *p, const line_t *l)
{
	size_t s = skip_ws(p, l->start, l->end), e = trim_end(p, l->start, l->end);

	if (s >= e || p->buf[s] == '>')
		return 0;
	if (starts_own(p, s, e))
		return 0;
	if (is_diff_start(p, l))
		return 0;
	if (!(p->opts & CITE_PARSE_MESSAGE) && (is_mbox_from(p, l) || is_log_header(p, l)))
		return 0;
	return 1;
}

/* ---- revert titles --------------------------------------------------------- */

static void drop_title(parser *p)
{
	free(p->title);
	p->title = NULL;
	p->title_len = 0;
}

/* If b[s..e) is `Revert "X"`, remember X as the title of the message. */
static void note_title(parser *p, const char *b, size_t s, size_t e, size_t lineno)
{
	char *t;

	if (e - s < 10 || memcmp(b + s, "Revert \"", 8) || b[e - 1] != '"')
		return;
	t = malloc(e - s - 8);
	if (!t) {
		p->nomem = 1;
		return;
	}
	memcpy(t, b + s + 8, e - s - 9);
	t[e - s - 9] = '\0';
	drop_title(p);
	p->title = t;
	p->title_len = e - s - 9;
	p->title_line = lineno;
}

static void header_line(parser *p, const line_t *l, size_t lineno)
{
	const char *b = p->buf;
	size_t s = l->start, e = trim_end(p, l->start, l->end);
	char *n;

	if (s < e && (b[s] == ' ' || b[s] == '\t')) {
		if (!p->in_subject)
			return;
		s = skip_ws(p, s, e);
	} else if (iprefix(b, s, e, "subject:")) {
		p->in_subject = 1;
		p->hsubj_len = 0;
		s = skip_ws(p, s + 8, e);
		/* [PATCH v2 1/3] and the like */
		while (s < e && b[s] == '[') {
			const char *close = memchr(b + s, ']', e - s);

			if (!close)
				break;
			s = skip_ws(p, (size_t)(close - b) + 1, e);
		}
	} else {
		p->in_subject = 0;
		return;
	}
	n = realloc(p->hsubj, p->hsubj_len + (e - s) + 2);
	if (!n) {
		p->nomem = 1;
		return;
	}
	p->hsubj = n;
	if (p->hsubj_len)
		n[p->hsubj_len++] = ' ';
	memcpy(n + p->hsubj_len, b + s, e - s);
	p->hsubj_len += e - s;
	n[p->hsubj_len] = '\0';
	drop_title(p);
	note_title(p, n, 0, p->hsubj_len, lineno);
}

/* ---- the window after an ID ------------------------------------------------ */

/* Copy buf[q..e) to the window as line ln's bytes, as far as there is room. */
static void window_copy(parser *p, size_t q, size_t e, unsigned ln)
{
	window *w = &p->w;
	size_t k = e > q ? e - q : 0;

	if (k > w->cap - w->n) {
		k = w->cap - w->n;
		w->cut = 1;
	}
	w->at[ln] = w->n;
	w->from[ln] = q;
	w->lines = ln + 1;
	memcpy(w->c + w->n, p->buf + q, k);
	w->n += k;
}

/*
 * The text from `from` to the end of its line `l`, then up to two
 * following prose lines, each trimmed and joined by one space (which
 * stands for the newline).
 */
static void window_fill(parser *p, const line_t *l, size_t from, char *c, size_t cap)
{
	window *w = &p->w;
	line_t cur = *l;

	w->c = c;
	w->cap = cap;
	w->n = 0;
	w->cut = 0;
	window_copy(p, from, trim_end(p, l->start, l->end), 0);
	for (unsigned ln = 1; ln <= 2; ln++) {
		line_t nx;

		if (cur.next >= p->len)
			break;
		line_at(p, cur.next, &nx);
		if (!is_continuation(p, &nx))
			break;
		if (w->n >= w->cap) {
			w->cut = 1;
			break;
		}
		w->nl[ln] = cur.end;
		w->c[w->n++] = ' ';
		window_copy(p, skip_ws(p, nx.start, nx.end), trim_end(p, nx.start, nx.end), ln);
		cur = nx;
	}
}

typedef struct {
	int found;
	size_t spaces;   /* blanks between the ID and the subject */
	size_t open;     /* the '(' or '"' that begins it */
	size_t t0, t1;   /* the subject text */
	size_t last;     /* its last byte (the closing parenthesis) */
	size_t d0, d1;   /* with CITE_F_DATED: the date */
	unsigned style, flags;
} subject_t;

static size_t balanced_close(const window *w, size_t open)
{
	/* from parenthesis to parenthesis (memchr), not byte by byte */
	const char *c = w->c, *end = w->c + w->n, *p = c + (open < w->n ? open : w->n);
	const char *po = memchr(p, '(', (size_t)(end - p)), *pc = memchr(p, ')', (size_t)(end - p));
	size_t depth = 0;

	while (po || pc) {
		if (po && (!pc || po < pc)) {
			depth++;
			po = memchr(po + 1, '(', (size_t)(end - po - 1));
		} else {
			if (--depth == 0)
				return (size_t)(pc - c);
			pc = memchr(pc + 1, ')', (size_t)(end - pc - 1));
		}
	}
	return SIZE_MAX;
}

static int ends_word(const window *w, size_t k)
{
	return k >= w->n || !is_word((unsigned char)w->c[k]);
}

/* What may follow the `")` that ends a subject: not a word, not a quote. */
static int ends_subject(const window *w, size_t k)
{
	return ends_word(w, k) && (k >= w->n || w->c[k] != '"');
}

/*
 * The first `")` from `from` on that can end a subject; a `")` followed
 * by a quote is inside one: ("doc: remove spurious ")"").
 */
static size_t quote_paren(const window *w, size_t from)
{
	for (size_t k = from; k + 1 < w->n; k++)
		if (w->c[k] == '"' && w->c[k + 1] == ')' && ends_subject(w, k + 2))
			return k;
	return SIZE_MAX;
}

/* The end of the window's line that holds index k. */
static size_t window_eol(const window *w, size_t k)
{
	unsigned ln = win_line(w, k);
	/* the next line's joining space ends it */
	size_t e = ln + 1 < w->lines ? w->at[ln + 1] - 1 : w->n;

	return e > k ? e : k;
}

/* n digits at w[k..): their value, or -1. */
static int digits(const window *w, size_t k, size_t e, size_t min, size_t max, size_t *len)
{
	int v = 0;
	size_t n = 0;

	while (k + n < e && n < max && is_digit((unsigned char)w->c[k + n]))
		v = v * 10 + (w->c[k + n++] - '0');
	if (n < min || (k + n < e && is_digit((unsigned char)w->c[k + n])))
		return -1;
	*len = n;
	return v;
}

/* A month's name (3 letters or whole, an optional full stop) at w[k..): its length or 0. */
static size_t month_at(const window *w, size_t k, size_t e)
{
	static const char *const names[] = {
		"january", "february", "march", "april", "may", "june", "july", "august",
		"september", "october", "november", "december"
	};
	static const unsigned char lens[] = { 7, 8, 5, 5, 3, 4, 4, 6, 9, 7, 8, 8 };
	unsigned char c0;

	/* months by first letter, a to z: a bit for each (january = bit 0) */
	static const uint16_t by_first[26] = {
		['a' - 'a'] = 1u << 3 | 1u << 7, ['d' - 'a'] = 1u << 11, ['f' - 'a'] = 1u << 1,
		['j' - 'a'] = 1u << 0 | 1u << 5 | 1u << 6, ['m' - 'a'] = 1u << 2 | 1u << 4,
		['n' - 'a'] = 1u << 10, ['o' - 'a'] = 1u << 9, ['s' - 'a'] = 1u << 8,
	};
	unsigned months;

	/* tried at every word of a subject's end: most are not a month's */
	if (k >= e || (c0 = lower((unsigned char)w->c[k])) < 'a' || c0 > 'z' ||
	    !(months = by_first[c0 - 'a']))
		return 0;
	for (; months; months &= months - 1) { /* the months of that letter, in order */
		unsigned m = (unsigned)__builtin_ctz(months);
		size_t n = 0, len = lens[m];

		while (k + n < e && n < len && lower((unsigned char)w->c[k + n]) == names[m][n])
			n++;
		if ((n == len || (n >= 3 && (m != 8 || n == 3 || n == 4))) &&
		    (k + n >= e || !is_alpha((unsigned char)w->c[k + n])))
			return n + (k + n < e && w->c[k + n] == '.');
	}
	return 0;
}

/*
 * Whether w[k..e) is exactly a date as people write one in a reference:
 * 2024-12-05 (also 2008-10-3, 2024/12/05), 12-05-2017, Jul 31, 2015,
 * June 19 2006, 19 June 2006.  *iso: git's own YYYY-MM-DD.
 */
static int date_is(const window *w, size_t k, size_t e, int *iso)
{
	size_t n, q = k;
	int a, b, c;

	*iso = 0;
	if ((n = month_at(w, q, e)) != 0) { /* Jul 31, 2015 */
		q += n;
		while (q < e && w->c[q] == ' ')
			q++;
		if ((a = digits(w, q, e, 1, 2, &n)) < 1 || a > 31)
			return 0;
		q += n;
		if (q < e && w->c[q] == ',')
			q++;
		while (q < e && w->c[q] == ' ')
			q++;
		return (c = digits(w, q, e, 4, 4, &n)) >= 1970 && c < 2100 && q + n == e;
	}
	if ((a = digits(w, q, e, 1, 4, &n)) < 0)
		return 0;
	q += n;
	if (q < e && w->c[q] == ' ' && n <= 2 && a >= 1 && a <= 31) { /* 19 June 2006 */
		q++;
		if (!(n = month_at(w, q, e)))
			return 0;
		q += n;
		while (q < e && w->c[q] == ' ')
			q++;
		return (c = digits(w, q, e, 4, 4, &n)) >= 1970 && c < 2100 && q + n == e;
	}
	if (q >= e || !strchr("-/.", w->c[q]))
		return 0;
	if (n == 4) { /* Y-M-D */
		char sep = w->c[q++];

		if ((b = digits(w, q, e, 1, 2, &n)) < 1 || b > 12 || a < 1970 || a >= 2100)
			return 0;
		*iso = sep == '-' && n == 2;
		q += n;
		if (q >= e || w->c[q++] != sep || (c = digits(w, q, e, 1, 2, &n)) < 1 || c > 31)
			return 0;
		*iso = *iso && n == 2;
		return q + n == e;
	}
	if (n > 2 || a < 1 || a > 31) /* D-M-Y */
		return 0;
	q++;
	if ((b = digits(w, q, e, 1, 2, &n)) < 1 || b > 31)
		return 0;
	q += n;
	if (q >= e || !strchr("-/.", w->c[q++]))
		return 0;
	return (c = digits(w, q, e, 4, 4, &n)) >= 1970 && c < 2100 && q + n == e;
}

typedef struct {
	size_t end;      /* where the text before the date ends */
	size_t d0, d1;   /* the date */
	int canonical;   /* git's ", YYYY-MM-DD" */
} date_t;

/*
 * A date at the end of w[t0..t1), after a comma (git's --pretty=reference),
 * a semicolon, a dash, or nothing but blanks ("subject" 2006-06-09).
 * 1 with *d filled, or 0.
 */
static int trailing_date(const window *w, size_t t0, size_t t1, date_t *d)
{
	size_t k, from = t1 - t0 > 20 ? t1 - 20 : t0;
	int iso = 0;

	/* a date begins with a digit or a month's name (date_is() says no to the rest) */
	for (k = from; k < t1; k++)
		if ((k == t0 || !is_word((unsigned char)w->c[k - 1])) &&
		    (is_digit((unsigned char)w->c[k]) || is_alpha((unsigned char)w->c[k])) &&
		    date_is(w, k, t1, &iso))
			break;
	if (k >= t1)
		return 0;
	d->d0 = k;
	d->d1 = t1;
	while (k > t0 && w->c[k - 1] == ' ')
		k--;
	d->canonical = 0;
	if (k > t0 && strchr(",;-", w->c[k - 1])) {
		d->canonical = iso && w->c[k - 1] == ',' && d->d0 == k + 1;
		k--;
		while (k > t0 && w->c[k - 1] == ' ')
			k--;
	}
	d->end = k;
	return 1;
}

/*
 * The quote that closes the "..." opened at w[open]: one followed by the
 * end, a blank or a punctuation mark.  With `nested`, a quotation inside
 * it is skipped whole ("unify the "auto" handling of CRLF"): a quote after
 * a blank and before a non-blank opens one, the next quote after a
 * non-blank closes it.  w->n when there is none.
 */
static size_t quoted_close(const window *w, size_t open, int nested)
{
	size_t depth = 0;

	for (size_t k = open + 1; k < w->n; k++) {
		const char *quote = memchr(w->c + k, '"', w->n - k);
		int ends;

		if (!quote)
			break;
		k = (size_t)(quote - w->c);
		ends = k + 1 >= w->n || strchr(" .,;:)", w->c[k + 1]);
		if (nested && w->c[k - 1] == ' ' && !ends) {
			depth++;
		} else if (nested && depth && w->c[k - 1] != ' ') {
			depth--;
		} else if (ends) {
			return k;
		}
	}
	return w->n;
}

/*
 * Whether w[k..) is a reference of its own, as in git.git's fe2005e7236a
 * `Commit 51a7e8b654 (d93f1713b0 ("gitk: Use themed...", 2009-04-17)`:
 * 7 or more hex chars (after an optional word commit), then a blank and
 * a parenthesis or a quote.
 */
static int nested_ref(const window *w, size_t k)
{
	size_t n = 0;

	if (k < w->n && w->n - k > 7 && !memcmp(w->c + k, "commit ", 7))
		k += 7;
	while (k + n < w->n && is_hex((unsigned char)w->c[k + n]))
		n++;
	if (n < 7 || n > CITE_MAX_HEX)
		return 0;
	k += n;
	if (k >= w->n || w->c[k] != ' ')
		return 0;
	while (k < w->n && w->c[k] == ' ')
		k++;
	return k < w->n && (w->c[k] == '(' || w->c[k] == '"');
}

/*
 * The quote that ends a subject followed by a remark before the closing
 * parenthesis at `close`: ("subject", remark) or ("subject"; remark).
 * The last `",` (or `";`) before it, or SIZE_MAX.
 */
static size_t remark_quote(const window *w, size_t t0, size_t close)
{
	for (size_t k = close; k > t0 + 1; k--)
		if (w->c[k - 2] == '"' && (w->c[k - 1] == ',' || w->c[k - 1] == ';'))
			return k - 2;
	return SIZE_MAX;
}

/* The subject at the start of the window: ("..."), (...), "..." or none. */
static void parse_subject(const window *w, subject_t *s)
{
	size_t k = 0, close, q;
	date_t d;

	memset(s, 0, sizeof(*s));
	while (k < w->n && (w->c[k] == ' ' || w->c[k] == '\t'))
		k++;
	s->spaces = k;
	if (k >= w->n || (w->c[k] != '(' && w->c[k] != '"'))
		return;
	s->open = k;
	if (w->c[k] == '"') {
		close = quoted_close(w, k, 1);
		if (close >= w->n)
			close = quoted_close(w, k, 0);
		if (close >= w->n)
			return;
		s->found = 1;
		s->style |= CITE_STYLE_NO_PARENS;
		s->t0 = k + 1;
		s->t1 = close;
		s->last = close;
		return;
	}
	if (nested_ref(w, k + 1))
		return; /* (<id> ("subject"), ...): no subject of its own */
	s->found = 1;
	close = balanced_close(w, k);
	if (close != SIZE_MAX && trailing_date(w, k + 1, close, &d)) {
		/*
		 * (subject, 2024-12-05) as git writes it, ("subject", 2024-12-05),
		 * and what people make of them: (subject - 2010-07-10),
		 * ("subject" 2006-06-09), (subject; 26-04-2017), (June 19, 2006).
		 */
		size_t a = k + 1, z = d.end;

		s->flags |= CITE_F_DATED;
		s->d0 = d.d0;
		s->d1 = d.d1;
		s->last = close;
		if (z - a >= 2 && w->c[a] == '"' && w->c[z - 1] == '"') {
			a++, z--;
			s->flags |= CITE_F_QUOTED_DATE;
		}
		if (!d.canonical)
			s->style |= CITE_STYLE_LAYOUT;
		/* (on 2009-09-10): when, not what ("on" quoted is a subject) */
		if (!(s->flags & CITE_F_QUOTED_DATE) && z - a == 2 &&
		    (w->c[a] == 'o' || w->c[a] == 'O') && (w->c[a + 1] == 'n' || w->c[a + 1] == 'N'))
			z = a;
		if (z <= a) { /* a date and no subject */
			s->found = 0;
			return;
		}
		s->t0 = a;
		s->t1 = z;
		return;
	}
	if (k + 1 < w->n && w->c[k + 1] == '"') {
		s->t0 = k + 2;
		/*
		 * The balanced parenthesis keeps ("f("a") twice") whole; the first
		 * `")` that ends a subject copes with unbalanced ones ("smile :)").
		 */
		if (close != SIZE_MAX && close >= k + 3 && w->c[close - 1] == '"' &&
		    ends_subject(w, close + 1)) {
			s->t1 = close - 1;
		} else if (close != SIZE_MAX && (q = remark_quote(w, k + 2, close)) != SIZE_MAX) {
			/* ("subject", remark): the remark stays, as a date does */
			s->t1 = q;
			s->flags |= CITE_F_REMARK;
		} else if ((q = quote_paren(w, k + 2)) != SIZE_MAX) {
			s->t1 = q;
			close = q + 1;
		} else if (close != SIZE_MAX && close >= k + 3 && w->c[close - 1] == '"') {
			s->t1 = close - 1;
		} else if (close != SIZE_MAX && close > k + 2) {
			/* ("words ... / more words): the quote lost, the subject ends at its ')' */
			s->style |= CITE_STYLE_UNCLOSED;
			s->t1 = close;
			while (s->t1 > s->t0 && w->c[s->t1 - 1] == ' ')
				s->t1--;
			/* ("words ...”): closed by a typographic quote, U+201D or U+201C */
			if (s->t1 - s->t0 > 3 && (unsigned char)w->c[s->t1 - 3] == 0xe2 &&
			    (unsigned char)w->c[s->t1 - 2] == 0x80 &&
			    ((unsigned char)w->c[s->t1 - 1] == 0x9d ||
			     (unsigned char)w->c[s->t1 - 1] == 0x9c))
				s->t1 -= 3;
		} else {
			s->style |= CITE_STYLE_UNCLOSED;
			s->t1 = window_eol(w, k);
			close = s->t1 - 1;
		}
		s->last = close;
		return;
	}
	s->t0 = k + 1;
	if (close == SIZE_MAX) {
		s->style |= CITE_STYLE_UNCLOSED | CITE_STYLE_NO_QUOTES;
		s->t1 = window_eol(w, k);
		s->last = s->t1 - 1;
		return;
	}
	s->t1 = close;
	s->last = close;
	s->style |= CITE_STYLE_NO_QUOTES;
}

/*
 * The window after the ID at `from` on line l, and the subject it
 * starts.  A subject that does not close within the small window is read
 * again in a window of its lines' whole length, but for one reference a
 * line: a line of garbage costs no more than its length twice.
 */
static void subject_after(parser *p, const line_t *l, size_t from, subject_t *sj)
{
	window *w = &p->w;
	size_t need = 0, k;
	line_t cur = *l;

	window_fill(p, l, from, w->small, sizeof(w->small));
	parse_subject(w, sj);
	if (!w->cut || (sj->found && !(sj->style & CITE_STYLE_UNCLOSED)) ||
	    p->big_line == l->start + 1)
		return;
	for (k = 0; k < w->n && w->c[k] == ' '; k++)
		;
	if (k >= w->n || (w->c[k] != '(' && w->c[k] != '"'))
		return;
	p->big_line = l->start + 1;
	/* the lines the window may take: this one's rest and two more */
	need = l->end - from + 1;
	for (unsigned ln = 1; ln <= 2 && cur.next < p->len; ln++) {
		line_at(p, cur.next, &cur);
		need += cur.end - cur.start + 1;
	}
	if (need > p->big_cap) {
		char *b = realloc(p->big, need);

		if (!b) {
			p->nomem = 1;
			return;
		}
		p->big = b;
		p->big_cap = need;
	}
	window_fill(p, l, from, p->big, need);
	parse_subject(w, sj);
}

/* ---- building references --------------------------------------------------- */

static citation *new_ref(parser *p)
{
	cite_list *l = p->out;

	if (l->n == l->cap) {
		void *v = l->v;

		if (l->n >= SIZE_MAX / sizeof(*l->v) - 1 ||
		    bigvec_reserve(&v, &l->vbytes, (l->n + 1) * sizeof(*l->v))) {
			p->nomem = 1;
			return NULL;
		}
		l->v = v;
		l->cap = l->vbytes / sizeof(*l->v);
	}
	memset(&l->v[l->n], 0, sizeof(l->v[0]));
	return &l->v[l->n];
}

static void set_id(const parser *p, citation *r, size_t q, size_t n)
{
	r->id_start = q;
	r->id_len = n;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p->buf[q + i];

		if (c >= 'A' && c <= 'F')
			r->flags |= CITE_F_UPPER;
		if (i < CITE_ID_MAX)
			r->id[i] = (char)lower(c);
	}
	r->id[n < CITE_ID_MAX ? n : CITE_ID_MAX] = '\0';
}

static int has_digit_and_letter(const char *b, size_t q, size_t n)
{
	int d = 0, a = 0;

	for (size_t i = 0; i < n; i++) {
		if (is_digit((unsigned char)b[q + i]))
			d = 1;
		else
			a = 1;
	}
	return d && a;
}

static int has_digit(const char *b, size_t q, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (is_digit((unsigned char)b[q + i]))
			return 1;
	return 0;
}

/* Copy the subject out of the window into r; 0 or -1 (memory). */
static int take_subject(parser *p, citation *r, const subject_t *s)
{
	const window *w = &p->w;
	size_t n = s->t1 - s->t0, m;
	const char *t;

	r->subject = arena_alloc(&p->out->text, n + 1);
	if (!r->subject) {
		p->nomem = 1;
		return -1;
	}
	memcpy(r->subject, w->c + s->t0, n);
	r->subject[n] = '\0';
	r->subject_len = n;
	r->subj_start = s->t0 < w->n ? win_off(w, s->t0) : win_off(w, w->n - 1) + 1;
	r->subj_end = n ? win_off(w, s->t1 - 1) + 1 : r->subj_start;
	r->end = win_off(w, s->last) + 1;
	r->style |= s->style;
	r->flags |= s->flags;
	if (s->flags & CITE_F_DATED) {
		r->date_start = win_off(w, s->d0);
		r->date_len = win_off(w, s->d1 - 1) + 1 - r->date_start;
	}
	/* "subject..." or "subject…": what comes before is a prefix */
	t = r->subject;
	m = n;
	if (m >= 5 && !memcmp(t + m - 5, "[...]", 5))
		m -= 5;
	else if (m >= 3 && !memcmp(t + m - 3, "...", 3))
		m -= 3;
	else if (m >= 3 && !memcmp(t + m - 3, "\xe2\x80\xa6", 3))
		m -= 3;
	else if (m >= 3 && !memcmp(t + m - 2, "..", 2) && t[m - 3] != '.')
		m -= 2; /* "programmed..": two dots mean the same */
	if (m != n) {
		while (m && t[m - 1] == ' ')
			m--;
		r->flags |= CITE_F_ELLIPSIS;
		r->match_len = m;
	}
	return 0;
}

/* ---- another project's commits ---------------------------------------------- */

/* How far before a reference the words naming its project are looked for. */
#define FOREIGN_REACH 160

/* The end of the word b[s..e) without its "'s" (Linux's). */
static size_t possessive(const char *b, size_t s, size_t e)
{
	return e - s > 2 && b[e - 2] == '\'' && b[e - 1] == 's' ? e - 2 : e;
}

/* Projects whose commits other projects cite by name: "Linux commit <id>". */
static int project_word(const char *b, size_t s, size_t e)
{
	static const char *const names[] = {
		"linux", "kernel", "mainline", "upstream", "qemu", "glibc", "gcc", "llvm", "clang",
		"freebsd", "netbsd", "openbsd", "musl", "busybox", "u-boot", "openssl", "curl",
		"libgit2", "dpdk", "ffmpeg", "mesa", "systemd", "binutils", "gdb", "zephyr", "xen",
		"gnulib", "coreutils", "libbpf", "wine", "openwrt", "buildroot", "chromium",
	};

	e = possessive(b, s, e);
	if (e - s > 4 && !memcmp(b + e - 4, ".git", 4))
		return 1; /* git.git, linux.git */
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (e - s == strlen(names[i]) && iprefix(b, s, e, names[i]))
			return 1;
	return 0;
}

/* The word of b[lo..hi) that ends at or before `at` (skipping blanks): its start, or SIZE_MAX. */
static size_t word_end_before(const char *b, size_t lo, size_t *at)
{
	size_t e = *at, s;

	while (e > lo && (is_space((unsigned char)b[e - 1]) || b[e - 1] == '\n'))
		e--;
	s = e;
	while (s > lo && !is_space((unsigned char)b[s - 1]) && b[s - 1] != '\n' &&
	       b[s - 1] != '(' && b[s - 1] != '"')
		s--;
	*at = e;
	return s < e ? s : SIZE_MAX;
}

/* Keep the project's name b[s..e) as the reference's; 0 or -1 (memory). */
static int set_project(parser *p, citation *r, size_t s, size_t e)
{
	e = possessive(p->buf, s, e);
	if (e - s > 60)
		e = s + 60;
	r->project = arena_alloc(&p->out->text, e - s + 1);
	if (!r->project) {
		p->nomem = 1;
		return -1;
	}
	memcpy(r->project, p->buf + s, e - s);
	r->project[e - s] = '\0';
	r->flags |= CITE_F_FOREIGN;
	r->foreign = CITE_FOREIGN_NAMED;
	return 0;
}

/*
 * Where the words after a reference that ends at `at` stop: the end of
 * its line, or of the next line when only blanks follow it on its own
 * (the sentence goes on there); never past a blank line.
 */
static size_t word_end(const char *b, size_t q, size_t e);

static size_t after_end(const parser *p, size_t at)
{
	const char *b = p->buf, *nl = memchr(b + at, '\n', p->len - at);
	size_t e = nl ? (size_t)(nl - b) : p->len, n;

	if (skip_ws(p, at, e) < e || e >= p->len)
		return trim_end(p, at, e);
	nl = memchr(b + e + 1, '\n', p->len - e - 1);
	n = nl ? (size_t)(nl - b) : p->len;
	return trim_end(p, e + 1, n) > e + 1 ? trim_end(p, e + 1, n) : e;
}

/*
 * Whether the text names reference r as another project's: "Backported
 * from the Linux kernel commit <id>", "Ported from Linux commit <id>",
 * "QEMU commit <id>", "<id> (...) in git.git"; or it stands in a quoted
 * message or example: an indented Fixes: tag or revert line, or prose
 * indented by a tab or four blanks (as git log quotes a message).
 */
static void name_foreign(parser *p, const line_t *l, citation *r)
{
	static const char *const verbs[] = {
		"ported from", "backported from", "imported from", "taken from", "synced from",
		"adapted from", "borrowed from", "derived from", "backport of", "port of",
	};
	const char *b = p->buf;
	size_t ls = l->start, e = trim_end(p, l->start, l->end), before = r->start, w, q, from, ae;
	size_t ind = 0;

	/* the second of two named together: "Linux commit <a> (...) and <b> (...)" */
	if (p->out->n > p->msg_first) {
		const citation *pr = &p->out->v[p->out->n - 1];
		size_t z = pr->end;

		while (z < before && (is_space((unsigned char)b[z]) || b[z] == '\n'))
			z++;
		if ((pr->flags & CITE_F_FOREIGN) && pr->foreign == CITE_FOREIGN_NAMED &&
		    pr->end <= before && z < before && (b[z] == ',' || iword(b, z, before, "and"))) {
			z = skip_ws(p, z + (b[z] == ',' ? 1 : 3), before);
			while (z < before && (is_space((unsigned char)b[z]) || b[z] == '\n'))
				z++;
			if (z == before) {
				r->project = pr->project;
				r->flags |= CITE_F_FOREIGN;
				r->foreign = CITE_FOREIGN_NAMED;
				return;
			}
		}
	}
	/* the line before too, when "commit <id>" starts its line */
	if (r->kind == CITE_COMMIT && skip_ws(p, ls, before) == before && ls > 0) {
		for (ls--; ls > 0 && b[ls - 1] != '\n';)
			ls--;
	}
	/* a bounded look back: a line of many references stays linear */
	if (before - ls > FOREIGN_REACH)
		ls = before - FOREIGN_REACH;
	/* "ported from <project> commit <id>", "backport of <id> from <project>" */
	for (q = ls; q < before; q++) {
		/* a verb starts a word: most places start none, and are passed at once */
		if (q > ls && is_word((unsigned char)b[q - 1]))
			continue;
		for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++) {
			size_t n, a, z;

			if (lower((unsigned char)b[q]) != (unsigned char)verbs[i][0] ||
			    !iword(b, q, before, verbs[i]))
				continue;
			n = strlen(verbs[i]);
			a = skip_ws(p, q + n, before);
			if (iword(b, a, before, "the"))
				a = skip_ws(p, a + 3, before);
			z = before;
			while (z > a && (is_space((unsigned char)b[z - 1]) || b[z - 1] == '\n'))
				z--;
			if (z - a >= 6 && iprefix(b, z - 6, z, "commit"))
				z -= 6; /* "ported from Linux commit <id>": Linux */
			while (z > a && (is_space((unsigned char)b[z - 1]) || b[z - 1] == '\n'))
				z--;
			/* the words between name the project: a few, in one sentence */
			if (z - a >= 40 || memchr(b + a, '\n', z - a) || memchr(b + a, '.', z - a) ||
			    memchr(b + a, ',', z - a))
				continue;
			set_project(p, r, a, z); /* z == a: named as ported, not from where */
			return;
		}
	}
	/* the word before "commit <id>": Linux commit, git.git's commit */
	if (r->kind == CITE_COMMIT && !(r->flags & CITE_F_BARE)) {
		w = before;
		q = word_end_before(b, ls, &w);
		if (q != SIZE_MAX && project_word(b, q, w)) {
			set_project(p, r, q, w);
			return;
		}
	}
	/* a project's, possessive, before a bare ID: "Similarly to Linux's <id> (...)" */
	if (r->kind == CITE_COMMIT && (r->flags & CITE_F_BARE)) {
		w = before;
		q = word_end_before(b, ls, &w);
		if (q != SIZE_MAX && possessive(b, q, w) != w && project_word(b, q, w)) {
			set_project(p, r, q, w);
			return;
		}
	}
	/*
	 * after it, in its sentence: "in git.git", "from Linux", "of the QEMU
	 * tree", "<id> (...) upstream", "<id> (...)\n(Linux commit sha)"; on
	 * the line where it ends, or in prose the next one when nothing follows
	 * it there (a tag's line is the tag's)
	 */
	ae = r->kind == CITE_COMMIT ? after_end(p, r->end) : trim_end(p, r->end, e > r->end ? e : r->end);
	q = skip_ws(p, r->end, ae);
	if (q < ae && b[q] == '\n')
		q = skip_ws(p, q + 1, ae);
	from = q;
	if (q < ae && b[q] == '(') {
		size_t a = skip_ws(p, q + 1, ae), z = word_end(b, a, ae);

		if (z > a && project_word(b, a, z) && iword(b, skip_ws(p, z, ae), ae, "commit")) {
			set_project(p, r, a, z);
			return;
		}
	} else if (!(r->flags & CITE_F_UPSTREAM) && iword(b, q, ae, "upstream") &&
		   (q + 8 == ae || !is_word((unsigned char)b[q + 8]))) {
		/* (a stable tree's "commit <id> upstream." is the message's marker) */
		set_project(p, r, q, q + 8);
		return;
	}
	for (q = from; q < ae && q < from + 40; q++) {
		size_t a, z;

		if (!(iword(b, q, ae, "in") || iword(b, q, ae, "of") || iword(b, q, ae, "from")) ||
		    (q > 0 && is_word((unsigned char)b[q - 1])))
			continue;
		a = skip_ws(p, q + (b[q] == 'f' || b[q] == 'F' ? 4 : 2), ae);
		if (iword(b, a, ae, "the"))
			a = skip_ws(p, a + 3, ae);
		for (z = a; z < ae && !is_space((unsigned char)b[z]) && !strchr(",;)", b[z]); z++)
			;
		while (z > a && (b[z - 1] == '.' || b[z - 1] == ':'))
			z--;
		if (z > a && project_word(b, a, z)) {
			set_project(p, r, a, z);
			return;
		}
	}
	/* quoted: an indented tag, or prose indented as git log indents a message */
	while (l->start + ind < e && b[l->start + ind] == ' ')
		ind++;
	if ((r->kind != CITE_COMMIT && r->start > l->start && is_space((unsigned char)b[l->start])) ||
	    b[l->start] == '\t' || ind >= 4) {
		r->flags |= CITE_F_FOREIGN;
		r->foreign = CITE_FOREIGN_QUOTED;
	}
}

/*
 * A message ends (another begins, or the input): if it carries another
 * project's marker, all of its references are that project's.
 */
static void message_end(parser *p)
{
	cite_list *o = p->out;

	if (p->msg_foreign)
		for (size_t i = p->msg_first; i < o->n; i++)
			if (!(o->v[i].flags & CITE_F_FOREIGN)) {
				o->v[i].flags |= CITE_F_FOREIGN;
				o->v[i].foreign = CITE_FOREIGN_MESSAGE;
			}
	if (p->msg_stable)
		for (size_t i = p->msg_first; i < o->n; i++)
			o->v[i].flags |= CITE_F_STABLE;
	p->msg_first = o->n;
	p->msg_foreign = 0;
	p->msg_stable = 0;
}

/*
 * A trailer `Cc: stable@vger.kernel.org` (any case, with a name, angle
 * brackets or a "# 6.1+" after it; stable@kernel.org, its older address):
 * the message was sent to Linux's stable list.
 */
static int stable_cc(const parser *p, size_t s, size_t e)
{
	const char *b = p->buf;

	if (!iprefix(b, s, e, "cc:"))
		return 0;
	for (size_t q = s + 3; q < e; q++) {
		size_t a = q + 7;

		if (!iprefix(b, q, e, "stable@") || (q > s && is_word((unsigned char)b[q - 1])))
			continue;
		if (iprefix(b, a, e, "vger."))
			a += 5;
		if (iprefix(b, a, e, "kernel.org") &&
		    (a + 10 == e || !(is_word((unsigned char)b[a + 10]) || b[a + 10] == '.')))
			return 1;
	}
	return 0;
}

/* The end of the word at b[q..e) (letters, digits, "-", "_", "."), without a final "." or ":". */
static size_t word_end(const char *b, size_t q, size_t e)
{
	size_t z = q;

	while (z < e && (is_word((unsigned char)b[z]) || b[z] == '-' || b[z] == '.' || b[z] == '\''))
		z++;
	while (z > q && (b[z - 1] == '.' || b[z - 1] == ':'))
		z--;
	return z;
}

/*
 * After "from" (or "with") at b[q..e): whether the words name another
 * project: "from Linux", "from the Linux kernel", "from ovn commit",
 * "from kernel repository" (a name that is not "commit" followed by
 * "commit", "repository", "tree" or "kernel").
 */
static int from_project(const parser *p, size_t q, size_t e)
{
	const char *b = p->buf;
	size_t z, a;

	q = skip_ws(p, q, e);
	if (iword(b, q, e, "the"))
		q = skip_ws(p, q + 3, e);
	z = word_end(b, q, e);
	if (z == q || iword(b, q, e, "commit"))
		return 0;
	if (project_word(b, q, z))
		return 1;
	a = skip_ws(p, z, e);
	return iword(b, a, e, "commit") || iword(b, a, e, "repository") || iword(b, a, e, "tree") ||
	       iword(b, a, e, "kernel");
}

/*
 * Whether b[s..e) holds "sync" in any case: where sync_marker()'s verb may
 * start (most lines have none: one pass without a branch per word).
 */
static int has_sync(const char *b, size_t s, size_t e)
{
	for (size_t q = s; q + 4 <= e; q++)
		if ((b[q] | 0x20) == 's' && (b[q + 1] | 0x20) == 'y' && (b[q + 2] | 0x20) == 'n' &&
		    (b[q + 3] | 0x20) == 'c')
			return 1;
	return 0;
}

/*
 * A line that says the message brings in another project's commits:
 * "Syncing latest libbpf commits from kernel repository", "synced with
 * the Linux kernel" (a word starting "sync", then "from" or "with" and a
 * project).  "Backported from Linux commit <id>" names that reference
 * only (name_foreign()).
 */
static int sync_marker(const parser *p, size_t s, size_t e)
{
	const char *b = p->buf;
	int verb = 0;

	if (!has_sync(b, s, e))
		return 0;
	/* word by word: only where one starts can a word match ("re-sync" counts) */
	for (size_t q = s; q < e;) {
		if (!is_word((unsigned char)b[q])) {
			q++;
			continue;
		}
		if (!verb) {
			verb = iprefix(b, q, e, "sync");
		} else if ((iword(b, q, e, "from") || iword(b, q, e, "with")) &&
			   from_project(p, q + 4, e)) {
			return 1;
		}
		while (q < e && is_word((unsigned char)b[q]))
			q++;
	}
	return 0;
}

/*
 * A line that says the message is another project's: [ upstream commit:
 * <id> ], Upstream commit:, Upstream: <id>; a note in brackets or
 * parentheses that names where the message was taken from: "(cherry
 * picked from linux commit <id>)", "[afa: ported to barebox from Linux
 * commit <id>]", "[Ported to U-Boot from the Linux kernel]", "[Linux
 * commit: <id>]" (git's own "(cherry picked from commit <id>)" names no
 * project: see CITE_F_PICKED); or that it brings such commits in
 * (sync_marker()).
 */
static void note_marker(parser *p, size_t s, size_t e)
{
	const char *b = p->buf;
	size_t q, z;

	if (s < e && (b[s] == '[' || b[s] == '(')) {
		q = skip_ws(p, s + 1, e);
		z = word_end(b, q, e);
		/* [Linux commit: <id>] */
		if (z > q && !iword(b, q, e, "commit") &&
		    (iprefix(b, skip_ws(p, z, e), e, "commit:") ||
		     (iword(b, skip_ws(p, z, e), e, "commit") && b[s] == '[')))
			p->msg_foreign = 1;
		/* "from <project>", "of <project> commit" (backport of linux commit <id>) */
		for (q = s + 1; q < e && !p->msg_foreign; q++) {
			if (is_word((unsigned char)b[q - 1]))
				continue;
			if (iword(b, q, e, "from") && from_project(p, q + 4, e))
				p->msg_foreign = 1;
			else if (iword(b, q, e, "of") &&
				 iword(b, skip_ws(p, word_end(b, skip_ws(p, q + 2, e), e), e), e,
				       "commit") && from_project(p, q + 2, e))
				p->msg_foreign = 1;
		}
		s = skip_ws(p, s + 1, e);
	}
	if (iprefix(b, s, e, "upstream commit") || iprefix(b, s, e, "upstream:"))
		p->msg_foreign = 1;
	/*
	 * Upstream Linux commit <id>.  Source kernel commit: <id> (xfsprogs
	 * brings its libxfs over from the kernel so, a commit at a time).
	 */
	if (iword(b, s, e, "upstream") || iword(b, s, e, "source")) {
		size_t a = skip_ws(p, s + (b[s] == 's' || b[s] == 'S' ? 6 : 8), e),
		       w = word_end(b, a, e);

		if (w > a && project_word(b, a, w) && iword(b, skip_ws(p, w, e), e, "commit"))
			p->msg_foreign = 1;
	}
	if (!p->imp && sync_marker(p, s, e)) {
		p->msg_foreign = 1;
		p->imp = !!(p->opts & CITE_PARSE_MESSAGE); /* the list: --range only */
	}
}

/* Append b[s..e), blanks collapsed, to the last subject listed (a new one when `fresh`). */
static void import_add(parser *p, size_t s, size_t e, int fresh)
{
	cite_list *o = p->out;
	size_t need = o->imports_len + (e - s) + 2;

	if (!fresh && p->imp_last == SIZE_MAX)
		return;
	if (need > o->imports_cap) {
		size_t cap = o->imports_cap ? o->imports_cap : 256;
		char *v;

		while (cap < need)
			cap *= 2;
		if (!(v = realloc(o->imports, cap))) {
			p->nomem = 1;
			return;
		}
		o->imports = v;
		o->imports_cap = cap;
	}
	if (fresh) {
		p->imp_last = o->imports_len;
		o->nimports++;
	} else {
		o->imports[o->imports_len - 1] = ' '; /* its NUL */
	}
	for (size_t q = s; q < e; q++) {
		int sp = is_space((unsigned char)p->buf[q]);

		if (sp && (o->imports_len == p->imp_last || o->imports[o->imports_len - 1] == ' '))
			continue;
		o->imports[o->imports_len++] = sp ? ' ' : p->buf[q];
	}
	while (o->imports_len > p->imp_last && o->imports[o->imports_len - 1] == ' ')
		o->imports_len--;
	o->imports[o->imports_len++] = '\0';
}

/*
 * After sync_marker(): the commits listed as brought in, as git shortlog
 * lists them ("Name (N):", then the subjects indented, a wrapped one
 * indented further) or as `git log --oneline` does (`<id> <subject>`).
 */
static void import_line(parser *p, const line_t *l, size_t s, size_t e)
{
	const char *b = p->buf;
	size_t ind = s - l->start, n;

	if (s >= e) {
		p->imp_last = SIZE_MAX;
		return;
	}
	if (ind == 0 && e - s > 4 && b[e - 1] == ':' && b[e - 2] == ')') {
		size_t q = e - 2;

		while (q > s && is_digit((unsigned char)b[q - 1]))
			q--;
		if (q < e - 2 && q > s + 1 && b[q - 1] == '(' && b[q - 2] == ' ') {
			p->imp = 2;
			p->imp_ind = 0;
			p->imp_last = SIZE_MAX;
			return;
		}
	}
	if (p->imp == 2 && ind > 0) {
		if (!p->imp_ind || ind == p->imp_ind) {
			p->imp_ind = ind;
			import_add(p, s, e, 1);
		} else if (ind > p->imp_ind) {
			import_add(p, s, e, 0);
		}
		return;
	}
	n = hex_run(b, s, e);
	if (n >= 7 && n <= CITE_MAX_HEX && s + n < e && b[s + n] == ' ') {
		size_t a = skip_ws(p, s + n, e), z = e;

		if (a + 1 < z && b[a] == '(' && b[z - 1] == ')')
			a++, z--;
		if (a + 1 < z && b[a] == '"' && b[z - 1] == '"')
			a++, z--;
		if (a < z)
			import_add(p, a, z, 1);
		p->imp_last = SIZE_MAX;
		return;
	}
	p->imp = 1;
	p->imp_last = SIZE_MAX;
}

/* The message's subject as git's %s: its first paragraph, blanks collapsed. */
static void message_title(parser *p)
{
	const char *b = p->buf;
	size_t s = p->len, e = 0, k = 0;
	char *t;

	for (size_t pos = 0; pos < p->len;) {
		line_t l;

		line_at(p, pos, &l);
		pos = l.next;
		if (skip_ws(p, l.start, l.end) >= l.end) {
			if (s < p->len)
				break; /* git skips blank lines before it; one after ends it */
			continue;
		}
		if (s == p->len)
			s = l.start;
		e = l.end;
	}
	if (s > e)
		s = e = 0;
	if (!(t = arena_alloc(&p->out->text, e - s + 1))) {
		p->nomem = 1;
		return;
	}
	for (size_t q = s; q < e; q++) {
		int sp = is_space((unsigned char)b[q]) || b[q] == '\n';

		if (sp && (!k || t[k - 1] == ' '))
			continue;
		t[k++] = sp ? ' ' : b[q];
	}
	while (k && t[k - 1] == ' ')
		k--;
	t[k] = '\0';
	p->out->title = t;
}

static void push_ref(parser *p, const line_t *l)
{
	citation *r = &p->out->v[p->out->n];

	if (r->flags & CITE_F_UPSTREAM)
		p->msg_foreign = 1; /* commit <id> upstream. */
	if (r->kind == CITE_COMMIT && !(r->flags & CITE_F_BARE)) {
		/* git cherry-pick -x: "(cherry picked from commit <id>)" */
		size_t q = skip_ws(p, l->start, r->start);

		if (q < r->start && p->buf[q] == '(' &&
		    iprefix(p->buf, q + 1, r->start, "cherry picked from") &&
		    skip_ws(p, q + 19, r->start) == r->start)
			r->flags |= CITE_F_PICKED;
	}
	name_foreign(p, l, r);
	p->out->n++;
}

/* The hex ID at b[q..e): its length, or 0 if there is none (a word, too long). */
static size_t id_at(const parser *p, size_t q, size_t e, size_t min)
{
	size_t n = hex_run(p->buf, q, e);

	if (n < min || n > CITE_MAX_HEX)
		return 0;
	if (q + n < e && is_word((unsigned char)p->buf[q + n]))
		return 0;
	return n;
}

/* "Fixes: <id> ("subject")" at b[s..); the end of the reference, or 0. */
static size_t try_fixes(parser *p, const line_t *l, size_t lineno, size_t s)
{
	const char *b = p->buf;
	size_t e = trim_end(p, l->start, l->end), q = s + 5, sp, n;
	unsigned style = 0;
	int maybe = 0;
	subject_t sj;
	citation *r;

	if (q < e && b[q] == ':')
		q++;
	if (q != s + 6 || memcmp(b + s, "Fixes", 5))
		style |= CITE_STYLE_TAG;
	sp = q;
	q = skip_ws(p, q, e);
	sp = q - sp;
	if (iword(b, q, e, "commit")) {
		style |= CITE_STYLE_COMMIT_WORD;
		q = skip_ws(p, q + 6, e);
	}
	n = id_at(p, q, e, 5);
	if (!n)
		return 0;
	subject_after(p, l, q + n, &sj);
	/* a bug number, a word: a commit only if one has the ID */
	if (!sj.found && !has_digit_and_letter(b, q, n)) {
		if (n < CITE_MAYBE_MIN_HEX)
			return 0;
		maybe = 1;
	}
	if (sp != 1)
		style |= CITE_STYLE_SPACING;
	r = new_ref(p);
	if (!r)
		return 0;
	r->kind = CITE_FIXES;
	r->line = lineno;
	r->start = s;
	r->end = q + n;
	set_id(p, r, q, n);
	if (maybe)
		r->flags |= CITE_F_MAYBE;
	if (sj.found) {
		if (take_subject(p, r, &sj))
			return 0;
		if (win_line(&p->w, sj.last))
			style |= CITE_STYLE_SPLIT;
		else if (sj.spaces != 1)
			style |= CITE_STYLE_SPACING;
	} else {
		style |= CITE_STYLE_NO_SUBJECT;
	}
	r->style |= style;
	push_ref(p, l);
	return r->end;
}

/*
 * Whether the hex word b[q..q+n) on line l stands alone as a bare ID in
 * prose, as checkpatch's GIT_COMMIT_ID sees one: CITE_BARE_MIN_HEX to
 * CITE_ID_MAX hex chars with a letter and a digit, after the line's
 * start, a blank, a quote or '(', before its end, a blank, a quote, a
 * bracket or a punctuation mark that ends a clause; not inside [...] or
 * <...> (a link or a mail ID), not one end of a range "a..b", not the
 * parent git names in a merge's revert.
 */
static int bare_word(const parser *p, const line_t *l, size_t q, size_t n)
{
	const char *b = p->buf;
	size_t e = trim_end(p, l->start, l->end), z = q + n;
	unsigned char before = q > l->start ? (unsigned char)b[q - 1] : ' ';
	unsigned char after = z < e ? (unsigned char)b[z] : ' ';

	size_t s = trim_end(p, l->start, q);

	if (n < CITE_BARE_MIN_HEX || n > CITE_ID_MAX || !has_digit_and_letter(b, q, n))
		return 0;
	/* git's own "reversing changes made to <parent>" of a merge's revert */
	if (s - l->start >= 15 && iprefix(b, s - 15, s, "changes made to"))
		return 0;
	if (!is_space(before) && !(before && strchr("(\"'`", before)))
		return 0;
	if (after == '.' || after == ':') /* a full stop, not "a..b" or a URL's "a:b" */
		return z + 1 >= e || is_space((unsigned char)b[z + 1]);
	return is_space(after) || (after && strchr(")\"'`,;!?(", after));
}

/* The word before b[s] (skipping blanks) is `word`. */
static int word_before(const parser *p, size_t ls, size_t s, const char *word)
{
	size_t n = strlen(word);

	while (s > ls && is_space((unsigned char)p->buf[s - 1]))
		s--;
	if (s - ls < n || (s - ls > n && is_word((unsigned char)p->buf[s - n - 1])))
		return 0;
	return iprefix(p->buf, s - n, s, word);
}

/* The window (after the ID) begins with the word `word`. */
static int window_word(const window *w, const char *word)
{
	size_t k = 0, n = strlen(word);

	while (k < w->n && w->c[k] == ' ')
		k++;
	if (w->n - k < n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (lower((unsigned char)w->c[k + i]) != (unsigned char)word[i])
			return 0;
	return ends_word(w, k + n);
}

/*
 * "commit <id> ("subject")" with b[s..s+6) the word commit, or a bare
 * "<id> ("subject")" at b[s..) (bare = 1); the end of the reference or 0.
 */
static size_t try_commit(parser *p, const line_t *l, size_t lineno, size_t s, int bare)
{
	const char *b = p->buf;
	size_t e = trim_end(p, l->start, l->end), q = bare ? s : s + 6, n;
	line_t idl = *l;
	int maybe = 0;
	subject_t sj;
	citation *r;

	if (!bare) {
		if (q < e && !is_space((unsigned char)b[q]))
			return 0;
		q = skip_ws(p, q, e);
		if (q >= e) { /* "commit" ends the line: the ID begins the next one */
			if (l->next >= p->len)
				return 0;
			line_at(p, l->next, &idl);
			if (!is_continuation(p, &idl))
				return 0;
			e = trim_end(p, idl.start, idl.end);
			q = skip_ws(p, idl.start, e);
		}
	}
	n = id_at(p, q, e, bare ? 7 : 5);
	if (!n)
		return 0;
	subject_after(p, &idl, q + n, &sj);
	if (bare) {
		if (sj.found && (sj.style & (CITE_STYLE_NO_QUOTES | CITE_STYLE_NO_PARENS |
					     CITE_STYLE_UNCLOSED)) && !(sj.flags & CITE_F_DATED))
			sj.found = 0; /* words in parentheses after a hex word: prose */
		if (!sj.found && !bare_word(p, l, q, n))
			return 0;
		maybe = !sj.found;
	} else if (!sj.found && n < CITE_MAYBE_MIN_HEX) {
		return 0; /* 5 or 6 hex chars name some commit by chance too often */
	} else if (!sj.found && !has_digit_and_letter(b, q, n)) {
		maybe = 1;
	}
	r = new_ref(p);
	if (!r)
		return 0;
	r->kind = CITE_COMMIT;
	r->line = lineno;
	r->start = s;
	r->end = q + n;
	set_id(p, r, q, n);
	if (maybe)
		r->flags |= CITE_F_MAYBE;
	if (bare)
		r->flags |= CITE_F_BARE;
	else if (b[s] == 'C')
		r->flags |= CITE_F_CAPITAL;
	if (!bare && (word_before(p, l->start, s, "upstream") ||
		      (!sj.found && window_word(&p->w, "upstream"))))
		r->flags |= CITE_F_UPSTREAM;
	if (sj.found) {
		if (take_subject(p, r, &sj))
			return 0;
	} else if (!(r->flags & CITE_F_UPSTREAM)) {
		r->style |= CITE_STYLE_NO_SUBJECT;
	}
	push_ref(p, l);
	return r->end;
}

/* "This reverts commit <id>." at b[s..); the end of the reference or 0. */
static size_t try_revert(parser *p, const line_t *l, size_t lineno, size_t s)
{
	size_t e = trim_end(p, l->start, l->end), q, n;
	citation *r;

	q = skip_ws(p, s + 12, e); /* "this reverts" */
	if (!iword(p->buf, q, e, "commit"))
		return 0;
	q = skip_ws(p, q + 6, e);
	n = id_at(p, q, e, 7);
	if (!n || !has_digit(p->buf, q, n))
		return 0;
	r = new_ref(p);
	if (!r)
		return 0;
	r->kind = CITE_REVERT;
	r->line = lineno;
	r->start = q;
	r->end = q + n;
	set_id(p, r, q, n);
	if (p->title && lineno - p->title_line <= TITLE_REACH) {
		r->subject = arena_alloc(&p->out->text, p->title_len + 1);
		if (!r->subject) {
			p->nomem = 1;
			return 0;
		}
		memcpy(r->subject, p->title, p->title_len + 1);
		r->subject_len = p->title_len;
		r->flags |= CITE_F_TITLE;
	}
	push_ref(p, l);
	return r->end;
}

static int all_hex(const char *b, size_t s, size_t e)
{
	for (size_t q = s; q < e; q++)
		if (!is_hex((unsigned char)b[q]))
			return 0;
	return 1;
}

/* The references of one line of prose, from b[s] (its first non-blank) to e. */
static void scan_prose(parser *p, const line_t *l, size_t lineno, size_t s, size_t e)
{
	const char *b = p->buf;
	size_t pos = s, end;

	if (p->resume > l->start) {
		if (p->resume >= e)
			return;
		pos = p->resume;
	} else {
		note_title(p, b, s, e, lineno);
		if (iword(b, s, e, "fixes") && (end = try_fixes(p, l, lineno, s))) {
			pos = end;
		} else if (iprefix(b, s, e, "this reverts ") && (end = try_revert(p, l, lineno, s))) {
			pos = end;
		}
		/* a title belongs to the line after it (the blank between does not count) */
		if (p->title && p->title_line != lineno)
			drop_title(p);
		if (pos == s && is_link_line(p, s, e))
			return;
		if (pos > l->end) {
			p->resume = pos;
			return;
		}
	}
	while (pos < e && !p->nomem) {
		size_t we;

		if (!is_word((unsigned char)b[pos]) || (pos > l->start && is_word((unsigned char)b[pos - 1]))) {
			pos++;
			continue;
		}
		for (we = pos; we < e && is_word((unsigned char)b[we]); we++)
			;
		end = 0;
		if (we - pos == 6 && iword(b, pos, e, "commit"))
			end = try_commit(p, l, lineno, pos, 0);
		else if (we - pos >= 7 && we - pos <= CITE_MAX_HEX && all_hex(b, pos, we) &&
			 has_digit_and_letter(b, pos, we - pos) &&
			 (pos == l->start || is_space((unsigned char)b[pos - 1]) ||
			  (b[pos - 1] && strchr("([\"'`", b[pos - 1]))))
			end = try_commit(p, l, lineno, pos, 1);
		if (end > l->end) {
			p->resume = end;
			return;
		}
		pos = end ? end : we;
	}
}

static void process_line(parser *p, const line_t *l, size_t lineno)
{
	const char *b = p->buf;
	size_t s = skip_ws(p, l->start, l->end), e = trim_end(p, l->start, l->end);

	if (p->opts & CITE_PARSE_MESSAGE) {
		if (is_log_header(p, l)) /* `git log` output pasted into a message */
			return;
	} else {
		if (is_mbox_from(p, l) || is_log_header(p, l) ||
		    (lineno == 1 && is_mail_header(p, l))) {
			message_end(p);
			p->state = ST_HEADER;
			p->in_subject = 0;
			drop_title(p);
			if (lineno == 1 && is_mail_header(p, l))
				header_line(p, l, lineno);
			return;
		}
	}
	if (p->state == ST_HEADER) {
		if (s >= e)
			p->state = ST_TEXT;
		else
			header_line(p, l, lineno);
		return;
	}
	if (p->state == ST_DIFF) {
		if (is_diff_content(p, l))
			return;
		p->state = ST_TEXT;
	}
	if (s >= e)
		return;
	if (is_diff_start(p, l)) {
		p->state = ST_DIFF;
		return;
	}
	if (b[s] == '>')
		return;
	if (p->imp)
		import_line(p, l, s, e);
	if ((p->opts & CITE_PARSE_MESSAGE) && stable_cc(p, s, e))
		p->msg_stable = 1;
	note_marker(p, s, e);
	scan_prose(p, l, lineno, s, e);
}

int cite_parse(cite_list *out, const char *buf, size_t len, unsigned opts)
{
	parser *p = calloc(1, sizeof(*p));
	size_t pos = 0, lineno = 0;
	int ret;

	if (!p)
		return -1;
	p->buf = buf;
	p->len = len;
	p->opts = opts;
	p->out = out;
	p->state = ST_TEXT;
	p->imp_last = SIZE_MAX;
	if (opts & CITE_PARSE_MESSAGE)
		message_title(p);
	while (pos < len && !p->nomem) {
		line_t l;

		line_at(p, pos, &l);
		process_line(p, &l, ++lineno);
		pos = l.next;
	}
	message_end(p);
	ret = p->nomem ? -1 : 0;
	drop_title(p);
	free(p->hsubj);
	free(p->big);
	free(p);
	return ret;
}

void cite_list_free(cite_list *l)
{
	if (!l)
		return;
	arena_free(&l->text);
	free(l->imports);
	bigvec_free(l->v, l->vbytes);
	memset(l, 0, sizeof(*l));
}

const char *cite_kind_name(int kind)
{
	switch (kind) {
	case CITE_FIXES: return "fixes";
	case CITE_COMMIT: return "commit";
	case CITE_REVERT: return "revert";
	default: return "unknown";
	}
}

char *cite_format_fixed(const char *buf, const citation *r, const char *hex, const char *subject)
{
	const char *word = "";
	char *out = NULL;
	int rc;

	if (r->kind == CITE_REVERT)
		return strdup(hex);
	if (r->kind == CITE_FIXES)
		word = "Fixes: ";
	else if (!(r->flags & CITE_F_BARE))
		word = r->flags & CITE_F_CAPITAL ? "Commit " : "commit ";
	if (r->flags & CITE_F_DATED)
		rc = asprintf(&out, (r->flags & CITE_F_QUOTED_DATE) ? "%s%s (\"%s\", %.*s)" :
			      "%s%s (%s, %.*s)", word, hex, subject, (int)r->date_len,
			      buf + r->date_start);
	else
		rc = asprintf(&out, "%s%s (\"%s\")", word, hex, subject);
	return rc < 0 ? NULL : out;
}
