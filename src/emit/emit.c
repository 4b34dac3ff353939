/*
 * emit.c - the table of output formats and the dispatch over it.
 *
 * The only place that chooses an emitter: commands name a format, this
 * table finds the emitter for their results.  Emitters never call back
 * in here (they share emit_parts.c and fmt.c instead).
 */
#include <config.h>

#include "emit.h"

#include <string.h>

#include "emit_verify.h"

/* Indexed by enum abbrev_format. */
static const emit_format *const formats[] = {
	[ABBREV_FORMAT_TEXT] = &emit_format_text,
	[ABBREV_FORMAT_JSON] = &emit_format_json,
	[ABBREV_FORMAT_CSV] = &emit_format_csv,
	[ABBREV_FORMAT_MARKDOWN] = &emit_format_markdown,
	[ABBREV_FORMAT_SVG] = &emit_format_svg,
	[ABBREV_FORMAT_CLASSIC] = &emit_format_classic,
	[ABBREV_FORMAT_PARTIAL] = &emit_format_partial,
	[ABBREV_FORMAT_CHECKPATCH] = &emit_format_checkpatch,
};

#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

static const emit_format *get(int format)
{
	return format >= 0 && (size_t)format < NFORMATS ? formats[format] : NULL;
}

int emit_format_from_name(const char *name)
{
	for (size_t i = 0; i < NFORMATS; i++)
		if (!strcmp(name, formats[i]->name))
			return (int)i;
	return -1;
}

int emit_format_supported(int kind, int format)
{
	const emit_format *f = get(format);

	if (!f)
		return 0;
	switch (kind) {
	case EMIT_REPORT:
		return f->report != NULL;
	case EMIT_CHECK:
		return f->check != NULL;
	case EMIT_MODEL:
		return f->model != NULL;
	case EMIT_HISTORY:
		return f->history != NULL;
	case EMIT_VERIFY:
		return f->verify != NULL;
	case EMIT_POLICY:
		return f->policy != NULL;
	}
	return 0;
}

int emit_carries(int kind, int format, int note)
{
	const emit_format *f = get(format);

	return f && kind >= 0 && note >= 0 && note < EMIT_NOTE_COUNT &&
	       (f->carries[note] & EMIT_KIND_BIT(kind)) != 0;
}

const char *emit_format_name(int format)
{
	return format >= 0 && (size_t)format < NFORMATS ? formats[format]->name : NULL;
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
				      formats[i]->name);
	}
}

int emit_report(FILE *out, const stats_report *r, int format)
{
	if (!emit_format_supported(EMIT_REPORT, format))
		return -1;
	return get(format)->report(out, r);
}

int emit_check(FILE *out, const stats_check *c, int format)
{
	if (!emit_format_supported(EMIT_CHECK, format))
		return -1;
	return get(format)->check(out, c);
}

int emit_model(FILE *out, const model_results *r, int format)
{
	if (!emit_format_supported(EMIT_MODEL, format))
		return -1;
	return get(format)->model(out, r);
}

int emit_history(FILE *out, const history_report *r, int format)
{
	if (!emit_format_supported(EMIT_HISTORY, format))
		return -1;
	return get(format)->history(out, r);
}

int emit_policy(FILE *out, const policy_report *r, int format)
{
	if (!emit_format_supported(EMIT_POLICY, format))
		return -1;
	return get(format)->policy(out, r);
}

verify_emitter *emit_verify_new(FILE *out, int format)
{
	if (!emit_format_supported(EMIT_VERIFY, format))
		return NULL;
	return get(format)->verify(out);
}
