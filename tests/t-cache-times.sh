#!/bin/sh
# t-cache-times.sh - the report's verdict takes the commit times of the
# packs sorted from the cache (pack-<hex>.times, written beside each
# pack's commit table, merged when there are several): the report is
# --no-cache's, byte for byte, cold, warm (the file read and marked used),
# with the file damaged or reordered (not used, written again), after a
# crafted repository whose pack claims the same checksum filled the cache
# first (its file names other files), with a loose commit besides the
# pack, with two packs, with a commit in two packs beside a loose one (as
# many commits as the packs hold: the merge finds the repeat) and with a
# commit-graph file (the files not used).  The file is 0600.

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"

cache=$tmp/cache
GIT_ABBREV_CACHE_DIR=$cache
export GIT_ABBREV_CACHE_DIR
# two commits a minute: ties of time ordered by ID
A=$tmp/a B=$tmp/b
small_history "$A" "parser" 8 2
small_history "$B" "forged" 8 2
sumA=$(crafted_pack "$A" "$B") || die "the crafted pack could not be made"
times=$cache/pack-$sumA.times

r() { # LABEL REPO ARGS...: the report's JSON into $tmp/LABEL.json
	label=$1 repo=$2
	shift 2
	expect_exit 0 "$GIT_ABBREV" report --format=json --no-progress "$@" "$repo"
	cp "$out" "$tmp/$label.json"
}
same() { # LABEL: the report is --no-cache's
	checks=$((checks + 1))
	cmp -s "$tmp/$1.json" "$tmp/want.json" ||
		{ fail "$1: the report differs from --no-cache"; diff "$tmp/want.json" "$tmp/$1.json" | head; }
}
r want "$A" --no-cache
[ ! -e "$cache" ] || die "--no-cache made the cache"
# cold_warm LABEL: after a change of $A, the new --no-cache report, then
# LABEL's and LABEL_warm's reports the same
cold_warm() {
	r want "$A" --no-cache
	r "$1" "$A"
	same "$1"
	r "$1_warm" "$A"
	same "$1_warm"
}
# commit DATE MSG: a loose commit of $A
commit() {
	echo "$2" >"$A/loose"
	git -C "$A" add loose
	GIT_COMMITTER_DATE="$1 +0000" git -C "$A" commit -q -m "$2"
}

say "a crafted pack claiming $sumA fills the cache first"
r crafted "$B"
checks=$((checks + 1))
[ -f "$times" ] || fail "the crafted repository's run kept no times"
r after_crafted "$A"
same after_crafted

say "cold, then warm: the file read and marked used"
rm -rf "$cache"
r cold "$A"
same cold
checks=$((checks + 1))
[ -f "$times" ] || fail "the cold run kept no times"
checks=$((checks + 1))
[ "$(stat -c %a "$times")" = 600 ] || fail "times file mode $(stat -c %a "$times"), want 600"
cp "$times" "$tmp/good.times"
mark_unused "$times"
r warm "$A"
same warm
all_used "warm run" "$times"

say "a damaged file is not used, and written again"
printf '\377\377\377\377' | dd of="$times" bs=1 seek=$(($(stat -c %s "$times") - 12)) conv=notrunc 2>/dev/null
r damaged "$A"
same damaged
checks=$((checks + 1))
cmp -s "$times" "$tmp/good.times" || fail "the damaged times file was not written again"
# its order broken, the CRC made right: not used either
"$PYTHON3" - "$times" <<'PY'
import sys, zlib, struct
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
plen = struct.unpack_from('<I', b, 144)[0]
n = struct.unpack_from('<I', b, 52)[0]
at = 152 + plen
t0, t1 = struct.unpack_from('<qq', b, at)
struct.pack_into('<qq', b, at, t1 + 1000, t0)  # the first two out of order
struct.pack_into('<I', b, len(b) - 4, zlib.crc32(bytes(b[:-4])) & 0xffffffff)
open(p, 'wb').write(b)
PY
r unordered "$A"
same unordered
checks=$((checks + 1))
cmp -s "$times" "$tmp/good.times" || fail "the unordered times file was not written again"

say "a loose commit besides the pack, then a commit-graph file"
commit 1112911000 "parser: a loose one"
cold_warm loose

say "two packs: their orders merged"
git -C "$A" repack -q -d
[ "$(ls "$A"/.git/objects/pack/*.pack | wc -l)" -eq 2 ] || die "not two packs"
r want "$A" --no-cache
r two "$A"
same two
checks=$((checks + 1))
[ "$(ls "$cache"/pack-*.times | wc -l)" -ge 2 ] || fail "two packs: not a times file each"
mark_unused "$cache"/pack-*.times
r two_warm "$A"
same two_warm
all_used "two packs, warm" "$cache"/pack-*.times

say "a commit in two packs, as many commits as the packs hold with a loose one"
git -C "$A" rev-parse HEAD~3 | git -C "$A" pack-objects -q "$A/.git/objects/pack/pack" >/dev/null
commit 1112912993 "parser: loose again"
cold_warm dup

git -C "$A" repack -q -a -d
git -C "$A" commit-graph write --reachable
cold_warm graph
finish
