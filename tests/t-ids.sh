#!/bin/sh
# t-ids.sh - `git abbrev ids` on object lists, and sharded runs merged.
#
# The object list of a gen_repo.py repository (planted collisions) as
# `git cat-file --batch-all-objects --batch-check` prints it is the input;
# the oracle is tests/oracle.py over the same repository, and git-abbrev's
# own report of it:
#   - the JSON of ids has the keys of the repository report and its numbers
#     (oracle.py --compare); the default --batch-check format (with sizes),
#     gzip, zstd, SWHIDs (with snapshot and origin lines skipped and
#     counted) and a list given twice give the same tables;
#   - a bad line stops the run naming file and line, or with --skip-bad is
#     skipped and counted; damaged compressed input is an error; an input
#     past --max-input (4g by default; verify has 256m) stops with one line;
#   - --shard=K/N runs for N = 2, 16 and 256, merged, print the very bytes
#     of a single run in every format; the same for report --shard on the
#     repository (commit subjects included);
#   - a merge of shards of different counts, repeated or missing shards,
#     or of a damaged part, is an error naming them (t-merge-tamper.sh:
#     edited parts and parts of other inputs);
#   - the Slurm script of contrib/slurm, run task by task as Slurm would.

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"

repo=$tmp/planted
gen_repo "$repo" planted
git -C "$repo" cat-file --batch-all-objects --batch-check='%(objectname) %(objecttype)' \
	>"$tmp/objs" || die "git cat-file failed"
git -C "$repo" cat-file --batch-all-objects --batch-check >"$tmp/objs-sized" ||
	die "git cat-file failed"
nobj=$(wc -l <"$tmp/objs" | tr -d ' ')
say "$nobj objects"

say "ids --format=json against the oracle and the repository report"
expect_exit 0 "$GIT_ABBREV" ids --format=json "$tmp/objs"
cp "$out" "$tmp/ids.json"
grep -q "^git-abbrev: note: commit-ish counts the commits only" "$err" || fail "no note on commit-ish"
expect_exit 0 "$GIT_ABBREV" report --format=json "$repo"
cp "$out" "$tmp/report.json"
# an ID list does not say which tags peel to a commit: its commit-ish set
# is the commit set (checked below); the rest against the oracle
"$PYTHON3" "$tests_dir/report_check.py" ids_ish "$tmp/ids.json" "$tmp/report.json" "$tmp/ids-ish.json"
oracle_compare "ids json" "$tmp/ids-ish.json" "$repo"
# the legend says what the commit-ish column of an ID list counts: the
# commits git lists, and no tag
checks=$((checks + 1))
ncommits=$(grep -c ' commit$' "$tmp/objs")
[ "$(jget "$tmp/ids.json" '(d["types"]["commit-ish"]["count"], d["types"]["commit"]["count"])')" = \
	"($ncommits, $ncommits)" ] || fail "ids: commit-ish is not the $ncommits commits of git cat-file"
for f in text markdown; do
	expect_exit 0 "$GIT_ABBREV" ids --format=$f "$tmp/objs"
	checks=$((checks + 1))
	grep -q "commit-ish\*\{0,1\}: the commits only: an ID list does not" "$out" &&
		! grep -q "tags that peel to a commit, among" "$out" ||
		fail "ids --format=$f: the commit-ish legend: $(grep -i 'commit-ish' "$out" | tail -n 2)"
done
py_check "ids and report JSON differ" report_check.py ids_same "$tmp/report.json" "$tmp/ids.json" "$tmp/objs"

