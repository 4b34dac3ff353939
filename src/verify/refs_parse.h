/*
 * refs_parse.h - commit references in text: `Fixes:` tags, `commit <id>
 * ("subject")` in prose, and `This reverts commit <id>.`
 *
 * Pure: it reads a caller's buffer of any bytes (NULs, invalid UTF-8,
 * lines of any length) and writes only the list it returns; no files, no
 * repository, no libgit2.  So it can be unit-tested on hand-written texts
 * and fuzzed.  What counts as prose: the text of commit messages, mails
 * and patches, but not mail headers, diff hunks, or quoted reply text
 * ("> ..."); a `Fixes:` in a patch's commit message part does count.
 *
 * Ownership: refs_parse() fills a refs_list that the caller frees with
 * refs_list_free(); subjects are copies, the list's (in its arena);
 * offsets point into the buffer, which the caller keeps.
 */
#ifndef ABBREV_REFS_PARSE_H
#define ABBREV_REFS_PARSE_H

#include <stddef.h>

#include "arena.h"

/* Longer runs of hex are not taken for IDs at all. */
#define REFS_MAX_HEX 128
/* refs_ref.id keeps this many hex chars (2 x the widest hash); id_len says all. */
#define REFS_ID_MAX 64
/*
 * A subject is looked for within this many bytes after its ID (3 lines at
 * most); one that does not close within them is read whole, once a line.
 */
#define REFS_WINDOW 2048

enum refs_kind {
	REFS_FIXES = 1,  /* "Fixes: <id> ("subject")" tag */
	REFS_COMMIT,     /* "commit <id> ("subject")" in prose, a bare "<id> ("subject")" or "<id>" */
	REFS_REVERT      /* "This reverts commit <id>." */
};

/* Departures from the kernel's style (checkpatch's BAD_FIXES_TAG, GIT_COMMIT_ID). */
enum refs_style {
	REFS_STYLE_TAG = 1u << 0,         /* not spelt "Fixes:" (case, missing colon) */
	REFS_STYLE_SPACING = 1u << 1,     /* not one space after "Fixes:" or before "(" */
	REFS_STYLE_COMMIT_WORD = 1u << 2, /* "Fixes: commit <id>" */
	REFS_STYLE_NO_SUBJECT = 1u << 3,  /* no ("subject") after the ID */
	REFS_STYLE_NO_QUOTES = 1u << 4,   /* (subject) without the double quotes */
	REFS_STYLE_NO_PARENS = 1u << 5,   /* "subject" without the parentheses */
	REFS_STYLE_UNCLOSED = 1u << 6,    /* ("subject... never closed */
	REFS_STYLE_SPLIT = 1u << 7,       /* a Fixes: tag split over lines */
	REFS_STYLE_LAYOUT = 1u << 8       /* dated, but not as git's (subject, YYYY-MM-DD) */
};

/* What else the parser saw. */
enum refs_flag {
	REFS_F_UPPER = 1u << 0,     /* the ID has upper-case hex */
	REFS_F_ELLIPSIS = 1u << 1,  /* the subject ends in "...", ".." or U+2026: a prefix */
	REFS_F_DATED = 1u << 2,     /* git's --pretty=reference "(subject, 2024-12-05)" */
	REFS_F_UPSTREAM = 1u << 3,  /* "commit <id> upstream" / "Upstream commit <id>" (stable) */
	REFS_F_TITLE = 1u << 4,     /* the subject comes from a `Revert "..."` title line */
	REFS_F_BARE = 1u << 5,      /* an ID followed by a subject, without the word commit */
	REFS_F_CAPITAL = 1u << 6,   /* the word is spelt "Commit" */
	REFS_F_QUOTED_DATE = 1u << 7, /* ("subject", 2024-12-05): dated, and quoted */
	/*
	 * A reference only if its ID names a commit: a bare hex word in prose
	 * (REFS_BARE_MIN_HEX or more, a letter and a digit, no subject), or
	 * an ID of a letter- or digit-less word after "Fixes:" or "commit"
	 * with no subject.  The resolver drops it, uncounted, when no commit
	 * has the ID (a blob in pasted output, a checksum, a number).
	 */
	REFS_F_MAYBE = 1u << 8,
	REFS_F_REMARK = 1u << 9,    /* ("subject", remark): the remark kept, as a date is */
	/*
	 * The text names the reference as another project's (`foreign` says
	 * how): an ID no commit here has is then a note, not an error.
	 */
	REFS_F_FOREIGN = 1u << 10,
	/*
	 * The ID of git's `(cherry picked from commit <id>)`: when no object
	 * here has it, the message was picked from another history, and its
	 * references are that history's (refs_resolve()).
	 */
	REFS_F_PICKED = 1u << 11
};

