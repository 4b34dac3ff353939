/*
 * cmd_verify.c - `git abbrev verify`: check the commit references of
 * patches, mailboxes and commit messages against a repository.
 *
 * A reference's ID is looked up in the packs' .idx files and the loose
 * fan-out directory it falls in (objidx.h), as git does for `git
 * rev-parse <prefix>`: nothing is loaded per object up front.  Only what
 * needs every commit (the subject index) walks the repository into the
 * Judy sets, once, when first needed; --reachable and --walker=libgit2
 * load them first, as report does, since they answer from them.  Each
 * input is read whole, its references found (cite_parse), judged
 * (cite_resolve) and printed by one emitter.  With --range the inputs are
 * the messages of a range of commits, and a Fixes: tag or a revert must
 * name an ancestor of its commit.  --fix prints the input with every
 * reference whose commit is known rewritten; files are never edited.
 * Each --repo is opened the same way (its own objects and commits) and
 * consulted when no commit here has an ID.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <git2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bigvec.h"
#include "cli.h"
#include "cmd.h"
#include "cmd_verify.h"
#include "emit.h"
#include "emit_verify.h"
#include "exitcodes.h"
#include "hexid.h"
#include "mbox.h"
#include "objidx.h"
#include "cite_digest.h"
#include "cite_git2.h"
#include "subject_cache.h"
#include "cite_parse.h"
#include "cite_resolve.h"
#include "walk.h"
#include "repo.h"

static int cmd_verify(int argc, char **argv);

/* verify --repo=<path>: one more repository (the field is cli_verify_opts.other) */
static int parse_other_repo(void *o, const cli_option *opt, const char *v, char *err,
			    size_t errsz)
{
	cli_verify_opts *vo = o;

	if (vo->nother == CLI_MAX_OTHER_REPOS) {
		snprintf(err, errsz, "at most %d '--%s' options", CLI_MAX_OTHER_REPOS, opt->name);
		return -1;
	}
	vo->other[vo->nother++] = v;
	return 0;
}

/* The options of `git abbrev verify`: parsing, -h and completion come from this table. */

static const cli_choice fail_ons[] = {
	{ "warning", CLI_FAIL_ON_WARNING }, { "error", CLI_FAIL_ON_ERROR }, { NULL, 0 }
};

static const cli_option verify_options[] = {
	CLI_VALUE("min-length", offsetof(cli_verify_opts, min_length), cli_opt_length, "<N>",
	          "the shortest ID a reference may use (default: abbrev.minLength, else 12)"),
	CLI_STRING("range", offsetof(cli_verify_opts, range), "<rev-range>",
	           "check the messages of these commits instead of files"),
	CLI_FLAG("fix", 0, offsetof(cli_verify_opts, fix), 1,
	         "print the input with its references rewritten"),
	CLI_MAX_INPUT(cli_verify_opts, max_input, "256m"),
	CLI_CHOICE("fail-on", offsetof(cli_verify_opts, fail_on), fail_ons,
	           "exit 1 on any finding (warning, default) or only on errors (error)"),
	CLI_VALUE("repo", offsetof(cli_verify_opts, other), parse_other_repo, "<path>",
	          "also look IDs up in this repository before calling them unknown (repeatable)"),
	CLI_FLAG("no-cache", 0, offsetof(cli_verify_opts, r.no_cache), 1,
	         "neither read nor write the subject cache (read every commit)"),
	CLI_FORMAT(offsetof(cli_verify_opts, r.format), EMIT_VERIFY),
	CLI_REPO_ROWS(cli_verify_opts, r.),
	CLI_END
};

static void verify_init(void *opts, char **argv)
{
	cli_verify_opts *o = opts;

	memset(o, 0, sizeof(*o));
	cli_repo_init(&o->r, argv);
	o->files = argv;
	o->min_length = 0; /* not given: git config abbrev.minLength, else the default (cmd_verify.c) */
	o->max_input = CLI_DEFAULT_MAX_INPUT;
}

