#!/bin/sh
# t-history.sh - `git abbrev history` and `git abbrev model <repo>` against
# git's own listing.
#
# A generated repository holds commits with planted dates and planted
# collisions (gen_repo.py --scenario history), one of them unreachable.
# An independent replay in Python, from `git log --all --format='%H %ct'`
# plus the unreachable commits that `git cat-file --batch-all-objects`
# lists, must give the same first collision (time, commits then, pair)
# for every length; the projection is recomputed from the same dates
# (the samples, both least-squares fits, the dates and the safe lengths).
# `model <repo>` must count what git counts.  Bad options are usage
# errors: exit 2, a message on stderr, nothing on stdout.

. "$(dirname "$0")/setup.sh"

# The oracle (commit dates from git, the replay and the projection redone):
# tests/history_oracle.py; the checks, tests/history_check.py's.

check_history() {
	label=$1 json=$2 repo=$3
	shift 3
	py_check "$label" history_check.py history "$json" "$repo" "$@"
}

gen_repo "$tmp/h" history
repo=$tmp/h

say "history --format=json: the replay against git's own dates"
expect_exit 0 "$GIT_ABBREV" history --format=json --no-progress "$repo"
cp "$out" "$tmp/hist.json"
checks=$((checks + 1))
[ ! -s "$err" ] || { fail "json run wrote to stderr"; show "$err"; }
check_history "replay (all commits)" "$tmp/hist.json" "$repo" all

say "the planted pairs show up where they were planted"
py_check "planted" history_check.py planted "$tmp/hist.json" "$tmp/h.json"

say "history --reachable: only what git log --all lists"
expect_exit 0 "$GIT_ABBREV" history --format=json --reachable "$repo"
cp "$out" "$tmp/hr.json"
check_history "replay (reachable)" "$tmp/hr.json" "$repo" reachable
py_check "the unreachable planted commit is left out" history_check.py unreachable "$tmp/hr.json" "$tmp/h.json"

say "the libgit2 walker gives the same history"
expect_exit 0 "$GIT_ABBREV" history --format=json --walker=libgit2 "$repo"
checks=$((checks + 1))
cmp -s "$out" "$tmp/hist.json" || fail "--walker=libgit2 differs from the pack walker"

say "a commit-graph gives the dates the commits hold"
cp -a "$repo" "$tmp/hg"
git -C "$tmp/hg" commit-graph write --reachable >/dev/null 2>&1
checks=$((checks + 1))
ls "$tmp/hg"/.git/objects/info/commit-graph "$tmp/hg"/objects/info/commit-graph >/dev/null 2>&1 ||
	[ -n "$(find "$tmp/hg" -name commit-graph)" ] || fail "git wrote no commit-graph"
expect_exit 0 "$GIT_ABBREV" history --format=json --no-progress "$tmp/hg"
py_check "the same history through the commit-graph (and libgit2 for the commit it lacks)" history_check.py same_history "$tmp/hist.json" "$out"

say "the projection, recomputed from the same dates"
objects=$(git -C "$repo" cat-file --batch-all-objects --batch-check | wc -l | tr -d ' ')
proj_check() {
	label=$1 json=$2
	shift 2
	py_check "$label" history_check.py projected "$json" "$objects" "$@" "$repo"
}
proj_check "projection (defaults)" "$tmp/hist.json" 5 auto 0.01 10
expect_exit 0 "$GIT_ABBREV" history --format=json --fit=linear --window-years=2 \
	--target-p=0.5 --horizon-years=20 "$repo"
proj_check "projection (linear, 2 years, P <= 50%, 20 years)" "$out" 2 linear 0.5 20
expect_exit 0 "$GIT_ABBREV" history --format=json --fit exponential --window-years 3.5 \
	--target-p 1e-6 --horizon-years 0 "$repo"
proj_check "projection (exponential, 3.5 years, 1e-6, now)" "$out" 3.5 exponential 1e-6 0
expect_exit 0 "$GIT_ABBREV" history --format=json --no-projection "$repo"
py_check "--no-projection" history_check.py no_projection "$out"

say "text: the table, the projection and the quotable line"
expect_exit 0 "$GIT_ABBREV" history "$repo"
cp "$out" "$tmp/h.txt"
py_check "text matches the JSON" history_check.py text "$tmp/hist.json" "$tmp/h.txt" "$repo"

say "svg: the projection, both fits ending at the numbers the text prints"
expect_exit 0 "$GIT_ABBREV" history --format=svg "$repo"
cp "$out" "$tmp/h.svg"
py_check "svg: the projection is not the text's" history_check.py svg_projection "$tmp/h.txt" "$tmp/h.svg"

say "two repositories: the union, each commit once"
gen_repo "$tmp/alt" alternates
expect_exit 0 "$GIT_ABBREV" history --format=json "$tmp/alt/upstream" "$tmp/alt/downstream"
py_check "union" history_check.py union "$out" "$tmp/alt/upstream" "$tmp/alt/downstream"

