/*
 * walk_pack_loose.c - step 1's loose objects: the IDs of dir/xx/yyyy...
 * and each one's type from the first bytes of its zlib stream.
 */
#include <config.h>

#include "test_hooks.h"
#include "walk_pack_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1; /* git writes lower case only */
}

/*
 * The type of a loose object: inflate just enough of the file to see its
 * header "<type> <size>\0".  0, 1 if the file vanished (packed meanwhile),
 * or an error.
 */
static int loose_type(walker *w, const char *path, int *type)
{
	unsigned char in[256];
	char hdr[64];
	size_t len;
	char *nul, *sp;
	int fd, zr = Z_OK;

	if (!w->zs_ready) {
		memset(&w->zs, 0, sizeof(w->zs));
		if (inflateInit(&w->zs) != Z_OK)
			return WALK_NOMEM;
		w->zs_ready = 1;
	} else if (inflateReset(&w->zs) != Z_OK) {
		return wp_fail(w, "%s: zlib reset failed", path);
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT) {
			/* listed, then gone: pruned, or moved into a pack */
			w->vanished = 1;
			return 1;
		}
		return wp_fail(w, "%s: cannot open: %s", path, strerror(errno));
	}
	w->zs.next_out = (unsigned char *)hdr;
	w->zs.avail_out = sizeof(hdr) - 1;
	for (;;) {
		ssize_t got = read(fd, in, sizeof(in));

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;

			close(fd);
			return wp_fail(w, "%s: cannot read: %s", path, strerror(e));
		}
		if (got == 0)
			break;
		w->zs.next_in = in;
		w->zs.avail_in = (unsigned)got;
		zr = inflate(&w->zs, Z_SYNC_FLUSH);
		len = sizeof(hdr) - 1 - w->zs.avail_out;
		if ((zr != Z_OK && zr != Z_BUF_ERROR) || !w->zs.avail_out || memchr(hdr, 0, len))
			break;
	}
	close(fd);
	len = sizeof(hdr) - 1 - w->zs.avail_out;
	if (zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR)
		return wp_fail(w, "%s: corrupt loose object (zlib: %s)", path,
			    w->zs.msg ? w->zs.msg : "bad data");
	hdr[len] = '\0';
	nul = memchr(hdr, 0, len + 1);
	sp = memchr(hdr, ' ', (size_t)(nul - hdr));
	if (nul == hdr + len || !sp || sp + 1 == nul)
		goto bad;
	for (const char *d = sp + 1; d < nul; d++)
		if (*d < '0' || *d > '9')
			goto bad;
	*sp = '\0';
	*type = hexid_type_from_name(hdr);
	if (*type == ABBREV_TYPE_NONE) {
		/* the name is the file's bytes: keep the message one printable line */
		for (char *c = hdr; *c; c++)
			if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f)
				*c = '?';
		return wp_fail(w, "%s: unknown object type \"%s\"", path, hdr);
	}
	return 0;
bad:
	return wp_fail(w, "%s: bad loose object header", path);
}

int wp_loose_cmp(const void *a, const void *b)
{
	return memcmp(((const loose_obj *)a)->id, ((const loose_obj *)b)->id, ABBREV_MAX_RAWSZ);
}

/*
 * The ID named by fan-out byte b and file name `name` (the other
 * 2 * rawsz - 2 hex digits): 1, or 0 for a name git ignores (tmp_obj_*).
 */
static int loose_name_id(const walker *w, int b, const char *name, unsigned char *id)
{
	size_t hexsz = 2 * w->rawsz;

	if (strlen(name) != hexsz - 2)
		return 0;
	for (size_t i = 0; i < hexsz - 2; i++)
		if (hexval(name[i]) < 0)
			return 0;
	memset(id, 0, ABBREV_MAX_RAWSZ);
	id[0] = (unsigned char)b;
	for (size_t i = 1; i < w->rawsz; i++)
		id[i] = (unsigned char)(hexval(name[2 * i - 2]) << 4 | hexval(name[2 * i - 1]));
	return 1;
}

/* The fan-out directories of `dir`, a bit each in set[32] (none if it is gone). */
static int list_fanouts(walker *w, const char *dir, unsigned char *set)
{
	struct dirent *de;
	DIR *d;

	memset(set, 0, 32);
	d = opendir(dir);
	if (!d)
		return errno == ENOENT || errno == ENOTDIR
			       ? 0 : wp_fail(w, "%s: cannot read: %s", dir, strerror(errno));
	while ((de = readdir(d))) {
		int hi = hexval(de->d_name[0]), lo = hi < 0 ? -1 : hexval(de->d_name[1]);

		if (lo >= 0 && !de->d_name[2])
			set[hi << 1 | lo >> 3] |= (unsigned char)(1u << (lo & 7));
	}
	closedir(d);
	return 0;
}

