/*
 * cmd_ids.c - `git abbrev ids [<file>...]`: the report of ID streams.
 *
 * Object lists that are no repository (git cat-file --batch-check output,
 * Software Heritage SWHIDs; plain, gzip or zstd) are read line by line
 * (idstream.c, idline.c); the IDs of the chosen shard are gathered,
 * sorted and added to the sets in key order (idbatch.c), and the report
 * is computed and printed as for repositories, or written as a partial
 * result for `git abbrev merge` (partial.c).
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"
#include "emit.h"
#include "exitcodes.h"
#include "idbatch.h"
#include "idline.h"
#include "idstream.h"
#include "shard.h"
#include "sources.h"
#include "stats.h"

static int cmd_ids(int argc, char **argv);

/* The options of `git abbrev ids`: parsing, -h and completion come from this table. */

static const cli_option ids_options[] = {
	CLI_FORMAT(offsetof(cli_ids_opts, r.format), EMIT_REPORT),
	CLI_CHOICE("type", offsetof(cli_ids_opts, r.set), cli_types,
	           "with --format=classic: the one set it lists (default all)"),
	CLI_FLAG("skip-bad", 0, offsetof(cli_ids_opts, skip_bad), 1,
	         "skip and count lines that are no ID line (default: stop at the first)"),
	CLI_MAX_INPUT(cli_ids_opts, max_input, "4g"),
	CLI_SHARD(cli_ids_opts, r.),
	CLI_IMPROBABLE(cli_ids_opts, r.),
	CLI_TITLE(cli_ids_opts, r.),
	CLI_PROGRESS_ROWS(cli_ids_opts, r.),
	CLI_CHDIR_HELP_ROWS(cli_ids_opts, r.),
	CLI_END
};

static void ids_init(void *opts, char **argv)
{
	cli_ids_opts *o = opts;

	memset(o, 0, sizeof(*o));
	cli_report_init(&o->r, argv);
	o->max_input = CLI_IDS_MAX_INPUT;
}

static int ids_finish(void *opts, char *err, size_t errsz)
{
	return cli_report_finish(&((cli_ids_opts *)opts)->r, err, errsz);
}

static int ids_positional(void *opts, char *arg, char *err, size_t errsz)
{
	return cli_repo_positional(&((cli_ids_opts *)opts)->r, arg, err, errsz);
}

const cli_command cli_cmd_ids = {
	"ids", "[<file>...]",
	"the report of object IDs listed in files: git cat-file --batch-check lines, SWHIDs",
	"reads `<id> <type>` lines (git cat-file --batch-check) or SWHIDs\n"
	"(swh:1:rev:<id> ...), plain, gzip or zstd, from the files (none or '-': stdin);\n"
	"an ID listed twice counts once\n"
	"--format=partial writes what `git abbrev merge` adds up (see --shard)\n",
	ids_options, ids_init, ids_positional, ids_finish, offsetof(cli_ids_opts, r),
	cmd_ids
};

/* What reading the inputs builds up. */
typedef struct {
	shard sh;
	int skip_bad;
	uint64_t max_input; /* the most (decompressed) bytes read from one input */
	size_t rawsz;      /* 0 until the first ID */
	idbatch *batch;
	sources src;
	progress *p;
	uint64_t lines;    /* over all inputs, for progress */
	idset_spread spread; /* every object ID read, of any shard (idset.h) */
} ids_reader;

/* The name of an input in messages and in the report. */
static const char *input_name(const char *path)
{
	return strcmp(path, "-") ? path : "<stdin>";
}

