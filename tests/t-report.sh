#!/bin/sh
# t-report.sh - `git abbrev report` against an independent oracle.
#
# Builds the gen_repo.py scenarios (planted collisions, several packs,
# objects stored twice, alternates, an empty and a tiny repo, 17000 blobs),
# runs git-abbrev on each the ways a user can name a repository (path,
# current directory, a subdirectory, GIT_DIR, bare clone, worktree, `git
# abbrev`, several repositories at once) and compares the docs/json.md keys of
# its JSON with tests/oracle.py, which counts by brute force from
# `git cat-file --batch-all-objects`.  Then checks the planted collisions
# directly, the text output, progress options, and that the repository
# was not written to.

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"

# check_json LABEL REPO...: the last expect_exit printed the report of the
# union of REPO... as JSON on stdout, nothing on stderr.
check_json() {
	label=$1
	shift
	[ "$rc" -eq 0 ] || return 0 # already failed
	checks=$((checks + 1))
	if [ -s "$err" ]; then
		fail "$label: unexpected stderr"
		show "$err"
	fi
	oracle_compare "$label" "$out" "$@"
	checks=$((checks + 1))
	[ "$(jget "$out" 'isinstance(d.get("repositories"), list)')" = True ] ||
		fail "$label: \"repositories\" is not a list"
}

# check_planted LABEL INFO.json TOOL.json: the collisions gen_repo.py planted
# show up in the tool's numbers (and in its group listing, if it has one).
check_planted() {
	py_check "$1: planted collisions not reported" report_check.py planted "$2" "$3"
}

# A listing of everything under a directory, to see that nothing changed.
snapshot() {
	(cd "$1" && find . -printf '%p %y %s %T@ %m\n' | sort)
}

say "oracle self-test"
checks=$((checks + 1))
"$PYTHON3" "$tests_dir/oracle.py" --selftest >/dev/null || fail "oracle.py --selftest"

say "generating repositories"
gen_repo "$tmp/planted" planted
gen_repo "$tmp/alt" alternates
gen_repo "$tmp/many" many
gen_repo "$tmp/small" small
gen_repo "$tmp/empty" empty
P=$tmp/planted
git clone -q --bare "$P" "$tmp/bare.git"
git -C "$P" worktree add -q --detach "$tmp/wt" refs/heads/topic
# a second worktree whose detached HEAD is the only way to reach a commit
only=$(git -C "$P" commit-tree -p refs/heads/main -m "reachable only from a worktree HEAD" "refs/heads/main^{tree}")
git -C "$P" worktree add -q --detach "$tmp/wt2" "$only"
sub=$P/src/core
[ -d "$sub" ] || sub=$P/src
[ -d "$sub" ] || die "no subdirectory in $P"
before=$(snapshot "$P")

say "planted repo: by path, from inside, from a subdirectory, with GIT_DIR"
expect_exit 0 "$GIT_ABBREV" report --format=json "$P"
check_json "report --format=json <path>" "$P"
[ "$rc" -ne 0 ] || check_planted "report <path>" "$P.json" "$out"

expect_exit 0 -C "$P" "$GIT_ABBREV" --format=json
check_json "--format=json in the work tree" "$P"
[ "$rc" -ne 0 ] || check_planted "in the work tree" "$P.json" "$out"

expect_exit 0 -C "$sub" "$GIT_ABBREV" report --format=json
check_json "report in a subdirectory" "$P"

expect_exit 0 -C "$tmp" env GIT_DIR="$P/.git" "$GIT_ABBREV" --format=json
check_json "GIT_DIR=<repo>/.git from outside" "$P"

expect_exit 0 -C "$P/.git" "$GIT_ABBREV" --format=json
check_json "inside .git" "$P"

expect_exit 0 "$GIT_ABBREV" --format=json "$sub"
check_json "a subdirectory as <repo>" "$P"

expect_exit 0 "$GIT_ABBREV" --format=json --no-progress "$P/.git"
check_json "<repo>/.git as <repo>, --no-progress" "$P"

expect_exit 0 "$GIT_ABBREV" --progress --format=json "$P"
check_json_progress() {
	[ "$rc" -eq 0 ] || return 0
	oracle_compare "--progress: stdout" "$out" "$P"
}
check_json_progress