static int has_fanout(const unsigned char *set, int b)
{
	return set[b >> 3] >> (b & 7) & 1;
}

/* Read the loose objects of one fan-out directory (its state noted last). */
static int read_fanout(walker *w, char *path, size_t dl, int b)
{
	size_t lo = w->nloose;
	struct dirent *de;
	int rc = 0;
	DIR *d;

	d = opendir(path);
	if (!d) /* gone since it was listed: the second listing will tell */
		return errno == ENOENT || errno == ENOTDIR
			       ? 0 : wp_fail(w, "%s: cannot read: %s", path, strerror(errno));
	while (!rc && (de = readdir(d))) {
		loose_obj *lo_obj;
		unsigned char id[ABBREV_MAX_RAWSZ];
		int t;

		if (!loose_name_id(w, b, de->d_name, id))
			continue; /* tmp_obj_*, and anything else git ignores */
		memcpy(path + dl + 4, de->d_name, 2 * w->rawsz - 1);
		rc = loose_type(w, path, &t);
		if (rc == 1) {
			rc = 0;
			continue;
		}
		if (rc || (rc = wp_grow(&w->loose, &w->loose_cap, w->nloose + 1, sizeof(*lo_obj))))
			break;
		lo_obj = &w->loose[w->nloose++];
		memcpy(lo_obj->id, id, sizeof(lo_obj->id));
		lo_obj->type = (unsigned char)t;
		if (t == ABBREV_TYPE_TAG && (rc = wp_loose_tag(w, path, lo_obj->id)))
			break;
		progress_update(w->p, w->nloose);
	}
	closedir(d);
	w->states[w->nstates - 1].lo = lo;
	w->states[w->nstates - 1].hi = w->nloose;
	if (w->nloose > lo)
		qsort(w->loose + lo, w->nloose - lo, sizeof(*w->loose), wp_loose_cmp);
	return rc;
}

/*
 * Read the loose objects dir/xx/yyyy...: the object directory's listing
 * says which fan-out directories there are, and each state is noted
 * before it is read (wp_loose_changed lists them again).
 */
int wp_read_fanout(walker *w, const char *dir, int b)
{
	size_t dl = strlen(dir);
	char *path = malloc(dl + 2 * w->rawsz + 3);
	int rc;

	if (!path)
		return WALK_NOMEM;
	snprintf(path, dl + 5, "%s/%02x/", dir, b);
	if (!(rc = wp_note_dir(w, path))) {
		w->states[w->nstates - 1].kind = DIR_FANOUT;
		w->states[w->nstates - 1].fanout = b;
		rc = read_fanout(w, path, dl, b);
	}
	free(path);
	return rc;
}

int wp_add_loose(walker *w, const char *dir)
{
	unsigned char fanouts[32];
	int rc;

	if (!(rc = wp_note_dir(w, dir)))
		rc = list_fanouts(w, dir, fanouts);
	if (!rc) {
		w->states[w->nstates - 1].kind = DIR_OBJECTS;
		memcpy(w->states[w->nstates - 1].fanouts, fanouts, sizeof(fanouts));
	}
	for (int b = 0; b < 256 && !rc; b++) {
		if (!has_fanout(fanouts, b))
			continue;
		/* tests/t-gc-race.sh prunes here, to see the walk start again */
		if (b >= 0x80)
			test_hook_loose_pause(&w->paused_loose);
		rc = wp_read_fanout(w, dir, b);
	}
	return rc;
}

/* Whether a fan-out directory's loose objects are still the ones read: 1, 0. */
static int fanout_changed(walker *w, const dir_state *st)
{
	size_t n = 0, read = st->hi - st->lo;
	struct dirent *de;
	int changed = 0;
	DIR *d;

	d = opendir(st->path);
	if (!d)
		return read > 0;
	while (!changed && (de = readdir(d))) {
		loose_obj key;

		if (!loose_name_id(w, st->fanout, de->d_name, key.id))
			continue;
		changed = ++n > read ||
			  !bsearch(&key, w->loose + st->lo, read, sizeof(key), wp_loose_cmp);
	}
	closedir(d);
	return changed || n != read;
}

int wp_loose_changed(walker *w)
{
	for (size_t i = 0; i < w->nstates; i++) {
		const dir_state *st = &w->states[i];
		unsigned char now[32];
		int rc;

		if (st->kind == DIR_OBJECTS) {
			if ((rc = list_fanouts(w, st->path, now)))
				return rc;
			if (memcmp(now, st->fanouts, sizeof(now)))
				return 1;
		} else if (st->kind == DIR_FANOUT && fanout_changed(w, st)) {
			return 1;
		}
	}
	return 0;
}
