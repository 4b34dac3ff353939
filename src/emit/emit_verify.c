/*
 * emit_verify.c - verify's findings as text, as JSON, and as the Linux
 * kernel's scripts/checkpatch.pl prints its own.
 *
 * All walk the same cite_results; none decides anything.  JSON is
 * streamed: each finding is an object built with jansson and dumped on
 * one line, between a hand-written head and tail.  Subjects and file
 * names are bytes (old commits are Latin-1): they go through utf8.h's rule.
 */
#include <config.h>

#include "emit_verify.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "hexid.h"
#include "utf8.h"

enum { MODE_TEXT, MODE_JSON, MODE_CHECKPATCH };

struct verify_emitter {
	FILE *out;
	int mode;             /* MODE_* */
	size_t nfound;        /* findings written so far (JSON, checkpatch) */
	size_t ninputs;       /* checkpatch: inputs seen, */
	char *name;           /* and the first one's name */
};

static verify_emitter *emitter_new(FILE *out, int mode)
{
	verify_emitter *e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	e->out = out;
	e->mode = mode;
	return e;
}

verify_emitter *emit_verify_text_new(FILE *out)
{
	return emitter_new(out, MODE_TEXT);
}

verify_emitter *emit_verify_json_new(FILE *out)
{
	return emitter_new(out, MODE_JSON);
}

verify_emitter *emit_verify_checkpatch_new(FILE *out)
{
	return emitter_new(out, MODE_CHECKPATCH);
}

void emit_verify_free(verify_emitter *e)
{
	if (e)
		free(e->name);
	free(e);
}

/* The input line of a reference: of mail, the line its commit message line came from. */
static size_t ref_line(const verify_input *in, const citation *ref)
{
	return in->msg ? mbox_input_line(in->msg, ref->line) : ref->line;
}

/* ---- text ------------------------------------------------------------------- */

static void text_commit(FILE *out, const char *what, const char *hex, const char *subject)
{
	fprintf(out, "    %s: %s (\"%s\")\n", what, hex, subject ? subject : "?");
}

/* A message of mail: "<Message-ID> "[PATCH 2/3] subject"" (either may be missing). */
static void message_name(FILE *out, const mbox_msg *m)
{
	if (m->message_id)
		fprintf(out, "<%s>%s", m->message_id, m->subject ? " " : "");
	if (m->subject)
		fprintf(out, "\"%s\"", m->subject);
	if (!m->message_id && !m->subject)
		fputs("?", out);
}

static void text_message(FILE *out, const mbox_msg *m)
{
	fputs("    message: ", out);
	message_name(out, m);
	fputc('\n', out);
}

static int text_input(verify_emitter *e, const verify_input *in)
{
	FILE *out = e->out;
	char hex[ABBREV_MAX_HEXSZ + 1];

	for (size_t i = 0; i < in->res->n; i++) {
		const cite_result *x = &in->res->v[i];
		const citation *ref = &in->refs->v[x->ref];

		for (size_t k = 0; k < x->nf; k++)
			fprintf(out, "%s:%zu: %s: %s\n", in->name, ref_line(in, ref),
				cite_severity_name(cite_problem_severity(x->f[k].problem)),
				x->f[k].message);
		/* an ambiguous ID: each commit by its full ID, which is never ambiguous */
		for (size_t k = 0; k < x->ncands; k++) {
			hexid_fmt(hex, x->cands[k].id, in->rawsz);
			text_commit(out, "candidate", hex, x->cands[k].subject);
		}
		if (x->suggest)
			fprintf(out, "    suggestion: %s\n", x->suggestion);
		if (in->named)
			text_message(out, in->msg);
	}
	return ferror(out) ? -1 : 0;
}

/* ---- JSON ------------------------------------------------------------------- */

static json_t *jid(const unsigned char *id, size_t rawsz)
{
	char hex[ABBREV_MAX_HEXSZ + 1];

	hexid_fmt(hex, id, rawsz);
	return json_string(hex);
}

/* Line and column (1-based, in bytes) of buf[off], off >= ref->start. */
static void line_col(const char *buf, const citation *ref, size_t off, size_t *line, size_t *col)
{
	size_t ls = off;

	while (ls && buf[ls - 1] != '\n')
		ls--;
	*col = off - ls + 1;
	*line = ref->line;
	for (size_t q = ref->start; q < off; q++)
		if (buf[q] == '\n')
			++*line;
}

