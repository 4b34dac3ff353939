/*
 * fuzz_refs.c - libFuzzer target for the reference parser of verify.
 *
 * Any bytes are a patch, a mail or a commit message to refs_parse(); it
 * must neither crash nor report a reference outside the input, and every
 * ID it reports must be lower-case hex of the length it says.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "refs_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	refs_list l = { 0 };
	unsigned opts = size && (data[0] & 1) ? REFS_PARSE_MESSAGE : 0;

	if (refs_parse(&l, (const char *)data, size, opts) < 0)
		return 0;
	for (size_t i = 0; i < l.n; i++) {
		const refs_ref *r = &l.v[i];
		size_t idl = strlen(r->id);

		if (r->start > r->end || r->end > size || r->id_start + r->id_len > size ||
		    r->line < 1 || idl > REFS_ID_MAX || idl > r->id_len)
			abort();
		for (size_t k = 0; k < idl; k++)
			if (!strchr("0123456789abcdef", r->id[k]))
				abort();
		if (r->subject && r->subject[r->subject_len] != '\0')
			abort();
	}
	refs_list_free(&l);
	return 0;
}