say "a history of days: no projection, and why, in every format"
a=$tmp/alt/upstream
why=$("$PYTHON3" "$tests_dir/history_check.py" span "$a") || die "no span from git log"
expect_exit 0 "$GIT_ABBREV" history --format=json "$a"
py_check "days: JSON" history_check.py days "$out" "$why"
for f in text markdown svg; do
	expect_exit 0 "$GIT_ABBREV" history --format=$f "$a"
	checks=$((checks + 1))
	# the sentence, however the format wraps it
	tr '\n' ' ' <"$out" | sed 's/<[^>]*>/ /g; s/  */ /g' >"$tmp/joined"
	grep -qiF "no projection: $why" "$tmp/joined" || { fail "days, $f: no '$why'"; show "$out"; }
	checks=$((checks + 1))
	grep -qi 'growth of the commit count\|exponential\|class="projection' "$out" &&
		{ fail "days, $f: a growth fitted to days"; show "$out"; }
done
expect_exit 0 "$GIT_ABBREV" history --format=json "$tmp/h"
py_check "years: a projection, no reason against it" history_check.py years "$out"

say "small repositories: empty, one commit"
gen_repo "$tmp/empty" empty
expect_exit 0 "$GIT_ABBREV" history --format=json "$tmp/empty"
py_check "empty" history_check.py empty "$out"
expect_exit 0 "$GIT_ABBREV" history "$tmp/empty"
checks=$((checks + 1))
grep -q 'fewer than two commits' "$out" || { fail "empty: no sentence"; show "$out"; }
gen_repo "$tmp/small" small
expect_exit 0 "$GIT_ABBREV" history --format=json "$tmp/small"
py_check "one commit" history_check.py one_commit "$out"
# one commit is "1 commit", in text, Markdown and the chart's title
for f in text markdown svg; do
	expect_exit 0 "$GIT_ABBREV" history --format=$f "$tmp/small"
	checks=$((checks + 1))
	grep -q '\(^\|[^0-9,]\)1 commit (sha1)' "$out" && ! grep -q '\(^\|[^0-9,]\)1 commits' "$out" ||
		{ fail "one commit, $f: not '1 commit'"; show "$out"; }
done

say "SHA-256: libgit2 cannot read the commits, the own reader dates them: the same replay"
if git init -q --object-format=sha256 "$tmp/probe256" 2>/dev/null; then
	gen_repo "$tmp/s256" sha256
	expect_exit 0 "$GIT_ABBREV" history --format=json "$tmp/s256"
	checks=$((checks + 1))
	[ ! -s "$err" ] || { fail "sha256: stderr is not empty"; show "$err"; }
	sha1_repo=$repo
	check_history "sha256 replay" "$out" "$tmp/s256" all
	repo=$sha1_repo
fi

say "model <repo>: n from the repository's sets, equal to git's counts"
commits=$(git -C "$repo" cat-file --batch-all-objects --batch-check='%(objecttype)' |
	grep -c '^commit$')
expect_exit 0 "$GIT_ABBREV" model --format=json "$repo"
py_check "model <repo>" history_check.py model "$out" "$objects" "$commits"
reachable_commits=$(git -C "$repo" rev-list --all | wc -l | tr -d ' ')
expect_exit 0 "$GIT_ABBREV" model --format=json --reachable "$repo"
py_check "model --reachable <repo>" history_check.py model_commits "$out" "$reachable_commits"
expect_exit 0 "$GIT_ABBREV" model "$repo"
checks=$((checks + 1))
grep -q "^commits: $commits\$" "$out" || { fail "model text: no commits table"; show "$out"; }
# no counts and no repository: the repository you stand in, as every other command
cp "$out" "$tmp/model-repo.txt"
expect_exit 0 -C "$repo" "$GIT_ABBREV" model
checks=$((checks + 1))
cmp -s "$out" "$tmp/model-repo.txt" || { fail "model in the repository: not model <repo>"; show "$out"; }
expect_exit 0 "$GIT_ABBREV" model -C "$repo" --format=json
py_check "model -C <repo>: not the repository's commits" history_check.py model_commits "$out" "$commits"
mkdir "$tmp/notrepo.model"
GIT_CEILING_DIRECTORIES=$tmp expect_exit 3 -C "$tmp/notrepo.model" "$GIT_ABBREV" model
checks=$((checks + 1))
grep -qx "git-abbrev: not a git repository (or any of the parent directories): $tmp/notrepo.model" "$err" ||
	{ fail "model outside a repository: not git's words"; show "$err"; }
expect_exit 3+ "$GIT_ABBREV" model "$tmp/nonexistent"
checks=$((checks + 1))
one_line "$err" || { fail "model <bad repo>: not one line on stderr"; show "$err"; }

say "usage errors: exit 2, message on stderr, nothing on stdout"
for args in "--target-p=0" "--target-p=1" "--target-p=abc" "--target-p=" \
	"--horizon-years=-1" "--horizon-years=1001" "--window-years=0" \
	"--window-years=x" "--fit=cubic" "--fit" "--format=classic" "--bogus"; do
	# shellcheck disable=SC2086
	expect_exit 2 "$GIT_ABBREV" history $args "$repo"
	[ "$rc" -eq 2 ] || continue
	checks=$((checks + 1))
	[ -s "$err" ] || fail "history $args: no message on stderr"
	checks=$((checks + 1))
	[ ! -s "$out" ] || { fail "history $args: stdout is not empty"; show "$out"; }
done
expect_exit 2 "$GIT_ABBREV" model --objects=10 "$repo"
expect_exit 129 "$GIT_ABBREV" history --help
checks=$((checks + 1))
grep -q 'usage: git abbrev history' "$out" || fail "history --help: no usage on stdout"

finish
