/*
 * idstream.c - lines of a plain, gzip or zstd stream (see idstream.h).
 *
 * Raw bytes are read into `in`; gzip and zstd decompress them into
 * `out`, plain input is used where it lies.  A line that lies whole in
 * the current buffer is handed out in place; one that crosses a buffer
 * boundary is gathered in `line`.
 */
#include "idstream.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#define IN_SIZE (128 * 1024)
#define OUT_SIZE (256 * 1024)

enum { COMP_PLAIN, COMP_GZIP, COMP_ZSTD };

struct idstream {
	int fd, own_fd;
	char *name;
	int comp;
	unsigned char *in;
	size_t in_len, in_pos;
	int in_eof;
	z_stream z;
	int z_init, z_end;       /* inflate set up; the last member ended */
	ZSTD_DStream *zs;
	size_t zs_left;          /* ZSTD_decompressStream's hint: 0 at a frame's end */
	unsigned char *out;      /* decompressed bytes (plain: == in) */
	size_t out_len, out_pos;
	char line[IDSTREAM_MAX_LINE + 1];
	int skipping;            /* the rest of a line handed out cut is to be skipped */
	uint64_t skipped;        /* bytes of it skipped so far */
	uint64_t lineno, bytes;
	uint32_t crc;
};

int idstream_open(idstream **out, const char *path, char *err, size_t errsz)
{
	idstream *s = calloc(1, sizeof(*s));

	*out = NULL;
	if (!s || !(s->name = strdup(path)) || !(s->in = malloc(IN_SIZE))) {
		idstream_close(s);
		snprintf(err, errsz, "out of memory");
		return IDSTREAM_NOMEM;
	}
	s->crc = (uint32_t)crc32(0L, Z_NULL, 0);
	if (!strcmp(path, "-")) {
		s->fd = STDIN_FILENO;
	} else {
		s->fd = open(path, O_RDONLY);
		if (s->fd < 0) {
			snprintf(err, errsz, "%s: %s", path, strerror(errno));
			idstream_close(s);
			return IDSTREAM_ERR;
		}
		s->own_fd = 1;
	}
	s->comp = -1; /* told by the first bytes, on the first read */
	s->out = s->in;
	*out = s;
	return 0;
}

void idstream_close(idstream *s)
{
	if (!s)
		return;
	if (s->own_fd)
		close(s->fd);
	if (s->z_init)
		inflateEnd(&s->z);
	ZSTD_freeDStream(s->zs);
	if (s->out != s->in)
		free(s->out);
	free(s->in);
	free(s->name);
	free(s);
}

const char *idstream_compression(const idstream *s)
{
	return s->comp == COMP_GZIP ? "gzip" : s->comp == COMP_ZSTD ? "zstd" : "plain";
}

uint64_t idstream_lines(const idstream *s)
{
	return s->lineno;
}

uint64_t idstream_bytes(const idstream *s)
{
	return s->bytes;
}

uint32_t idstream_crc(const idstream *s)
{
	return s->crc;
}

/* More raw bytes after the unread ones: 0, or -1 on a read error. */
static int read_raw(idstream *s, char *err, size_t errsz)
{
	ssize_t n;

	if (s->in_pos > 0) {
		memmove(s->in, s->in + s->in_pos, s->in_len - s->in_pos);
		s->in_len -= s->in_pos;
		s->in_pos = 0;
	}
	do
		n = read(s->fd, s->in + s->in_len, IN_SIZE - s->in_len);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		snprintf(err, errsz, "%s: %s", s->name, strerror(errno));
		return -1;
	}
	if (n == 0)
		s->in_eof = 1;
	s->in_len += (size_t)n;
	return 0;
}

