/*
 * odb_dirs.c - the object directories: the given one and its alternates
 * (info/alternates, recursively, and GIT_ALTERNATE_OBJECT_DIRECTORIES,
 * each directory once, as git reads them).
 */
#include <config.h>

#include "odb.h"

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

static int add_dir(odb *db, const char *dir, int depth, const char *from);

/*
 * Follow a list of object directories separated by `sep`, as git parses
 * info/alternates (sep '\n') and GIT_ALTERNATE_OBJECT_DIRECTORIES (':'):
 * '#' starts a comment, empty entries are skipped, an entry starting with
 * '"' is C-quoted (broken quoting: taken as it is).  A relative entry is
 * relative to `base` (a real path: git resolves relative alternates
 * against the real object directory), or with base NULL to the current
 * directory.  `from` names the list in messages.
 */
static int add_list(odb *db, const char *list, int sep, const char *base, int depth,
		    const char *from)
{
	char *entry = malloc(strlen(list) + 1);
	const char *p = list, *end;
	int rc = 0;

	if (!entry)
		return ODB_NOMEM;
	if (*list && depth > MAX_ALT_DEPTH) {
		/* as git: an error message, and the walk goes on without them */
		free(entry);
		return odb_warn(db, "%s: ignoring alternate object stores, nesting too deep", from);
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
		alt = entry[0] == '/' || !base ? strdup(entry) : odb_join(base, entry);
		/* add_dir() resolves it as git does, with realpath() */
		rc = alt ? add_dir(db, alt, depth, from) : ODB_NOMEM;
		free(alt);
	}
	free(entry);
	return rc;
}

/* Follow dir/info/alternates (dir a real path): one object directory a line. */
static int add_alternates(odb *db, const char *dir, int depth)
{
	char *path = odb_join(dir, "info/alternates"), *text = NULL;
	const unsigned char *m;
	size_t size;
	int rc;

	if (!path)
		return ODB_NOMEM;
	rc = odb_map_file(db, path, 1, &m, &size, NULL);
	if (rc) {
		free(path);
		return rc == 1 ? 0 : rc;
	}
	text = malloc(size + 1);
	if (!text) {
		rc = ODB_NOMEM;
		goto done;
	}
	if (size) /* an empty file maps to NULL */
		memcpy(text, m, size);
	text[size] = '\0';
	rc = add_list(db, text, '\n', dir, depth, path);
done:
	free(text);
	odb_unmap(m, size);
	free(path);
	return rc;
}

/*
 * Note one object directory (once, however often it is named, by its
 * real path) and follow its alternates.  One named by an alternates list
 * (`from`) that is not there is warned about and left out, as git does;
 * the repository's own must be there.
 */
static int add_dir(odb *db, const char *dir, int depth, const char *from)
{
	char *real = realpath(dir, NULL);
	struct stat st;

	if (!real || stat(real, &st) < 0 || !S_ISDIR(st.st_mode)) {
		int e = real ? ENOTDIR : errno;

		free(real);
		if (e == ENOMEM)
			return ODB_NOMEM;
		if (from)
			return odb_warn(db, "%s: alternate object directory %s: %s; ignored", from,
				       dir, strerror(e));
		return odb_fail(db, "%s: cannot open object directory: %s", dir, strerror(e));
	}
	for (size_t i = 0; i < db->ndirs; i++)
		if (!strcmp(db->dirs[i], real)) {
			free(real);
			return 0;
		}
	if (odb_grow(&db->dirs, &db->dirs_cap, db->ndirs + 1, sizeof(*db->dirs))) {
		free(real);
		return ODB_NOMEM;
	}
	db->dirs[db->ndirs++] = real;
	return add_alternates(db, real, depth + 1);
}

int odb_find_objdirs(odb *db, const char *objdir)
{
	const char *env = getenv("GIT_ALTERNATE_OBJECT_DIRECTORIES");
	int rc = add_dir(db, objdir, -1, NULL);

	/* as git: the variable's directories are alternates of the repository's */
	if (!rc && env)
		rc = add_list(db, env, ':', NULL, 0, "GIT_ALTERNATE_OBJECT_DIRECTORIES");
	return rc;
}