static int verify_positional(void *opts, char *arg, char *err, size_t errsz)
{
	cli_verify_opts *o = opts;

	(void)err;
	(void)errsz;
	o->files[o->nfiles++] = arg;
	return 0;
}

static int verify_finish(void *opts, char *err, size_t errsz)
{
	cli_verify_opts *o = opts;
	const char *why = NULL;

	if (o->range && o->nfiles)
		why = "--range checks the messages of commits, not files";
	else if (o->fix && o->range)
		why = "--fix rewrites a file, not history";
	else if (o->fix && o->nfiles > 1)
		why = "--fix takes one input (it prints it rewritten)";
	else if (o->fix && o->r.format != ABBREV_FORMAT_TEXT)
		why = "--fix prints the text; its findings go to stderr as text";
	if (why)
		snprintf(err, errsz, "%s", why);
	return why ? -1 : 0;
}

const cli_command cli_cmd_verify = {
	"verify", "[<file>...]",
	"check Fixes: tags and commit references by ID and subject; exit 1 if any is wrong",
	"checks Fixes: tags, `commit <id> (\"subject\")` and `This reverts commit <id>.`\n"
	"in the files (none or '-': stdin), or with --range in the commits' messages\n"
	"exit status: 0 nothing flagged, 1 something flagged, 2 usage, 3+ error\n",
	verify_options, verify_init, verify_positional, verify_finish,
	offsetof(cli_verify_opts, r),
	cmd_verify
};

typedef struct {
	const cli_verify_opts *o;
	cite_resolver *res;
	verify_emitter *em;
	const cite_ids *ids;
	size_t rawsz;
	verify_totals t;
	int ret;              /* the worst runtime status so far */
	/* mail (mbox.h): its messages, the one being checked, and --fix's place in the input */
	const mbox_list *mail;
	size_t msg;
	const char *input;
	size_t fixed;
	/* the projects the text names for not-here references, and how often (the hint) */
	struct {
		char name[sizeof(((verify_totals *)0)->project)];
		size_t n;
	} proj[8];
	size_t nproj;
} verify_ctx;

/*
 * The whole of a file ("-": stdin), at most `max` bytes, NUL-terminated,
 * in memory of *room bytes to give back with bigvec_free() (a long input
 * is read into huge pages).  A relative path is taken from the directory
 * the command was started in, not from -C's.  0, 1 when the input is
 * longer than that (nothing kept), or -1 with errno set.
 */
static int read_all(const char *path, uint64_t max, char **out, size_t *len, size_t *room)
{
	int fd = strcmp(path, "-") ? openat(cmd_start_dir(), path, O_RDONLY | O_CLOEXEC) : -1;
	FILE *f = strcmp(path, "-") ? (fd < 0 ? NULL : fdopen(fd, "rb")) : stdin;
	size_t cap = 1 << 16, n = 0, got, vbytes = 0;
	char *buf = NULL;
	void *b;
	struct stat st;
	int saved;

	if (!f) {
		saved = errno;
		if (fd >= 0)
			close(fd);
		errno = saved;
		return -1;
	}
	if (max > SIZE_MAX / 4)
		max = SIZE_MAX / 4;
	/* a regular file's size is known: one buffer, no copies as it grows */
	if (!fstat(fileno(f), &st) && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uint64_t)st.st_size < max)
		cap = (size_t)st.st_size + 1; /* the +1 sees a file that grew */
	if (cap > max + 1)
		cap = (size_t)max + 1; /* one byte more than allowed tells "too long" */
	for (;;) {
		if (!buf || n == cap) {
			if (buf && n > max)
				break;
			if (buf)
				cap = 2 * cap > max + 1 ? (size_t)max + 1 : 2 * cap;
			b = buf;
			if (bigvec_reserve(&b, &vbytes, cap + 1)) {
				errno = ENOMEM;
				break;
			}
			buf = b;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0) {
			if (ferror(f) || n > max)
				break;
			buf[n] = '\0';
			if (f != stdin)
				fclose(f);
			*out = buf;
			*len = n;
			*room = vbytes;
			return 0;
		}
	}
	saved = errno ? errno : EIO;
	bigvec_free(buf, vbytes);
	if (f != stdin && fclose(f) && n <= max)
		saved = errno;
	if (n > max)
		return 1;
	errno = saved;
	return -1;
}

