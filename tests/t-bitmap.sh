#!/bin/sh
# t-bitmap.sh - packs with a reachability bitmap (git repack -b): the pack
# walker takes their types from the bitmap's type bitmaps instead of
# reading the pack (src/walk/walk_bitmap.c).  The report must be byte-identical
# with and without the bitmap, with and without a .rev file, equal to git's
# own listing, and a bitmap that is stale (made for another pack), damaged
# or truncated must be passed over: the pack is read instead, same report.
# Whether the bitmap was used shows in the progress lines (--progress):
# "reading pack bitmaps" for it, "reading pack headers" for packs read.

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"
# shellcheck source-path=SCRIPTDIR source=bitmap_setup.sh
. "$tests_dir/bitmap_setup.sh"

say "one pack with a bitmap, no .rev: the bitmap gives every type"
gen_repo "$tmp/r" planted
R=$tmp/r
git -C "$R" repack -adbq || die "repack -adb failed"
set -- "$R"/.git/objects/pack/pack-*.bitmap
[ $# -eq 1 ] && [ -f "$1" ] || die "repack -adb made no single bitmap"
bm=$1
pack=${bm%.bitmap}
report with "$R"
phases "bitmap, no .rev" 1 0
oracle_compare "bitmap, no .rev" "$out" "$R"

say "the same repository without the bitmap: the same report, from the pack"
mv "$bm" "$tmp/saved.bitmap"
report without "$R"
phases "no bitmap" 0 1
same "with and without the bitmap" with without

say "with a .rev file, with and without the bitmap"
git index-pack --rev-index "$pack.pack" >/dev/null || die "index-pack --rev-index failed"
[ -f "$pack.rev" ] || die "no .rev written"
report rev-without "$R"
cp "$tmp/saved.bitmap" "$bm"
report rev-with "$R"
phases "bitmap and .rev" 1 0
same "bitmap and .rev" with rev-with
same ".rev without the bitmap" with rev-without

say "a second pack and loose objects beside the bitmapped pack"
echo more >"$R/more.txt"
git -C "$R" add more.txt && git -C "$R" commit -qm more || die "commit failed"
git -C "$R" repack -dq || die "repack -d failed"
echo loose >"$R/loose.txt"
git -C "$R" add loose.txt && git -C "$R" commit -qm loose || die "commit failed"
report mixed "$R"
phases "bitmap for one of two packs" 1 1
oracle_compare "bitmap for one of two packs, loose objects" "$out" "$R"
mv "$bm" "$tmp/saved.bitmap"
report mixed-without "$R"
mv "$tmp/saved.bitmap" "$bm"
same "two packs and loose objects, with and without the bitmap" mixed mixed-without

say "a stale bitmap (another pack's) beside a pack is passed over"
for p in "$R"/.git/objects/pack/pack-*.pack; do
	[ "${p%.pack}" = "$pack" ] || other=${p%.pack}
done
cp "$bm" "$other.bitmap"
report stale "$R"
phases "stale bitmap" 1 1
same "stale bitmap" mixed stale
checks=$((checks + 1))
grep -q "^git-abbrev: note: $other.bitmap: not used (made for another pack (stale)); the pack is read instead\$" "$err" ||
	{ fail "stale bitmap: no note says why it is not used"; show "$err"; }
rm -f "$other.bitmap"

say "damaged and truncated bitmaps are passed over, same report"
cp "$bm" "$tmp/saved.bitmap"
# the commits' type bitmap: its first run-length word (after the 32-byte
# header and the bitmap's 8-byte size fields) made a run of 2^32 words of ones
printf '\377\377\377\377\377\377\377\377' |
	dd of="$bm" bs=1 seek=40 conv=notrunc 2>/dev/null || die "dd failed"
report damaged "$R"
# (a bitmap passed over counted nothing: its phase, empty, is not shown)
phases "damaged bitmap" 0 1
same "damaged bitmap" mixed damaged
head -c 45 "$tmp/saved.bitmap" >"$bm"
report truncated "$R"
phases "truncated bitmap" 0 1
same "truncated bitmap" mixed truncated
: >"$bm"
report empty "$R"
same "empty bitmap file" mixed empty
cp "$tmp/saved.bitmap" "$bm"
chmod 000 "$bm"
if ! cat "$bm" >/dev/null 2>&1; then
	report unreadable "$R"
	same "unreadable bitmap" mixed unreadable
fi
chmod 644 "$bm"

say "SHA-256: a 32-byte checksum in the bitmap header"
if "$PYTHON3" "$tests_dir/gen_repo.py" "$tmp/s" --scenario sha256 \
	${ABBREV_FIXTURES:+--built "$ABBREV_FIXTURES"} >/dev/null 2>&1 &&
   git -C "$tmp/s" repack -adbq 2>/dev/null &&
   ls "$tmp/s"/.git/objects/pack/pack-*.bitmap >/dev/null 2>&1
then
	report s-with "$tmp/s"
	phases "sha256 bitmap" 1 0
	oracle_compare "sha256 bitmap" "$out" "$tmp/s"
	rm -f "$tmp/s"/.git/objects/pack/pack-*.bitmap
	report s-without "$tmp/s"
	same "sha256 with and without the bitmap" s-with s-without
else
	say "(this git cannot make SHA-256 bitmaps: skipped)"
fi

finish