# same_tables LABEL: the last run's JSON has the tables of ids.json (the
# report without the names of its inputs and the counts of what they held
# besides objects, for comparing runs over differently spelled inputs):
# kept and listed in $tmp/tables.list, every one compared by one
# report_check.py start (tables_same) at tables_checked
n_tables=0
: >"$tmp/tables.list"
same_tables() {
	checks=$((checks + 1))
	[ "$rc" -eq 0 ] || return 0
	n_tables=$((n_tables + 1))
	cp "$out" "$tmp/tables.$n_tables.json"
	printf '%s\t%s\n' "$tmp/tables.$n_tables.json" "$1" >>"$tmp/tables.list"
}
tables_checked() {
	"$PYTHON3" "$tests_dir/report_check.py" tables_same "$tmp/ids.json" "$tmp/tables.list" \
		>"$tmp/tables.out" 2>&1 || while IFS= read -r line; do fail "$line"; done <"$tmp/tables.out"
}

say "the default --batch-check format, stdin, gzip, zstd"
expect_exit 0 "$GIT_ABBREV" ids --format=json "$tmp/objs-sized"
same_tables "with sizes"
expect_exit 0 sh -c '"$1" ids --format=json <"$2"' sh "$GIT_ABBREV" "$tmp/objs"
same_tables "stdin"
grep -q '"<stdin>"' "$out" || fail "stdin is not named <stdin>"
gzip -c "$tmp/objs" >"$tmp/objs.gz"
expect_exit 0 "$GIT_ABBREV" ids --format=json "$tmp/objs.gz"
same_tables "gzip"
if command -v zstd >/dev/null 2>&1; then
	zstd -q -c "$tmp/objs" >"$tmp/objs.zst"
	expect_exit 0 "$GIT_ABBREV" ids --format=json "$tmp/objs.zst"
	same_tables "zstd"
	# told by content, not by name
	cp "$tmp/objs.zst" "$tmp/objs-zst.txt"
	expect_exit 0 "$GIT_ABBREV" ids --format=json "$tmp/objs-zst.txt"
	same_tables "zstd named .txt"
	# a skippable frame first (magic 0x184D2A5?, a length, its bytes), as zstd -dc reads it:
	# 0x184D2A5A and 6, little-endian
	printf '\132\052\115\030\006\000\000\000skip\n\n' >"$tmp/skip.zst"
	cat "$tmp/objs.zst" >>"$tmp/skip.zst"
	zstd -dc "$tmp/skip.zst" | cmp -s - "$tmp/objs" || die "zstd -dc does not read the skippable frame"
	for how in "" --skip-bad; do
		expect_exit 0 "$GIT_ABBREV" ids $how --format=json "$tmp/skip.zst"
		same_tables "zstd after a skippable frame $how"
	done
else
	say "no zstd command here: zstd input is covered by the unit tests only"
fi
head -c 300 "$tmp/objs.gz" >"$tmp/cut.gz"
expect_exit 3 "$GIT_ABBREV" ids "$tmp/cut.gz"
one_line "$err" && grep -q "cut.gz: gzip data cut short" "$err" || fail "cut gzip: $(cat "$err")"

say "SWHIDs, other kinds skipped and counted"
awk '{ k = $2 == "commit" ? "rev" : $2 == "tree" ? "dir" : $2 == "blob" ? "cnt" : "rel";
       print "swh:1:" k ":" $1 }
     NR == 3 { print "swh:1:snp:" $1; print "swh:1:ori:" $1 }
     NR == 9 { print "swh:1:snp:" $1 }' "$tmp/objs" >"$tmp/swhids"
expect_exit 0 "$GIT_ABBREV" ids --format=json "$tmp/swhids"
same_tables "SWHIDs"
[ "$(jget "$out" 'd["input"]["skipped"] == {"snp": 2, "ori": 1, "emd": 0, "raw": 0}')" = True ] ||
	fail "SWHID kinds not counted: $(grep -A6 skipped "$out")"
expect_exit 0 "$GIT_ABBREV" ids "$tmp/swhids"
grep -q "^git-abbrev: note: 3 SWHIDs of kinds without a git object skipped: 2 snp, 1 ori" "$err" ||
	fail "no note on the skipped SWHIDs: $(head -5 "$err")"

