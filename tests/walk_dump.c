/*
 * walk_dump.c - drive a walker from a test script: list every object it
 * found as "<hex> <type>", in ID order, one a line.
 *
 *	walk_dump [-q] [--rawsz=N] <objdir>      the pack walker on an object dir
 *	walk_dump [-q] --repo <repo>             the pack walker, objdir from libgit2
 *	walk_dump [-q] --libgit2 <repo>          the libgit2 walker
 *	walk_dump --objidx [--rawsz=N] <objdir> <prefix>...
 *	                                         verify's lookup (objidx.h): for each
 *	                                         object of each prefix, "<prefix> <hex>
 *	                                         <type> <unique length>[ commit-ish]"
 *
 * -q prints only the set sizes and the walk's wall time (to stderr).
 * --commit-ish lists the commit-ish set instead, peeled from what the
 * walker itself read of the tags (no libgit2 reads on top, unlike the
 * commands), and says on stderr how many tags it left unread.
 * Exit status: 0, 2 usage, 3 walker error (its message on stderr), 4 OOM.
 */
#include <config.h>

#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "idset.h"
#include "objidx.h"
#include "walk.h"
#include "walk_pack.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Peak and current anonymous memory, from Linux's /proc (or "?"). */
static const char *anon_memory(void)
{
	static char buf[128];
	char line[256];
	long hwm = -1, anon = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return "?";
	while (fgets(line, sizeof(line), f)) {
		sscanf(line, "VmHWM: %ld", &hwm);
		sscanf(line, "RssAnon: %ld", &anon);
	}
	fclose(f);
	snprintf(buf, sizeof(buf), "RssAnon %ld kB, VmHWM %ld kB", anon, hwm);
	return buf;
}

/* One object of a prefix, as --objidx prints it. */
typedef struct {
	objidx *x;
	const char *prefix;
	size_t rawsz;
	int rc;
} dump_ctx;

static int dump_one(void *arg, const unsigned char *id, int type, int commitish)
{
	dump_ctx *d = arg;
	char hex[ABBREV_MAX_HEXSZ + 1], err[512];
	unsigned len;

	d->rc = objidx_unique_length(d->x, id, &len, err, sizeof(err));
	if (d->rc) {
		fprintf(stderr, "walk_dump: %s\n", d->rc == -1 ? "out of memory" : err);
		return 1;
	}
	hexid_fmt(hex, id, d->rawsz);
	printf("%s %s %s %u%s\n", d->prefix, hex, hexid_type_name(type), len,
	       commitish ? " commit-ish" : "");
	return 0;
}

/* --objidx: the objects of each prefix; an exit status. */
static int dump_prefixes(const char *objdir, size_t rawsz, char **prefixes, int n)
{
	char err[512];
	dump_ctx d = { NULL, NULL, rawsz, 0 };
	int rc = objidx_new(&d.x, objdir, rawsz, err, sizeof(err));

	if (rc) {
		fprintf(stderr, "walk_dump: %s\n", rc == -1 ? "out of memory" : err);
		return rc == -1 ? 4 : 3;
	}
	for (int i = 0; i < n && !rc && !d.rc; i++) {
		d.prefix = prefixes[i];
		rc = objidx_prefix(d.x, prefixes[i], strlen(prefixes[i]), dump_one, &d, err,
				   sizeof(err));
		if (rc < 0)
			fprintf(stderr, "walk_dump: %s\n", rc == -1 ? "out of memory" : err);
	}
	objidx_free(d.x);
	return rc == -1 || d.rc == -1 ? 4 : rc || d.rc ? 3 : 0;
}

static int usage(void)
{
	fputs("usage: walk_dump [-q] [--commit-ish] [--rawsz=N] <objdir>\n"
	      "       walk_dump [-q] [--commit-ish] (--repo | --libgit2) <repo>\n"
	      "       walk_dump --objidx [--rawsz=N] <objdir> <prefix>...\n", stderr);
	return 2;
}

int main(int argc, char **argv)
{
	int quiet = 0, mode = 0, rc, i; /* mode: 0 objdir, 1 --repo, 2 --libgit2 */
	int commitish = 0;
	size_t rawsz = 20;
	char err[1024] = "";
	repo_handle *r = NULL;
	idsets *s;
	double t0, t1;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-q"))
			quiet = 1;
		else if (!strcmp(argv[i], "--repo"))
			mode = 1;
		else if (!strcmp(argv[i], "--libgit2"))
			mode = 2;
		else if (!strcmp(argv[i], "--commit-ish"))
			commitish = 1;
		else if (!strncmp(argv[i], "--rawsz=", 8))
			rawsz = strtoul(argv[i] + 8, NULL, 10);
		else if (!strcmp(argv[i], "--objidx"))
			mode = 3;
		else
			return usage();
	}
	if (mode == 3)
		return i < argc ? dump_prefixes(argv[i], rawsz, argv + i + 1, argc - i - 1) : usage();
	if (i != argc - 1)
		return usage();
	if (git_libgit2_init() < 0) {
		fputs("walk_dump: cannot initialise libgit2\n", stderr);
		return 3;
	}
	if (mode) {
		rc = repo_open(&r, argv[i], err, sizeof(err));
		if (rc)
			goto out;
		rawsz = repo_rawsz(r);
	}
	s = idsets_new(rawsz);
	if (!s) {
		repo_free(r);
		git_libgit2_shutdown();
		return usage();
	}
	t0 = now();
	if (mode == 2)
		rc = repo_objects(r, s, NULL, err, sizeof(err));
	else
		rc = walk_pack_objects(mode ? repo_objdir(r) : argv[i], s, NULL, err,
				       sizeof(err));
	t1 = now();
	if (!rc && err[0])
		fprintf(stderr, "walk_dump: warning: %s\n", err);
	if (!rc && commitish) {
		long unread = idsets_peel(s);

		if (unread < 0) {
			rc = WALK_NOMEM;
		} else {
			fprintf(stderr, "unread tags: %ld\n", unread);
		}
	}
	if (!rc && quiet) {
		for (int set = 0; set < ABBREV_SET_COUNT; set++)
			printf("%s%s %zu", set ? " " : "", idset_name(set), idsets_count(s, set));
		printf("\n");
		fprintf(stderr, "walk: %.3f s, %zu bytes of ID sets, %s\n", t1 - t0,
			idsets_memory(s), anon_memory());
	} else if (!rc) {
		char hex[ABBREV_MAX_HEXSZ + 1];
		const unsigned char *id;
		idset_iter it;
		int type;

		idset_iter_init(&it, s, commitish ? ABBREV_SET_COMMITISH : ABBREV_SET_ALL);
		while (idset_iter_next(&it, &id, &type)) {
			hexid_fmt(hex, id, rawsz);
			printf("%s %s\n", hex, hexid_type_name(type));
		}
	}
	idsets_free(s);
out:
	repo_free(r);
	git_libgit2_shutdown();
	if (rc == WALK_NOMEM) {
		fputs("walk_dump: out of memory\n", stderr);
		return 4;
	}
	if (rc) {
		fprintf(stderr, "walk_dump: %s\n", err);
		return 3;
	}
	return fflush(stdout) ? 3 : 0;
}