/* Tell the compression from the first bytes and set it up. */
static int detect(idstream *s, char *err, size_t errsz)
{
	static const unsigned char gz[] = { 0x1f, 0x8b }, zst[] = { 0x28, 0xb5, 0x2f, 0xfd };

	while (s->in_len < 4 && !s->in_eof)
		if (read_raw(s, err, errsz))
			return IDSTREAM_ERR;
	s->comp = COMP_PLAIN;
	if (s->in_len >= 2 && !memcmp(s->in, gz, 2))
		s->comp = COMP_GZIP;
	else if (s->in_len >= 4 && !memcmp(s->in, zst, 4))
		s->comp = COMP_ZSTD;
	/* a skippable frame first (magic 0x184D2A50 to 0x184D2A5F), as zstd -dc reads it */
	else if (s->in_len >= 4 && (s->in[0] & 0xf0) == 0x50 && !memcmp(s->in + 1, "\x2a\x4d\x18", 3))
		s->comp = COMP_ZSTD;
	if (s->comp == COMP_PLAIN)
		return 0;
	s->out = malloc(OUT_SIZE);
	if (!s->out) {
		s->out = s->in;
		return IDSTREAM_NOMEM;
	}
	if (s->comp == COMP_GZIP) {
		/* 16 + MAX_WBITS: a gzip header and trailer around the deflate data */
		if (inflateInit2(&s->z, 16 + MAX_WBITS) != Z_OK)
			return IDSTREAM_NOMEM;
		s->z_init = 1;
	} else {
		s->zs = ZSTD_createDStream();
		if (!s->zs || ZSTD_isError(ZSTD_initDStream(s->zs)))
			return IDSTREAM_NOMEM;
	}
	return 0;
}

/* gzip: inflate the next bytes into out.  0, or an enum idstream_status error. */
static int fill_gzip(idstream *s, char *err, size_t errsz)
{
	for (;;) {
		if (s->in_pos == s->in_len) {
			if (s->in_eof) {
				if (!s->z_end) {
					snprintf(err, errsz, "%s: gzip data cut short", s->name);
					return IDSTREAM_ERR;
				}
				return 0;
			}
			if (read_raw(s, err, errsz))
				return IDSTREAM_ERR;
			continue;
		}
		if (s->z_end) {
			/* another member follows (`cat a.gz b.gz`) */
			inflateReset(&s->z);
			s->z_end = 0;
		}
		s->z.next_in = s->in + s->in_pos;
		s->z.avail_in = (uInt)(s->in_len - s->in_pos);
		s->z.next_out = s->out;
		s->z.avail_out = OUT_SIZE;
		int rc = inflate(&s->z, Z_NO_FLUSH);

		s->in_pos = s->in_len - s->z.avail_in;
		s->out_len = OUT_SIZE - s->z.avail_out;
		if (rc == Z_STREAM_END) {
			s->z_end = 1;
		} else if (rc == Z_MEM_ERROR) {
			return IDSTREAM_NOMEM;
		} else if (rc != Z_OK && rc != Z_BUF_ERROR) {
			snprintf(err, errsz, "%s: corrupt gzip data (%s)", s->name,
				 s->z.msg ? s->z.msg : "inflate failed");
			return IDSTREAM_ERR;
		}
		if (s->out_len)
			return 0;
	}
}

/* zstd: the same with ZSTD_decompressStream. */
static int fill_zstd(idstream *s, char *err, size_t errsz)
{
	for (;;) {
		if (s->in_pos == s->in_len) {
			if (s->in_eof) {
				if (s->zs_left) {
					snprintf(err, errsz, "%s: zstd data cut short", s->name);
					return IDSTREAM_ERR;
				}
				return 0;
			}
			if (read_raw(s, err, errsz))
				return IDSTREAM_ERR;
			continue;
		}
		ZSTD_inBuffer zin = { s->in, s->in_len, s->in_pos };
		ZSTD_outBuffer zout = { s->out, OUT_SIZE, 0 };
		size_t rc = ZSTD_decompressStream(s->zs, &zout, &zin);

		s->in_pos = zin.pos;
		s->out_len = zout.pos;
		if (ZSTD_isError(rc)) {
			if (ZSTD_getErrorCode(rc) == ZSTD_error_memory_allocation)
				return IDSTREAM_NOMEM;
			snprintf(err, errsz, "%s: corrupt zstd data (%s)", s->name,
				 ZSTD_getErrorName(rc));
			return IDSTREAM_ERR;
		}
		s->zs_left = rc;
		if (s->out_len)
			return 0;
	}
}