say "duplicates count once"
expect_exit 0 "$GIT_ABBREV" ids --format=json "$tmp/objs" "$tmp/objs-sized"
same_tables "the list twice"
[ "$(jget "$out" '(d["input"]["duplicates"], d["input"]["lines"])')" = "($nobj, $((2 * nobj)))" ] ||
	fail "duplicates not counted: $(grep -A6 '"input"' "$out")"

say "bad lines: an error naming file and line, or skipped and counted"
{ sed -n 1,4p "$tmp/objs"; echo "not an object line"; sed -n '5,$p' "$tmp/objs"; } >"$tmp/bad"
expect_exit 3 "$GIT_ABBREV" ids "$tmp/bad"
one_line "$err" && grep -q "^git-abbrev: .*/bad:5: " "$err" ||
	fail "bad line message: $(cat "$err")"
[ -s "$out" ] && fail "a report after a bad line"
expect_exit 0 "$GIT_ABBREV" ids --skip-bad --format=json "$tmp/bad"
same_tables "bad line skipped"
grep -q '"bad_lines": 1' "$out" || fail "the skipped line is not counted"
expect_exit 0 "$GIT_ABBREV" ids --skip-bad "$tmp/bad"
grep -q "^git-abbrev: note: 1 bad line skipped" "$err" || fail "no note on the skipped line"
printf '%s\n' "$(head -1 "$tmp/objs" | cut -d' ' -f1) tree" >"$tmp/conflict"
head -1 "$tmp/objs" >>"$tmp/conflict"
expect_exit 3 "$GIT_ABBREV" ids "$tmp/conflict"
grep -q "is listed as a .* and as a " "$err" || fail "one ID, two types: $(cat "$err")"
say "a stream without newlines (/dev/zero): an error, not a hang"
for how in "" --skip-bad; do
	expect_exit 3 timeout 60 "$GIT_ABBREV" ids $how /dev/zero
	checks=$((checks + 1))
	one_line "$err" && grep -q "^git-abbrev: /dev/zero:1: " "$err" && [ ! -s "$out" ] ||
		fail "ids $how /dev/zero: $(cat "$err")"
done
say "an input past --max-input (default 4g): one line, exit 3"
# lines of spaces, skipped as bad lines: nothing kept, the cap alone ends it
expect_exit 3 sh -c 'yes "$(printf "%4000s" "")" | timeout 300 "$1" ids --skip-bad' sh "$GIT_ABBREV"
one_line "$err" && [ ! -s "$out" ] &&
	grep -qx "git-abbrev: standard input is larger than the 4g-byte input cap; raise it with --max-input=<size>" "$err" ||
	fail "an endless stdin: $(cat "$err")"
# an endless pipe of one ID line: every line is kept until the cap
expect_exit 3 sh -c 'yes "$2" | timeout 300 "$1" ids --max-input=1m' sh "$GIT_ABBREV" "$(head -1 "$tmp/objs")"
one_line "$err" && grep -q "standard input is larger than the 1m-byte input cap" "$err" ||
	fail "yes | ids --max-input=1m: $(cat "$err")"
size=$(wc -c <"$tmp/objs" | tr -d ' ')
expect_exit 0 "$GIT_ABBREV" ids --max-input="$size" --format=json "$tmp/objs"
same_tables "a list of exactly --max-input bytes"
expect_exit 3 "$GIT_ABBREV" ids --max-input=$((size - 1)) "$tmp/objs"
one_line "$err" && grep -qF "$tmp/objs is larger than the $((size - 1))-byte input cap" "$err" ||
	fail "a list one byte over --max-input: $(cat "$err")"