/*
 * Where the reference is: bytes [start, end) of the input, its first and
 * last line and column (a bot applies "replacement" over them), and the
 * spans of its ID and subject as written.
 */
static json_t *span_json(const verify_input *in, const citation *ref)
{
	size_t l0, c0, l1, c1, s = ref->start, e = ref->end, is = ref->id_start;
	size_t ie = ref->id_start + ref->id_len, ss = ref->subj_start, se = ref->subj_end;

	line_col(in->buf, ref, ref->start, &l0, &c0);
	line_col(in->buf, ref, ref->end - 1, &l1, &c1);
	/* mail: the input's offsets, where the bytes are the input's own (not decoded) */
	if (in->msg && !(mbox_input_span(in->msg, s, e, &s, &e) &&
			 mbox_input_span(in->msg, is, ie, &is, &ie) &&
			 (!ref->subject || (ref->flags & CITE_F_TITLE) ||
			  mbox_input_span(in->msg, ss, se, &ss, &se))))
		return json_null();
	if (in->msg) {
		/* lines and columns of the commit message -> the input's */
		l0 = mbox_input_line(in->msg, l0);
		l1 = mbox_input_line(in->msg, l1);
		c0 = mbox_input_column(in->msg, ref->start);
		c1 = mbox_input_column(in->msg, ref->end - 1);
	}
	return json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:[I,I],s:o}",
		"start", (json_int_t)s, "end", (json_int_t)e,
		"line", (json_int_t)l0, "column", (json_int_t)c0,
		"end_line", (json_int_t)l1, "end_column", (json_int_t)c1 + 1,
		"id", (json_int_t)is, (json_int_t)ie,
		"subject", ref->subject && !(ref->flags & CITE_F_TITLE) ?
			json_pack("[I,I]", (json_int_t)ss, (json_int_t)se) :
			json_null());
}

/*
 * --range, an ID unique among the ancestors of the commit checked but
 * shared by later commits: both facts, the later commits, and how
 * improbable their shared prefix is for random IDs; null otherwise.
 */
static json_t *as_of_json(const verify_input *in, const cite_result *x)
{
	json_t *later;

	if (!x->nlater)
		return json_null();
	later = json_array();
	for (size_t k = 0; k < x->nlater; k++)
		json_array_append_new(later, json_pack("{s:o,s:o}", "id",
			jid(x->later[k].id, in->rawsz), "subject", utf8_json(x->later[k].subject)));
	return json_pack("{s:b,s:b,s:o,s:I,s:f,s:b}", "unique_when_written", 1,
		"ambiguous_now", 1, "later", later, "shared_length", (json_int_t)x->later_shared,
		"p_random", x->later_p, "improbable", x->later_improbable);
}

static json_t *finding_json(const verify_input *in, const cite_result *x, const cite_finding *f)
{
	const citation *ref = &in->refs->v[x->ref];
	json_t *o = json_object(), *cands;

	json_object_set_new(o, "file", utf8_json(in->name));
	if (in->commit)
		json_object_set_new(o, "commit", json_string(in->commit));
	if (in->msg) {
		json_object_set_new(o, "message_id", in->msg->message_id ?
				    utf8_json(in->msg->message_id) : json_null());
		json_object_set_new(o, "patch", in->msg->subject ?
				    utf8_json(in->msg->subject) : json_null());
	}
	json_object_set_new(o, "line", json_integer((json_int_t)ref_line(in, ref)));
	json_object_set_new(o, "reference", json_string(cite_kind_name(ref->kind)));
	json_object_set_new(o, "kind", json_string(cite_problem_name(f->problem)));
	json_object_set_new(o, "severity",
			    json_string(cite_severity_name(cite_problem_severity(f->problem))));
	json_object_set_new(o, "message", utf8_json(f->message));
	json_object_set_new(o, "given_id", utf8_jsonn(in->buf + ref->id_start, ref->id_len));
	json_object_set_new(o, "given_subject",
			    ref->subject ? utf8_jsonn(ref->subject, ref->subject_len) : json_null());
	json_object_set_new(o, "resolved_id", x->named ? jid(x->commit.id, in->rawsz) : json_null());
	json_object_set_new(o, "subject", x->named ? utf8_json(x->commit.subject) : json_null());
	/* the --repo whose commit the ID names; null: this repository (or none) */
	json_object_set_new(o, "repository", x->repo ? utf8_json(x->repo) : json_null());
	if (x->suggest)
		json_object_set_new(o, "suggestion", json_pack("{s:s,s:o,s:o,s:o}",
			"id", x->target_hex, "full_id", jid(x->target.id, in->rawsz),
			"subject", utf8_json(x->target.subject), "text", utf8_json(x->suggestion)));
	else
		json_object_set_new(o, "suggestion", json_null());
	json_object_set_new(o, "span", span_json(in, ref));
	json_object_set_new(o, "replacement", x->suggest ? utf8_json(x->replacement) : json_null());
	cands = json_array();
	for (size_t k = 0; k < x->ncands; k++)
		json_array_append_new(cands, json_pack("{s:o,s:o}", "id", jid(x->cands[k].id, in->rawsz),
			"subject", utf8_json(x->cands[k].subject)));
	json_object_set_new(o, "candidates", cands);
	json_object_set_new(o, "as_of", as_of_json(in, x));
	return o;
}

