/*
 * verdict.h - the answer at a glance, at the end of the report and of
 * `check`: for git's automatic length, 12 and 16 (and the lengths asked),
 * per set (commits, commit-ish, all objects), what collides now, the
 * chance of a collision now and in ten years, the year it passes 1%, and
 * a level of concern in words; and the core.abbrev that keeps all objects
 * below 1% for the next ten years.
 *
 * Every number is policy_compute()'s (policy.h): the verdict is the
 * policy view cut to the lengths a maintainer argues about, with words
 * added.  The levels (the man page defines them for users):
 *  - act:   colliding prefixes are measured now at that length, or the
 *           chance is at least 1% now (or was passed already);
 *  - watch: the chance passes 1% within VERDICT_YEARS at the growth
 *           (without a growth: it is at least 0.1% now);
 *  - none:  neither.
 *
 * Pure math, no I/O.  Ownership: everything lives in the caller's struct;
 * set names are borrowed from the inputs.
 */
#ifndef ABBREV_VERDICT_H
#define ABBREV_VERDICT_H

#include <stddef.h>
#include <stdint.h>

#include "policy.h"

#define VERDICT_YEARS 10.0      /* "for the next ten years" */
#define VERDICT_P 0.01          /* the chance that is one too many */
#define VERDICT_WATCH_NOW 0.001 /* without a growth: watch from this chance now */
#define VERDICT_QUOTE_LENS { 12, 16 } /* the lengths of the kernel's debate */

enum verdict_concern {
	VERDICT_NONE = 0,
	VERDICT_WATCH,
	VERDICT_ACT
};

typedef struct {
	policy_results pol;      /* the lengths ascending, the sets as given */
	int concern[POLICY_MAX_SETS][POLICY_MAX_LENGTHS]; /* enum verdict_concern */
	int years_index;         /* index of VERDICT_YEARS in pol.years (-1: none) */
	unsigned git_auto;       /* model_git_auto_abbrev() of the objects */
	uint64_t git_objects;    /* the count it is for */
	uint64_t git_next;       /* the count from which git picks git_auto + 1 (0: never) */
	/*
	 * The shortest lengths whose chance stays below VERDICT_P for
	 * VERDICT_YEARS (without a growth: now) and without a colliding
	 * prefix measured: for all objects (core.abbrev, which every
	 * abbreviation git prints starts from) and for commits (references
	 * quoted in messages).  0: no set of that name.
	 */
	unsigned suggest_abbrev, suggest_commit;
	int suggest_grown;       /* 1: over VERDICT_YEARS of growth; 0: now */
} verdict;

/*
 * Fill v for the sets in[0..nin) (named "commit", "commit-ish", "all" as
 * policy's; the objects' count is the one named "all") at git's automatic
 * length, VERDICT_QUOTE_LENS and extra[0..nextra), up to hexsz chars,
 * under growth g seen from now (policy_compute()'s arguments).  Returns
 * 0, or -1 for arguments out of range.
 */
int verdict_compute(verdict *v, const policy_input *in, size_t nin, const unsigned *extra,
		    size_t nextra, unsigned hexsz, const policy_growth *g, int growth_source,
		    double now, const int64_t *times, size_t ntimes, uint64_t commits);

/* The level of one row of a set (what verdict_compute() fills in concern[][]). */
int verdict_concern_of(const policy_row *row, int have_growth, int years_index);

/* "none", "watch", "act". */
const char *verdict_concern_name(int concern);

#endif
