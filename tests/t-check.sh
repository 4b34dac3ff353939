#!/bin/sh
# t-check.sh - `git abbrev check <N>` on repositories with planted
# collisions: exit status at N-1, N, N+1 for each planted pair and for
# --against=all, the listing (full IDs, subjects from git log), the
# --reachable view against git rev-list, and the "possibly crafted" flag.
. "$(dirname "$0")/setup.sh"

repo=$tmp/planted
gen_repo "$repo" planted
planted() { # KIND FIELD -> value from gen_repo's JSON
	jget "$repo.json" "words(planted('$1')['$2'])"
}

cc_len=$(planted commit-commit shared); cc_ids=$(planted commit-commit ids)
cb_len=$(planted commit-blob shared); cb_ids=$(planted commit-blob ids)
tt_len=$(planted tree-tree shared)
say "planted: commit-commit $cc_len, commit-blob $cb_len, tree-tree $tt_len"

# exit status around each planted length
check_around() { # LEN ARGS...: 1 at LEN-1 and LEN, 0 at LEN+1
	len=$1; shift
	expect_exit 1 "$GIT_ABBREV" check $((len - 1)) --quiet "$@" "$repo"
	expect_exit 1 "$GIT_ABBREV" check "$len" --quiet "$@" "$repo"
	[ -s "$out" ] && fail "--quiet printed something: check $len $*"
	expect_exit 0 "$GIT_ABBREV" check $((len + 1)) --quiet "$@" "$repo"
}
check_around "$cc_len"
check_around "$cc_len" --type=commit --against=same
check_around "$tt_len" --type=tree
check_around "$cb_len" --type=blob --against=all
# the planted blob collides only with a commit: not within the blobs
expect_exit 0 "$GIT_ABBREV" check "$cb_len" --type=blob "$repo"
grep -q "^no two blob IDs share their first $cb_len chars" "$out" ||
	fail "no-collision message for blobs"
# --type=all sees every planted pair; its longest is the longest planted
longest=$(printf '%s\n' "$cc_len" "$cb_len" "$tt_len" | sort -n | tail -1)
check_around "$longest" --type=all

# the listing: both full IDs, the subjects as git log shows them, the dates
# (a description that does not fit in 80 columns goes on the next lines)
expect_exit 1 "$GIT_ABBREV" check "$cc_len" "$repo"
tr -s ' \n' '  ' <"$out" >"$tmp/joined"
for id in $cc_ids; do
	subject=$(git -C "$repo" log -1 --format=%s "$id")
	date=$(git -C "$repo" log -1 --format=%cs "$id")
	grep -qF "commit $id (\"$subject\") $date" "$tmp/joined" ||
		fail "listing lacks 'commit $id (\"$subject\") $date'"
done
head -1 "$out" | grep -q "^commit IDs collide at $cc_len chars: 2 commits in 1 prefix (of " ||
	fail "headline: $(head -1 "$out")"

# against=all lists the blob beside the commit
expect_exit 1 "$GIT_ABBREV" check "$cb_len" --against=all "$repo"
for id in $cb_ids; do
	grep -q "$id" "$out" || fail "--against=all listing lacks $id"
done
grep -q "^  blob   $(echo "$cb_ids" | cut -d' ' -f2)" "$out" ||
	fail "--against=all listing does not show the blob with its type"

# against=all: the groups hold the set's own pairs too (two commits), and say so
expect_exit 1 "$GIT_ABBREV" check "$cc_len" --against=all "$repo"
checks=$((checks + 1))
head -1 "$out" | grep -q "^commit IDs share their first $cc_len chars with objects of any type: " ||
	fail "--against=all headline: $(head -1 "$out")"
for id in $cc_ids; do
	grep -q "^  commit $id" "$out" || fail "--against=all listing lacks the commit $id"
done
expect_exit 0 "$GIT_ABBREV" check 40 --against=all "$repo"
checks=$((checks + 1))
grep -q "^no commit ID shares its first 40 chars with an object of any type (" "$out" ||
	fail "--against=all no-collision line: $(head -1 "$out")"

# JSON: the groups and counts
expect_exit 1 "$GIT_ABBREV" check "$cc_len" --format=json "$repo"
py_check "check --format=json" report_check.py check_group "$out" "$cc_len" $cc_ids

# crafted: 8+ shared chars among a few hundred commits is improbable for
# random IDs, so it is flagged; --improbable=0 turns the flag off
ncommits=$(git -C "$repo" cat-file --batch-all-objects --batch-check='%(objecttype)' | grep -c '^commit$')
expect_exit 1 "$GIT_ABBREV" check "$cc_len" "$repo"
grep -q "possibly crafted" "$out" || fail "$cc_len chars among $ncommits commits not flagged"
expect_exit 1 "$GIT_ABBREV" check "$cc_len" --improbable=0 "$repo"
grep -q "possibly crafted" "$out" && fail "flagged with --improbable=0"
# natural: the longest collision of 17000 random blobs is expected, not crafted
gen_repo "$tmp/many" many
expect_exit 0 "$GIT_ABBREV" report --format=json "$tmp/many"
py_check "natural collision flagged as crafted" report_check.py natural "$out"

# --reachable: the planted unreachable blob is counted by default, not with
# --reachable; the reachable counts equal git rev-list --objects --all
unreach=$(jget "$repo.json" 'd["unreachable"][0]')
expect_exit 0 "$GIT_ABBREV" check 40 --type=blob "$repo"
expect_exit 0 "$GIT_ABBREV" report --format=json "$repo"
grep -q . "$out" || fail "report printed nothing"
cp "$out" "$tmp/all.json"
expect_exit 0 "$GIT_ABBREV" report --format=json --reachable "$repo"
cp "$out" "$tmp/reach.json"
git -C "$repo" rev-list --objects --all | cut -d' ' -f1 |
	git -C "$repo" cat-file --batch-check='%(objectname) %(objecttype)' >"$tmp/revlist"
grep -q "^$unreach " "$tmp/revlist" && die "planted unreachable blob is reachable"
py_check "--reachable counts" report_check.py reachable_counts "$tmp/all.json" "$tmp/reach.json" "$tmp/revlist"
expect_exit 1 "$GIT_ABBREV" check "$cc_len" --reachable "$repo"

# usage errors
expect_exit 2 "$GIT_ABBREV" check "$repo"
expect_exit 2 "$GIT_ABBREV" check 0 "$repo"
# lengths git cannot use: below its minimum of 4, past the hash's 40 hex chars
expect_exit 2 "$GIT_ABBREV" check 3 "$repo"
head -1 "$err" | grep -q "from 4 to 40 (SHA-1) or 64 (SHA-256), not '3'" ||
	fail "check 3: $(head -1 "$err")"
expect_exit 0 "$GIT_ABBREV" check 4 --type=tag "$repo"
expect_exit 2 "$GIT_ABBREV" check 41 "$repo"
[ "$(head -1 "$err")" = "git-abbrev: the length must be from 4 to 40 for sha1 IDs, not 41" ] ||
	fail "check 41: $(head -1 "$err")"
[ -s "$out" ] && fail "check 41 printed to stdout"
expect_exit 2 "$GIT_ABBREV" check 12 --type=bogus "$repo"
expect_exit 2 "$GIT_ABBREV" check 12 --against=some "$repo"
expect_exit 2 "$GIT_ABBREV" check 12 --improbable=2 "$repo"
[ -s "$out" ] && fail "usage error printed to stdout"
expect_exit 3 "$GIT_ABBREV" check 12 "$tmp/nonexistent"
one_line "$err" || fail "not one line on stderr: $(cat "$err")"

finish