/*
 * Output held back until every input was read and judged: a read that
 * fails part way through several inputs prints its error and nothing on
 * stdout, never a document cut short.
 */
typedef struct {
	FILE *f;              /* NULL: not held (written straight to its stream) */
	char *buf;
	size_t len;
} held_out;

/* Where to write what goes to `to`: `to` itself, or (hold) memory; NULL when out of memory. */
static FILE *held_open(held_out *h, FILE *to, int hold)
{
	if (!hold)
		return to;
	h->f = open_memstream(&h->buf, &h->len);
	return h->f;
}

/* What was held, written to `to`; 0 or -1 (errno set). */
static int held_flush(held_out *h, FILE *to)
{
	int rc;

	if (!h->f)
		return 0;
	rc = fclose(h->f);
	h->f = NULL;
	if (rc)
		return -1;
	return h->len && fwrite(h->buf, 1, h->len, to) != h->len ? -1 : 0;
}

static void held_free(held_out *h)
{
	if (h->f)
		fclose(h->f);
	free(h->buf);
}

/* The input with each reference whose commit is known rewritten. */
static int write_fixed(FILE *out, const char *buf, size_t len, const cite_list *l,
		       const cite_results *res)
{
	size_t pos = 0;

	for (size_t i = 0; i < res->n; i++) {
		const cite_result *x = &res->v[i];
		const citation *ref = &l->v[x->ref];

		if (!x->suggest || ref->start < pos)
			continue;
		fwrite(buf + pos, 1, ref->start - pos, out);
		fputs(x->replacement, out);
		pos = ref->end;
	}
	fwrite(buf + pos, 1, len - pos, out);
	return ferror(out) ? -1 : 0;
}

/*
 * Mail: the input up to each reference whose commit is known and whose
 * bytes are the input's own (a decoded body is left as it is), then the
 * reference rewritten; c->fixed is how far the input is written.
 */
static int write_fixed_mail(verify_ctx *c, const cite_list *l, const cite_results *res)
{
	const mbox_msg *m = &c->mail->v[c->msg];

	for (size_t i = 0; i < res->n; i++) {
		const cite_result *x = &res->v[i];
		const citation *ref = &l->v[x->ref];
		size_t s, e;

		if (!x->suggest || !mbox_input_span(m, ref->start, ref->end, &s, &e) || s < c->fixed)
			continue;
		fwrite(c->input + c->fixed, 1, s - c->fixed, stdout);
		fputs(x->replacement, stdout);
		c->fixed = e;
	}
	return ferror(stdout) ? -1 : 0;
}

/* The lines of a text, a last one without its newline counted. */
static size_t count_lines(const char *buf, size_t len)
{
	size_t n = 0;

	for (const char *p = buf; (p = memchr(p, '\n', len - (size_t)(p - buf))); p++)
		n++;
	return n + (len && buf[len - 1] != '\n');
}

/*
 * With no --repo: count the references to another project's commits
 * (not-here) and the unknown IDs, and which project the text names, for
 * the hint that --repo checks them (emit_verify.h, verify_totals).
 */
