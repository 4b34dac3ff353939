/*
 * mbox.h - mail in verify's input: an mbox file (`git format-patch
 * --stdout`, a thread saved from a mail client or lore.kernel.org) or one
 * RFC 822 message (a Maildir file), cut into its messages, and each
 * message's commit message as `git mailinfo` makes it: the Subject: past
 * its "Re:" and "[PATCH v2 3/7]" prefixes, a blank line, and the body up
 * to the `---` line or the diff, decoded (quoted-printable, base64, RFC
 * 2047 subjects; mboxrd's ">From " lines unquoted; in-body From:, Date:
 * and Subject: lines taken out, folded over lines or not, a Subject: there
 * replacing the header's).
 * Of a multipart message every part is read, one after the other, as git
 * mailinfo reads them (an attached patch, but an HTML part too).  Text in
 * another charset (Content-Type's charset=, an encoded word's) is
 * converted to UTF-8 as git mailinfo converts it; a line so converted is
 * no longer the input's bytes.
 *
 * Each line of a commit message remembers the line of the input it came
 * from, and where its bytes are in the input when they are the input's
 * own (not decoded): findings name input lines, and --fix rewrites only
 * what it can find in the input.
 *
 * A series' later patches may cite earlier ones by the IDs of the
 * sender's tree, which this repository does not have yet:
 * mbox_series_notes() turns the findings of such a reference into one
 * note that names the patch.
 *
 * Pure: it reads a caller's buffer of any bytes and writes only the list
 * it returns; no files, no repository, no libgit2.
 *
 * Ownership: mbox_split() fills an mbox_list freed with mbox_free().
 */
#ifndef ABBREV_MBOX_H
#define ABBREV_MBOX_H

#include <stddef.h>

#include "hexid.h"
#include "cite_parse.h"
#include "cite_resolve.h"

/* A line of a commit message. */
typedef struct {
	size_t off;            /* where it starts in mbox_msg.text */
	size_t raw;            /* where its bytes start in the input, or SIZE_MAX (decoded) */
	size_t line;           /* the 1-based line of the input it comes from */
	size_t skip;           /* the input's bytes before raw on that line (mboxrd's '>') */
} mbox_line;

typedef struct {
	size_t start, end;     /* the message in the input: [start, end) */
	char *message_id;      /* Message-ID: without <>, or NULL */
	char *subject;         /* Subject: decoded and unfolded ("[PATCH 2/3] foo: bar"), or NULL */
	char *title;           /* the commit's subject: past the prefixes, or an in-body Subject: */
	char commit[ABBREV_MAX_HEXSZ + 1]; /* the ID of git format-patch's "From <id>" line, or "" */
	char *text;            /* the commit message, NUL-terminated */
	size_t len;
	mbox_line *lines;      /* its lines */
	size_t nlines;
} mbox_msg;

typedef struct {
	mbox_msg *v;
	size_t n;
} mbox_list;

/*
 * Cut buf[0..len) into messages when it is mail: an mbox (it starts with
 * a "From " line over a header) or one message (its first lines are
 * headers, among them Subject: and From:, Date: or Message-ID:).
 * 1 (mail, *out filled), 0 (not mail: *out empty), -1 out of memory.
 */
int mbox_split(const char *buf, size_t len, mbox_list *out);
void mbox_free(mbox_list *l);

/* The input line of the commit message's line `line` (1-based). */
size_t mbox_input_line(const mbox_msg *m, size_t line);
/*
 * Where byte `off` of the commit message is in the input, or SIZE_MAX when
 * its line was decoded (or off is past the text).
 */
size_t mbox_input_offset(const mbox_msg *m, size_t off);
/*
 * The input's bytes [*s, *e) that are the commit message's [s, e), when
 * all of them are the input's own, in one piece: 1, else 0.
 */
int mbox_input_span(const mbox_msg *m, size_t s, size_t e, size_t *is, size_t *ie);
/* The 1-based column of byte `off` on its input line (in the decoded line when decoded). */
size_t mbox_input_column(const mbox_msg *m, size_t off);

/*
 * For the references of message k of `l` (their findings in `res`, as
 * cite_resolve() left them on the message's text): each whose ID names
 * nothing here (unknown, not here) but that names an earlier message of
 * the series (its subject is that patch's title, or its ID starts that
 * patch's "From <id>" line and it has no subject) gets one note: CITE_P_IN_SERIES, "<id> is patch "<subject>"
 * earlier in this series (<Message-ID>)", in place of those findings
 * (a style warning stays); nothing is suggested.  res's counts are mended.  0,
 * or -1 when out of memory.
 */
int mbox_series_notes(const mbox_list *l, size_t k, const cite_list *refs, cite_results *res);

#endif
