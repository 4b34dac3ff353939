/*
 * odb_loose.c - the loose objects: the IDs of dir/xx/yyyy...
 * and each one's type from the first bytes of its zlib stream.
 */
#include <config.h>

#include "test_hooks.h"
#include "odb.h"

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
static int loose_type(odb *db, const char *path, int *type)
{
	unsigned char in[256];
	char hdr[64];
	size_t len;
	char *nul, *sp;
	int fd, zr = Z_OK;

	if (!db->zs_ready) {
		memset(&db->zs, 0, sizeof(db->zs));
		if (inflateInit(&db->zs) != Z_OK)
			return ODB_NOMEM;
		db->zs_ready = 1;
	} else if (inflateReset(&db->zs) != Z_OK) {
		return odb_fail(db, "%s: zlib reset failed", path);
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT) {
			/* listed, then gone: pruned, or moved into a pack */
			db->vanished = 1;
			return 1;
		}
		return odb_fail(db, "%s: cannot open: %s", path, strerror(errno));
	}
	db->zs.next_out = (unsigned char *)hdr;
	db->zs.avail_out = sizeof(hdr) - 1;
	for (;;) {
		ssize_t got = read(fd, in, sizeof(in));

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;

			close(fd);
			return odb_fail(db, "%s: cannot read: %s", path, strerror(e));
		}
		if (got == 0)
			break;
		db->zs.next_in = in;
		db->zs.avail_in = (unsigned)got;
		zr = inflate(&db->zs, Z_SYNC_FLUSH);
		len = sizeof(hdr) - 1 - db->zs.avail_out;
		if ((zr != Z_OK && zr != Z_BUF_ERROR) || !db->zs.avail_out || memchr(hdr, 0, len))
			break;
	}
	close(fd);
	len = sizeof(hdr) - 1 - db->zs.avail_out;
	if (zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR)
		return odb_fail(db, "%s: corrupt loose object (zlib: %s)", path,
			    db->zs.msg ? db->zs.msg : "bad data");
	hdr[len] = '\0';
	nul = memchr(hdr, 0, len + 1);
	sp = memchr(hdr, ' ', (size_t)(nul - hdr));
	if (nul == hdr + len || !sp || sp + 1 == nul)
		goto bad;
	/*
	 * A size past 63 bits is refused, as libgit2 refuses it (git dies on
	 * one past 64), so that both walkers refuse the object
	 */
	uint64_t size = 0;

	for (const char *d = sp + 1; d < nul; d++) {
		if (*d < '0' || *d > '9')
			goto bad;
		if (size > ((uint64_t)INT64_MAX - (uint64_t)(*d - '0')) / 10)
			return odb_fail(db, "%s: bad loose object header (its size overflows)",
					path);
		size = size * 10 + (uint64_t)(*d - '0');
	}
	*sp = '\0';
	*type = hexid_type_from_name(hdr);
	if (*type == ABBREV_TYPE_NONE) {
		/* the name is the file's bytes: keep the message one printable line */
		for (char *c = hdr; *c; c++)
			if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f)
				*c = '?';
		return odb_fail(db, "%s: unknown object type \"%s\"", path, hdr);
	}
	return 0;
bad:
	return odb_fail(db, "%s: bad loose object header", path);
}

int odb_loose_cmp(const void *a, const void *b)
{
	return memcmp(((const loose_obj *)a)->id, ((const loose_obj *)b)->id, ABBREV_MAX_RAWSZ);
}

/*
 * The ID named by fan-out byte b and file name `name` (the other
 * 2 * rawsz - 2 hex digits): 1, or 0 for a name git ignores (tmp_obj_*).
 */
static int loose_name_id(const odb *db, int b, const char *name, unsigned char *id)
{
	size_t hexsz = 2 * db->rawsz;

	if (strlen(name) != hexsz - 2)
		return 0;
	for (size_t i = 0; i < hexsz - 2; i++)
		if (hexval(name[i]) < 0)
			return 0;
	memset(id, 0, ABBREV_MAX_RAWSZ);
	id[0] = (unsigned char)b;
	for (size_t i = 1; i < db->rawsz; i++)
		id[i] = (unsigned char)(hexval(name[2 * i - 2]) << 4 | hexval(name[2 * i - 1]));
	return 1;
}