static void tally_not_here(verify_ctx *c, const cite_list *l, const cite_results *res)
{
	size_t best = 0;

	for (size_t i = 0; i < res->n; i++) {
		const cite_result *x = &res->v[i];
		const char *name = l->v[x->ref].project;
		size_t k, len;

		for (k = 0; k < x->nf; k++)
			if (x->f[k].problem == CITE_P_UNKNOWN)
				c->t.unknown++;
		for (k = 0; k < x->nf && x->f[k].problem != CITE_P_NOT_HERE; k++)
			;
		if (k == x->nf)
			continue;
		c->t.not_here++;
		/* "a Linux commit", "the Linux kernel": the name; "upstream" is none */
		if (name && (!strncasecmp(name, "a ", 2) || !strncasecmp(name, "an ", 3) ||
			     !strncasecmp(name, "the ", 4)))
			name = strchr(name, ' ') + 1;
		if (!name || !*name || !strcasecmp(name, "upstream") || !strcasecmp(name, "mainline"))
			continue;
		len = strlen(name);
		if (len >= sizeof(c->proj[0].name))
			continue;
		for (k = 0; k < c->nproj && strcasecmp(c->proj[k].name, name); k++)
			;
		if (k == c->nproj) {
			if (c->nproj == sizeof(c->proj) / sizeof(c->proj[0]))
				continue;
			memcpy(c->proj[c->nproj].name, name, len + 1);
			c->proj[c->nproj++].n = 0;
		}
		c->proj[k].n++;
		for (k = 0; k < c->nproj; k++)
			if (c->proj[k].n > c->proj[best].n)
				best = k;
		memcpy(c->t.project, c->proj[best].name, sizeof(c->t.project));
	}
}

/*
 * Find, judge and print the references of one text, l (zeroes, the
 * caller's to free) their list.  With `note` (a --range's commit): buf
 * NULL is a message its note says yields nothing (*note: its lines), not
 * read again; `parsed`: l is buf's already (a digest, cite_digest.h), *note
 * its lines; else *note is set to what this one yields, for the next run:
 * its lines (CITE_NOTE_READ when there are too many to say).
 */
static int check_list(verify_ctx *c, const char *name, const char *commit_hex,
		      const unsigned char *commit, const char *buf, size_t len, unsigned opts,
		      uint32_t *note, cite_list *l, int parsed)
{
	cite_results res = { 0 };
	char err[512] = "";
	int rc = ABBREV_EXIT_OK;
	size_t lines;

	if (note && (!buf || parsed)) {
		lines = *note;
		if (!buf)
			goto found;
	} else {
		if (cite_parse(l, buf, len, opts)) {
			cmd_error("out of memory");
			rc = ABBREV_EXIT_NOMEM;
			goto done;
		}
		lines = c->mail ? 0 : count_lines(buf, len);
		if (note)
			*note = lines >= CITE_NOTE_READ ? CITE_NOTE_READ : (uint32_t)lines;
	}
	switch (cite_resolve(c->res, &res, buf, l, commit, err, sizeof(err))) {
	case 0:
		break;
	case -1:
		cmd_error("out of memory");
		rc = ABBREV_EXIT_NOMEM;
		goto done;
	default:
		if (*err) /* empty: the walk said why already */
			cmd_error("%s", err);
		rc = ABBREV_EXIT_RUNTIME;
		goto done;
	}
	/* a series may cite its own earlier patches, which this repository has not */
	if (c->mail && mbox_series_notes(c->mail, c->msg, l, &res)) {
		cmd_error("out of memory");
		rc = ABBREV_EXIT_NOMEM;
		goto done;
	}
found:
	c->t.inputs++;
	c->t.lines += lines;
	c->t.references += res.nrefs;
	c->t.errors += res.errors;
	c->t.warnings += res.warnings;
	c->t.notes += res.notes;
	if (!c->o->nother)
		tally_not_here(c, l, &res);
	verify_input in = { name, commit_hex, buf, l, &res, c->rawsz, NULL, 0 };
	if (c->mail) {
		in.msg = &c->mail->v[c->msg];
		in.named = c->mail->n > 1 || in.msg->message_id;
	}
	if (emit_verify_input(c->em, &in) ||
	    (c->o->fix && (c->mail ? write_fixed_mail(c, l, &res) :
			   write_fixed(stdout, buf, len, l, &res) || fflush(stdout))))
		rc = cmd_written(1, "the findings"); /* says why: the stream, or memory */
done:
	cite_results_clear(&res);
	return rc;
}

static int check_text(verify_ctx *c, const char *name, const char *commit_hex,
		      const unsigned char *commit, const char *buf, size_t len, unsigned opts)
{
	cite_list l = { 0 };
	int rc = check_list(c, name, commit_hex, commit, buf, len, opts, NULL, &l, 0);

	cite_list_free(&l);
	return rc;
}

