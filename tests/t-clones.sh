#!/bin/sh
# t-clones.sh - repositories that lack something by design or use another
# hash: SHA-256 (64-hex IDs, loose and packed), a shallow clone and a
# partial (blob-less) clone.  Each is analysed, equal to git's own listing,
# says what it lacks, and --reachable agrees with git rev-list.
. "$(dirname "$0")/setup.sh"

# reach_oracle REPO TOOL.json: --reachable counts equal those of git
# rev-list --objects --missing=print HEAD --branches --tags, and the objects
# it prints as missing (a partial clone's blobs) are the tool's "missing"
# (oracle.py), never counted as present
reach_oracle() {
	oracle_compare "$1 --reachable" "$2" --reachable "$1"
}

json_true() { # FILE KEY: the report's top-level KEY is true
	[ "$(jget "$1" "d['$2'] is True")" = True ]
}

say "SHA-256: 64-hex IDs from loose objects and from packs"
if "$PYTHON3" "$tests_dir/gen_repo.py" "$tmp/s256" --scenario sha256 \
	${ABBREV_FIXTURES:+--built "$ABBREV_FIXTURES"} >"$tmp/s256.json" 2>/dev/null
then
	S=$tmp/s256
	expect_exit 0 "$GIT_ABBREV" --format=json "$S"
	oracle_compare "sha256 loose+packed" "$out" "$S"
	# named by a relative GIT_DIR: still the repository's absolute path
	expect_exit 0 -C "$S" env GIT_DIR=.git "$GIT_ABBREV"
	checks=$((checks + 1))
	head -n 1 "$out" | grep -q "^$(cd "$S" && pwd): " ||
		fail "sha256 with GIT_DIR=.git: named $(head -n 1 "$out")"
	git -C "$S" cat-file --batch-all-objects --batch-check='%(objectname)' >"$tmp/s256.ids"
	# git's shortest abbreviation, 4, is the shortest length check takes;
	# two blobs share 6 chars (planted), so both lengths have groups
	for n in 4 6; do
		expect_exit 1 "$GIT_ABBREV" check $n --type=all --format=json "$S"
		py_check "sha256: groups at $n chars" report_check.py prefix_groups \
			"$out" "$tmp/s256.ids" $n
	done
	# and no two share 7: the answer the planted pair's length gives
	if [ -n "$(cut -c1-7 "$tmp/s256.ids" | sort | uniq -d)" ]; then s7=1; else s7=0; fi
	expect_exit $s7 "$GIT_ABBREV" check 7 --type=all "$S"
	git -C "$S" repack -adq
	expect_exit 0 "$GIT_ABBREV" --format=json "$S"
	oracle_compare "sha256 one pack" "$out" "$S"
	# a length past 40 exists only for 64-hex IDs
	expect_exit 0 "$GIT_ABBREV" check 50 --type=all "$S"
	expect_exit 0 "$GIT_ABBREV" check 64 --type=all "$S"
	expect_exit 2 "$GIT_ABBREV" check 65 --type=all "$S"
	head -1 "$err" | grep -q "from 4 to 40 (SHA-1) or 64 (SHA-256), not '65'" ||
		fail "sha256: check 65: $(head -1 "$err")"
	# what needs libgit2 says so, in one line
	expect_exit 3 "$GIT_ABBREV" --reachable "$S"
	one_line "$err" && grep -q "SHA-256" "$err" || fail "sha256 --reachable: $(cat "$err")"
	[ -s "$out" ] && fail "sha256 --reachable printed on stdout"
	expect_exit 3 "$GIT_ABBREV" --walker=libgit2 "$S"
	one_line "$err" || fail "sha256 --walker=libgit2: not one line"
else
	say "git cannot create SHA-256 repositories here, not checked"
fi

gen_repo "$tmp/src" planted
git -C "$tmp/src" config uploadpack.allowFilter true
git -C "$tmp/src" config uploadpack.allowAnySHA1InWant true

say "a shallow clone: analysed, and says it is shallow"
git clone -q --depth 1 --no-single-branch "file://$tmp/src" "$tmp/shallow" 2>/dev/null ||
	die "shallow clone failed"
expect_exit 0 "$GIT_ABBREV" --format=json "$tmp/shallow"
oracle_compare "shallow" "$out" "$tmp/shallow"
checks=$((checks + 1))
json_true "$out" shallow || fail "shallow: JSON does not say shallow"
expect_exit 0 "$GIT_ABBREV" "$tmp/shallow"
# notes go to stderr: the first line on stdout is the answer
grep -q "^git-abbrev: note: a shallow clone" "$err" || fail "shallow: no note on stderr"
grep -q "note:" "$out" && fail "shallow: a note on stdout"
head -1 "$out" | grep -q "objects (sha1)" || fail "shallow: first line $(head -1 "$out")"
expect_exit 0 "$GIT_ABBREV" --format=json --reachable "$tmp/shallow"
reach_oracle "$tmp/shallow" "$out"

say "a partial (blob-less) clone: analysed, and says it is partial"
git clone -q --filter=blob:none --no-checkout "file://$tmp/src" "$tmp/partial" 2>/dev/null ||
	die "partial clone failed"
expect_exit 0 "$GIT_ABBREV" --format=json "$tmp/partial"
oracle_compare "partial" "$out" "$tmp/partial"
checks=$((checks + 1))
json_true "$out" partial || fail "partial: JSON does not say partial"
expect_exit 0 "$GIT_ABBREV" --format=json --reachable "$tmp/partial"
reach_oracle "$tmp/partial" "$out"
expect_exit 1 "$GIT_ABBREV" check 4 --type=all "$tmp/partial"
grep -q "^git-abbrev: note: a partial clone" "$err" || fail "partial: check does not say partial"
head -1 "$out" | grep -q "^object IDs collide at 4 chars" || fail "partial: first line $(head -1 "$out")"
expect_exit 1 "$GIT_ABBREV" check 4 --type=all --format=json "$tmp/partial"
json_true "$out" partial || fail "partial: check's JSON does not say partial"
[ -s "$err" ] && fail "partial: check --format=json wrote to stderr: $(cat "$err")"
# and a tree-less one: the trees it was not given are missing, not counted
git clone -q --filter=tree:0 --no-checkout "file://$tmp/src" "$tmp/treeless" 2>/dev/null ||
	die "tree-less clone failed"
expect_exit 0 "$GIT_ABBREV" --format=json "$tmp/treeless"
oracle_compare "tree-less" "$out" "$tmp/treeless"
expect_exit 0 "$GIT_ABBREV" --format=json --reachable "$tmp/treeless"
reach_oracle "$tmp/treeless" "$out"

finish