/* The fan-out directories of `dir`, a bit each in set[32] (none if it is gone). */
static int list_fanouts(odb *db, const char *dir, unsigned char *set)
{
	struct dirent *de;
	DIR *d;

	memset(set, 0, 32);
	d = opendir(dir);
	if (!d)
		return errno == ENOENT || errno == ENOTDIR
			       ? 0 : odb_fail(db, "%s: cannot read: %s", dir, strerror(errno));
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
static int read_fanout(odb *db, char *path, size_t dl, int b)
{
	size_t lo = db->nloose;
	struct dirent *de;
	int rc = 0;
	DIR *d;

	d = opendir(path);
	if (!d) /* gone since it was listed: the second listing will tell */
		return errno == ENOENT || errno == ENOTDIR
			       ? 0 : odb_fail(db, "%s: cannot read: %s", path, strerror(errno));
	while (!rc && (de = readdir(d))) {
		loose_obj *lo_obj;
		unsigned char id[ABBREV_MAX_RAWSZ];
		int t;

		if (!loose_name_id(db, b, de->d_name, id))
			continue; /* tmp_obj_*, and anything else git ignores */
		memcpy(path + dl + 4, de->d_name, 2 * db->rawsz - 1);
		rc = loose_type(db, path, &t);
		if (rc == 1) {
			rc = 0;
			continue;
		}
		if (rc || (rc = odb_grow(&db->loose, &db->loose_cap, db->nloose + 1, sizeof(*lo_obj))))
			break;
		lo_obj = &db->loose[db->nloose++];
		memcpy(lo_obj->id, id, sizeof(lo_obj->id));
		lo_obj->type = (unsigned char)t;
		if (t == ABBREV_TYPE_TAG && (rc = odb_loose_tag(db, path, lo_obj->id)))
			break;
		progress_update(db->p, db->nloose);
	}
	closedir(d);
	db->states[db->nstates - 1].lo = lo;
	db->states[db->nstates - 1].hi = db->nloose;
	if (db->nloose > lo)
		qsort(db->loose + lo, db->nloose - lo, sizeof(*db->loose), odb_loose_cmp);
	return rc;
}

/*
 * Read the loose objects dir/xx/yyyy...: the object directory's listing
 * says which fan-out directories there are, and each state is noted
 * before it is read (odb_loose_changed lists them again).
 */
int odb_read_fanout(odb *db, const char *dir, int b)
{
	size_t dl = strlen(dir);
	char *path = malloc(dl + 2 * db->rawsz + 3);
	int rc;

	if (!path)
		return ODB_NOMEM;
	snprintf(path, dl + 5, "%s/%02x/", dir, b);
	if (!(rc = odb_note_dir(db, path))) {
		db->states[db->nstates - 1].kind = DIR_FANOUT;
		db->states[db->nstates - 1].fanout = b;
		rc = read_fanout(db, path, dl, b);
	}
	free(path);
	return rc;
}

int odb_add_loose(odb *db, const char *dir)
{
	unsigned char fanouts[32];
	int rc;

	if (!(rc = odb_note_dir(db, dir)))
		rc = list_fanouts(db, dir, fanouts);
	if (!rc) {
		db->states[db->nstates - 1].kind = DIR_OBJECTS;
		memcpy(db->states[db->nstates - 1].fanouts, fanouts, sizeof(fanouts));
	}
	for (int b = 0; b < 256 && !rc; b++) {
		if (!has_fanout(fanouts, b))
			continue;
		/* tests/t-gc-race.sh prunes here, to see the walk start again */
		if (b >= 0x80)
			test_hook_loose_pause(&db->paused_loose);
		rc = odb_read_fanout(db, dir, b);
	}
	return rc;
}

/* Whether a fan-out directory's loose objects are still the ones read: 1, 0. */
static int fanout_changed(odb *db, const dir_state *st)
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

		if (!loose_name_id(db, st->fanout, de->d_name, key.id))
			continue;
		changed = ++n > read ||
			  !bsearch(&key, db->loose + st->lo, read, sizeof(key), odb_loose_cmp);
	}
	closedir(d);
	return changed || n != read;
}

int odb_loose_changed(odb *db)
{
	for (size_t i = 0; i < db->nstates; i++) {
		const dir_state *st = &db->states[i];
		unsigned char now[32];
		int rc;

		if (st->kind == DIR_OBJECTS) {
			if ((rc = list_fanouts(db, st->path, now)))
				return rc;
			if (memcmp(now, st->fanouts, sizeof(now)))
				return 1;
		} else if (st->kind == DIR_FANOUT && fanout_changed(db, st)) {
			return 1;
		}
	}
	return 0;
}