/*
 * What the next run on a message just read need not read again, for its
 * note: nothing when it cites nothing and names nothing it brings in from
 * elsewhere (a message that does neither leaves the resolver as it found
 * it), else its parse (cite_digest.h).  0, or -1 (memory).
 */
static int learn(cite_range *rg, const cite_list *l, const char *buf, size_t len, uint32_t note)
{
	unsigned char *d;
	size_t dlen;
	int rc;

	if (!l->n && !l->nimports && note != CITE_NOTE_READ)
		return cite_range_learn(rg, note);
	if (note == CITE_NOTE_READ || (rc = cite_digest_pack(l, buf, len, &d, &dlen)) == 1)
		return cite_range_learn(rg, CITE_NOTE_READ); /* too long to keep: read again */
	if (rc < 0)
		return -1;
	rc = cite_range_learn_digest(rg, note, d, dlen);
	free(d);
	return rc;
}

/*
 * An input that is mail (an mbox, one message): each message's commit
 * message checked alone, its diff not at all.  An exit status, or -1
 * when the input is not mail.
 */
static int check_mail(verify_ctx *c, const char *name, const char *buf, size_t len)
{
	mbox_list ml;
	int rc = ABBREV_EXIT_OK;

	switch (mbox_split(buf, len, &ml)) {
	case 0:
		return -1;
	case -1:
		cmd_error("out of memory");
		return ABBREV_EXIT_NOMEM;
	}
	c->mail = &ml;
	c->input = buf;
	c->fixed = 0;
	c->t.lines += count_lines(buf, len);
	for (size_t i = 0; i < ml.n && !rc; i++) {
		c->msg = i;
		rc = check_text(c, name, NULL, NULL, ml.v[i].text, ml.v[i].len, CITE_PARSE_MESSAGE);
	}
	/* --fix: the rest of the input as it is */
	if (!rc && c->o->fix)
		rc = cmd_written(fwrite(buf + c->fixed, 1, len - c->fixed, stdout) != len - c->fixed,
				 "the findings");
	c->mail = NULL;
	c->input = NULL;
	mbox_free(&ml);
	return rc;
}

static int check_file(verify_ctx *c, const char *path)
{
	char *buf;
	size_t len, room;
	int rc;

	rc = read_all(path, c->o->max_input, &buf, &len, &room);
	if (rc == 1)
		return cmd_input_too_large(path, c->o->max_input);
	if (rc) {
		cmd_error("cannot read %s: %s", strcmp(path, "-") ? path : "standard input",
			  strerror(errno));
		return errno == ENOMEM ? ABBREV_EXIT_NOMEM : ABBREV_EXIT_RUNTIME;
	}
	rc = check_mail(c, strcmp(path, "-") ? path : "<stdin>", buf, len);
	if (rc == -1)
		rc = check_text(c, strcmp(path, "-") ? path : "<stdin>", NULL, NULL, buf, len, 0);
	bigvec_free(buf, room);
	return rc;
}

