#!/bin/sh
# t-ids-parallel.sh - a sharded run driven by GNU parallel, as
# docs/sharding.md shows it: 16 shards as local jobs, two at a time, each
# part stored by parallel's --results (which, with --sshlogin, brings the
# parts back from other machines the same way), then merged: the merge
# must print the bytes of a single run.  A failed job leaves an empty
# part, which the merge names.  The IDs come from bench/gen_ids (random
# IDs, so prefixes collide up to 8 or 9 hex chars).

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"

command -v parallel >/dev/null 2>&1 ||
	skip "GNU parallel is not installed (build.sh installs Debian's package parallel)"
parallel --version 2>/dev/null | grep -q "GNU parallel" ||
	skip "the parallel command here is not GNU parallel (moreutils' has other options)"
[ -x "${GEN_IDS:-}" ] || die "no bench/gen_ids binary: set GEN_IDS"

"$GEN_IDS" --total=300000 --shard=0/1 --seed=16 --format=batch-check | gzip -c >"$tmp/ids.gz" ||
	die "gen_ids failed"
for f in text json; do
	"$GIT_ABBREV" ids --format="$f" "$tmp/ids.gz" >"$tmp/whole.$f" || fail "ids --format=$f"
done

say "16 shards, 2 jobs at a time"
mkdir "$tmp/parts"
expect_exit 0 sh -c 'seq 0 15 | parallel -j2 --halt now,fail=1 --results "$1/parts/{}.part" \
	"$2" ids --shard={}/16 --format=partial "$1/ids.gz"' sh "$tmp" "$GIT_ABBREV"
checks=$((checks + 1))
[ "$(ls "$tmp/parts"/*.part | wc -l | tr -d ' ')" -eq 16 ] || fail "not 16 parts"
for f in text json; do
	expect_exit 0 sh -c '"$2" merge --format="$3" "$1"/parts/*.part' sh "$tmp" "$GIT_ABBREV" "$f"
	checks=$((checks + 1))
	cmp -s "$out" "$tmp/whole.$f" || { fail "parallel run, $f: merge differs"; diff "$tmp/whole.$f" "$out" | head; }
done
grep -q "^  9 " "$tmp/whole.text" || grep -q "^  8 " "$tmp/whole.text" ||
	fail "no collision past 7 chars to carry through the merge"

say "a failed job leaves a part the merge refuses"
mkdir "$tmp/bad"
expect_exit 1+ sh -c 'seq 0 3 | parallel -j2 --results "$1/bad/{}.part" \
	"$2" ids --shard={}/4 --format=partial "$1/ids.gz" "$1/missing-{}"' sh "$tmp" "$GIT_ABBREV"
expect_exit 3 sh -c '"$2" merge "$1"/bad/*.part' sh "$tmp" "$GIT_ABBREV"
grep -q "bad/0.part:0: empty file, not a partial result" "$err" || fail "empty part: $(cat "$err")"

finish
