/*
 * commit_graph.c - committer times from objects/info/commit-graph.
 *
 * The format (git's Documentation/gitformat-commit-graph.txt): a header
 * "CGPH", version 1, hash version (1 SHA-1, 2 SHA-256), the number of
 * chunks and of base graphs; a table of (chunk id, 8-byte offset) ending
 * with id 0; chunk OIDF (256 fanout counts), OIDL (the IDs, ascending),
 * CDAT (per ID: tree ID, two 4-byte parent positions, then 8 bytes whose
 * top 30 bits are the generation and low 34 bits the commit time).
 * Every offset is checked against the file's size before it is read.
 */
#include <config.h>

#include "commit_graph.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define CG_HEADER 8
#define CHUNK_OIDL 0x4f49444cu
#define CHUNK_CDAT 0x43444154u

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be64(const unsigned char *p)
{
	return (uint64_t)be32(p) << 32 | be32(p + 4);
}

/* The merge of the sorted IDs with the graph's sorted OIDL; returns how many matched. */
static size_t merge(const unsigned char *oidl, const unsigned char *cdat, uint64_t count,
		    size_t rawsz, const unsigned char *ids, size_t n, int64_t *times,
		    unsigned char *found)
{
	size_t i = 0, hits = 0;
	uint64_t k = 0;

	while (i < n && k < count) {
		int c = memcmp(ids + i * rawsz, oidl + k * rawsz, rawsz);

		if (c < 0) {
			i++;
		} else if (c > 0) {
			k++;
		} else {
			if (!found[i]) {
				const unsigned char *d = cdat + k * (rawsz + 16) + rawsz + 8;

				times[i] = (int64_t)(be64(d) & ((UINT64_C(1) << 34) - 1));
				found[i] = 1;
				hits++;
			}
			i++;
			k++;
		}
	}
	return hits;
}

size_t commit_graph_times(const char *objdir, size_t rawsz, const unsigned char *ids, size_t n,
			  int64_t *times, unsigned char *found)
{
	char path[4096];
	struct stat st;
	const unsigned char *m, *oidl = NULL, *cdat = NULL;
	uint64_t size, oidl_len = 0, cdat_len = 0, count;
	size_t hits = 0;
	unsigned nchunks;
	int fd;

	if (!n || (size_t)snprintf(path, sizeof(path), "%s/info/commit-graph", objdir) >=
			  sizeof(path))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) || st.st_size < CG_HEADER + 12) {
		close(fd);
		return 0;
	}
	size = (uint64_t)st.st_size;
	m = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return 0;
	nchunks = m[6];
	/* version 1, our hash, no base graphs (a split chain is not read) */
	if (memcmp(m, "CGPH", 4) || m[4] != 1 || m[5] != (rawsz == 32 ? 2 : 1) || m[7] != 0 ||
	    CG_HEADER + (uint64_t)(nchunks + 1) * 12 > size)
		goto done;
	for (unsigned c = 0; c < nchunks; c++) {
		const unsigned char *e = m + CG_HEADER + c * 12;
		uint32_t id = be32(e);
		uint64_t off = be64(e + 4), end = be64(e + 16);

		if (off > end || end > size)
			goto done;
		if (id == CHUNK_OIDL) {
			oidl = m + off;
			oidl_len = end - off;
		} else if (id == CHUNK_CDAT) {
			cdat = m + off;
			cdat_len = end - off;
		}
	}
	if (!oidl || !cdat || oidl_len % rawsz)
		goto done;
	count = oidl_len / rawsz;
	if (cdat_len / (rawsz + 16) < count)
		goto done;
	hits = merge(oidl, cdat, count, rawsz, ids, n, times, found);
done:
	munmap((void *)m, (size_t)size);
	return hits;
}
