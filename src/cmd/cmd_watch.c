/*
 * cmd_watch.c - `git abbrev watch [<range>]`: for CI on push.  Each
 * commit of the range (default: the commits of HEAD on no remote-tracking
 * branch; without one, HEAD's history) is looked up by its first --length
 * hex chars (default abbrev.minLength, else 12) among every object, as
 * verify looks up a reference (the .idx files, no git process); every
 * other commit found shares at least that many chars with it.  For each
 * such pair: how often the history (HEAD, the branches, the remote-tracking
 * branches and the tags) cites the other commit (references
 * whose written ID starts its ID: they name it, or named it when written,
 * and those no longer than the shared length are ambiguous now), and
 * whether so long a shared prefix is improbable for random IDs, "possibly
 * crafted".  Exit status 1 when any pair is found.
 *
 * The chance: that one of the k commits of the range, each a random ID,
 * shares at least s hex chars with one of the n objects there are:
 * 1 - (1 - 16^-s)^(k n).  Below --improbable (1e-4) it is flagged.
 */
#include <config.h>

#include <git2.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"
#include "cmd_verify.h"
#include "emit.h"
#include "emit_verify.h"
#include "exitcodes.h"
#include "grow.h"
#include "hexid.h"
#include "idset.h"
#include "cite_git2.h"
#include "cite_parse.h"
#include "utf8.h"
#include "repo.h"

static int cmd_watch(int argc, char **argv);

/* The options of `git abbrev watch`: parsing, -h and completion come from this table. */

static const cli_choice watch_formats[] = {
	{ "text", ABBREV_FORMAT_TEXT }, { "json", ABBREV_FORMAT_JSON }, { NULL, 0 }
};

static const cli_option watch_options[] = {
	CLI_VALUE("length", offsetof(cli_watch_opts, length), cli_opt_length, "<N>",
	          "report commits sharing this many hex chars (default: abbrev.minLength, else 12)"),
	CLI_CHOICE("format", offsetof(cli_watch_opts, r.format), watch_formats,
	           "the output format (default text)"),
	CLI_IMPROBABLE(cli_watch_opts, r.),
	CLI_PROGRESS_ROWS(cli_watch_opts, r.),
	CLI_CHDIR_HELP_ROWS(cli_watch_opts, r.),
	CLI_END
};

static void watch_init(void *opts, char **argv)
{
	cli_watch_opts *o = opts;

	memset(o, 0, sizeof(*o));
	cli_repo_init(&o->r, argv);
}

static int watch_positional(void *opts, char *arg, char *err, size_t errsz)
{
	return cli_one_range("watch", &((cli_watch_opts *)opts)->range, arg, err, errsz);
}

const cli_command cli_cmd_watch = {
	"watch", "[<range>]",
	"new commits sharing a long prefix with another commit; exit 1 if any",
	"checks the commits of the range (default: those of HEAD on no remote-tracking\n"
	"branch, else HEAD's history) against every commit\n"
	"exit status: 0 none, 1 some found, 2 usage, 3+ error\n",
	watch_options, watch_init, watch_positional, NULL, offsetof(cli_watch_opts, r),
	cmd_watch
};

typedef struct {
	unsigned char id[ABBREV_MAX_RAWSZ];    /* the commit of the range */
	unsigned char other[ABBREV_MAX_RAWSZ]; /* the commit it shares a prefix with */
	unsigned shared;
	uint64_t cited, cited_short;           /* references to other; of them, no longer than shared */
	double p;
} watch_pair;

typedef struct {
	size_t rawsz;
	unsigned char *ids;   /* the range's commits, ascending */
	size_t n, cap;
	watch_pair *v;
	size_t nv, cv;
	const unsigned char *self; /* the commit looked up */
	int nomem;
} watch_ctx;

static int id_cmp(const void *a, const void *b)
{
	return memcmp(a, b, ABBREV_MAX_RAWSZ);
}

static int in_range(const watch_ctx *w, const unsigned char *id)
{
	unsigned char key[ABBREV_MAX_RAWSZ] = { 0 };

	memcpy(key, id, w->rawsz);
	return bsearch(key, w->ids, w->n, ABBREV_MAX_RAWSZ, id_cmp) != NULL;
}

