/*
 * bigvec.c - growable mapped memory with transparent huge pages (bigvec.h).
 */
#include <config.h>

#include "bigvec.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Below this the memory is malloc's (a commit message's references: mapping
 * and unmapping each would cost two system calls and a TLB shootdown). */
#define BIGVEC_MAPPED ((size_t)2 << 20)
#define BIGVEC_MIN ((size_t)1 << 10)

static void want_huge(void *p, size_t len)
{
#ifdef MADV_HUGEPAGE
	/* only advice: where the kernel has none to give, 4 KB pages it is */
	(void)madvise(p, len, MADV_HUGEPAGE);
#else
	(void)p;
	(void)len;
#endif
}

int bigvec_reserve(void **p, size_t *cap, size_t need)
{
	size_t n = *cap ? *cap : BIGVEC_MIN;
	void *m;

	if (need <= *cap)
		return 0;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return -1;
		n *= 2;
	}
	if (n < BIGVEC_MAPPED) {
		if (!(m = realloc(*p, n)))
			return -1;
	} else if (*cap >= BIGVEC_MAPPED) {
#ifdef MREMAP_MAYMOVE
		if ((m = mremap(*p, *cap, n, MREMAP_MAYMOVE)) == MAP_FAILED)
			return -1;
#else /* no mremap (not Linux): a new map and a copy */
		m = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			return -1;
		memcpy(m, *p, *cap);
		munmap(*p, *cap);
#endif
		want_huge(m, n);
	} else {
		/* from malloc's memory to a map: the one copy */
		m = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			return -1;
		want_huge(m, n);
		if (*cap)
			memcpy(m, *p, *cap);
		free(*p);
	}
	*p = m;
	*cap = n;
	return 0;
}

void bigvec_free(void *p, size_t cap)
{
	if (cap >= BIGVEC_MAPPED)
		munmap(p, cap);
	else
		free(p);
}

/* From this size on, an array filled at once is worth its own huge pages. */
#define BIGVEC_HUGE_MIN ((size_t)1 << 20)
#define HUGE_PAGE ((size_t)2 << 20)

void *bigvec_huge_block(size_t n)
{
	void *p;

	if (posix_memalign(&p, HUGE_PAGE, n))
		return NULL;
	want_huge(p, n);
	return p;
}

void *bigvec_malloc(size_t n)
{
	if (n < BIGVEC_HUGE_MIN || n > SIZE_MAX - HUGE_PAGE)
		return malloc(n);
	return bigvec_huge_block((n + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1));
}

void *bigvec_calloc(size_t n, size_t size)
{
	void *p;

	if (size && n > SIZE_MAX / size)
		return NULL;
	if (n * size < BIGVEC_HUGE_MIN)
		return calloc(n, size);
	if ((p = bigvec_malloc(n * size)))
		memset(p, 0, n * size);
	return p;
}
