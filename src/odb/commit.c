/*
 * commit.c - subject and committer time of a raw commit object.
 *
 * A commit is headers ("tree", "parent", "author", "committer",
 * "encoding", ...), a blank line, and the message.  Only the committer
 * line's time and the message's first paragraph are read; the rest is
 * skipped without being checked (git checks it when it writes).
 */
#include <config.h>

#include "commit.h"

#include <stdlib.h>
#include <string.h>

#include "hexid.h"

/* git's isspace(): space, tab, newline and carriage return, not \v or \f */
static int is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int64_t commit_when(const char *d, size_t len, int *tz)
{
	const char *p = d, *end = d + len;

	*tz = 0;
	while (p < end && *p != '\n') { /* headers, up to the blank line */
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *q;
		int64_t t = 0;

		if (!nl)
			nl = end;
		if (nl - p > 10 && !memcmp(p, "committer ", 10)) {
			for (q = nl; q > p && q[-1] != '>'; q--)
				;
			if (q == p)
				return 0;
			while (q < nl && *q == ' ')
				q++;
			for (; q < nl && *q >= '0' && *q <= '9'; q++) {
				if (t > (INT64_MAX - (*q - '0')) / 10)
					return 0;
				t = t * 10 + (*q - '0');
			}
			while (q < nl && *q == ' ')
				q++;
			/* git's zone: a sign and four digits, hhmm; anything else is +0000 */
			if (nl - q >= 5 && (*q == '+' || *q == '-') && q[1] >= '0' && q[1] <= '9' &&
			    q[2] >= '0' && q[2] <= '9' && q[3] >= '0' && q[3] <= '9' && q[4] >= '0' &&
			    q[4] <= '9') {
				int m = ((q[1] - '0') * 10 + (q[2] - '0')) * 60 + (q[3] - '0') * 10 +
					(q[4] - '0');

				*tz = *q == '-' ? -m : m;
			}
			return t;
		}
		p = nl + 1;
	}
	return 0;
}

int64_t commit_time(const char *d, size_t len)
{
	int tz;

	return commit_when(d, len, &tz);
}

int commit_parents(const char *d, size_t len, size_t rawsz, unsigned char *out, size_t max)
{
	const char *p = d, *end = d + len, *nl = memchr(d, '\n', len);
	size_t hexsz = 2 * rawsz;
	unsigned char id[ABBREV_MAX_RAWSZ];
	int n = 0;

	if (!nl || len < 5 || memcmp(d, "tree ", 5))
		return -1;
	for (p = nl + 1; end - p > 7 && !memcmp(p, "parent ", 7); p += 7 + hexsz + 1) {
		if ((size_t)(end - p) < 7 + hexsz + 1 || p[7 + hexsz] != '\n' || n == INT32_MAX)
			return -1;
		if (rawsz > ABBREV_MAX_RAWSZ || hexid_parse_prefix(id, rawsz, p + 7, hexsz))
			return -1;
		if ((size_t)n < max)
			memcpy(out + (size_t)n * rawsz, id, rawsz);
		n++;
	}
	return n;
}

size_t commit_message_offset(const char *d, size_t len)
{
	size_t i = 0;

	while (i < len) {
		const char *nl = memchr(d + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - d) : len;

		if (e == i)
			return i + 1;
		i = e + 1;
	}
	return len;
}

int commit_head_complete(const char *d, size_t len)
{
	size_t i = 0, e, t;
	int text = 0;
	const char *nl;

	for (;;) { /* the headers, up to the blank line */
		if (!(nl = memchr(d + i, '\n', len - i)))
			return 0;
		e = (size_t)(nl - d);
		if (e == i)
			break;
		i = e + 1;
	}
	/* as commit_subject(): blank lines, the paragraph, a blank line (all whole lines) */
	for (i = e + 1; (nl = memchr(d + i, '\n', len - i)); i = e + 1) {
		e = (size_t)(nl - d);
		for (t = e; t > i && is_space((unsigned char)d[t - 1]); t--)
			;
		if (t > i)
			text = 1;
		else if (text)
			return 1;
	}
	return 0;
}

static int grow(commit_buf *b, size_t need)
{
	char *n;

	if (need <= b->cap)
		return 0;
	n = realloc(b->s, need * 2);
	if (!n)
		return -1;
	b->s = n;
	b->cap = need * 2;
	return 0;
}

int commit_subject(const char *d, size_t len, commit_buf *b)
{
	size_t i = commit_message_offset(d, len), n = 0;

	if (grow(b, 1))
		return -1;
	while (i < len) { /* blank lines first, then the first paragraph */
		const char *nl = memchr(d + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - d) : len, t = e;

		while (t > i && is_space((unsigned char)d[t - 1]))
			t--;
		if (t == i) {
			if (n)
				break;
		} else {
			if (grow(b, n + (t - i) + 2))
				return -1;
			if (n)
				b->s[n++] = ' ';
			memcpy(b->s + n, d + i, t - i);
			n += t - i;
		}
		i = e + 1;
	}
	b->s[n] = '\0';
	b->len = n;
	return 0;
}

void commit_buf_free(commit_buf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}