/* How the text names a reference as another project's (refs_ref.foreign). */
enum refs_foreign {
	REFS_FOREIGN_NAMED = 1,  /* "ported from Linux commit <id>", "<id> in git.git": `project` */
	REFS_FOREIGN_QUOTED,     /* in a quoted message or example (indented) */
	REFS_FOREIGN_MESSAGE     /* the message is upstream's ([ upstream commit: <id> ]) */
};

/* The fewest hex chars of a bare ID in prose (checkpatch's GIT_COMMIT_ID: 12). */
#define REFS_BARE_MIN_HEX 12
/* The fewest of an ID that is a reference only if it names a commit (git's default abbrev). */
#define REFS_MAYBE_MIN_HEX 7

typedef struct {
	int kind;                /* enum refs_kind */
	unsigned style;          /* enum refs_style */
	unsigned flags;          /* enum refs_flag */
	size_t line;             /* 1-based line where the reference starts */
	size_t start, end;       /* [start, end): the reference, first word to last byte */
	size_t id_start, id_len; /* the ID as written */
	char id[REFS_ID_MAX + 1]; /* the ID in lower case, cut at REFS_ID_MAX */
	size_t subj_start, subj_end; /* the subject as written, between its quotes/parens */
	char *subject;           /* lines joined by one space; NULL if none */
	size_t subject_len;
	size_t match_len;        /* with REFS_F_ELLIPSIS: the bytes before the "..." */
	size_t date_start, date_len; /* with REFS_F_DATED: the date as written */
	int foreign;             /* with REFS_F_FOREIGN: enum refs_foreign */
	char *project;           /* REFS_FOREIGN_NAMED: the project as written ("the Linux kernel") */
} refs_ref;

typedef struct {
	refs_ref *v;             /* mapped (bigvec.h): a long input has 100,000s */
	size_t n, cap;
	size_t vbytes;           /* v's room in bytes */
	arena text;              /* the subjects (one malloc a chunk, not a reference) */
	/*
	 * REFS_PARSE_MESSAGE only.  title: the message's subject as git's %s
	 * (its first paragraph), blanks collapsed to one space (the arena's).
	 * imports: the subjects of the commits the message says it brings in
	 * from another project (a line such as "Syncing latest commits from
	 * kernel repository", then git shortlog's "Name (N):" groups of
	 * indented subjects, or `<id> <subject>` lines), nimports of them,
	 * each NUL-terminated and collapsed as the title, one after another
	 * (malloc'd; refs_list_free() frees it).
	 */
	char *title;
	char *imports;
	size_t imports_len, imports_cap, nimports;
} refs_list;

/* Options of refs_parse(). */
enum refs_parse_opt {
	/*
	 * The buffer is one commit message (as `git log --format=%B` prints
	 * one): no mail or log headers to look for; line 1 is its title.
	 */
	REFS_PARSE_MESSAGE = 1u << 0
};

/*
 * Append the references of buf[0..len) to `out` (initialise it to
 * zeroes), in the order they appear.  Returns 0, or -1 when out of memory
 * (the list then holds what was found so far).
 */
int refs_parse(refs_list *out, const char *buf, size_t len, unsigned opts);
void refs_list_free(refs_list *l);

/* "fixes", "commit", "revert". */
const char *refs_kind_name(int kind);

/*
 * The text that replaces buf[r->start .. r->end) to make the reference
 * correct: the ID `hex` and the subject `subject` (NUL-terminated) in the
 * kernel's form, keeping how it was written where that was fine (the
 * capital of "Commit", git's dated form).  A revert's span is its ID
 * alone, so only the ID is replaced.  Returns a string the caller frees,
 * or NULL when out of memory.
 */
char *refs_format_fixed(const char *buf, const refs_ref *r, const char *hex,
			const char *subject);

#endif