/* One input into r->batch and r->src.  Returns an exit status; errors are printed. */
static int read_input(ids_reader *r, const char *path)
{
	const char *name = input_name(path), *line;
	source src = { .name = name, .stream = 1 };
	idstream *s;
	idline l;
	size_t len;
	uint64_t lineno;
	int long_line, rc;
	char err[1024];

	rc = idstream_open(&s, path, err, sizeof(err));
	if (rc) {
		cmd_error("%s", err);
		return rc == IDSTREAM_NOMEM ? ABBREV_EXIT_NOMEM : ABBREV_EXIT_RUNTIME;
	}
	while ((rc = idstream_next(s, &line, &len, &lineno, &long_line, err, sizeof(err))) ==
	       IDSTREAM_LINE) {
		int kind;

		/* an endless or huge input stops at the cap, as verify's (--max-input) */
		if (idstream_bytes(s) > r->max_input)
			break;
		kind = idline_parse(&l, line, len, r->rawsz);

		if (long_line && kind != IDLINE_BAD) {
			kind = IDLINE_BAD;
			l.reason = "a line longer than 4096 chars";
		}
		if (kind == IDLINE_BAD) {
			if (r->skip_bad) {
				src.bad++;
				continue;
			}
			cmd_error("%s:%llu: %s (--skip-bad skips such lines and counts them)", name,
				  (unsigned long long)lineno, l.reason);
			idstream_close(s);
			return ABBREV_EXIT_RUNTIME;
		}
		if (!r->rawsz) {
			r->rawsz = l.rawsz;
			if (!(r->batch = idbatch_new(r->rawsz))) {
				rc = IDSTREAM_NOMEM;
				break;
			}
		}
		if (kind == IDLINE_OTHER) {
			src.other[l.other]++;
		} else {
			/* every shard folds every ID: the input's identity (partial.h) */
			idset_spread_add(&r->spread, l.id, l.rawsz);
			if (shard_has_byte(r->sh, l.id[0]) && idbatch_push(r->batch, l.id, l.type)) {
				rc = IDSTREAM_NOMEM;
				break;
			}
		}
		if (!(++r->lines & 0xffff))
			progress_update(r->p, (size_t)r->lines);
	}
	if (rc >= 0 && idstream_bytes(s) > r->max_input) {
		idstream_close(s);
		return cmd_input_too_large(path, r->max_input);
	}
	src.lines = idstream_lines(s);
	src.bytes = idstream_bytes(s);
	src.crc = idstream_crc(s);
	idstream_close(s);
	if (rc == IDSTREAM_NOMEM || (!rc && sources_add(&r->src, &src))) {
		cmd_error("out of memory");
		return ABBREV_EXIT_NOMEM;
	}
	if (rc) {
		cmd_error("%s", err);
		return ABBREV_EXIT_RUNTIME;
	}
	return ABBREV_EXIT_OK;
}

/* Every input, the sets of the shard, the report.  Returns an exit status. */
static int ids_load(ids_reader *r, char **files, size_t nfiles, idsets **out,
		    uint64_t *duplicates)
{
	static char dash[] = "-";
	static char *stdin_only[] = { dash };
	char err[1024];
	int ret = ABBREV_EXIT_OK, rc;

	*out = NULL;
	if (!nfiles) {
		files = stdin_only;
		nfiles = 1;
	}
	progress_start(r->p, "reading IDs", 0);
	for (size_t i = 0; i < nfiles && !ret; i++)
		ret = read_input(r, files[i]);
	progress_stop(r->p);
	if (ret)
		return ret;
	/* no ID at all: an empty SHA-1 set */
	if (!(*out = idsets_new(r->rawsz ? r->rawsz : 20)))
		goto nomem;
	if (!r->batch)
		return ABBREV_EXIT_OK;
	rc = idbatch_fill(r->batch, *out, duplicates, err, sizeof(err));
	if (rc == -1) {
		cmd_error("%s", err);
		return ABBREV_EXIT_RUNTIME;
	}
	if (rc)
		goto nomem;
	return ABBREV_EXIT_OK;
nomem:
	cmd_error("out of memory");
	return ABBREV_EXIT_NOMEM;
}


static int cmd_ids(int argc, char **argv)
{
	cli_ids_opts o;
	ids_reader r = { 0 };
	idsets *s = NULL;
	stats_report rep;
	stats_input in;
	uint64_t duplicates = 0;
	int ret = cmd_begin(&cli_cmd_ids, &o, argc, argv);

	if (ret >= 0)
		return ret;
	r.sh = o.r.shard;
	r.skip_bad = o.skip_bad;
	r.max_input = o.max_input;
	if (!(r.p = cmd_progress_new(o.r.progress)))
		return ABBREV_EXIT_NOMEM;
	ret = ids_load(&r, o.r.repos, o.r.nrepos, &s, &duplicates);
	if (ret)
		goto done;
	if (stats_report_compute(&rep, s)) {
		cmd_error("out of memory");
		ret = ABBREV_EXIT_NOMEM;
		goto done;
	}
	sources_totals(&r.src, &in);
	in.duplicates = duplicates;
	rep.input = &in;
	rep.sources = &r.src;
	rep.shard = o.r.shard;
	stats_report_prints(&rep, &r.spread);
	rep.improbable = o.r.improbable;
	for (int set = 0; set < ABBREV_SET_COUNT; set++)
		stats_mark_improbable(&rep.sets[set], o.r.improbable);
	rep.set = o.r.set;
	rep.lacks = 0;
	rep.repos = (const char *const *)r.src.names;
	rep.nrepos = r.src.nnames;
	rep.title = o.r.title;
	if (!emit_carries(EMIT_REPORT, o.r.format, EMIT_NOTE_INPUT))
		cmd_input_notes(&rep);
	ret = cmd_print_report(&rep, o.r.format);
	stats_report_clear(&rep);
done:
	idbatch_free(r.batch);
	idsets_free(s);
	sources_clear(&r.src);
	progress_free(r.p);
	return ret;
}