say "bare clone and worktree"
expect_exit 0 "$GIT_ABBREV" report --format=json "$tmp/bare.git"
check_json "bare clone by path" "$tmp/bare.git"
expect_exit 0 -C "$tmp/bare.git" "$GIT_ABBREV" --format=json
check_json "inside a bare clone" "$tmp/bare.git"
expect_exit 0 -C "$tmp/bare.git/refs" env GIT_DIR="$tmp/bare.git" \
	"$GIT_ABBREV" --format=json
check_json "GIT_DIR=<bare clone>" "$tmp/bare.git"
expect_exit 0 -C "$tmp/wt" "$GIT_ABBREV" --format=json
check_json "inside a worktree" "$tmp/wt"
expect_exit 0 "$GIT_ABBREV" report --format=json "$tmp/wt"
check_json "worktree by path" "$tmp/wt"
[ "$rc" -ne 0 ] || check_planted "worktree" "$P.json" "$out"

if [ "$(basename "$GIT_ABBREV")" = git-abbrev ]; then
	say "as a git subcommand"
	expect_exit 0 -C "$sub" env PATH="$(dirname "$GIT_ABBREV"):$PATH" \
		git abbrev --format=json
	check_json "git abbrev in a subdirectory" "$P"
fi

say "text output"
count=$(git -C "$P" cat-file --batch-all-objects --batch-check | wc -l | tr -d ' ')
for args in "" "report" "report --format=text"; do
	# shellcheck disable=SC2086
	expect_exit 0 -C "$P" "$GIT_ABBREV" $args
	[ "$rc" -eq 0 ] || continue
	checks=$((checks + 1))
	[ -s "$out" ] || fail "text output ($args) is empty"
	py_check "text output ($args) does not mention $count objects" report_check.py mentions "$out" "$count"
	checks=$((checks + 1))
	[ ! -s "$err" ] || { fail "text output ($args): unexpected stderr"; show "$err"; }
done

checks=$((checks + 1))
[ "$before" = "$(snapshot "$P")" ] || fail "the planted repository changed while git-abbrev read it"

say "alternates"
U=$tmp/alt/upstream
D=$tmp/alt/downstream
expect_exit 0 "$GIT_ABBREV" --format=json "$D"
check_json "downstream (objects/info/alternates)" "$D"
[ "$rc" -ne 0 ] || check_planted "downstream" "$tmp/alt.json" "$out"
expect_exit 0 -C "$D" "$GIT_ABBREV" --format=json
check_json "inside downstream" "$D"
expect_exit 0 "$GIT_ABBREV" --format=json "$U"
check_json "upstream alone" "$U"