/* objidx's answer for one object of the prefix: a commit other than the one looked up */
static int hit(void *arg, const unsigned char *id, int type, int commitish)
{
	watch_ctx *w = arg;
	watch_pair *p;

	(void)commitish;
	if (type != ABBREV_TYPE_COMMIT || !memcmp(id, w->self, w->rawsz))
		return 0;
	/* a pair of two commits of the range is reported once, by the greater */
	if (memcmp(id, w->self, w->rawsz) > 0 && in_range(w, id))
		return 0;
	if (GROW(w->v, w->cv, w->nv + 1, 8)) {
		w->nomem = 1;
		return 1;
	}
	p = &w->v[w->nv++];
	memset(p, 0, sizeof(*p));
	memcpy(p->id, w->self, w->rawsz);
	memcpy(p->other, id, w->rawsz);
	p->shared = hexid_lcp(id, w->self, w->rawsz);
	return 0;
}

/* The range to watch when none is given: HEAD less every remote-tracking branch. */
static int default_range(char **out, git_repository *repo)
{
	git_reference_iterator *it = NULL;
	git_reference *ref;
	size_t len = 5, cap = 64;
	char *s = malloc(cap);

	if (!s)
		return -1;
	strcpy(s, "HEAD");
	len = 4;
	if (git_reference_iterator_glob_new(&it, repo, "refs/remotes/*") == 0) {
		while (git_reference_next(&ref, it) == 0) {
			const char *name = git_reference_name(ref);
			size_t need = len + strlen(name) + 3;

			if (git_reference_type(ref) == GIT_REFERENCE_DIRECT) {
				if (need > cap) {
					char *t;

					while (need > cap)
						cap *= 2;
					if (!(t = realloc(s, cap))) {
						git_reference_free(ref);
						git_reference_iterator_free(it);
						free(s);
						return -1;
					}
					s = t;
				}
				len += (size_t)sprintf(s + len, " ^%s", name);
			}
			git_reference_free(ref);
		}
		git_reference_iterator_free(it);
	}
	*out = s;
	return 0;
}

/* Append " <word>" to the growing string *s of *len (room *cap); 0 or -1. */
static int append_word(char **s, size_t *len, size_t *cap, const char *word)
{
	size_t need = *len + strlen(word) + 2;

	if (need > *cap) {
		size_t c = *cap ? *cap : 64;
		char *t;

		while (need > c)
			c *= 2;
		if (!(t = realloc(*s, c)))
			return -1;
		*s = t;
		*cap = c;
	}
	*len += (size_t)sprintf(*s + *len, "%s%s", *len ? " " : "", word);
	return 0;
}

/*
 * The history that cites: HEAD and every branch, remote-tracking branch
 * and tag that peels to a commit, as the IDs of their commits (a range
 * of several tips).  0 or -1.
 */
static int history_tips(char **out, git_repository *repo)
{
	static const char *const globs[] = { "refs/heads/*", "refs/remotes/*", "refs/tags/*" };
	char *s = NULL, hex[GIT_OID_HEXSZ + 1];
	size_t len = 0, cap = 0;
	git_object *c = NULL;

	if (git_revparse_single(&c, repo, "HEAD^{commit}") == 0) {
		git_oid_tostr(hex, sizeof(hex), git_object_id(c));
		git_object_free(c);
		if (append_word(&s, &len, &cap, hex))
			return -1;
	}
	for (size_t g = 0; g < sizeof(globs) / sizeof(globs[0]); g++) {
		git_reference_iterator *it = NULL;
		git_reference *ref;

		if (git_reference_iterator_glob_new(&it, repo, globs[g]))
			continue;
		while (git_reference_next(&ref, it) == 0) {
			int rc = 0;

			if (git_reference_peel(&c, ref, GIT_OBJECT_COMMIT) == 0) {
				git_oid_tostr(hex, sizeof(hex), git_object_id(c));
				git_object_free(c);
				rc = append_word(&s, &len, &cap, hex);
			}
			git_reference_free(ref);
			if (rc) {
				git_reference_iterator_free(it);
				free(s);
				return -1;
			}
		}
		git_reference_iterator_free(it);
	}
	*out = s; /* NULL: no commit at all */
	return 0;
}

/*
 * Count the references of the history (history_tips()) to each pair's
 * other commit.  An exit status.
 */
