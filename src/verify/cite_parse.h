/*
 * cite_parse.h - commit references in text: `Fixes:` tags, `commit <id>
 * ("subject")` in prose, and `This reverts commit <id>.`
 *
 * Pure: it reads a caller's buffer of any bytes (NULs, invalid UTF-8,
 * lines of any length) and writes only the list it returns; no files, no
 * repository, no libgit2.  So it can be unit-tested on hand-written texts
 * and fuzzed.  What counts as prose: the text of commit messages, mails
 * and patches, but not mail headers, diff hunks, or quoted reply text
 * ("> ..."); a `Fixes:` in a patch's commit message part does count.
 *
 * Ownership: cite_parse() fills a cite_list that the caller frees with
 * cite_list_free(); subjects are copies, the list's (in its arena);
 * offsets point into the buffer, which the caller keeps.
 *
 * Names: a commit reference in text is a "citation" (cite_*, CITE_*);
 * "ref" means a git ref (HEAD, a branch, a tag) everywhere in src/.
 */
#ifndef ABBREV_CITE_PARSE_H
#define ABBREV_CITE_PARSE_H

#include <stddef.h>

#include "arena.h"

/* Longer runs of hex are not taken for IDs at all. */
#define CITE_MAX_HEX 128
/* citation.id keeps this many hex chars (2 x the widest hash); id_len says all. */
#define CITE_ID_MAX 64
/*
 * A subject is looked for within this many bytes after its ID (3 lines at
 * most); one that does not close within them is read whole, once a line.
 */
#define CITE_WINDOW 2048

enum cite_kind {
	CITE_FIXES = 1,  /* "Fixes: <id> ("subject")" tag */
	CITE_COMMIT,     /* "commit <id> ("subject")" in prose, a bare "<id> ("subject")" or "<id>" */
	CITE_REVERT      /* "This reverts commit <id>." */
};

/* Departures from the kernel's style (checkpatch's BAD_FIXES_TAG, GIT_COMMIT_ID). */
enum cite_style {
	CITE_STYLE_TAG = 1u << 0,         /* not spelt "Fixes:" (case, missing colon) */
	CITE_STYLE_SPACING = 1u << 1,     /* not one space after "Fixes:" or before "(" */
	CITE_STYLE_COMMIT_WORD = 1u << 2, /* "Fixes: commit <id>" */
	CITE_STYLE_NO_SUBJECT = 1u << 3,  /* no ("subject") after the ID */
	CITE_STYLE_NO_QUOTES = 1u << 4,   /* (subject) without the double quotes */
	CITE_STYLE_NO_PARENS = 1u << 5,   /* "subject" without the parentheses */
	CITE_STYLE_UNCLOSED = 1u << 6,    /* ("subject... never closed */
	CITE_STYLE_SPLIT = 1u << 7,       /* a Fixes: tag split over lines */
	CITE_STYLE_LAYOUT = 1u << 8       /* dated, but not as git's (subject, YYYY-MM-DD) */
};

/* What else the parser saw. */
enum cite_flag {
	CITE_F_UPPER = 1u << 0,     /* the ID has upper-case hex */
	CITE_F_ELLIPSIS = 1u << 1,  /* the subject ends in "...", ".." or U+2026: a prefix */
	CITE_F_DATED = 1u << 2,     /* git's --pretty=reference "(subject, 2024-12-05)" */
	CITE_F_UPSTREAM = 1u << 3,  /* "commit <id> upstream" / "Upstream commit <id>" (stable) */
	CITE_F_TITLE = 1u << 4,     /* the subject comes from a `Revert "..."` title line */
	CITE_F_BARE = 1u << 5,      /* an ID followed by a subject, without the word commit */
	CITE_F_CAPITAL = 1u << 6,   /* the word is spelt "Commit" */
	CITE_F_QUOTED_DATE = 1u << 7, /* ("subject", 2024-12-05): dated, and quoted */
	/*
	 * A reference only if its ID names a commit: a bare hex word in prose
	 * (CITE_BARE_MIN_HEX or more, a letter and a digit, no subject), or
	 * an ID of a letter- or digit-less word after "Fixes:" or "commit"
	 * with no subject.  The resolver drops it, uncounted, when no commit
	 * has the ID (a blob in pasted output, a checksum, a number).
	 */
	CITE_F_MAYBE = 1u << 8,
	CITE_F_REMARK = 1u << 9,    /* ("subject", remark): the remark kept, as a date is */
	/*
	 * The text names the reference as another project's (`foreign` says
	 * how): an ID no commit here has is then a note, not an error.
	 */
	CITE_F_FOREIGN = 1u << 10,
	/*
	 * The ID of git's `(cherry picked from commit <id>)`: when no object
	 * here has it, the message was picked from another history, and its
	 * references are that history's (cite_resolve()).
	 */
	CITE_F_PICKED = 1u << 11,
	/*
	 * CITE_PARSE_MESSAGE: the message has a line `Cc: ...
	 * stable@vger.kernel.org` (or stable@kernel.org), Linux's stable
	 * list, which takes Linux's commits only: outside Linux the message
	 * is one of Linux's, brought in with its tags (cite_resolve()).
	 */
	CITE_F_STABLE = 1u << 12
};