say "--reachable (oracle: git rev-list --objects HEAD --branches --tags)"
# the bare clone has refs to a blob and to a tag of a tree, a tag of a tag,
# and unreachable objects (a dangling blob, the worktree-only commit)
expect_exit 0 "$GIT_ABBREV" report --reachable --format=json "$tmp/bare.git"
check_json "--reachable bare clone" --reachable "$tmp/bare.git"
expect_exit 0 -C "$D" "$GIT_ABBREV" --format=json --reachable
check_json "--reachable downstream (history through alternates)" --reachable "$D"
expect_exit 0 "$GIT_ABBREV" --format=json --reachable "$U" "$D"
check_json "--reachable upstream + downstream" --reachable "$U" "$D"
expect_exit 0 -C "$tmp/wt2" "$GIT_ABBREV" --format=json --reachable
check_json "--reachable in a worktree (its detached HEAD)" --reachable "$tmp/wt2"
# a clone receives HEAD, the branches and the tags: not the HEADs of other
# worktrees (which git rev-list --all would add)
expect_exit 0 "$GIT_ABBREV" --format=json --reachable "$P"
check_json "--reachable main repo: other worktrees' HEADs are not a clone's" --reachable "$P"
checks=$((checks + 1))
[ "$(jget "$out" 'd["reachable"]["refs"] == ["HEAD", "refs/heads/*", "refs/tags/*"]')" = True ] ||
	fail "--reachable: JSON does not name the refs a clone fetches"

say "several repositories: the union"
expect_exit 0 "$GIT_ABBREV" report --format=json "$P" "$tmp/many"
check_json "planted + many" "$P" "$tmp/many"
[ "$rc" -ne 0 ] || check_planted "planted + many" "$P.json" "$out"
expect_exit 0 "$GIT_ABBREV" --format=json "$U" "$D"
check_json "upstream + downstream (overlapping)" "$U" "$D"
expect_exit 0 "$GIT_ABBREV" --format=json "$P" "$tmp/bare.git" "$P"
check_json "one repository named three times" "$P" "$tmp/bare.git" "$P"
expect_exit 0 "$GIT_ABBREV" --format=json "$tmp/small" "$tmp/empty"
check_json "small + empty" "$tmp/small" "$tmp/empty"

say "both walkers agree with git: --walker=libgit2 and --walker=pack"
for w in libgit2 pack; do
	expect_exit 0 "$GIT_ABBREV" --walker=$w --format=json "$P"
	check_json "--walker=$w planted" "$P"
	expect_exit 0 "$GIT_ABBREV" --walker=$w --format=json "$D"
	check_json "--walker=$w downstream (alternates)" "$D"
	expect_exit 0 "$GIT_ABBREV" --walker=$w --format=json "$tmp/many" "$tmp/empty"
	check_json "--walker=$w many + empty" "$tmp/many" "$tmp/empty"
done
expect_exit 2 "$GIT_ABBREV" --walker=bogus "$P"

say "edge cases: 17000 blobs, 3 objects, no objects"
expect_exit 0 "$GIT_ABBREV" --format=json "$tmp/many"
check_json "17000 blobs (git_auto_abbrev 8)" "$tmp/many"
expect_exit 0 "$GIT_ABBREV" --format=json "$tmp/small"
check_json "3 objects" "$tmp/small"
expect_exit 0 "$GIT_ABBREV" --format=json "$tmp/empty"
check_json "empty repository" "$tmp/empty"
expect_exit 0 "$GIT_ABBREV" "$tmp/empty"
checks=$((checks + 1))
[ "$rc" -ne 0 ] || [ -s "$out" ] || fail "empty repository: no text output"

say "a path and commit subjects that need escaping"
# quote, backslash, tab and UTF-8 in the path; gen_repo.py plants two commit
# pairs sharing 6 chars whose subjects hold a quote, a backslash, a tab, a
# control character, UTF-8, and Latin-1 bytes (not UTF-8: JSON must stay
# valid UTF-8 anyway)
Q=$(printf '%s/we"ird\\ pa\tth \303\251' "$tmp")
mkdir "$Q"
gen_repo "$Q/q" quoting
expect_exit 0 "$GIT_ABBREV" --format=json "$Q/q"
check_json "odd path and subjects" "$Q/q"
[ "$rc" -ne 0 ] || check_planted "odd path and subjects" "$Q/q.json" "$out"
expect_exit 0 -C "$Q/q" "$GIT_ABBREV"
checks=$((checks + 1))
[ "$rc" -ne 0 ] || [ -s "$out" ] || fail "odd path and subjects: no text output"

say "SHA-256 repository (report it, or refuse with exit 3 and one line)"
if "$PYTHON3" "$tests_dir/gen_repo.py" "$tmp/sha256" --scenario sha256 \
	${ABBREV_FIXTURES:+--built "$ABBREV_FIXTURES"} >"$tmp/sha256.json" 2>"$tmp/sha256.err"; then
	runs=$((runs + 1))
	out=$tmp/run$runs.out
	err=$tmp/run$runs.err
	checks=$((checks + 1))
	if "$GIT_ABBREV" --format=json "$tmp/sha256" >"$out" 2>"$err"; then
		oracle_compare "sha256" "$out" "$tmp/sha256"
	else
		rc=$?
		if [ "$rc" -ne 3 ] || [ -s "$out" ] || ! one_line "$err"; then
			fail "sha256: exit $rc, want 0, or 3 with one line on stderr and nothing on stdout"
			show "$err"
		fi
	fi
else
	say "git cannot create SHA-256 repositories here, not checked"
fi

finish
