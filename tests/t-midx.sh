#!/bin/sh
# t-midx.sh - multi-pack-index bitmaps (git multi-pack-index write
# --bitmap, git repack -adb --write-midx): the pack walker takes the types
# of the packs a multi-pack-index covers from its bitmap
# (src/walk/walk_pack_midx.c).  The report's JSON must be byte-identical with no
# bitmap, with a bitmap per pack and with a multi-pack-index bitmap, loose
# objects and a pack outside the multi-pack-index beside it, and equal to
# git's own listing, with the reverse index in the index (git >= 2.35) or
# in its own file (2.31-2.34); a stale, damaged or truncated
# multi-pack-index, bitmap or reverse index, a pack it names that is not
# there, must be passed over (its packs read instead, the same report)
# with a note that says why.
# Whether a bitmap was used shows in the progress lines (--progress).

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"
# shellcheck source-path=SCRIPTDIR source=bitmap_setup.sh
. "$tests_dir/bitmap_setup.sh"

# noted LABEL TEXT: stderr has a note naming the multi-pack-index and TEXT
noted() {
	checks=$((checks + 1))
	grep -q "^git-abbrev: note: .*multi-pack-index: its bitmap is not used (.*$2" "$err" ||
		{ fail "$1: no note saying \"$2\""; show "$err"; }
}

# quiet LABEL: no note, no warning
quiet() {
	checks=$((checks + 1))
	! grep -q 'note:\|warning:' "$err" || { fail "$1: a note or warning"; show "$err"; }
}

commit() { # commit FILE: a new commit adding FILE
	echo "$1" >"$R/$1"
	git -C "$R" add "$1" && git -C "$R" commit -qm "$1" || die "commit $1 failed"
}

say "three packs, no bitmap: the reference report"
gen_repo "$tmp/r" planted
R=$tmp/r
P=$R/.git/objects/pack
git -C "$R" repack -adq || die "repack -ad failed"
commit second
git -C "$R" repack -dq || die "repack -d failed"
commit third
git -C "$R" repack -dq || die "repack -d failed"
# a pack holding objects the others hold too: the index takes each once
git -C "$R" rev-list --objects HEAD~2..HEAD | cut -c1-40 |
	git -C "$R" pack-objects -q "$P/pack" >/dev/null || die "pack-objects failed"
n=$(ls "$P"/pack-*.pack | wc -l)
[ "$n" -eq 4 ] || die "want 4 packs, have $n"
report plain "$R"
phases "no bitmap" 0 1
oracle_compare "four packs" "$out" "$R"

say "a multi-pack-index bitmap over all four: no pack read, the same report"
git -C "$R" multi-pack-index write --bitmap || die "multi-pack-index write --bitmap failed"
set -- "$P"/multi-pack-index-*.bitmap
[ -f "$1" ] || die "no multi-pack-index bitmap"
mbm=$1
report midx "$R"
phases "midx bitmap" 1 0
quiet "midx bitmap"
same "midx bitmap against no bitmap" plain midx

say "loose objects and a pack outside the multi-pack-index beside it"
commit fourth
git -C "$R" repack -dq || die "repack -d failed"
commit fifth
report midx-mixed "$R"
phases "midx bitmap and a pack outside it" 1 1
quiet "midx bitmap and a pack outside it"
oracle_compare "midx, a pack outside, loose" "$out" "$R"
mkdir "$tmp/away"
mv "$P"/multi-pack-index* "$tmp/away/"
report plain-mixed "$R"
phases "the same without the midx" 0 1
same "a pack outside the midx, loose objects" plain-mixed midx-mixed

say "each kind of bitmap on one repository: three identical reports"
git -C "$R" repack -adbq || die "repack -adb failed"
commit sixth
report pack-bitmap "$R"
phases "a pack bitmap" 1 0
rm -f "$P"/pack-*.bitmap
report no-bitmap "$R"
phases "no bitmap" 0 1
git -C "$R" repack -adbq --write-midx || die "repack -adb --write-midx failed"
ls "$P"/multi-pack-index-*.bitmap >/dev/null 2>&1 || die "repack --write-midx made no midx bitmap"
ls "$P"/pack-*.bitmap >/dev/null 2>&1 && die "repack --write-midx made a pack bitmap too"
report midx-bitmap "$R"
phases "a midx bitmap" 1 0
quiet "a midx bitmap"
same "no bitmap against a pack bitmap" no-bitmap pack-bitmap
same "no bitmap against a midx bitmap" no-bitmap midx-bitmap
oracle_compare "midx bitmap, repack --write-midx, a loose commit" "$out" "$R"

