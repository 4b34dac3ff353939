/*
 * walk_pack_loose.c - step 1's loose objects: the IDs of dir/xx/yyyy...
 * and each one's type from the first bytes of its zlib stream.
 */
#include <config.h>

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

/* Read the loose objects dir/xx/yyyy...; their order is sorted later. */
int wp_add_loose(walker *w, const char *dir)
{
	size_t dl = strlen(dir), hexsz = 2 * w->rawsz;
	char *path = malloc(dl + hexsz + 3);
	int rc = 0;

	if (!path)
		return WALK_NOMEM;
	for (int b = 0; b < 256 && !rc; b++) {
		struct dirent *de;
		DIR *d;

		snprintf(path, dl + 5, "%s/%02x/", dir, b);
		if ((rc = wp_note_dir(w, path)))
			break;
		d = opendir(path);
		if (!d) {
			if (errno != ENOENT && errno != ENOTDIR)
				rc = wp_fail(w, "%s: cannot read: %s", path, strerror(errno));
			continue;
		}
		while (!rc && (de = readdir(d))) {
			loose_obj *lo;
			int t, ok = strlen(de->d_name) == hexsz - 2;

			for (size_t i = 0; ok && i < hexsz - 2; i++)
				ok = hexval(de->d_name[i]) >= 0;
			if (!ok) /* tmp_obj_*, and anything else git ignores */
				continue;
			memcpy(path + dl + 4, de->d_name, hexsz - 1);
			rc = loose_type(w, path, &t);
			if (rc == 1) {
				rc = 0;
				continue;
			}
			if (rc || (rc = wp_grow(&w->loose, &w->loose_cap, w->nloose + 1, sizeof(*lo))))
				break;
			lo = &w->loose[w->nloose++];
			memset(lo, 0, sizeof(*lo));
			lo->id[0] = (unsigned char)b;
			for (size_t i = 1; i < w->rawsz; i++)
				lo->id[i] = (unsigned char)(hexval(de->d_name[2 * i - 2]) << 4 |
							    hexval(de->d_name[2 * i - 1]));
			lo->type = (unsigned char)t;
			if (t == ABBREV_TYPE_TAG && (rc = wp_loose_tag(w, path, lo->id)))
				break;
			progress_update(w->p, w->nloose);
		}
		closedir(d);
	}
	free(path);
	return rc;
}
