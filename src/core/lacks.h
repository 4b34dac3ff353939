/*
 * lacks.h - what a repository lacks by design, and what a reachability
 * walk found missing, shared by the walker (which finds out) and the
 * emitters (which say so).
 */
#ifndef ABBREV_LACKS_H
#define ABBREV_LACKS_H

enum abbrev_lack {
	ABBREV_LACKS_SHALLOW = 1, /* a shallow clone: history past the boundary */
	ABBREV_LACKS_PARTIAL = 2  /* a partial clone: objects the server filtered */
};

#include <stddef.h>

/*
 * What --reachable walked, for the emitters: the ref patterns, how many
 * refs they matched, and the objects the refs reach that the repositories
 * lack (counted apart, never as present).
 */
typedef struct {
	const char *const *patterns; /* borrowed */
	size_t npatterns;
	size_t refs;                 /* refs walked, HEAD counting as one */
	size_t missing;              /* objects named but absent */
	size_t bad_refs;             /* refs whose own object is absent */
} abbrev_reach;

#endif
