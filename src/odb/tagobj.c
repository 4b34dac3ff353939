/*
 * tagobj.c - the "object" and "type" lines of an annotated tag.
 *
 * As git's parse_tag_buffer(): "object " and exactly 2*rawsz lower- or
 * upper-case hex chars and a newline, then "type " and a type name and a
 * newline; anything else is a tag git cannot peel.
 */
#include "tagobj.h"

#include <string.h>

#include "hexid.h"

int tagobj_parse(const unsigned char *buf, size_t len, size_t rawsz, unsigned char *target,
		 int *type)
{
	size_t hexsz = 2 * rawsz, p, e;
	char name[8];

	/* "object <hex>\n" */
	if (memcmp(buf, "object ", len < 7 ? len : 7))
		return -1;
	if (len < 7 + hexsz + 1)
		return 1; /* (a partial hex is checked once it is whole) */
	if (buf[7 + hexsz] != '\n' ||
	    hexid_parse_prefix(target, rawsz, (const char *)buf + 7, hexsz))
		return -1;
	/* "type <name>\n" */
	p = 7 + hexsz + 1;
	if (len - p < 5)
		return memcmp(buf + p, "type ", len - p) ? -1 : 1;
	if (memcmp(buf + p, "type ", 5))
		return -1;
	p += 5;
	for (e = p; e < len && buf[e] != '\n'; e++)
		if (e - p >= sizeof(name) - 1)
			return -1;
	if (e == len)
		return 1;
	memcpy(name, buf + p, e - p);
	name[e - p] = '\0';
	*type = hexid_type_from_name(name);
	return *type ? 0 : -1;
}
