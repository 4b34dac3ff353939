/*
 * grow.c - arrays that grow by doubling (see grow.h).
 */
#include "grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

size_t grow_cap(size_t cap, size_t need, size_t first, size_t size)
{
	size_t n = cap ? cap : first ? first : 1;

	if (need <= cap)
		return cap;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return 0;
		n *= 2;
	}
	return size && n > SIZE_MAX / size ? 0 : n;
}

int grow_to(void *pp, size_t n, size_t size)
{
	void *p, *q;

	/* the pointer is read and written as bytes: pp may point to any T * */
	memcpy(&p, pp, sizeof(p));
	if (!n || (size && n > SIZE_MAX / size) || !(q = realloc(p, n * size)))
		return -1;
	memcpy(pp, &q, sizeof(q));
	return 0;
}

int grow(void *pp, size_t *cap, size_t need, size_t first, size_t size)
{
	size_t n = grow_cap(*cap, need, first, size);

	if (n == *cap)
		return 0;
	if (!n || grow_to(pp, n, size))
		return -1;
	*cap = n;
	return 0;
}
