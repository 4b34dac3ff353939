/*
 * idline.c - one line of an ID stream (see idline.h).
 */
#include "idline.h"

#include <string.h>

static const char *const other_names[IDLINE_NOTHER] = { "snp", "ori", "emd", "raw" };

const char *idline_other_name(int other)
{
	return other >= 0 && other < IDLINE_NOTHER ? other_names[other] : "unknown";
}

static int bad(idline *out, const char *reason)
{
	out->kind = IDLINE_BAD;
	out->reason = reason;
	return IDLINE_BAD;
}

static int is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/*
 * The hex ID at line[0..), ending at `len` or a char of `ends`: its raw
 * bytes into out, its length checked against the stream's.  0 and the
 * chars read in *used, or -1 with the reason set.
 */
static int read_id(idline *out, const char *p, size_t len, const char *ends, size_t rawsz,
		   size_t *used)
{
	size_t n = 0;

	while (n < len && is_hex(p[n]))
		n++;
	if (n < len && !strchr(ends, p[n]))
		return bad(out, n ? "the ID is followed by a character that is not a space"
				  : "no hex object ID"), -1;
	if (n != 40 && n != 64)
		return bad(out, "an object ID has 40 (SHA-1) or 64 (SHA-256) hex chars"), -1;
	if (rawsz && n != 2 * rawsz)
		return bad(out, rawsz == 20 ? "a SHA-256 ID in a stream of SHA-1 IDs"
					    : "a SHA-1 ID in a stream of SHA-256 IDs"), -1;
	out->rawsz = n / 2;
	/* cannot fail: n hex chars, n == 2 * rawsz */
	hexid_parse_prefix(out->id, out->rawsz, p, n);
	*used = n;
	return 0;
}

static int parse_swhid(idline *out, const char *line, size_t len, size_t rawsz)
{
	static const struct {
		const char *name;
		int type;   /* enum abbrev_type, or -1 - enum idline_other */
	} kinds[] = {
		{ "rev", ABBREV_TYPE_COMMIT }, { "rel", ABBREV_TYPE_TAG },
		{ "dir", ABBREV_TYPE_TREE }, { "cnt", ABBREV_TYPE_BLOB },
		{ "snp", -1 - IDLINE_SNP }, { "ori", -1 - IDLINE_ORI },
		{ "emd", -1 - IDLINE_EMD }, { "raw", -1 - IDLINE_RAW },
	};
	size_t used;
	int type = 0;

	/* "swh:1:" has been seen */
	if (len < 10 || line[9] != ':')
		return bad(out, "a SWHID is swh:1:<kind>:<hex>");
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]) && !type; i++)
		if (!memcmp(line + 6, kinds[i].name, 3))
			type = kinds[i].type;
	if (!type)
		return bad(out, "unknown SWHID kind (rev, rel, dir, cnt, snp, ori, emd, raw)");
	/* SWHIDs are SHA-1 (sha1_git) IDs; qualifiers follow ';' */
	if (read_id(out, line + 10, len - 10, "; \t", rawsz, &used))
		return IDLINE_BAD;
	if (used != 40)
		return bad(out, "a SWHID has 40 hex chars");
	if (type > 0) {
		out->kind = IDLINE_OBJECT;
		out->type = type;
	} else {
		out->kind = IDLINE_OTHER;
		out->other = -1 - type;
	}
	return out->kind;
}

int idline_parse(idline *out, const char *line, size_t len, size_t rawsz)
{
	const char *t;
	size_t used, tlen;

	memset(out, 0, sizeof(*out));
	if (len && line[len - 1] == '\r')
		len--;
	if (!len)
		return bad(out, "an empty line");
	if (len >= 6 && !memcmp(line, "swh:1:", 6))
		return parse_swhid(out, line, len, rawsz);
	if (len >= 4 && !memcmp(line, "swh:", 4))
		return bad(out, "only SWHIDs of version 1 (swh:1:...) are known");
	if (read_id(out, line, len, " \t", rawsz, &used))
		return IDLINE_BAD;
	if (used == len)
		return bad(out, "no object type after the ID (use --batch-check='%(objectname) "
				"%(objecttype)')");
	t = line + used + 1;
	tlen = len - used - 1;
	for (size_t i = 0; i < tlen; i++) {
		if (t[i] == ' ' || t[i] == '\t') {
			tlen = i;
			break;
		}
	}
	for (int type = ABBREV_TYPE_COMMIT; type <= ABBREV_TYPE_TAG; type++) {
		const char *name = hexid_type_name(type);

		if (strlen(name) == tlen && !memcmp(name, t, tlen)) {
			out->kind = IDLINE_OBJECT;
			out->type = type;
			return IDLINE_OBJECT;
		}
	}
	if (tlen == 7 && !memcmp(t, "missing", 7))
		return bad(out, "git cat-file says the object is missing");
	return bad(out, "the second field is not an object type (commit, tree, blob or tag)");
}