static int json_input(verify_emitter *e, const verify_input *in)
{
	for (size_t i = 0; i < in->res->n; i++) {
		const cite_result *x = &in->res->v[i];

		for (size_t k = 0; k < x->nf; k++) {
			json_t *o = finding_json(in, x, &x->f[k]);
			char *s = o ? json_dumps(o, JSON_COMPACT) : NULL;

			json_decref(o);
			if (!s)
				return -1;
			if (!e->nfound)
				fprintf(e->out, "{\n  \"schema_version\": %d,\n  \"findings\": [\n",
					JSON_SCHEMA_VERSION);
			fprintf(e->out, "%s    %s", e->nfound++ ? ",\n" : "", s);
			free(s);
		}
	}
	return ferror(e->out) ? -1 : 0;
}

/* ---- checkpatch ------------------------------------------------------------- */

/*
 * checkpatch.pl's type for a finding (what its --show-types prints and
 * its --ignore takes): the ID that names no commit is its
 * UNKNOWN_COMMIT_ID, the rest of a Fixes: tag its BAD_FIXES_TAG, the
 * rest of a reference in prose its GIT_COMMIT_ID; two kinds it has no
 * type for get names of the same shape.
 */
const char *emit_verify_checkpatch_type(int kind, int problem)
{
	switch (problem) {
	case CITE_P_UNKNOWN:
	case CITE_P_NOT_HERE:
	case CITE_P_NOT_COMMIT:
		return "UNKNOWN_COMMIT_ID";
	case CITE_P_AMBIGUOUS:
	case CITE_P_AMBIGUOUS_OBJECT:
		return "AMBIGUOUS_COMMIT_ID";
	case CITE_P_NOT_ANCESTOR:
	case CITE_P_NOT_ANCESTOR_MERGED:
		return "FIXES_NOT_ANCESTOR";
	default:
		return kind == CITE_FIXES ? "BAD_FIXES_TAG" : "GIT_COMMIT_ID";
	}
}

/*
 * As checkpatch.pl --show-types prints a finding on an added line (a
 * note is none: it is left out):
 *
 *	ERROR:UNKNOWN_COMMIT_ID: <message>
 *	#LINE: FILE: NAME:LINE:
 *	+<each line of the reference>
 *	<blank>
 */
static int checkpatch_input(verify_emitter *e, const verify_input *in)
{
	FILE *out = e->out;

	int named = !in->named;

	if (!e->ninputs++ && !(e->name = strdup(in->name)))
		return -1;
	for (size_t i = 0; i < in->res->n; i++) {
		const cite_result *x = &in->res->v[i];
		const citation *ref = &in->refs->v[x->ref];
		size_t ls = ref->start, le;

		while (ls && in->buf[ls - 1] != '\n')
			ls--;
		le = ref->end > ref->start ? ref->end - 1 : ref->start;
		while (in->buf[le] && in->buf[le] != '\n')
			le++;
		for (size_t k = 0; k < x->nf; k++) {
			int sev = cite_problem_severity(x->f[k].problem);

			if (sev == CITE_NOTE)
				continue; /* no problem: checkpatch says nothing of it */
			if (!named++) {
				/* as checkpatch.pl heads each of several files */
				fputs("--------------------------------------------------\n", out);
				message_name(out, in->msg);
				fputs("\n--------------------------------------------------\n", out);
			}
			e->nfound++;
			fprintf(out, "%s:%s: %s", sev == CITE_ERROR ? "ERROR" : "WARNING",
				emit_verify_checkpatch_type(ref->kind, x->f[k].problem),
				x->f[k].message);
			if (x->suggest)
				fprintf(out, " - ie: '%s'", x->suggestion);
			fprintf(out, "\n#%zu: FILE: %s:%zu:\n", ref_line(in, ref), in->name,
				ref_line(in, ref));
			for (size_t p = ls; p < le;) {
				size_t n = strcspn(in->buf + p, "\n");

				if (p + n > le)
					n = le - p;
				fputc('+', out);
				fwrite(in->buf + p, 1, n, out);
				fputc('\n', out);
				p += n + 1;
			}
			fputc('\n', out);
		}
	}
	return ferror(out) ? -1 : 0;
}

