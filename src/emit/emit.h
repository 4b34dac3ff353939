/*
 * emit.h - the results each command hands to its output, and the one
 * table of output formats.
 *
 * Emitters only format: they take computed results (every number they
 * print is in the structs: the model's expectations, improbable flags,
 * git's auto length, the projection) and a FILE *, print nothing
 * anywhere else, and return 0 or -1 on a write error.
 *
 * One file per format (emit_<format>.c) exports one emit_format with an
 * emitter for each kind of results it can print, NULL where it has none.
 * A new format is that file, one enum value and one row of the table in
 * emit.c.  Verify's emitters live in emit_verify.c (its rows point there).
 *
 * Ownership: emitters keep nothing; the results stay the caller's.
 */
#ifndef ABBREV_EMIT_H
#define ABBREV_EMIT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "backtest.h"
#include "history.h"
#include "lacks.h"
#include "model.h"
#include "policy.h"
#include "projection.h"
#include "stats.h"

enum abbrev_format {
	ABBREV_FORMAT_TEXT = 0,
	ABBREV_FORMAT_JSON,
	ABBREV_FORMAT_CSV,
	ABBREV_FORMAT_MARKDOWN,
	ABBREV_FORMAT_SVG,
	ABBREV_FORMAT_CLASSIC, /* git-unique-abbrev's layout */
	ABBREV_FORMAT_PARTIAL, /* one shard's tables for `git abbrev merge` (partial.h) */
	ABBREV_FORMAT_CHECKPATCH /* verify's findings as the kernel's checkpatch.pl prints them */
};

/* What is printed: each command's results. */
enum emit_kind {
	EMIT_REPORT = 0,
	EMIT_CHECK,
	EMIT_MODEL,
	EMIT_HISTORY,
	EMIT_VERIFY,
	EMIT_POLICY
};

/* The lengths not yet collided are listed up to here (and at least one). */
#define HISTORY_SHOW_TO PROJECTION_TO

/*
 * The results of `git abbrev history`.  What an emitter shows:
 *  - h->first[L] for L = ABBREV_MIN_LEN .. h->longest: when two commits
 *    first shared L chars, with h->model[L] beside it (the model's
 *    expected commit count and the quantile p of the measured moment);
 *  - h->model[L] for the lengths not collided yet, up to HISTORY_SHOW_TO
 *    at least: expected count and P among all commits;
 *  - when p && p->status == PROJECTION_OK: the two fits and the chosen
 *    one, the objects-per-commit ratio, p->p01[L] / p50[L] for
 *    L = PROJECTION_FROM .. PROJECTION_TO, the safe lengths until the
 *    horizon, and the quotable line (emit_parts.h).
 */
typedef struct {
	const char *const *repos;  /* display paths */
	size_t nrepos;
	unsigned lacks;            /* enum abbrev_lack of any of them */
	uint64_t objects;          /* all objects of the union */
	const history_results *h;
	const projection_results *p; /* NULL: no projection */
	const char *title;         /* --title: the chart's title; NULL: its own */
	const backtest_results *bt;  /* --backtest (NULL: none): after the rest */
} history_report;

/*
 * The results of `git abbrev policy`: r holds every number (policy.h);
 * fit is history's fit the growth came from (NULL: --growth, or none).
 */
typedef struct {
	const char *const *repos;  /* display paths; none for counts given */
	size_t nrepos;
	unsigned lacks;            /* enum abbrev_lack of any of them */
	const char *hash;          /* "sha1", "sha256"; NULL for counts given */
	const policy_results *r;
	const projection_results *fit;
	/* a repository's history that gave no fit (too short): what says why */
	const projection_results *unfit;
	int now_newest;            /* 1: r->now is the newest commit's date; 0: today */
	int now_zone;              /* with now_newest: that commit's zone, its day shown in it */
	const char *title;         /* --title: the chart's title; NULL: its own */
	/* --backtest (NULL: none): the fit's track record; text, Markdown and JSON */
	const backtest_results *bt;
} policy_report;

struct verify_emitter;

/*
 * Notes on a command's input: a document either carries one itself or the
 * command prints it on stderr ("git-abbrev: note: ...").
 */
enum emit_note {
	EMIT_NOTE_LACKS = 0, /* what the repositories lack: a shallow or a partial clone */
	EMIT_NOTE_INPUT,     /* a shard counted alone, what ID lists held besides objects */
	EMIT_NOTE_REACH,     /* --reachable: objects the refs reach that are missing */
	EMIT_NOTE_COUNT
};

/* The bit of a kind in emit_format.carries[]. */
#define EMIT_KIND_BIT(kind) (1u << (kind))
#define EMIT_KIND_ALL 0xffffu

/* One output format: its name and an emitter per kind of results (NULL: none). */
typedef struct {
	const char *name;
	/* per enum emit_note, the kinds (EMIT_KIND_BIT) whose document carries it */
	unsigned carries[EMIT_NOTE_COUNT];
	int (*report)(FILE *out, const stats_report *r);
	int (*check)(FILE *out, const stats_check *c);
	int (*model)(FILE *out, const model_results *r);
	int (*history)(FILE *out, const history_report *r);
	struct verify_emitter *(*verify)(FILE *out); /* emit_verify.h */
	int (*policy)(FILE *out, const policy_report *r);
} emit_format;

/* The formats, one file each. */
extern const emit_format emit_format_text;     /* emit_text.c */
extern const emit_format emit_format_json;     /* emit_json.c */
extern const emit_format emit_format_csv;      /* emit_csv.c */
extern const emit_format emit_format_markdown; /* emit_markdown.c */
extern const emit_format emit_format_svg;      /* emit_svg.c */
extern const emit_format emit_format_classic;  /* emit_classic.c */
extern const emit_format emit_format_partial;  /* emit_partial.c */
extern const emit_format emit_format_checkpatch; /* emit_verify.c: verify only */

/* "text", "json", "csv", "markdown", "svg", "classic" -> enum abbrev_format, or -1. */
int emit_format_from_name(const char *name);

/* Whether results of `kind` (enum emit_kind) have an emitter for `format`. */
int emit_format_supported(int kind, int format);

/*
 * Whether the document of `kind` in `format` carries the note (enum
 * emit_note) itself; if not, the command prints it on stderr.
 */
int emit_carries(int kind, int format, int note);

/* The name of a format ("json"), or NULL past the last one. */
const char *emit_format_name(int format);

/* The formats of `kind` for a message: "text, json, csv, markdown or svg". */
void emit_format_names(char *buf, size_t n, int kind);

/* Dispatch on format; -1 for a format without an emitter for these results. */
int emit_report(FILE *out, const stats_report *r, int format);
int emit_check(FILE *out, const stats_check *c, int format);
int emit_model(FILE *out, const model_results *r, int format);
int emit_history(FILE *out, const history_report *r, int format);
int emit_policy(FILE *out, const policy_report *r, int format);
/* emit_verify_new(out, format) is declared in emit_verify.h and dispatched in emit.c. */

#endif