static int count_citations(watch_ctx *w, cite_git2 *g, git_repository *repo)
{
	char *tips = NULL;
	cite_range *rg;
	unsigned char id[ABBREV_MAX_RAWSZ];
	char err[512] = "", hex[ABBREV_MAX_HEXSZ + 1];
	const char *msg;
	size_t len;
	int rc;

	if (history_tips(&tips, repo)) {
		cmd_error("out of memory");
		return ABBREV_EXIT_NOMEM;
	}
	if (!tips)
		return ABBREV_EXIT_OK;
	rc = vr_range(&rg, g, tips, 0);
	free(tips);
	if (rc)
		return rc;
	while ((rc = cite_range_next(rg, id, &msg, &len, err, sizeof(err))) == 1) {
		cite_list l = { 0 };

		if (cite_parse(&l, msg, len, CITE_PARSE_MESSAGE)) {
			cite_list_free(&l);
			rc = -1;
			break;
		}
		for (size_t i = 0; i < l.n; i++) {
			const citation *ref = &l.v[i];

			if (ref->id_len < ABBREV_MIN_LEN || ref->id_len > 2 * w->rawsz)
				continue;
			for (size_t k = 0; k < w->nv; k++) {
				hexid_fmt(hex, w->v[k].other, w->rawsz);
				if (memcmp(hex, ref->id, ref->id_len))
					continue;
				w->v[k].cited++;
				if (ref->id_len <= w->v[k].shared)
					w->v[k].cited_short++;
			}
		}
		cite_list_free(&l);
	}
	cite_range_free(rg);
	if (rc == -1) {
		cmd_error("out of memory");
		return ABBREV_EXIT_NOMEM;
	}
	if (rc < 0) {
		cmd_error("%s", err);
		return ABBREV_EXIT_RUNTIME;
	}
	return ABBREV_EXIT_OK;
}

static const char *subject_of(cite_git2 *g, const unsigned char *id, char *buf, size_t n)
{
	const cite_source *src = cite_git2_source(g);
	const char *s = NULL;
	int64_t t;

	if (src->commit(src->ctx, id, &s, &t) != 1 || !s)
		return NULL;
	snprintf(buf, n, "%s", s);
	return buf;
}

/* A pair's two IDs in hex and their subjects (NULL: unreadable) */
typedef struct {
	char a[ABBREV_MAX_HEXSZ + 1], b[ABBREV_MAX_HEXSZ + 1], sa[256], sb[256];
	const char *ta, *tb;
} pair_names;

static void name_pair(pair_names *n, const watch_ctx *w, cite_git2 *g, const watch_pair *p)
{
	n->ta = subject_of(g, p->id, n->sa, sizeof(n->sa));
	n->tb = subject_of(g, p->other, n->sb, sizeof(n->sb));
	hexid_fmt(n->a, p->id, w->rawsz);
	hexid_fmt(n->b, p->other, w->rawsz);
}

static int print_text(const watch_ctx *w, cite_git2 *g, double improbable)
{
	for (size_t i = 0; i < w->nv; i++) {
		const watch_pair *p = &w->v[i];
		pair_names n;

		name_pair(&n, w, g, p);
		printf("commit %s (\"%s\")\n  shares %u hex chars with commit %s (\"%s\")\n", n.a,
		       n.ta ? n.ta : "?", p->shared, n.b, n.tb ? n.tb : "?");
		printf("  %.12s is cited %llu time%s in the history", n.b, (unsigned long long)p->cited,
		       p->cited == 1 ? "" : "s");
		if (p->cited_short)
			printf(", %llu of them by %u hex chars or fewer: ambiguous now",
			       (unsigned long long)p->cited_short, p->shared);
		putchar('\n');
		if (p->p < improbable)
			printf("  ^ %u shared chars: improbable for random IDs (p = %.2g): possibly "
			       "crafted\n", p->shared, p->p);
		else
			printf("  ^ %u shared chars: as random IDs do (p = %.2g)\n", p->shared, p->p);
	}
	return ferror(stdout) ? -1 : 0;
}

static int print_json(const watch_ctx *w, cite_git2 *g, const char *range, unsigned length,
		      uint64_t objects, double improbable)
{
	json_t *found = json_array(), *doc;
	int rc;

	for (size_t i = 0; i < w->nv; i++) {
		const watch_pair *p = &w->v[i];
		pair_names n;

		name_pair(&n, w, g, p);
		json_array_append_new(found, json_pack("{s:s,s:o,s:s,s:o,s:i,s:I,s:I,s:f,s:b}",
			"commit", n.a, "subject", n.ta ? utf8_json(n.ta) : json_null(), "other", n.b,
			"other_subject", n.tb ? utf8_json(n.tb) : json_null(), "shared_length",
			(int)p->shared, "cited", (json_int_t)p->cited, "cited_ambiguous_now",
			(json_int_t)p->cited_short, "p_random", p->p, "improbable", p->p < improbable));
	}
	doc = json_pack("{s:i,s:s,s:s,s:i,s:I,s:I,s:o}", "schema_version", JSON_SCHEMA_VERSION,
			"command", "watch", "range", range, "length", (int)length, "commits",
			(json_int_t)w->n, "objects", (json_int_t)objects, "found", found);
	if (!doc)
		return -1;
	rc = json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(doc);
	putchar('\n');
	return rc || ferror(stdout) ? -1 : 0;
}

