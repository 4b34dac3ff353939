/*
 * emit.c - format names and the dispatch over the emitters.
 */
#include "emit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "emit_history.h"
#include "emit_model.h"
#include "model.h"

/*
 * One row per format, one column per kind of results: NULL where a
 * command's results have no such emitter (the command then refuses the
 * format with a usage error naming the ones it has).
 */
static const struct {
	const char *name;
	int (*report)(FILE *, const stats_report *);
	int (*check)(FILE *, const stats_check *);
	int (*model)(FILE *, const model_results *);
} formats[] = {
	[ABBREV_FORMAT_TEXT] = { "text", emit_report_text, emit_check_text, emit_model_text },
	[ABBREV_FORMAT_JSON] = { "json", emit_report_json, emit_check_json, emit_model_json },
	[ABBREV_FORMAT_CSV] = { "csv", emit_report_csv, NULL, emit_model_csv },
	[ABBREV_FORMAT_MARKDOWN] = { "markdown", emit_report_markdown, NULL, emit_model_markdown },
	[ABBREV_FORMAT_SVG] = { "svg", emit_report_svg, NULL, emit_model_svg },
	[ABBREV_FORMAT_CLASSIC] = { "classic", emit_report_classic, NULL, NULL },
};

#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

int emit_format_from_name(const char *name)
{
	for (size_t i = 0; i < NFORMATS; i++)
		if (!strcmp(name, formats[i].name))
			return (int)i;
	return -1;
}

int emit_format_supported(int kind, int format)
{
	if (format < 0 || (size_t)format >= NFORMATS)
		return 0;
	switch (kind) {
	case EMIT_REPORT:
		return formats[format].report != NULL;
	case EMIT_CHECK:
		return formats[format].check != NULL;
	case EMIT_MODEL:
		return formats[format].model != NULL;
	case EMIT_HISTORY:
		return emit_history_supported(format);
	}
	return 0;
}

const char *emit_format_name(int format)
{
	return format >= 0 && (size_t)format < NFORMATS ? formats[format].name : NULL;
}

void emit_format_names(char *buf, size_t n, int kind)
{
	size_t total = 0, k = 0, o = 0;

	if (!n)
		return;
	buf[0] = '\0';
	for (size_t i = 0; i < NFORMATS; i++)
		total += emit_format_supported(kind, (int)i);
	for (size_t i = 0; i < NFORMATS && o < n; i++) {
		if (!emit_format_supported(kind, (int)i))
			continue;
		k++;
		o += (size_t)snprintf(buf + o, n - o, "%s%s", k == 1 ? "" : k == total ? " or " : ", ",
				      formats[i].name);
	}
}

int emit_report(FILE *out, const stats_report *r, int format)
{
	if (!emit_format_supported(EMIT_REPORT, format))
		return -1;
	return formats[format].report(out, r);
}

int emit_check(FILE *out, const stats_check *c, int format)
{
	if (!emit_format_supported(EMIT_CHECK, format))
		return -1;
	return formats[format].check(out, c);
}

int emit_model(FILE *out, const model_results *r, int format)
{
	if (!emit_format_supported(EMIT_MODEL, format))
		return -1;
	return formats[format].model(out, r);
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

const char *emit_noun(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

const char *emit_set_noun(int set, size_t n)
{
	static const char *const nouns[ABBREV_SET_COUNT][2] = {
		[ABBREV_SET_ALL] = { "object", "objects" },
		[ABBREV_SET_COMMIT] = { "commit", "commits" },
		[ABBREV_SET_TREE] = { "tree", "trees" },
		[ABBREV_SET_BLOB] = { "blob", "blobs" },
		[ABBREV_SET_TAG] = { "tag", "tags" },
		[ABBREV_SET_COMMITISH] = { "commit-ish ID", "commit-ish IDs" },
	};

	if (set < 0 || set >= ABBREV_SET_COUNT)
		set = ABBREV_SET_ALL;
	return nouns[set][n != 1];
}

int emit_groups_have_tag(const stats_set *st)
{
	for (size_t m = 0; m < st->nmembers; m++)
		if (st->member_types[m] == ABBREV_TYPE_TAG)
			return 1;
	return 0;
}

const char emit_text_legend[] =
	"(colliding objects / colliding prefixes; commit-ish: commits and the tags\n"
	" that peel to a commit, among which git log <prefix> and <prefix>^{commit}\n"
	" resolve; commit~other: commits that share the prefix with a tree, blob\n"
	" or tag, ambiguous to git show <prefix>)\n";

void emit_fmt_p(char *buf, size_t n, double p, int digits)
{
	snprintf(buf, n, "%.*g", digits, p);
	if (p < 1 && strtod(buf, NULL) >= 1) {
		size_t o = (size_t)snprintf(buf, n, "> 0.");

		for (int i = 0; i < digits && o + 1 < n; i++)
			buf[o++] = '9';
		buf[o < n ? o : n - 1] = '\0';
	}
}

void emit_fmt_p_collision(char *buf, size_t n, double p, uint64_t count, unsigned L, int digits)
{
	int certain = 4 * L < 64 && count > ((uint64_t)1 << (4 * L));

	emit_fmt_p(buf, n, p >= 1 && !certain ? nextafter(1.0, 0.0) : p, digits);
}
