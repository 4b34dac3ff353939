/*
 * emit.c - format names and the dispatch over the emitters.
 */
#include "emit.h"

#include <string.h>

static const struct {
	const char *name;
	int (*report)(FILE *, const stats_report *);
} formats[] = {
	[ABBREV_FORMAT_TEXT] = { "text", emit_report_text },
	[ABBREV_FORMAT_JSON] = { "json", emit_report_json },
};

int emit_format_from_name(const char *name)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (!strcmp(name, formats[i].name))
			return (int)i;
	return -1;
}

int emit_report(FILE *out, const stats_report *r, int format)
{
	if (format < 0 || (size_t)format >= sizeof(formats) / sizeof(formats[0]))
		return -1;
	return formats[format].report(out, r);
}
