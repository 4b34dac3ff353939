/*
 * walk_pack_dirs.c - step 1 of walk_pack.c: the object directories, the
 * given one and its alternates (info/alternates, recursively, each
 * directory once), and for each its packs and loose objects.
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
 * Normalise a path as git does for alternates: drop "." and empty
 * components, let ".." drop the component before it (kept where there is
 * none), no trailing slash.  In place; 0 or WALK_NOMEM.
 */
static int normalize_path(char *path)
{
	char *buf = malloc(strlen(path) + 2), *out, *start;
	const char *p = path;
	int root = *p == '/';

	if (!buf)
		return WALK_NOMEM;
	out = buf;
	if (root)
		*out++ = '/';
	start = out;
	while (*p) {
		size_t len = strcspn(p, "/");

		if (!len || (len == 1 && p[0] == '.')) {
			/* nothing */
		} else if (len == 2 && p[0] == '.' && p[1] == '.') {
			char *last = out; /* the last component written */

			if (out > start)
				for (last = out - 1; last > start && last[-1] != '/'; last--)
					;
			if (out > start && !(out - last == 3 && !memcmp(last, "../", 3))) {
				out = last;
			} else if (!root) {
				memcpy(out, "../", 3);
				out += 3;
			}
		} else {
			memcpy(out, p, len);
			out += len;
			*out++ = '/';
		}
		p += len;
		while (*p == '/')
			p++;
	}
	if (out > start)
		out--;
	else if (!root)
		*out++ = '.';
	*out = '\0';
	strcpy(path, buf);
	free(buf);
	return 0;
}

/* Undo git's C-style quoting of an alternates line, in place; 0 or -1. */
static int unquote(char *s)
{
	char *o = s, *p = s + 1;

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
	if (*p != '"' || p[1])
		return -1;
	*o = '\0';
	return 0;
}

/* Follow dir/info/alternates: one object directory a line. */
static int add_alternates(walker *w, const char *dir, int depth)
{
	char *path = wp_join(dir, "info/alternates"), *text = NULL, *line, *next;
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
	if (size && depth > MAX_ALT_DEPTH) {
		rc = wp_fail(w, "%s: alternates nested more than %d deep", path, MAX_ALT_DEPTH);
		goto done;
	}
	text = malloc(size + 1);
	if (!text) {
		rc = WALK_NOMEM;
		goto done;
	}
	memcpy(text, m, size);
	text[size] = '\0';
	for (line = text; line && !rc; line = next) {
		char *alt;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!*line || *line == '#')
			continue;
		if (*line == '"' && unquote(line) < 0) {
			rc = wp_fail(w, "%s: bad quoting", path);
			break;
		}
		alt = *line == '/' ? strdup(line) : wp_join(dir, line);
		if (!alt) {
			rc = WALK_NOMEM;
			break;
		}
		rc = normalize_path(alt);
		if (!rc)
			rc = wp_add_objdir(w, alt, depth + 1, path);
		free(alt);
	}
done:
	free(text);
	wp_unmap(m, size);
	free(path);
	return rc;
}

/* Add one object directory (once, however often it is named) and its alternates. */
int wp_add_objdir(walker *w, const char *dir, int depth, const char *from)
{
	char *real = realpath(dir, NULL);
	struct stat st;
	int rc;

	if (!real || stat(real, &st) < 0 || !S_ISDIR(st.st_mode)) {
		int e = real ? ENOTDIR : errno;

		free(real);
		if (e == ENOMEM)
			return WALK_NOMEM;
		if (from)
			return wp_fail(w, "%s: alternate object directory %s: %s", from, dir,
				    strerror(e));
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
	if ((rc = wp_add_packs(w, dir)))
		return rc;
	/*
	 * A test hook: wait here, between listing the packs and reading the
	 * loose objects, so that tests/t-concurrent.sh can repack in between
	 * every time instead of by chance (test_hooks.h).
	 */
	test_hook_pause(&w->paused);
	if ((rc = wp_add_loose(w, dir)))
		return rc;
	return add_alternates(w, dir, depth);
}