static int check_range(verify_ctx *c, cite_git2 *g)
{
	cite_range *rg;
	unsigned char id[ABBREV_MAX_RAWSZ];
	char err[512] = "", full[ABBREV_MAX_HEXSZ + 1], name[ABBREV_MAX_HEXSZ + 1];
	const char *msg = NULL;
	size_t len = 0;
	uint32_t note;
	int rc;

	if ((rc = vr_range(&rg, g, c->o->range, 1)))
		return rc;
	while ((rc = cite_range_next_noted(rg, id, &msg, &len, &note, err, sizeof(err))) > 0) {
		int read = rc == 1, digest = rc == 3;
		unsigned L = (unsigned)(2 * c->rawsz);
		cite_list l = { 0 };

		/*
		 * A message its note says yields nothing prints nothing: its
		 * name is only the first input's (checkpatch's closing line)
		 */
		if ((read || digest || !c->t.inputs) &&
		    (rc = c->ids->unique_length(c->ids->ctx, id, &L, err, sizeof(err))))
			break; /* -1 or -2: said below */
		if (L < c->o->min_length)
			L = c->o->min_length;
		if (L > 2 * c->rawsz)
			L = (unsigned)(2 * c->rawsz);
		hexid_fmt(full, id, c->rawsz);
		memcpy(name, full, L);
		name[L] = '\0';
		rc = check_list(c, name, full, id, read || digest ? msg : NULL,
				read || digest ? len : 0, CITE_PARSE_MESSAGE, &note,
				digest ? cite_range_parsed(rg) : &l, digest);
		if (!rc && read && learn(rg, &l, msg, len, note))
			rc = -1;
		cite_list_free(&l);
		if (rc)
			break;
	}
	if (!rc)
		cite_range_keep_notes(rg);
	if (rc == -1) {
		cmd_error("out of memory");
		rc = ABBREV_EXIT_NOMEM;
	} else if (rc < 0) {
		cmd_error("%s", err);
		rc = ABBREV_EXIT_RUNTIME;
	}
	cite_range_free(rg);
	return rc;
}

static int vr_prefix(void *ctx, const char *hex, size_t n, cite_id_fn fn, void *arg, char *err,
		     size_t errsz)
{
	return objidx_prefix(((verify_repo *)ctx)->x, hex, n, fn, arg, err, errsz);
}

static int vr_unique_length(void *ctx, const unsigned char *id, unsigned *len, char *err,
			    size_t errsz)
{
	return objidx_unique_length(((verify_repo *)ctx)->x, id, len, err, errsz);
}

static int vr_has_prefix(void *ctx, const unsigned char *from, size_t n, char *err, size_t errsz)
{
	return objidx_has_prefix(((verify_repo *)ctx)->x, from, n, err, errsz);
}

static int vr_prefix_nibbles(void *ctx, const unsigned char *from, size_t n, size_t i,
			     unsigned *mask, char *err, size_t errsz)
{
	return objidx_prefix_nibbles(((verify_repo *)ctx)->x, from, n, i, mask, err, errsz);
}

static size_t vr_objects(void *ctx)
{
	return objidx_count(((verify_repo *)ctx)->x);
}

/*
 * Walk the repository into its sets (once); an exit status, errors
 * printed.  With the .idx files answering every ID question, the sets
 * need only the commits (what the subject index lists): the pack walker
 * then stores no other ID, which spares most of the time and memory of
 * 10M objects.
 */
static int vr_walk(verify_repo *vr)
{
	if (vr->walk_rc < 0)
		vr->walk_rc = cmd_sets_walk(&vr->cs, &vr->ro, vr->p, vr->x != NULL);
	return vr->walk_rc;
}

static int vr_sets(void *ctx, const idsets **out, char *err, size_t errsz)
{
	verify_repo *vr = ctx;
	int rc = vr_walk(vr);

	if (err && errsz)
		err[0] = '\0'; /* vr_walk() printed why */
	if (rc)
		return rc == ABBREV_EXIT_NOMEM ? -1 : -2;
	*out = vr->cs.s;
	return 0;
}

