/*
 * idstream.h - the lines of an ID stream: a file or stdin, plain, gzip or
 * zstd, told apart by their first bytes (gzip 1f 8b, zstd 28 b5 2f fd),
 * not by the name, so a pipe works as well as a file.  Concatenated gzip
 * members and zstd frames are read one after the other, as gzip -dc and
 * zstd -dc do.
 *
 * Lines end at "\n"; the last may lack it.  A line longer than
 * IDSTREAM_MAX_LINE is handed over cut at that length with `long_line`
 * set, as soon as that much of it is read; the rest is skipped at the
 * next call, and a line that goes on past IDSTREAM_MAX_SKIP bytes is an
 * error (no list of lines: /dev/zero), so memory and time stay bounded
 * whatever the input.  A zstd stream may start with a skippable frame.
 * The stream also counts its decompressed bytes and their CRC-32, which
 * tell two inputs of the same name apart (see partial.h).
 *
 * Ownership: idstream_open() returns a stream freed by idstream_close();
 * a line returned by idstream_next() is valid until the next call.
 */
#ifndef ABBREV_IDSTREAM_H
#define ABBREV_IDSTREAM_H

#include <stddef.h>
#include <stdint.h>

#define IDSTREAM_MAX_LINE 4096
#define IDSTREAM_MAX_SKIP (1 << 20)

enum idstream_status {
	IDSTREAM_LINE = 1,
	IDSTREAM_EOF = 0,
	IDSTREAM_ERR = -1,   /* read error, corrupt or cut compressed data; see err */
	IDSTREAM_NOMEM = -2
};

typedef struct idstream idstream;

/*
 * Open `path` ("-": stdin, which is not closed).  Returns 0, or
 * IDSTREAM_ERR / IDSTREAM_NOMEM with a one-line message in err.
 */
int idstream_open(idstream **out, const char *path, char *err, size_t errsz);
void idstream_close(idstream *s);

/*
 * The next line: *line and *len (no "\n"), *lineno from 1, *long_line 1
 * when it was cut.  Returns enum idstream_status; errors name the input.
 */
int idstream_next(idstream *s, const char **line, size_t *len, uint64_t *lineno,
		  int *long_line, char *err, size_t errsz);

/* "plain", "gzip" or "zstd": what the first bytes said. */
const char *idstream_compression(const idstream *s);

/* Lines handed out so far. */
uint64_t idstream_lines(const idstream *s);

/* Decompressed bytes read so far and their CRC-32 (zlib's crc32). */
uint64_t idstream_bytes(const idstream *s);
uint32_t idstream_crc(const idstream *s);

#endif
