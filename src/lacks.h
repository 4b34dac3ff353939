/*
 * lacks.h - what a repository lacks by design, shared by the walker
 * (which finds out) and the emitters (which say so).
 */
#ifndef ABBREV_LACKS_H
#define ABBREV_LACKS_H

enum abbrev_lack {
	ABBREV_LACKS_SHALLOW = 1, /* a shallow clone: history past the boundary */
	ABBREV_LACKS_PARTIAL = 2  /* a partial clone: objects the server filtered */
};

#endif
