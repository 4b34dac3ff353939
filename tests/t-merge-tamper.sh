#!/bin/sh
# t-merge-tamper.sh - `git abbrev merge` refuses parts that were edited,
# relabelled or made from another input, naming the file and line.
#
# Parts of the ID list and of the repository of a gen_repo.py repository
# (planted collisions) are edited the way a person or a broken copy would:
#   - any edit of a sealed part (a row of a table, a type's count, the
#     lines of an input, the shard) fails its SHA-256, which `sha256sum`
#     computes here independently of the tool;
#   - the same edits with the digest made anew (a forged seal) are caught
#     by what a part lists twice: a table that is not monotone, a type
#     count that does not add up to the set of all objects, a row at the
#     longest length that disagrees with the groups listed, a group at a
#     length whose row says 0, a member ID outside the shard, a part
#     relabelled as another shard, an input's lines that differ between
#     parts;
#   - shards of two repositories (or ID lists) are refused as parts of
#     different inputs, and so are parts of different shard counts;
#   - one byte of a part flipped at random (a fixed seed, 300 times) is
#     always refused: never a merge that prints other numbers.

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"

repo=$tmp/planted
gen_repo "$repo" planted
git -C "$repo" cat-file --batch-all-objects --batch-check='%(objectname) %(objecttype)' \
	>"$tmp/objs" || die "git cat-file failed"
other=$tmp/many
gen_repo "$other" many
git -C "$other" cat-file --batch-all-objects --batch-check='%(objectname) %(objecttype)' \
	>"$tmp/objs-other" || die "git cat-file failed"

for k in 0 1; do
	"$GIT_ABBREV" ids --shard="$k/2" --format=partial "$tmp/objs" >"$tmp/i$k" ||
		die "ids --shard=$k/2"
	"$GIT_ABBREV" report --shard="$k/2" --format=partial "$repo" >"$tmp/r$k" ||
		die "report --shard=$k/2"
	"$GIT_ABBREV" report --shard="$k/2" --format=partial "$other" >"$tmp/o$k" ||
		die "report --shard=$k/2 (other)"
	"$GIT_ABBREV" ids --shard="$k/2" --format=partial "$tmp/objs-other" >"$tmp/io$k" ||
		die "ids --shard=$k/2 (other)"
done
"$GIT_ABBREV" ids --shard=0/4 --format=partial "$tmp/objs" >"$tmp/q0" || die "ids 0/4"
"$GIT_ABBREV" ids --shard=1/4 --format=partial "$tmp/objs" >"$tmp/q1" || die "ids 1/4"
"$GIT_ABBREV" ids "$tmp/objs" >"$tmp/whole.text" || die "ids"

say "untouched parts merge to the single run's report"
expect_exit 0 "$GIT_ABBREV" merge "$tmp/i0" "$tmp/i1"
checks=$((checks + 1))
cmp -s "$out" "$tmp/whole.text" || fail "the untouched parts do not merge to the whole"

# the digest, by sha256sum: every byte before the last line
say "the last line is the SHA-256 of the rest (sha256sum)"
checks=$((checks + 1))
want=$(sed '$d' "$tmp/i0" | sha256sum | cut -d' ' -f1)
[ "$(tail -n 1 "$tmp/i0")" = "sha256 $want" ] || fail "digest line: $(tail -n 1 "$tmp/i0")"

# reseal FILE: a forged digest for the edited content
reseal() {
	sed '$d' "$1" >"$1.body"
	printf 'sha256 %s\n' "$(sha256sum <"$1.body" | cut -d' ' -f1)" >>"$1.body"
	mv "$1.body" "$1"
}
# refused LABEL PATTERN PART...: merge exits 3 with one line matching PATTERN
refused() {
	label=$1
	pat=$2
	shift 2
	expect_exit 3 "$GIT_ABBREV" merge "$@"
	checks=$((checks + 1))
	if ! one_line "$err" || ! grep -q -- "$pat" "$err"; then
		fail "$label: $(cat "$err")"
	fi
	if [ -s "$out" ]; then fail "$label: a report printed"; fi
}
lines=$(wc -l <"$tmp/i0" | tr -d ' ')
digest_pat="i0x:$lines: the sha256 digest does not match the content"

# the row at the longest colliding length of the set of all objects
longest=$(sed -n 's/^set all count=[0-9]* longest=\([0-9]*\) .*/\1/p' "$tmp/i0")
[ "$longest" -ge 4 ] || die "planted: shard 0/2 has no collision ($longest)"
row=$(grep -n "^length all $longest " "$tmp/i0" | cut -d: -f1)
row4=$(grep -n "^length all 4 " "$tmp/i0" | cut -d: -f1)
objs4=$(sed -n 's/^length all 4 \([0-9]*\) .*/\1/p' "$tmp/i0")