static int cmd_watch(int argc, char **argv)
{
	cli_watch_opts o;
	cli_repo_opts ro;
	verify_repo here = { 0 };
	watch_ctx w = { 0 };
	cite_range *rg = NULL;
	progress *p = NULL;
	char *range = NULL, err[512] = "";
	unsigned char id[ABBREV_MAX_RAWSZ];
	const char *msg;
	size_t len;
	uint64_t objects;
	int rc, ret = cmd_begin(&cli_cmd_watch, &o, argc, argv);

	if (ret >= 0)
		return ret;
	if (!(p = cmd_progress_new(o.r.progress)))
		return ABBREV_EXIT_NOMEM;
	ro = o.r;
	ro.repos = NULL; /* the repository git finds here (after -C) */
	ro.nrepos = 0;
	if ((ret = vr_open(&here, &ro, p)))
		goto done;
	w.rawsz = here.ids.rawsz;
	if (!o.length && (ret = min_length_config(&o.length, repo_git2(here.cs.repos[0]),
						  w.rawsz)))
		goto done;
	if (o.length > 2 * w.rawsz)
		o.length = (unsigned)(2 * w.rawsz);
	if (!o.range && default_range(&range, repo_git2(here.cs.repos[0])))
		goto nomem;
	/* the range's commits, kept sorted: a pair within it is said once */
	if ((ret = vr_range(&rg, here.g, o.range ? o.range : range, 1)))
		goto done;
	while ((rc = cite_range_next(rg, id, &msg, &len, err, sizeof(err))) == 1) {
		if (grow(&w.ids, &w.cap, w.n + 1, 256, ABBREV_MAX_RAWSZ))
			goto nomem;
		memset(w.ids + w.n * ABBREV_MAX_RAWSZ, 0, ABBREV_MAX_RAWSZ);
		memcpy(w.ids + w.n++ * ABBREV_MAX_RAWSZ, id, w.rawsz);
	}
	if (rc == -1)
		goto nomem;
	if (rc < 0) {
		cmd_error("%s", err);
		ret = ABBREV_EXIT_RUNTIME;
		goto done;
	}
	if (w.n > 1)
		qsort(w.ids, w.n, ABBREV_MAX_RAWSZ, id_cmp);
	objects = here.ids.objects_max(here.ids.ctx);
	for (size_t i = 0; i < w.n; i++) {
		char hex[ABBREV_MAX_HEXSZ + 1];
		size_t from = w.nv;

		w.self = w.ids + i * ABBREV_MAX_RAWSZ;
		hexid_fmt(hex, w.self, w.rawsz);
		rc = here.ids.prefix(here.ids.ctx, hex, o.length, hit, &w, err, sizeof(err));
		if (w.nomem || rc == -1)
			goto nomem;
		if (rc < 0) {
			cmd_error("%s", err);
			ret = ABBREV_EXIT_RUNTIME;
			goto done;
		}
		for (size_t k = from; k < w.nv; k++)
			/* one of k new random IDs shares >= s chars with one of n */
			w.v[k].p = -expm1((double)w.n * (double)objects *
					  log1p(-pow(16.0, -(double)w.v[k].shared)));
	}
	if (w.nv && (ret = count_citations(&w, here.g, repo_git2(here.cs.repos[0]))))
		goto done;
	if (o.r.format == ABBREV_FORMAT_JSON)
		rc = print_json(&w, here.g, o.range ? o.range : range, o.length, objects,
				o.r.improbable);
	else
		rc = print_text(&w, here.g, o.r.improbable);
	if ((ret = cmd_written(rc, "the findings")))
		goto done;
	ret = w.nv ? ABBREV_EXIT_FOUND : ABBREV_EXIT_OK;
	goto done;
nomem:
	cmd_error("out of memory");
	ret = ABBREV_EXIT_NOMEM;
done:
	cite_range_free(rg);
	free(range);
	free(w.ids);
	free(w.v);
	vr_close(&here);
	progress_free(p);
	return ret;
}
