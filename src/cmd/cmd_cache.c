/*
 * cmd_cache.c - `git abbrev cache`: where verify's per-pack tables are
 * kept (subject_cache.h), how much they weigh against the cap, each table
 * with its pack, size, last use and whether its pack is still there;
 * `--clear` empties it.  And the cap itself: git config abbrev.cacheSize.
 */
#include <config.h>

#include <errno.h>
#include <git2.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "cmd.h"
#include "emit.h"
#include "emit_verify.h"
#include "exitcodes.h"
#include "subject_cache.h"
#include "utf8.h"

static int cmd_cache(int argc, char **argv);

/* The options of `git abbrev cache`: parsing, -h and completion come from this table. */

static const cli_choice cache_formats[] = {
	{ "text", ABBREV_FORMAT_TEXT }, { "json", ABBREV_FORMAT_JSON }, { NULL, 0 }
};

static const cli_option cache_options[] = {
	CLI_FLAG("clear", 0, offsetof(cli_cache_opts, clear), 1, "remove every table of the cache"),
	CLI_CHOICE("format", offsetof(cli_cache_opts, r.format), cache_formats,
	           "the output format (default text)"),
	CLI_CHDIR_HELP_ROWS(cli_cache_opts, r.),
	CLI_END
};

static void cache_init(void *opts, char **argv)
{
	cli_cache_opts *o = opts;

	memset(o, 0, sizeof(*o));
	cli_repo_init(&o->r, argv);
}

static int cache_positional(void *opts, char *arg, char *err, size_t errsz)
{
	(void)opts;
	snprintf(err, errsz, "cache takes no arguments ('%s')", arg);
	return -1;
}

const cli_command cli_cmd_cache = {
	"cache", "",
	"where verify's per-pack tables are kept, their size and packs; --clear empties it",
	"the cache is kept under git config abbrev.cacheSize (default 1g), the longest\n"
	"unused tables removed first, and those of repacked packs\n",
	cache_options, cache_init, cache_positional, NULL, offsetof(cli_cache_opts, r),
	cmd_cache
};


static const char *when(int64_t t, char *buf, size_t n)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm) || !strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, n, "%lld", (long long)t);
	return buf;
}

static const char *exists_word(int e)
{
	return e > 0 ? "present" : e == 0 ? "gone" : "unknown";
}

static int show_text(const char *dir, uint64_t cap, const subject_cache_entry *v, size_t n,
		     uint64_t total)
{
	char t[64];

	printf("cache: %s\nsize: %llu bytes in %zu table%s (cap %llu bytes)\n", dir,
	       (unsigned long long)total, n, n == 1 ? "" : "s", (unsigned long long)cap);
	/* the most recently used first */
	for (size_t i = n; i-- > 0;)
		printf("%s %llu %s %s\n", v[i].pack ? v[i].pack : v[i].name,
		       (unsigned long long)v[i].size, when(v[i].used, t, sizeof(t)),
		       exists_word(v[i].exists));
	return 0;
}

static int show_json(const char *dir, uint64_t cap, const subject_cache_entry *v, size_t n,
		     uint64_t total)
{
	json_t *root = json_object(), *tabs = json_array();
	char t[64], *text;
	int rc = -1;

	if (!root || !tabs ||
	    json_object_set_new(root, "schema_version", json_integer(JSON_SCHEMA_VERSION)) ||
	    json_object_set_new(root, "cache", utf8_json(dir)) ||
	    json_object_set_new(root, "size", json_integer((json_int_t)total)) ||
	    json_object_set_new(root, "cap", json_integer((json_int_t)cap)) ||
	    json_object_set(root, "tables", tabs))
		goto done;
	for (size_t i = n; i-- > 0;) {
		json_t *o = json_pack("{s:o, s:o, s:I, s:s, s:o}", "file", utf8_json(v[i].name),
				      "pack", utf8_json(v[i].pack), "size", (json_int_t)v[i].size,
				      "last_used", when(v[i].used, t, sizeof(t)), "pack_exists",
				      v[i].exists < 0 ? json_null() : json_boolean(v[i].exists));

		if (!o || json_array_append_new(tabs, o))
			goto done;
	}
	if (!(text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER)))
		goto done;
	rc = puts(text) == EOF ? -1 : 0;
	free(text);
done:
	json_decref(tabs);
	json_decref(root);
	return rc;
}

static int cmd_cache(int argc, char **argv)
{
	cli_cache_opts o;
	git_repository *repo = NULL;
	subject_cache_entry *v = NULL;
	uint64_t total = 0, cap;
	size_t n = 0;
	char *dir;
	int ret = cmd_begin(&cli_cmd_cache, &o, argc, argv), rc;

	if (ret >= 0)
		return ret;
	if (!(dir = subject_cache_dir())) {
		cmd_error("no cache directory to use (GIT_ABBREV_CACHE_DIR, XDG_CACHE_HOME, HOME)");
		return ABBREV_EXIT_RUNTIME;
	}
	if (o.clear) {
		size_t removed;

		ret = ABBREV_EXIT_OK;
		if (subject_cache_clear(dir, &removed)) {
			cmd_error("cannot clear the cache '%s': %s", dir, strerror(errno));
			ret = ABBREV_EXIT_RUNTIME;
		} else if (o.r.format == ABBREV_FORMAT_JSON) {
			json_t *root = json_pack("{s:i, s:o, s:I}", "schema_version",
						 JSON_SCHEMA_VERSION, "cache", utf8_json(dir),
						 "removed", (json_int_t)removed);
			char *text = root ? json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;

			if (!text || puts(text) == EOF)
				ret = text ? ABBREV_EXIT_RUNTIME : ABBREV_EXIT_NOMEM;
			free(text);
			json_decref(root);
		} else {
			printf("cache: %s\nremoved: %zu file%s\n", dir, removed, removed == 1 ? "" : "s");
		}
		free(dir);
		return ret;
	}
	/* the cap of the repository here, if any (GIT_DIR as git does), else the user's */
	if (git_repository_open_ext(&repo, ".", 0, NULL))
		repo = NULL;
	cap = cmd_cache_cap(repo);
	git_repository_free(repo);
	rc = subject_cache_list(dir, &v, &n);
	if (rc == -1) {
		cmd_error("out of memory");
		free(dir);
		return ABBREV_EXIT_NOMEM;
	}
	if (rc == -2) {
		cmd_error("cannot read the cache '%s': %s", dir, strerror(errno));
		free(dir);
		return ABBREV_EXIT_RUNTIME;
	}
	for (size_t i = 0; i < n; i++)
		total += v[i].size;
	rc = o.r.format == ABBREV_FORMAT_JSON ? show_json(dir, cap, v, n, total) :
						show_text(dir, cap, v, n, total);
	subject_cache_list_free(v, n);
	free(dir);
	return cmd_written(rc, "the cache's listing");
}