/* How the text names a reference as another project's (citation.foreign). */
enum cite_foreign {
	CITE_FOREIGN_NAMED = 1,  /* "ported from Linux commit <id>", "<id> in git.git": `project` */
	CITE_FOREIGN_QUOTED,     /* in a quoted message or example (indented) */
	CITE_FOREIGN_MESSAGE     /* the message is upstream's ([ upstream commit: <id> ]) */
};

/* The fewest hex chars of a bare ID in prose (checkpatch's GIT_COMMIT_ID: 12). */
#define CITE_BARE_MIN_HEX 12
/* The fewest of an ID that is a reference only if it names a commit (git's default abbrev). */
#define CITE_MAYBE_MIN_HEX 7

typedef struct {
	int kind;                /* enum cite_kind */
	unsigned style;          /* enum cite_style */
	unsigned flags;          /* enum cite_flag */
	size_t line;             /* 1-based line where the reference starts */
	size_t start, end;       /* [start, end): the reference, first word to last byte */
	size_t id_start, id_len; /* the ID as written */
	char id[CITE_ID_MAX + 1]; /* the ID in lower case, cut at CITE_ID_MAX */
	size_t subj_start, subj_end; /* the subject as written, between its quotes/parens */
	char *subject;           /* lines joined by one space; NULL if none */
	size_t subject_len;
	size_t match_len;        /* with CITE_F_ELLIPSIS: the bytes before the "..." */
	size_t date_start, date_len; /* with CITE_F_DATED: the date as written */
	int foreign;             /* with CITE_F_FOREIGN: enum cite_foreign */
	char *project;           /* CITE_FOREIGN_NAMED: the project as written ("the Linux kernel") */
} citation;

typedef struct {
	citation *v;             /* mapped (bigvec.h): a long input has 100,000s */
	size_t n, cap;
	size_t vbytes;           /* v's room in bytes */
	arena text;              /* the subjects (one malloc a chunk, not a reference) */
	/*
	 * CITE_PARSE_MESSAGE only.  title: the message's subject as git's %s
	 * (its first paragraph), blanks collapsed to one space (the arena's).
	 * imports: the subjects of the commits the message says it brings in
	 * from another project (a line such as "Syncing latest commits from
	 * kernel repository", then git shortlog's "Name (N):" groups of
	 * indented subjects, or `<id> <subject>` lines), nimports of them,
	 * each NUL-terminated and collapsed as the title, one after another
	 * (malloc'd; cite_list_free() frees it).
	 */
	char *title;
	char *imports;
	size_t imports_len, imports_cap, nimports;
} cite_list;

/* Options of cite_parse(). */
enum cite_parse_opt {
	/*
	 * The buffer is one commit message (as `git log --format=%B` prints
	 * one): no mail or log headers to look for; line 1 is its title.
	 */
	CITE_PARSE_MESSAGE = 1u << 0
};

/*
 * Append the references of buf[0..len) to `out` (initialise it to
 * zeroes), in the order they appear.  Returns 0, or -1 when out of memory
 * (the list then holds what was found so far).
 */
int cite_parse(cite_list *out, const char *buf, size_t len, unsigned opts);
void cite_list_free(cite_list *l);

/* "fixes", "commit", "revert". */
const char *cite_kind_name(int kind);

/*
 * The text that replaces buf[r->start .. r->end) to make the reference
 * correct: the ID `hex` and the subject `subject` (NUL-terminated) in the
 * kernel's form, keeping how it was written where that was fine (the
 * capital of "Commit", git's dated form).  A revert's span is its ID
 * alone, so only the ID is replaced.  Returns a string the caller frees,
 * or NULL when out of memory.
 */
char *cite_format_fixed(const char *buf, const citation *r, const char *hex,
			const char *subject);

#endif
