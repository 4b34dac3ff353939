/*
 * emit.c - format names and the dispatch over the emitters.
 */
#include "emit.h"

#include <string.h>

#include "model.h"

static const struct {
	const char *name;
	int (*report)(FILE *, const stats_report *);
	int (*check)(FILE *, const stats_check *);
} formats[] = {
	[ABBREV_FORMAT_TEXT] = { "text", emit_report_text, emit_check_text },
	[ABBREV_FORMAT_JSON] = { "json", emit_report_json, emit_check_json },
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

int emit_check(FILE *out, const stats_check *c, int format)
{
	if (format < 0 || (size_t)format >= sizeof(formats) / sizeof(formats[0]))
		return -1;
	return formats[format].check(out, c);
}

const char *emit_lacks_note(unsigned lacks, int i)
{
	static const struct {
		unsigned flag;
		const char *note;
	} notes[] = {
		{ ABBREV_LACKS_SHALLOW, "a shallow clone: commits past its boundary, and the trees "
				      "and blobs only they use, are missing" },
		{ ABBREV_LACKS_PARTIAL, "a partial clone: objects the server filtered out are "
				      "missing until fetched" },
	};

	for (size_t k = 0; k < sizeof(notes) / sizeof(notes[0]); k++)
		if ((lacks & notes[k].flag) && i-- == 0)
			return notes[k].note;
	return NULL;
}

double emit_p_random(size_t n, unsigned len)
{
	return model_p_collision((uint64_t)n, len);
}
