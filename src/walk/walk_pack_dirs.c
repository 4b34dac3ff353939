/*
 * walk_pack_dirs.c - step 1 of walk_pack.c: the object directories, the
 * given one and its alternates (info/alternates, recursively, and
 * GIT_ALTERNATE_OBJECT_DIRECTORIES, each directory once, as git reads
 * them), and for each its packs and loose objects.
 */
#include <config.h>

#include "test_hooks.h"
#include "walk_pack_int.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/*
 * Undo git's C-style quoting of a path that starts at s[0] == '"': the
 * path goes to `out` (as long as s at most), *end after the closing
 * quote.  0, or -1 for broken quoting (git then takes the entry as it is).
 */
static int unquote(const char *s, char *out, const char **end)
{
	const char *p = s + 1;
	char *o = out;

	while (*p && *p != '"') {
		if (*p != '\\') {
			*o++ = *p++;
			continue;
		}
		p++;
		switch (*p) {
		case 'a': *o++ = '\a'; p++; break;
		case 'b': *o++ = '\b'; p++; break;
		case 'f': *o++ = '\f'; p++; break;
		case 'n': *o++ = '\n'; p++; break;
		case 'r': *o++ = '\r'; p++; break;
		case 't': *o++ = '\t'; p++; break;
		case 'v': *o++ = '\v'; p++; break;
		case '\\': case '"': *o++ = *p++; break;
		default:
			if (p[0] >= '0' && p[0] <= '3' && p[1] >= '0' && p[1] <= '7' &&
			    p[2] >= '0' && p[2] <= '7') {
				*o++ = (char)((p[0] - '0') << 6 | (p[1] - '0') << 3 | (p[2] - '0'));
				p += 3;
				break;
			}
			return -1;
		}
	}
	if (*p != '"')
		return -1;
	*o = '\0';
	*end = p + 1;
	return 0;
}

static int add_dir(walker *w, const char *dir, int depth, const char *from);

/*
 * Follow a list of object directories separated by `sep`, as git parses
 * info/alternates (sep '\n') and GIT_ALTERNATE_OBJECT_DIRECTORIES (':'):
 * '#' starts a comment, empty entries are skipped, an entry starting with
 * '"' is C-quoted (broken quoting: taken as it is).  A relative entry is
 * relative to `base` (a real path: git resolves relative alternates
 * against the real object directory), or with base NULL to the current
 * directory.  `from` names the list in messages.
 */
static int add_list(walker *w, const char *list, int sep, const char *base, int depth,
		    const char *from)
{
	char *entry = malloc(strlen(list) + 1);
	const char *p = list, *end;
	int rc = 0;

	if (!entry)
		return WALK_NOMEM;
	if (*list && depth > MAX_ALT_DEPTH) {
		/* as git: an error message, and the walk goes on without them */
		free(entry);
		return wp_warn(w, "%s: ignoring alternate object stores, nesting too deep", from);
	}
	while (*p && !rc) {
		char *alt;

		if (*p == '#') {
			end = strchrnul(p, sep);
			entry[0] = '\0';
		} else if (*p != '"' || unquote(p, entry, &end) < 0) {
			end = strchrnul(p, sep);
			memcpy(entry, p, (size_t)(end - p));
			entry[end - p] = '\0';
		}
		p = *end ? end + 1 : end;
		if (!entry[0])
			continue;
		alt = entry[0] == '/' || !base ? strdup(entry) : wp_join(base, entry);
		/* add_dir() resolves it as git does, with realpath() */
		rc = alt ? add_dir(w, alt, depth, from) : WALK_NOMEM;
		free(alt);
	}
	free(entry);
	return rc;
}

/* Follow dir/info/alternates (dir a real path): one object directory a line. */
static int add_alternates(walker *w, const char *dir, int depth)
{
	char *path = wp_join(dir, "info/alternates"), *text = NULL;
	const unsigned char *m;
	size_t size;
	int rc;

	if (!path)
		return WALK_NOMEM;
	rc = wp_map_file(w, path, 1, &m, &size, NULL);
	if (rc) {
		free(path);
		return rc == 1 ? 0 : rc;
	}
	text = malloc(size + 1);
	if (!text) {
		rc = WALK_NOMEM;
		goto done;
	}
	if (size) /* an empty file maps to NULL */
		memcpy(text, m, size);
	text[size] = '\0';
	rc = add_list(w, text, '\n', dir, depth, path);
done:
	free(text);
	wp_unmap(m, size);
	free(path);
	return rc;
}

/*
 * Note one object directory (once, however often it is named, by its
 * real path) and follow its alternates.  One named by an alternates list
 * (`from`) that is not there is warned about and left out, as git does;
 * the repository's own must be there.
 */
static int add_dir(walker *w, const char *dir, int depth, const char *from)
{
	char *real = realpath(dir, NULL);
	struct stat st;

	if (!real || stat(real, &st) < 0 || !S_ISDIR(st.st_mode)) {
		int e = real ? ENOTDIR : errno;

		free(real);
		if (e == ENOMEM)
			return WALK_NOMEM;
		if (from)
			return wp_warn(w, "%s: alternate object directory %s: %s; ignored", from,
				       dir, strerror(e));
		return wp_fail(w, "%s: cannot open object directory: %s", dir, strerror(e));
	}
	for (size_t i = 0; i < w->ndirs; i++)
		if (!strcmp(w->dirs[i], real)) {
			free(real);
			return 0;
		}
	if (wp_grow(&w->dirs, &w->dirs_cap, w->ndirs + 1, sizeof(*w->dirs))) {
		free(real);
		return WALK_NOMEM;
	}
	w->dirs[w->ndirs++] = real;
	return add_alternates(w, real, depth + 1);
}

int wp_find_objdirs(walker *w, const char *objdir)
{
	const char *env = getenv("GIT_ALTERNATE_OBJECT_DIRECTORIES");
	int rc = add_dir(w, objdir, -1, NULL);

	/* as git: the variable's directories are alternates of the repository's */
	if (!rc && env)
		rc = add_list(w, env, ':', NULL, 0, "GIT_ALTERNATE_OBJECT_DIRECTORIES");
	return rc;
}

int wp_add_objdirs(walker *w, const char *objdir)
{
	int rc = wp_find_objdirs(w, objdir);

	for (size_t i = 0; i < w->ndirs && !rc; i++) {
		if ((rc = wp_add_packs(w, w->dirs[i])) || (rc = wp_midx_find(w, w->dirs[i])))
			break;
		/*
		 * A test hook: wait here, between listing the packs and reading
		 * the loose objects, so that tests/t-concurrent.sh can repack in
		 * between every time instead of by chance (test_hooks.h).
		 */
		test_hook_pause(&w->paused);
		rc = wp_add_loose(w, w->dirs[i]);
	}
	return rc;
}
