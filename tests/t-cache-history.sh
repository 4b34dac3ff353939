#!/bin/sh
# t-cache-history.sh - history's commit times from the packs' commit
# tables (the cache verify keeps subjects in): the first run writes a
# table per pack and each pack's commits in time order (pack-*.times),
# later runs map the latter (the tables when they are not there), and
# the walk of packs without loose objects counts their union from the
# file an earlier walk kept (pack-*.union); the history is the same cold,
# warm, with --no-cache (which writes nothing), with a commit-graph file,
# with a bitmap, and with a table damaged on disk.  The repository has two
# packs and loose commits, one of them unreachable, and planted
# collisions (gen_repo.py --scenario history).  Each history is checked
# against a replay of git's own dates (git log --all --format='%H %ct' and
# the unreachable commits git cat-file lists): every length's first
# collision, its time, the commits by then and the later commit.

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"

cache=$tmp/cache
GIT_ABBREV_CACHE_DIR=$cache
export GIT_ABBREV_CACHE_DIR
repo=$tmp/repo
gen_repo "$repo" history
G() { git -C "$repo" "$@"; }
# the planted commits are loose: packed into a second pack (the unreachable stays loose)
G repack -q -d
for i in 1 2 3; do
	echo "$i" >"$repo/late"
	G add late
	GIT_COMMITTER_DATE="$((1700000000 + i)) +0000" G commit -q -m "late $i"