/* Refill out after it was used up: 0 (out_len 0 at the end), or an error. */
static int fill(idstream *s, char *err, size_t errsz)
{
	int rc = 0;

	s->out_pos = s->out_len = 0;
	if (s->comp < 0 && (rc = detect(s, err, errsz)))
		return rc;
	if (s->comp == COMP_GZIP) {
		rc = fill_gzip(s, err, errsz);
	} else if (s->comp == COMP_ZSTD) {
		rc = fill_zstd(s, err, errsz);
	} else {
		/* plain: the raw bytes are the data */
		if (s->in_pos == s->in_len) {
			s->in_pos = s->in_len = 0;
			if (!s->in_eof && read_raw(s, err, errsz))
				return IDSTREAM_ERR;
		}
		s->out_pos = s->in_pos;
		s->out_len = s->in_len;
		s->in_pos = s->in_len;
	}
	if (rc == IDSTREAM_NOMEM)
		snprintf(err, errsz, "out of memory");
	if (!rc && s->out_len > s->out_pos) {
		s->bytes += s->out_len - s->out_pos;
		s->crc = (uint32_t)crc32(s->crc, s->out + s->out_pos,
					 (uInt)(s->out_len - s->out_pos));
	}
	return rc;
}

/*
 * Skip the rest of a line handed out cut, up to its newline: 0, EOF, or
 * an error when it goes on past IDSTREAM_MAX_SKIP bytes (no text: /dev/zero).
 */
static int skip_rest(idstream *s, char *err, size_t errsz)
{
	int rc;

	while (s->skipping) {
		if (s->out_pos == s->out_len) {
			if ((rc = fill(s, err, errsz)))
				return rc;
			if (s->out_pos == s->out_len)
				return IDSTREAM_EOF;
		}
		unsigned char *p = s->out + s->out_pos;
		size_t avail = s->out_len - s->out_pos;
		unsigned char *nl = memchr(p, '\n', avail);
		size_t n = nl ? (size_t)(nl - p) : avail;

		s->out_pos += nl ? n + 1 : n;
		s->skipped += n;
		if (nl) {
			s->skipping = 0;
		} else if (s->skipped > IDSTREAM_MAX_SKIP) {
			snprintf(err, errsz, "%s:%llu: no newline in %d MiB: not a list of lines",
				 s->name, (unsigned long long)s->lineno, IDSTREAM_MAX_SKIP >> 20);
			return IDSTREAM_ERR;
		}
	}
	return 0;
}

int idstream_next(idstream *s, const char **line, size_t *len, uint64_t *lineno,
		  int *long_line, char *err, size_t errsz)
{
	size_t have = 0;
	int cut = 0, rc;

	if (s->skipping && (rc = skip_rest(s, err, errsz)))
		return rc;
	for (;;) {
		if (s->out_pos == s->out_len) {
			if ((rc = fill(s, err, errsz)))
				return rc;
			if (s->out_pos == s->out_len) {
				/* the end: a last line without "\n", if any */
				if (!have && !cut)
					return IDSTREAM_EOF;
				break;
			}
		}
		unsigned char *p = s->out + s->out_pos;
		size_t avail = s->out_len - s->out_pos;
		unsigned char *nl = memchr(p, '\n', avail);
		size_t n = nl ? (size_t)(nl - p) : avail;

		if (!have && !cut && nl) {
			/* the whole line is here: hand it out in place */
			s->out_pos += n + 1;
			*line = (const char *)p;
			*len = n > IDSTREAM_MAX_LINE ? IDSTREAM_MAX_LINE : n;
			*long_line = n > IDSTREAM_MAX_LINE;
			*lineno = ++s->lineno;
			return IDSTREAM_LINE;
		}
		size_t take = n;

		if (have + take > IDSTREAM_MAX_LINE) {
			take = IDSTREAM_MAX_LINE - have;
			cut = 1;
		}
		memcpy(s->line + have, p, take);
		have += take;
		if (cut) {
			/* handed out now, not after its end: that may never come */
			s->out_pos += take;
			s->skipping = 1;
			s->skipped = 0;
			break;
		}
		s->out_pos += nl ? n + 1 : n;
		if (nl)
			break;
	}
	*line = s->line;
	*len = have;
	*long_line = cut;
	*lineno = ++s->lineno;
	return IDSTREAM_LINE;
}
