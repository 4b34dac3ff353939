/*
 * emit_verify.h - the emitters of `git abbrev verify`, one per format.
 *
 * Text is editor friendly, one finding a line:
 *
 *	FILE:LINE: error|warning|note: <message>
 *	    candidate: <id> ("<subject>")         (an ambiguous ID, each commit)
 *	    suggestion: Fixes: <id> ("<subject>")  (when the commit meant is known)
 *	    message: <Message-ID> "<subject>"     (mail: the message it is in)
 *
 * JSON is one document, {"findings": [...], "inputs", "references",
 * "errors", "warnings", "notes"}, one finding per line (file, line,
 * reference, kind, severity, message, given_id, given_subject,
 * resolved_id, subject, suggestion, candidates, as_of; commit with
 * --range; message_id and patch for mail).  It is written as the
 * inputs come, so memory does not grow with their number.
 *
 * checkpatch is what the Linux kernel's scripts/checkpatch.pl --show-types
 * prints, so that what parses it (b4, patchwork checks, CI) parses this:
 *
 *	ERROR:UNKNOWN_COMMIT_ID: <message>[ - ie: '<suggestion>']
 *	#LINE: FILE: NAME:LINE:
 *	+<the line of the reference>
 *
 * (mail: before a message's first finding, the message as checkpatch.pl
 * names each of several files: "-----", "<Message-ID> "<subject>"", "-----")
 *
 *	total: E errors, W warnings, N lines checked
 *
 *	NAME has no obvious style problems and is ready for submission.
 *
 * Ownership: the emitter borrows the FILE; inputs are only read.
 */
#ifndef ABBREV_EMIT_VERIFY_H
#define ABBREV_EMIT_VERIFY_H

#include <stddef.h>
#include <stdio.h>

#include "mbox.h"
#include "cite_parse.h"
#include "cite_resolve.h"

typedef struct {
	const char *name;      /* the file as given, "<stdin>", or the commit (--range) */
	const char *commit;    /* --range: the full ID of the commit; else NULL */
	const char *buf;       /* the text the references were found in */
	const cite_list *refs;
	const cite_results *res;
	size_t rawsz;          /* raw ID width of the repository */
	/*
	 * Mail (mbox.h): buf is the commit message of this message, the
	 * references' lines are already the input's; NULL otherwise.  `named`:
	 * the findings name the message (by Message-ID and subject), as they
	 * do when the input has several messages or this one has an ID.
	 */
	const mbox_msg *msg;
	int named;
} verify_input;

typedef struct {
	size_t inputs, references, errors, warnings, notes;
	size_t lines;          /* the inputs' lines (checkpatch's "lines checked") */
	/*
	 * With no --repo given (else 0): the not-here findings (IDs no object
	 * here has, that the text names as another project's), the unknown-id
	 * errors, and the project the text names most often for the former
	 * ("" when none is named but "upstream").  Text output then ends with a hint that
	 * --repo=<a clone of it> checks them.
	 */
	size_t not_here, unknown;
	char project[64];
} verify_totals;

typedef struct verify_emitter verify_emitter;

/*
 * An emitter of `format` (enum abbrev_format) to out, through the format
 * table of emit.c; NULL when out of memory or for a format verify has no
 * emitter for (text and json have).
 */
verify_emitter *emit_verify_new(FILE *out, int format);
/* The table's entries: the text and the JSON emitter to out; NULL when out of memory. */
verify_emitter *emit_verify_text_new(FILE *out);
verify_emitter *emit_verify_json_new(FILE *out);
verify_emitter *emit_verify_checkpatch_new(FILE *out);
/*
 * checkpatch.pl's type of a finding of `problem` (enum cite_problem) on a
 * reference of `kind` (enum cite_kind): "UNKNOWN_COMMIT_ID", ...
 */
const char *emit_verify_checkpatch_type(int kind, int problem);
/* The findings of one input.  0, or -1 on a write error or out of memory. */
int emit_verify_input(verify_emitter *e, const verify_input *in);
/*
 * After the last input: text says what was checked (one line), JSON ends
 * its document, checkpatch prints its total.  0 or -1.
 */
int emit_verify_finish(verify_emitter *e, const verify_totals *t);
void emit_verify_free(verify_emitter *e);

/*
 * The version of the JSON documents' keys and their meaning (docs/json.md),
 * at the top of every one (report, check, model, history, policy, verify):
 * 2 added the commit-ish set, null for an empty set's min unique length
 * and the tables' fixed range.
 */
#define JSON_SCHEMA_VERSION 2

#endif