# compressed: the cap counts the bytes of the lines, after decompression
gzip -c "$tmp/objs" >"$tmp/objs-cap.gz"
expect_exit 0 "$GIT_ABBREV" ids --max-input="$size" "$tmp/objs-cap.gz"
expect_exit 3 "$GIT_ABBREV" ids --max-input=$((size - 1)) "$tmp/objs-cap.gz"
expect_exit 2 "$GIT_ABBREV" ids --max-input=0 "$tmp/objs"
say "a long bad line ends: reported at once, or skipped and counted"
{ head -c 100000 /dev/zero | tr '\0' x; echo; cat "$tmp/objs"; } >"$tmp/longline"
expect_exit 3 "$GIT_ABBREV" ids "$tmp/longline"
one_line "$err" && grep -q "/longline:1: " "$err" || fail "a long line: $(cat "$err")"
expect_exit 0 "$GIT_ABBREV" ids --skip-bad --format=json "$tmp/longline"
same_tables "a long line skipped"
tables_checked
grep -q '"bad_lines": 1' "$out" || fail "the long line is not counted once"
expect_exit 3 "$GIT_ABBREV" ids "$tmp/no-such-file"
one_line "$err" || fail "missing file: not one line"

say "shards merge to the bytes of a single run (N = 2, 16, 256)"
formats="text json csv markdown svg classic"
for f in $formats; do
	"$GIT_ABBREV" ids --format="$f" "$tmp/objs" >"$tmp/whole.$f" || fail "ids --format=$f"
done
for n in 2 16 256; do
	rm -rf "$tmp/parts"
	mkdir "$tmp/parts"
	k=0
	while [ "$k" -lt "$n" ]; do
		"$GIT_ABBREV" ids --shard="$k/$n" --format=partial "$tmp/objs" >"$tmp/parts/$k" ||
			fail "ids --shard=$k/$n"
		k=$((k + 1))
	done
	for f in $formats; do
		# the parts in another order than the shards'
		expect_exit 0 sh -c 'cd "$1" && ls | sort -r | xargs "$2" merge --format="$3"' \
			sh "$tmp/parts" "$GIT_ABBREV" "$f"
		checks=$((checks + 1))
		cmp -s "$out" "$tmp/whole.$f" || { fail "N = $n, $f: merge differs"; diff "$tmp/whole.$f" "$out" | head -5; }
	done
done
# one shard alone says so
expect_exit 0 "$GIT_ABBREV" ids --shard=3/16 "$tmp/objs"
grep -q "^git-abbrev: note: shard 3/16 (IDs 3...)" "$err" || fail "a shard's report does not say so"
expect_exit 2 "$GIT_ABBREV" ids --shard=3/12 "$tmp/objs"
grep -q "N must divide 256" "$err" || fail "--shard=3/12: $(cat "$err")"

say "report --shard on the repository"
for f in text json; do
	"$GIT_ABBREV" report --format="$f" "$repo" >"$tmp/rwhole.$f" || fail "report --format=$f"
done
rm -rf "$tmp/rparts"
mkdir "$tmp/rparts"
for k in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
	"$GIT_ABBREV" report --shard="$k/16" --format=partial "$repo" >"$tmp/rparts/$k" ||
		fail "report --shard=$k/16"
done
# parts carry counts, not commit dates: a merge is the whole run but its
# verdict (text: from the blank line before "verdict:" on; JSON: its key)
awk '/^verdict:/ { exit } { print }' "$tmp/rwhole.text" | sed '$ { /^$/d; }' >"$tmp/rwhole.counts"
same_but_verdict() { # WHOLE.json MERGED.json
	"$PYTHON3" "$tests_dir/report_check.py" same_but_verdict "$1" "$2"
}
expect_exit 0 sh -c '"$2" merge --format=text "$1"/*' sh "$tmp/rparts" "$GIT_ABBREV"
checks=$((checks + 1))
cmp -s "$out" "$tmp/rwhole.counts" || { fail "report shards, text: merge differs"; diff "$tmp/rwhole.counts" "$out" | head -5; }
expect_exit 0 sh -c '"$2" merge --format=json "$1"/*' sh "$tmp/rparts" "$GIT_ABBREV"
checks=$((checks + 1))
same_but_verdict "$tmp/rwhole.json" "$out" || fail "report shards, json: merge differs"
grep -q '("' "$tmp/rwhole.text" || fail "no commit subject in the listing to carry through a merge"
expect_exit 0 "$GIT_ABBREV" report --reachable --shard=1/2 --format=partial "$repo"
cp "$out" "$tmp/reach1"
expect_exit 0 "$GIT_ABBREV" report --reachable --shard=0/2 --format=partial "$repo"
expect_exit 0 "$GIT_ABBREV" merge --format=json "$out" "$tmp/reach1"
cp "$out" "$tmp/reach-merged.json"
expect_exit 0 "$GIT_ABBREV" report --reachable --format=json "$repo"
checks=$((checks + 1))
same_but_verdict "$out" "$tmp/reach-merged.json" || fail "--reachable shards: merge differs"

