/*
 * cmd_check.c - `git abbrev check <N>`: do IDs of a type collide at N chars?
 *
 * One question, one ordered pass over one set, an exit status scripts can
 * use (0 no, 1 yes), and the colliding groups with commit subjects so the
 * answer can be pasted into a reply.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "cmd.h"
#include "emit.h"
#include "exitcodes.h"
#include "stats.h"

int cmd_check(int argc, char **argv)
{
	cli_check_opts o;
	stats_check c = { 0 };
	cmd_sets cs = { 0 };
	stats_set sets[3];
	int nsets = 0;
	verdict *v = NULL;
	progress *p = NULL;
	int ret = cmd_begin(&cli_cmd_check, &o, argc, argv);

	if (ret >= 0)
		return ret;
	p = progress_new(stderr, !o.quiet && cmd_want_progress(o.r.progress));
	if (!p) {
		cmd_error("out of memory");
		return ABBREV_EXIT_NOMEM;
	}
	ret = cmd_sets_load(&cs, &o.r, p);
	if (ret)
		goto done;
	if (o.length > 2 * idsets_rawsz(cs.s)) {
		cmd_error("the length must be from %d to %zu for %s IDs, not %u", ABBREV_MIN_LEN,
			  2 * idsets_rawsz(cs.s), hexid_hash_name(idsets_rawsz(cs.s)), o.length);
		cli_usage(stderr, &cli_cmd_check);
		ret = ABBREV_EXIT_USAGE;
		goto done;
	}
	if (!o.quiet && o.r.format == ABBREV_FORMAT_TEXT) /* JSON has them as keys */
		cmd_sets_notes(&cs);
	c.length = o.length;
	c.set = o.set;
	c.against_all = o.against_all;
	c.improbable = o.r.improbable;
	c.rawsz = idsets_rawsz(cs.s);
	c.repos = (const char *const *)cs.paths;
	c.nrepos = cs.n;
	c.lacks = cs.lacks;
	c.reach = o.r.reachable ? &cs.reach : NULL;
	if (stats_groups_at(&c.found, cs.s, o.set, o.length, o.against_all) ||
	    (!o.quiet && cmd_sets_describe(&cs, &c.found))) {
		cmd_error("out of memory");
		ret = ABBREV_EXIT_NOMEM;
		goto done;
	}
	stats_mark_improbable(&c.found, c.improbable);
	if (!o.quiet) {
		/* the verdict: the same question at the lengths that matter */
		static const int kinds[3] = { ABBREV_SET_COMMIT, ABBREV_SET_COMMITISH,
					      ABBREV_SET_ALL };
		const stats_set *in[3] = { &sets[0], &sets[1], &sets[2] };

		for (; nsets < 3; nsets++)
			if (stats_set_compute(&sets[nsets], cs.s, kinds[nsets])) {
				cmd_error("out of memory");
				ret = ABBREV_EXIT_NOMEM;
				goto done;
			}
		v = malloc(sizeof(*v));
		if (!v) {
			cmd_error("out of memory");
			ret = ABBREV_EXIT_NOMEM;
			goto done;
		}
		ret = cmd_verdict(v, &cs, in, p);
		if (ret)
			goto done;
		c.verdict = v;
	}
	ret = c.found.ngroups ? ABBREV_EXIT_FOUND : ABBREV_EXIT_OK;
	if (!o.quiet && (emit_check(stdout, &c, o.r.format) || fflush(stdout))) {
		cmd_error("cannot write the answer: %s", cmd_write_reason());
		ret = ABBREV_EXIT_RUNTIME;
	}
done:
	for (int k = 0; k < nsets; k++)
		stats_set_clear(&sets[k]);
	free(v);
	stats_set_clear(&c.found);
	cmd_sets_free(&cs);
	progress_free(p);
	return ret;
}