int vr_open(verify_repo *vr, const cli_repo_opts *ro, progress *p)
{
	char err[512] = "";
	struct git_repository *repo;
	const char *objdir;
	int rc;

	vr->ro = *ro;
	vr->p = p;
	vr->walk_rc = -1;
	if ((rc = cmd_sets_open(&vr->cs, ro)))
		return rc;
	repo = repo_git2(vr->cs.repos[0]);
	if (!repo) {
		repo_no_libgit2(vr->cs.repos[0], "verify", err, sizeof(err));
		cmd_error("%s", err);
		return ABBREV_EXIT_RUNTIME;
	}
	objdir = repo_objdir(vr->cs.repos[0]);
	if (ro->reachable || ro->walker == CLI_WALKER_LIBGIT2) {
		/* the sets are the answer: what is reachable, or what libgit2 lists */
		if ((rc = vr_walk(vr)))
			return rc;
		cite_ids_over_sets(&vr->ids, vr->cs.s);
	} else {
		rc = objidx_new(&vr->x, objdir, repo_rawsz(vr->cs.repos[0]), err, sizeof(err));
		if (rc == -1)
			goto nomem;
		if (rc) {
			cmd_error("%s", err);
			return ABBREV_EXIT_RUNTIME;
		}
		/* what git too warns about and goes on without (a missing alternate) */
		for (const char *line = objidx_warnings(vr->x); *line;) {
			int len = (int)strcspn(line, "\n");

			cmd_warn_once("warning: ", line, len);
			line += len + (line[len] == '\n');
		}
		vr->ids = (cite_ids){ vr, repo_rawsz(vr->cs.repos[0]), vr_prefix,
				      vr_unique_length, vr_sets, vr_objects, vr_has_prefix,
				      vr_prefix_nibbles };
	}
	switch (cite_git2_new(&vr->g, repo, objdir)) {
	case 0:
		/* every object counts, as the .idx files say: a pack's commits are all its own */
		if (vr->x)
			cite_git2_scan_packs(vr->g);
		return ABBREV_EXIT_OK;
	case -1:
		goto nomem;
	default:
		cmd_error("%s: cannot open the object database", vr->cs.paths[0]);
		return ABBREV_EXIT_RUNTIME;
	}
nomem:
	cmd_error("out of memory");
	return ABBREV_EXIT_NOMEM;
}

int vr_range(cite_range **rg, cite_git2 *g, const char *range, int usage)
{
	char err[512] = "";
	int rc = cite_range_new(rg, g, range, err, sizeof(err));

	if (rc == -1) {
		cmd_error("out of memory");
		return ABBREV_EXIT_NOMEM;
	}
	if (rc) {
		cmd_error("%s", err);
		return rc == -2 && usage ? ABBREV_EXIT_USAGE : ABBREV_EXIT_RUNTIME;
	}
	return ABBREV_EXIT_OK;
}

int vr_open_here(verify_repo *vr, const cli_repo_opts *r, progress *p)
{
	cli_repo_opts ro = *r;
	char *dir;
	int rc;

	ro.repos = NULL;
	ro.nrepos = 0;
	if ((rc = vr_open(vr, &ro, p)) || r->no_cache)
		return rc;
	dir = subject_cache_dir();
	rc = cite_git2_cache(vr->g, dir);
	free(dir);
	if (rc) {
		cmd_error("out of memory");
		return ABBREV_EXIT_NOMEM;
	}
	return ABBREV_EXIT_OK;
}

void vr_tidy_cache(const verify_repo *vr)
{
	char *dir;

	if (vr->ro.no_cache || !vr->cs.n)
		return;
	/* under its cap, the longest unused tables and those of repacked packs removed */
	if ((dir = subject_cache_dir()))
		(void)subject_cache_tidy(dir, cmd_cache_cap(repo_git2(vr->cs.repos[0])));
	free(dir);
}

void vr_close(verify_repo *vr)
{
	cite_git2_free(vr->g);
	objidx_free(vr->x);
	cmd_sets_free(&vr->cs);
}

/* Open the --repo repositories and give them to the resolver; an exit status. */
static int load_others(verify_ctx *c, verify_repo *v, size_t n, progress *p)
{
	for (size_t i = 0; i < n; i++) {
		cli_repo_opts ro = c->o->r;
		char *path = (char *)c->o->other[i];
		int rc;

		ro.repos = &path;
		ro.nrepos = 1;
		if ((rc = vr_open(&v[i], &ro, p)))
			return rc;
		rc = cite_resolver_add_repo(c->res, &v[i].ids, cite_git2_source(v[i].g),
					    v[i].cs.paths[0]);
		if (rc == -1) {
			cmd_error("out of memory");
			return ABBREV_EXIT_NOMEM;
		}
		if (rc == -2) {
			cmd_error("%s: its IDs are of another hash than this repository's",
				  v[i].cs.paths[0]);
			return ABBREV_EXIT_RUNTIME;
		}
	}
	return 0;
}