done
npacks=$(ls "$repo"/.git/objects/pack/*.pack | wc -l)
[ "$npacks" -eq 2 ] || die "not two packs: $npacks"
[ -n "$(find "$repo/.git/objects" -path '*/objects/[0-9a-f][0-9a-f]/*' -type f)" ] ||
	die "no loose objects"

# history_as LABEL ARGS... REPO: history's JSON into $tmp/LABEL.json, to
# be checked against git's dates (replayed) by one history_check.py call
# for every run at the end
replays=
history_as() {
	label=$1
	shift
	expect_exit 0 "$GIT_ABBREV" history --format=json --no-projection "$@"
	cp "$out" "$tmp/$label.json"
	for ha_repo; do :; done
	replays="$replays $ha_repo $tmp/$label.json"
}
same() { # LABEL [REPO]: its JSON is the cold run's, byte for byte but REPO's path
	checks=$((checks + 1))
	sed "s|\"${2:-$repo}\"|\"$repo\"|" "$tmp/$1.json" >"$tmp/$1.same"
	cmp -s "$tmp/cold.json" "$tmp/$1.same" || fail "$1: not the cold run's history"
}
tables() { find "$cache" -name 'pack-*.subjects' 2>/dev/null | wc -l; }

say "--no-cache writes nothing"
history_as nocache --no-cache "$repo"
checks=$((checks + 1))
[ ! -e "$cache" ] || fail "--no-cache made the cache"

say "a cold run writes one table per pack"
history_as cold "$repo"
same nocache
checks=$((checks + 1))
[ "$(tables)" -eq 2 ] || fail "cold run: $(tables) tables, not 2"

say "a warm run maps each pack's commits in time order (kept by the cold run), with the same history"
checks=$((checks + 1))
[ "$(find "$cache" -name 'pack-*.times' | wc -l)" -eq 2 ] || fail "cold run: not two times files"
mark_unused "$cache"/pack-*.times
history_as warm "$repo"
same warm
all_used "warm run" "$cache"/pack-*.times

say "without them, the tables"
mkdir "$tmp/times"
mv "$cache"/pack-*.times "$tmp/times"
mark_unused "$cache"/pack-*.subjects
history_as tables "$repo"
same tables
all_used "run without times files" "$cache"/pack-*.subjects

say "a damaged table is rebuilt, the history the same"
rm -f "$cache"/pack-*.times # else read instead of the tables
f=$(ls "$cache"/pack-*.subjects | head -n 1)
printf 'XXXX' | dd of="$f" bs=1 seek=200 conv=notrunc 2>/dev/null
history_as damaged "$repo"
same damaged
history_as rebuilt "$repo"
same rebuilt

say "with a commit-graph file and with a bitmap"
cp -a "$repo" "$tmp/graph"
git -C "$tmp/graph" commit-graph write --reachable
[ -e "$tmp/graph/.git/objects/info/commit-graph" ] || die "no commit-graph"
history_as graph "$tmp/graph"
same graph "$tmp/graph"
cp -a "$repo" "$tmp/bitmap"
git -C "$tmp/bitmap" repack -q -adb
ls "$tmp/bitmap"/.git/objects/pack/*.bitmap >/dev/null 2>&1 || die "no bitmap"
history_as bitmap-cold "$tmp/bitmap"
same bitmap-cold "$tmp/bitmap"
history_as bitmap-warm "$tmp/bitmap"
same bitmap-warm "$tmp/bitmap"

say "packs only, some objects in two: the warm walk counts them from the union kept"
# every loose object into a third pack, and a fourth that repeats HEAD~1's objects
cp -a "$repo" "$tmp/packed"
P() { git -C "$tmp/packed" "$@"; }
(cd "$tmp/packed/.git/objects" && find . -path './[0-9a-f][0-9a-f]/*' -type f) |
	sed 's|^\./||; s|/||' | P pack-objects -q .git/objects/pack/pack >/dev/null
P rev-list --objects HEAD~1 | P pack-objects -q .git/objects/pack/pack >/dev/null
P prune-packed
[ -z "$(find "$tmp/packed/.git/objects" -path '*/objects/[0-9a-f][0-9a-f]/*' -type f)" ] ||
	die "loose objects left"
[ "$(ls "$tmp/packed"/.git/objects/pack/*.pack | wc -l)" -eq 4 ] || die "not four packs"
history_as packed-cold "$tmp/packed"
same packed-cold "$tmp/packed"
checks=$((checks + 1))
[ "$(find "$cache" -name 'pack-*.union' | wc -l)" -eq 1 ] || fail "no union file kept"
history_as packed-warm "$tmp/packed"
same packed-warm "$tmp/packed"
# the same JSON from the report's count of objects, which merges every ID
expect_exit 0 "$GIT_ABBREV" report --format=json "$tmp/packed"
checks=$((checks + 1))
"$PYTHON3" -c 'import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2]))
sys.exit(a["objects"] != b["objects"])' "$tmp/packed-warm.json" "$out" ||
	fail "history's object count is not the report's"
u=$(find "$cache" -name 'pack-*.union')
printf 'XXXX' | dd of="$u" bs=1 seek=300 conv=notrunc 2>/dev/null
history_as packed-damaged "$tmp/packed"
same packed-damaged "$tmp/packed"
# one more pack: the union kept names four, the walk merges five (a copy: the replay
# of the runs above reads $tmp/packed at the end)
cp -a "$tmp/packed" "$tmp/packed5"
P() { git -C "$tmp/packed5" "$@"; }
expect_exit 0 "$GIT_ABBREV" history --format=json --no-projection "$tmp/packed5"
echo more >"$tmp/packed5/more"
P add more
GIT_COMMITTER_DATE="1700000100 +0000" P commit -q -m more
P repack -q
P prune-packed
[ "$(ls "$tmp/packed5"/.git/objects/pack/*.pack | wc -l)" -eq 5 ] || die "not five packs"
history_as packed-more "$tmp/packed5"
history_as packed-more-nocache --no-cache "$tmp/packed5"
checks=$((checks + 1))
cmp -s "$tmp/packed-more.json" "$tmp/packed-more-nocache.json" ||
	fail "five packs: warm and --no-cache histories differ"
history_as packed-more-warm "$tmp/packed5"
checks=$((checks + 1))
cmp -s "$tmp/packed-more.json" "$tmp/packed-more-warm.json" ||
	fail "five packs: the second warm history differs"

say "each history is git's replay"
# shellcheck disable=SC2086 # the words of $replays, split on purpose
set -- $replays
checks=$((checks + $# / 2))
if ! "$PYTHON3" "$tests_dir/history_check.py" cache_replays "$@" >"$tmp/py.out" 2>&1; then
	grep '^bad ' "$tmp/py.out" >"$tmp/bad" || { fail "the replay check failed"; show "$tmp/py.out"; }
	while read -r _ bad_json why; do
		fail "$(basename "$bad_json" .json): history is not git's replay: $why"
	done <"$tmp/bad"
fi

finish