/*
 * checkpatch.pl's closing lines: the total, and its verdict on the
 * input ("Your patch" when read from standard input, as checkpatch says).
 */
static void checkpatch_finish(verify_emitter *e, const verify_totals *t)
{
	const char *name = e->ninputs != 1 ? "Your patches" :
			   !strcmp(e->name, "<stdin>") ? "Your patch" : e->name;

	fprintf(e->out, "total: %zu errors, %zu warnings, %zu lines checked\n\n", t->errors,
		t->warnings, t->lines);
	if (t->errors || t->warnings)
		fprintf(e->out, "%s has style problems, please review.\n", name);
	else
		fprintf(e->out, "%s has no obvious style problems and is ready for submission.\n",
			name);
}

int emit_verify_input(verify_emitter *e, const verify_input *in)
{
	switch (e->mode) {
	case MODE_JSON:
		return json_input(e, in);
	case MODE_CHECKPATCH:
		return checkpatch_input(e, in);
	default:
		return text_input(e, in);
	}
}

/* "1 reference", "2 references": a count and its noun, as English writes them. */
static void counted(FILE *out, size_t n, const char *noun)
{
	fprintf(out, "%zu %s%s", n, noun, n == 1 ? "" : "s");
}

/*
 * What the run checked, on one line, even when nothing was found:
 * "16 references in 20 messages: 0 errors, 1 warning"; before it, when
 * references to another project's commits were found and no --repo given,
 * the hint that --repo checks them.
 */
static void text_finish(verify_emitter *e, const verify_totals *t)
{
	if (t->not_here) {
		/* the one thing that checks another project's IDs: say it once */
		fputs("hint: ", e->out);
		counted(e->out, t->not_here, "reference");
		fprintf(e->out, " %s to commits not in this repository%s%s%s: --repo=<a clone of "
			"%s> checks %s", t->not_here == 1 ? "is" : "are",
			t->project[0] ? " (the text names " : "", t->project,
			t->project[0] ? " most often)" : "", t->project[0] ? "it" : "the other project",
			t->not_here == 1 ? "it" : "them");
		if (t->unknown) {
			fputs(", and the ", e->out);
			counted(e->out, t->unknown, "unknown ID");
			fputs(t->unknown == 1 ? " if it is its" : " if they are its", e->out);
		}
		fputc('\n', e->out);
	}
	counted(e->out, t->references, "reference");
	fputs(" in ", e->out);
	counted(e->out, t->inputs, "message");
	fputs(": ", e->out);
	counted(e->out, t->errors, "error");
	fputs(", ", e->out);
	counted(e->out, t->warnings, "warning");
	fputc('\n', e->out);
}

int emit_verify_finish(verify_emitter *e, const verify_totals *t)
{
	if (e->mode == MODE_TEXT)
		text_finish(e, t);
	if (e->mode == MODE_CHECKPATCH)
		checkpatch_finish(e, t);
	if (e->mode == MODE_JSON) {
		if (e->nfound)
			fputs("\n  ],\n", e->out);
		else
			fprintf(e->out, "{\n  \"schema_version\": %d,\n  \"findings\": [],\n",
				JSON_SCHEMA_VERSION);
		fprintf(e->out, "  \"inputs\": %zu,\n  \"references\": %zu,\n"
			"  \"errors\": %zu,\n  \"warnings\": %zu,\n  \"notes\": %zu\n}\n",
			t->inputs, t->references, t->errors, t->warnings, t->notes);
	}
	return ferror(e->out) ? -1 : 0;
}

/* A format of verify's alone: the other commands have no checkpatch form. */
const emit_format emit_format_checkpatch = {
	.name = "checkpatch",
	.verify = emit_verify_checkpatch_new,
};