say "an edited table row"
# two more colliding objects at the longest length: still monotone
objsl=$(sed -n "${row}s/^length all $longest \([0-9]*\) .*/\1/p" "$tmp/i0")
[ "$row" = "$row4" ] || [ "$objsl" -le $(( $(sed -n "$((row - 1))s/^length all [0-9]* \([0-9]*\) .*/\1/p" "$tmp/i0") - 2 )) ] ||
	die "planted: the row before the longest is too close to edit"
sed "${row}s/^length all $longest $objsl /length all $longest $((objsl + 2)) /" "$tmp/i0" >"$tmp/i0x"
refused "row, sealed" "$digest_pat" "$tmp/i0x" "$tmp/i1"
reseal "$tmp/i0x"
refused "row, forged" "i0x:$row: the row at length $longest says $((objsl + 2))" "$tmp/i0x" "$tmp/i1"
# the row at 5 above the row at 4: not monotone
sed "$((row4 + 1))s/^length all 5 [0-9]* [0-9]*$/length all 5 $((objs4 + 1)) 1/" "$tmp/i0" >"$tmp/i0x"
reseal "$tmp/i0x"
refused "not monotone" "i0x:$((row4 + 1)): the table is not monotone" "$tmp/i0x" "$tmp/i1"

say "an edited type count"
setline=$(grep -n "^set all " "$tmp/i0" | cut -d: -f1)
sed 's/^set commit count=\([0-9]*\)/set commit count=1\1/' "$tmp/i0" >"$tmp/i0x"
refused "type count, sealed" "$digest_pat" "$tmp/i0x" "$tmp/i1"
reseal "$tmp/i0x"
refused "type count, forged" "i0x:$setline: the set of all objects counts" "$tmp/i0x" "$tmp/i1"

say "an edited lines= of the input"
sed 's/ lines=\([0-9]*\) / lines=1\1 /' "$tmp/i0" >"$tmp/i0x"
refused "lines, sealed" "$digest_pat" "$tmp/i0x" "$tmp/i1"
reseal "$tmp/i0x"
refused "lines, forged" "read \".*objs\" (the same bytes) and disagree on its lines" \
	"$tmp/i1" "$tmp/i0x"

say "shard 0 relabelled as shard 1"
sed 's|^shard 0/2$|shard 1/2|' "$tmp/i0" >"$tmp/i0x"
refused "relabel, sealed" "$digest_pat" "$tmp/i0" "$tmp/i0x"
reseal "$tmp/i0x"
kept=$(grep -n "^kept " "$tmp/i0" | cut -d: -f1)
refused "relabel, forged" "i0x:$kept: the IDs kept are not those of shard 1/2" "$tmp/i0" "$tmp/i0x"

say "a member ID outside its shard"
mline=$(grep -n "^member all " "$tmp/i0" | head -n 1 | cut -d: -f1)
sed "${mline}s/^member all ./member all f/" "$tmp/i0" >"$tmp/i0x"
reseal "$tmp/i0x"
refused "member outside" "i0x:$mline: a member outside the part's shard 0/2" "$tmp/i0x" "$tmp/i1"

say "a group at a length whose row says 0"
gline=$(grep -n "^group all " "$tmp/i0" | head -n 1 | cut -d: -f1)
sed "${gline}s/^group all $longest /group all $((longest + 1)) /" "$tmp/i0" >"$tmp/i0x"
reseal "$tmp/i0x"
refused "group length" "i0x:$gline: a group at length $((longest + 1)), .* says 0" \
	"$tmp/i0x" "$tmp/i1"

say "shards of two repositories, of two ID lists, of different shard counts"
refused "two repositories" "o1:[0-9]*: a part of another input than .*r0" "$tmp/r0" "$tmp/o1"
refused "two ID lists" "io1:[0-9]*: a part of another input than .*i0" "$tmp/i0" "$tmp/io1"
refused "shard counts" "parts of different shard counts: .*i1 is a part of 2, .*q0 of 4" \
	"$tmp/i1" "$tmp/q0" "$tmp/q1"
# the same repository's parts still merge (a control for the above)
expect_exit 0 "$GIT_ABBREV" merge "$tmp/r0" "$tmp/r1"

say "one random byte flipped, 300 times: always refused"
py_check "a flipped byte" damage.py flip-merge "$GIT_ABBREV" "$tmp/i0" "$tmp/i1" "$tmp/flip"

finish
