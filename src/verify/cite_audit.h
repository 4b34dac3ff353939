/*
 * cite_audit.h - verify's findings on a reference as one class, and the
 * tally of a history's references by class and year (`git abbrev audit`).
 *
 * The class is read off what cite_resolve() found (its problems, the
 * commit named or meant): the judging stays verify's, this only sorts.
 * A reference with several findings takes the first class of this list
 * that fits: another project's, wrong (the subject finds the commit),
 * wrong (nothing found), not a commit, ambiguous when written, subject
 * mismatch, not an ancestor, ambiguous today (unique when written), short,
 * ok.  Style findings (layout, upper case, "...") leave a reference ok.
 *
 * Pure: no libgit2, no I/O; the unit tests give hand-made results.
 * Ownership: a cite_audit is zeroed by the caller and cleared with
 * cite_audit_clear(); the subjects it keeps are borrowed from the
 * resolver, which must outlive it.
 */
#ifndef ABBREV_CITE_AUDIT_H
#define ABBREV_CITE_AUDIT_H

#include <stddef.h>
#include <stdint.h>

#include "hexid.h"
#include "cite_parse.h"
#include "cite_resolve.h"

enum cite_class {
	CITE_C_OK = 0,           /* names its commit, unique today, long enough */
	CITE_C_AMBIGUOUS_TODAY,  /* unique among the ancestors when written, ambiguous now */
	CITE_C_SHORT,            /* names its commit, fewer hex chars than the minimum */
	CITE_C_AMBIGUOUS,        /* ambiguous when written (two ancestors, or a tag) */
	CITE_C_WRONG_FOUND,      /* an ID of no object; its subject finds the commit */
	CITE_C_WRONG,            /* an ID of no object; nothing finds the commit */
	CITE_C_NOT_COMMIT,       /* the ID names a tree, blob or tag */
	CITE_C_SUBJECT,          /* the ID names a commit whose subject is another */
	CITE_C_NOT_ANCESTOR,     /* a Fixes: or revert of a commit not in its history */
	CITE_C_FOREIGN,          /* another project's commit, as the text says */
	CITE_C_COUNT
};

/* "ok", "ambiguous-today", ... (JSON, CSV, --format=map). */
const char *cite_class_name(int c);
/* A column heading of at most 5 chars ("ok", "amb-n", ...). */
const char *cite_class_heading(int c);
/* A few words for the legend ("ok as of its commit, ambiguous today"). */
const char *cite_class_words(int c);
/* Whether the class is a wrong ID: wrong (either) or not a commit. */
int cite_class_wrong(int c);

/* The class of one reference: x its result (NULL or nf 0: ok). */
int cite_classify(const cite_result *x);

typedef struct {
	int year;
	uint64_t n[CITE_C_COUNT];
	uint64_t refs;           /* all classes */
} cite_audit_year;

typedef struct {
	unsigned char id[ABBREV_MAX_RAWSZ];
	const char *subject;     /* the resolver's; NULL if unread */
	uint64_t cites;
} cite_audit_cited;

/* A prefix cited that several commits start with today. */
typedef struct {
	char written[CITE_ID_MAX + 1];
	size_t commits;          /* how many (at least 2; 1 with a tag) */
	uint64_t cites;
	int when_written;        /* 1: ambiguous when written already, 0: unique then */
} cite_audit_prefix;

/* A wrong reference (cite_class_wrong()): a row of --format=map. */
typedef struct {
	char written[CITE_ID_MAX + 1];
	int found;               /* the commit meant is known: */
	unsigned char right[ABBREV_MAX_RAWSZ]; /* that one */
	unsigned char citing[ABBREV_MAX_RAWSZ];
	int cls;
} cite_audit_wrong;

typedef struct {
	size_t rawsz;
	cite_audit_year *years;  /* ascending */
	size_t nyears;
	uint64_t total[CITE_C_COUNT];
	uint64_t refs;           /* every reference counted */
	uint64_t commits;        /* the citing commits read */
	cite_audit_prefix *amb;  /* after cite_audit_finish(): by prefix, each once */
	size_t namb, camb;
	cite_audit_wrong *wrong; /* in the order found */
	size_t nwrong, cwrong;
	/* the commits cited (named, or meant): open addressing on the ID */
	cite_audit_cited *cited;
	size_t ncited, ccited;
} cite_audit;

/*
 * Count the references `l` of the message of the commit `citing`, whose
 * results (cite_resolve() with cite_resolver_keep_all()) are `res`,
 * written in `year`.  0 or -1 (memory).
 */
int cite_audit_add(cite_audit *a, const cite_list *l, const cite_results *res,
		   const unsigned char *citing, int year);

/* The calendar year of `time` in the zone `tz` (minutes east of UTC), as git shows it. */
int cite_audit_year_of(int64_t time, int tz);

/* Sort and merge the ambiguous prefixes.  0 or -1 (memory). */
int cite_audit_finish(cite_audit *a);

/*
 * The `max` most cited commits into out, most cited first (ties: by ID);
 * how many.
 */
size_t cite_audit_top(const cite_audit *a, cite_audit_cited *out, size_t max);

/* The share of n in total, in percent (0 when total is 0). */
double cite_audit_share(uint64_t n, uint64_t total);

void cite_audit_clear(cite_audit *a);

#endif
