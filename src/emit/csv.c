/*
 * csv.c - RFC 4180 fields: quoted only when needed, quotes doubled.
 */
#include <config.h>

#include "csv.h"

#include <string.h>

int csv_needs_quotes(const char *s)
{
	size_t n = strlen(s);

	return strpbrk(s, ",\"\r\n") != NULL || (n && (s[0] == ' ' || s[n - 1] == ' '));
}

void csv_field(FILE *out, const char *s, int first)
{
	if (!first)
		fputc(',', out);
	if (!csv_needs_quotes(s)) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

void csv_end_record(FILE *out)
{
	fputc('\n', out);
}