int min_length_config(unsigned *out, struct git_repository *repo, size_t rawsz)
{
	git_config *cfg = NULL;
	int32_t v;
	int rc;

	*out = CLI_DEFAULT_MIN_LENGTH;
	if (!repo || git_repository_config_snapshot(&cfg, repo) < 0)
		return ABBREV_EXIT_OK;
	rc = git_config_get_int32(&v, cfg, "abbrev.minLength");
	git_config_free(cfg);
	if (rc == GIT_ENOTFOUND)
		return ABBREV_EXIT_OK;
	if (rc < 0 || v < 4 || (size_t)v > 2 * rawsz) {
		cmd_error("bad abbrev.minLength in the git config: want a length from 4 to %zu",
			  2 * rawsz);
		return ABBREV_EXIT_USAGE;
	}
	*out = (unsigned)v;
	return ABBREV_EXIT_OK;
}

static int cmd_verify(int argc, char **argv)
{
	cli_verify_opts o;
	verify_repo here = { 0 };
	verify_ctx c = { 0 };
	verify_repo *others = NULL;
	progress *p = NULL;
	held_out held = { 0 };
	FILE *em_to, *em_out;
	int ret = cmd_begin(&cli_cmd_verify, &o, argc, argv), hold;

	if (ret >= 0)
		return ret;
	c.o = &o;
	p = cmd_progress_new(o.r.progress);
	if (!p)
		return ABBREV_EXIT_NOMEM;
	others = calloc(o.nother ? o.nother : 1, sizeof(*others));
	if (!others) {
		cmd_error("out of memory");
		ret = ABBREV_EXIT_NOMEM;
		goto done;
	}
	if ((ret = vr_open_here(&here, &o.r, p)))
		goto done;
	c.ids = &here.ids;
	c.rawsz = here.ids.rawsz;
	if (!o.min_length &&
	    (ret = min_length_config(&o.min_length, repo_git2(here.cs.repos[0]), c.rawsz)))
		goto done;
	if (cite_resolver_new(&c.res, &here.ids, cite_git2_source(here.g), o.min_length)) {
		cmd_error("out of memory");
		ret = ABBREV_EXIT_NOMEM;
		goto done;
	}
	cite_resolver_improbable(c.res, o.r.improbable);
	ret = load_others(&c, others, o.nother, p);
	if (ret)
		goto done;
	cite_resolver_progress(c.res, p);
	/* with --fix, stdout carries the rewritten text and the findings go to stderr */
	em_to = o.fix ? stderr : stdout;
	/*
	 * one input is read whole before anything is printed; the findings of
	 * several are held (--fix takes one input)
	 */
	hold = o.range || o.nfiles > 1;
	em_out = held_open(&held, em_to, hold);
	c.em = em_out ? emit_verify_new(em_out, o.r.format) : NULL;
	if (!c.em) {
		cmd_error("out of memory");
		ret = ABBREV_EXIT_NOMEM;
		goto done;
	}
	if (o.range) {
		ret = check_range(&c, here.g);
	} else if (!o.nfiles) {
		ret = check_file(&c, "-");
	} else {
		for (size_t i = 0; i < o.nfiles && !ret; i++)
			ret = check_file(&c, o.files[i]);
	}
	/* a failure said why; what was checked before it is not printed as a whole run */
	if (!ret) {
		int wr = cmd_written(emit_verify_finish(c.em, &c.t) || held_flush(&held, em_to),
				     "the findings");

		if (wr)
			ret = wr;
	}
	if (!ret && (c.t.errors || (c.t.warnings && o.fail_on != CLI_FAIL_ON_ERROR)))
		ret = ABBREV_EXIT_FOUND;
	vr_tidy_cache(&here);
done:
	emit_verify_free(c.em);
	held_free(&held);
	cite_resolver_free(c.res);
	for (size_t i = 0; others && i < o.nother; i++)
		vr_close(&others[i]);
	free(others);
	vr_close(&here);
	progress_free(p);
	return ret;
}