say "the bitmap's or the index's damage: the packs are read, the same report, a note"
set -- "$P"/multi-pack-index-*.bitmap
mbm=$1
midx=$P/multi-pack-index
cp "$mbm" "$tmp/saved.bitmap"
cp "$midx" "$tmp/saved.midx"
restore() {
	cp "$tmp/saved.bitmap" "$mbm"
	cp "$tmp/saved.midx" "$midx"
}
# the bitmap's checksum (bytes 12..31) another index's: stale
printf 'XXXXXXXX' | dd of="$mbm" bs=1 seek=12 conv=notrunc 2>/dev/null
report stale "$R"
phases "stale midx bitmap" 0 1
noted "stale midx bitmap" "made for another multi-pack-index (stale)"
same "stale midx bitmap" no-bitmap stale
restore
head -c 45 "$tmp/saved.bitmap" >"$mbm"
report truncated-bitmap "$R"
noted "truncated midx bitmap" "too small"
same "truncated midx bitmap" no-bitmap truncated-bitmap
restore
# the version byte of the multi-pack-index
printf '\011' | dd of="$midx" bs=1 seek=4 conv=notrunc 2>/dev/null
report version "$R"
noted "unknown midx version" "unsupported version 9"
same "unknown midx version" no-bitmap version
restore
# cut inside the chunks, the checksum kept (so the bitmap's name still fits)
size=$(wc -c <"$tmp/saved.midx")
{ head -c 200 "$tmp/saved.midx"; tail -c 20 "$tmp/saved.midx"; } >"$midx"
report truncated-midx "$R"
phases "truncated midx" 0 1
grep -q 'note: .*multi-pack-index' "$err" || { fail "truncated midx: no note"; show "$err"; }
same "truncated midx" no-bitmap truncated-midx
restore
[ "$(wc -c <"$midx")" -eq "$size" ] || die "restore failed"
report restored "$R"
phases "restored" 1 0
same "restored" no-bitmap restored

say "the reverse index in its own file, as git 2.31-2.34 wrote it"
"$PYTHON3" "$tests_dir/midx_rev.py" "$P" || die "midx_rev.py failed"
set -- "$P"/multi-pack-index-*.rev
rev=$1
[ -f "$rev" ] || die "no .rev written"
report rev-file "$R"
phases "midx .rev file" 1 0
quiet "midx .rev file"
same "midx .rev file" no-bitmap rev-file
cp "$rev" "$tmp/saved.rev"
# two entries of the reverse index swapped: not the pack order
"$PYTHON3" "$tests_dir/midx_rev.py" --swap "$rev" || die "midx_rev.py --swap failed"
report rev-swapped "$R"
phases "swapped .rev entries" 0 1
noted "swapped .rev entries" "reverse index not in pack order"
same "swapped .rev entries" no-bitmap rev-swapped
rm -f "$rev"
report rev-gone "$R"
noted "no reverse index" "no reverse index"
same "no reverse index" no-bitmap rev-gone
cp "$tmp/saved.rev" "$rev"
restore

say "a pack the multi-pack-index names is not there: the rest is read, a note"
commit seventh
git -C "$R" repack -dq || die "repack -d failed"
git -C "$R" multi-pack-index write --bitmap || die "multi-pack-index write failed"
# shellcheck disable=SC2046 # pack names have no spaces
set -- $(ls -t "$P"/pack-*.pack)
gone=${1%.pack}
mv "$gone.pack" "$gone.idx" "$tmp/away/"
report missing "$R"
phases "a pack missing" 0 1
noted "a pack missing" "which is not there"
rm -f "$P"/multi-pack-index*
report missing-plain "$R"
same "a pack the midx names missing" missing-plain missing

say "SHA-256: 32-byte IDs and checksums in the multi-pack-index and its bitmap"
if "$PYTHON3" "$tests_dir/gen_repo.py" "$tmp/s" --scenario sha256 \
	${ABBREV_FIXTURES:+--built "$ABBREV_FIXTURES"} >/dev/null 2>&1 &&
   git -C "$tmp/s" repack -adq 2>/dev/null &&
   git -C "$tmp/s" multi-pack-index write --bitmap 2>/dev/null &&
   ls "$tmp/s"/.git/objects/pack/multi-pack-index-*.bitmap >/dev/null 2>&1
then
	report s-midx "$tmp/s"
	phases "sha256 midx bitmap" 1 0
	quiet "sha256 midx bitmap"
	oracle_compare "sha256 midx bitmap" "$out" "$tmp/s"
	rm -f "$tmp/s"/.git/objects/pack/multi-pack-index*
	report s-plain "$tmp/s"
	same "sha256 with and without the midx bitmap" s-plain s-midx
else
	say "(this git cannot make SHA-256 multi-pack-index bitmaps: skipped)"
fi

finish
