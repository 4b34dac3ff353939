/*
 * utf8.c - bytes to UTF-8 text: valid UTF-8 kept, other bytes as Latin-1.
 *
 * A Latin-1 byte b (0x80..0xff) becomes the two bytes 0xc0 | b >> 6,
 * 0x80 | (b & 0x3f), so the output is at most twice the input.
 */
#include <config.h>

#include "utf8.h"

#include <stdlib.h>
#include <string.h>

size_t utf8_seq_len(const unsigned char *s, size_t n)
{
	size_t len;
	unsigned cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, UTF-16 surrogates and code points past U+10FFFF */
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

char *utf8_text(const char *s, size_t n, size_t *len)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned char *t = malloc(2 * n + 1);
	size_t m = 0;

	if (!t)
		return NULL;
	for (size_t i = 0; i < n;) {
		size_t k = utf8_seq_len(u + i, n - i);

		if (k) {
			memcpy(t + m, u + i, k);
			m += k;
			i += k;
		} else {
			t[m++] = (unsigned char)(0xc0 | u[i] >> 6);
			t[m++] = (unsigned char)(0x80 | (u[i] & 0x3f));
			i++;
		}
	}
	t[m] = '\0';
	if (len)
		*len = m;
	return (char *)t;
}

json_t *utf8_jsonn(const char *s, size_t n)
{
	size_t m;
	char *t;
	json_t *j;

	if (!s)
		return json_null();
	t = utf8_text(s, n, &m);
	if (!t)
		return NULL;
	j = json_stringn(t, m);
	free(t);
	return j;
}

json_t *utf8_json(const char *s)
{
	return s ? utf8_jsonn(s, strlen(s)) : json_null();
}