say "merges that do not make one whole are errors naming the parts"
p=$tmp/parts
expect_exit 3 "$GIT_ABBREV" merge "$p/0" "$p/1" "$p/2"
one_line "$err" && grep -q "shards missing: 3/256, 4/256" "$err" || fail "missing: $(cat "$err")"
"$GIT_ABBREV" ids --shard=0/2 --format=partial "$tmp/objs" >"$tmp/half" || fail "ids 0/2"
expect_exit 3 "$GIT_ABBREV" merge "$tmp/half" "$p/5"
grep -q "parts of different shard counts: .*/half is a part of 2, .*/parts/5 of 256" "$err" ||
	fail "shard counts: $(cat "$err")"
expect_exit 3 "$GIT_ABBREV" merge "$tmp/half" "$tmp/half"
grep -q "shard 0/2 (IDs 0... to 7...) is given twice" "$err" || fail "twice: $(cat "$err")"
head -n 20 "$p/7" >"$tmp/cut-part"
expect_exit 3 "$GIT_ABBREV" merge "$tmp/cut-part"
grep -q "cut-part:20: cut short" "$err" || fail "cut part: $(cat "$err")"
expect_exit 3 "$GIT_ABBREV" merge "$tmp/objs"
grep -q "objs:1: not a partial result" "$err" || fail "not a part: $(cat "$err")"
expect_exit 2 "$GIT_ABBREV" merge
"$GIT_ABBREV" ids --shard=1/2 --format=partial "$tmp/objs.gz" >"$tmp/half1" || fail "ids 1/2"
"$GIT_ABBREV" ids --format=partial "$tmp/objs" >"$tmp/whole.partial" || fail "ids partial"
expect_exit 0 "$GIT_ABBREV" merge --format=partial "$tmp/half" "$tmp/half1"
checks=$((checks + 1))
# the same content read plain and gzip is one input of the same name? no:
# names differ, so both are listed; the tables agree
tables_of_partial() { grep -v '^source \|^sha256 ' "$1"; }
tables_of_partial "$out" >"$tmp/a"
tables_of_partial "$tmp/whole.partial" >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "merge --format=partial of two halves"

say "the Slurm array script, task by task"
slurm=$srcdir/contrib/slurm/git-abbrev-shards.sbatch
for k in 0 1 2 3; do
	SLURM_ARRAY_TASK_ID=$k SLURM_ARRAY_TASK_COUNT=4 GIT_ABBREV=$GIT_ABBREV \
		bash "$slurm" "$tmp/slurm" ids "$tmp/objs.gz" || fail "slurm task $k"
done
expect_exit 0 sh -c '"$2" merge "$1"/part-*' sh "$tmp/slurm" "$GIT_ABBREV"
checks=$((checks + 1))
sed 1d "$out" >"$tmp/a"
sed 1d "$tmp/whole.text" >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "slurm parts merged differ"
expect_exit 2 env -u SLURM_ARRAY_TASK_ID bash "$slurm" "$tmp/slurm" ids "$tmp/objs"
rm "$tmp/slurm/part-002"
expect_exit 3 sh -c '"$2" merge "$1"/part-*' sh "$tmp/slurm" "$GIT_ABBREV"
grep -q "shards missing: 2/4" "$err" || fail "slurm, a task missing: $(cat "$err")"

finish
