#!/bin/sh
# t-verify-range.sh - `verify --range` lists the commits `git rev-list`
# lists for the same range, in the order libgit2's revwalk gave them
# (tests/revwalk_dump: TOPOLOGICAL | TIME), with and without a
# commit-graph file: a history of merges (an octopus, an unrelated root
# merged in), committer times that tie and that run backwards, annotated
# tags; the range forms "B", "A..B", "A..", "A...B", "^A B", git's
# shorthands "C^!", "C^@", "C^-N" and revisions libgit2 reads itself
# ("@{-1}", "main^{/text}"), "@" for HEAD and HEAD's own reflog
# ("HEAD@{6}", where libgit2 reads the branch's); and a clear
# one-line error for a bad revision (exit 2) or a missing commit (exit 3).
# Every message names an unknown commit, so each commit checked gives one
# finding and the findings' order is the walk's.
. "$(dirname "$0")/setup.sh"

if [ -z "${REVWALK_DUMP:-}" ]; then
	for c in "$PWD/tests/revwalk_dump" "$PWD/../tests/revwalk_dump"; do
		[ -x "$c" ] && REVWALK_DUMP=$c && break
	done
fi
[ -x "${REVWALK_DUMP:-}" ] || die "no tests/revwalk_dump: run make check (or set REVWALK_DUMP)"

r=$tmp/r
git init -q -b main "$r"
G() { git -C "$r" "$@"; }
n=0
mk() { # TIME SUBJECT: a commit on the branch checked out, committed at TIME (seconds after a base)
	n=$((n + 1))
	echo "$2" >"$r/f$n"
	G add "f$n"
	GIT_COMMITTER_DATE="$((1112900000 + $1)) +0000" G commit -q -m "$2" -m 'Fixes: 0123456789ab ("no such commit")'
}
merge() { # TIME BRANCH...: a merge commit at TIME
	t=$1
	shift
	GIT_COMMITTER_DATE="$((1112900000 + t)) +0000" G merge -q --no-ff --allow-unrelated-histories \
		-m "merge $*" -m 'Fixes: 0123456789ab ("no such commit")' "$@" >/dev/null
}
mk 1000 root
mk 2000 a1
G tag -a -m v0 v0
mk 2000 a2
G checkout -q -b side1 HEAD~1
mk 2000 s1
mk 1500 "s2 older than its parent"
G checkout -q -b side2 main~1
for i in 1 2 3 4 5 6; do mk 2000 "tie $i"; done
G checkout -q main
mk 2000 a3
G tag -a -m v1 v1
merge 2000 side1
G checkout -q -b side3 main~2
mk 2500 c1
G checkout -q main
merge 2000 side2 side3
G tag oct
G checkout -q --orphan other
G rm -rfq .
mk 1800 "o1, a second root"
mk 2000 o2
G checkout -q main
merge 4000 other
mk 2000 "a4 older than the merge"
G tag lw
for i in 1 2 3; do mk 3000 "late $i"; done

# RANGE [REPO]: verify's commits (one finding each) are git rev-list's,
# in libgit2's order when it reads the form.  git's list, verify's JSON
# and libgit2's order are kept here and listed in $tmp/ranges; one
# verify_check.py call (ranges) compares them all (ranges_checked).
n_range=0
: >"$tmp/ranges"
check_range() {
	repo=${2:-$r}
	checks=$((checks + 1))
	n_range=$((n_range + 1))
	cr=$tmp/range.$n_range
	# shellcheck disable=SC2086 # the words of "^A B" are rev-list's arguments
	git -C "$repo" rev-list $1 >"$cr.want" || { fail "git rev-list $1"; return; }
	code=1
	[ -s "$cr.want" ] || code=0
	expect_exit $code "$GIT_ABBREV" verify -C "$repo" --format=json --range="$1"
	[ "$rc" = $code ] || return 0
	cp "$out" "$cr.json"
	order=-
	case $1 in
	*...* | *" "* | ^* | *^[@!-]* | *@*) ;; # libgit2's revwalk reads none of these
	*)
		"$REVWALK_DUMP" "$repo" "$1" >"$cr.libgit2" || { fail "revwalk_dump $1"; return; }
		order=$cr.libgit2
		;;
	esac
	printf '%s\t%s\t%s\t%s\n' "$cr.json" "$cr.want" "$order" "$1" >>"$tmp/ranges"
}
ranges_checked() {
	"$PYTHON3" "$tests_dir/verify_check.py" ranges "$tmp/ranges" >"$tmp/ranges.out" 2>&1 ||
		while IFS= read -r line; do fail "$line"; done <"$tmp/ranges.out"
	: >"$tmp/ranges"
}

ranges="HEAD main v1 lw side1 other v0..main side1..main main..side1 other..main
HEAD~3..HEAD v1.. ..v1 oct^2..oct^3 oct^3..oct v1..v1
oct^! oct^@ oct^- oct^-2 oct^-3 v1^! v1^@ lw^-1 HEAD~2^! v0~1^@ main^{/^a3}
@~2..@ v1^{commit}^! main~1^-"
words="^side1@main|main@^side1@^other|side1@other|v1...side2|other...side1|^main@main|main@^main"
for_all() { # REPO
	for x in $ranges; do check_range "$x" "$1"; done
	old=$IFS
	IFS='|'
	for x in $words; do
		IFS=$old
		check_range "$(echo "$x" | tr @ ' ')" "$1"
	done
	IFS=$old
}
for_all "$r"
# the reflogs of the work repository (a bare clone has none)
[ "$(G rev-parse HEAD@{6})" != "$(G rev-parse main@{6})" ] || die "HEAD@{6} is main@{6}"
for x in @{-1} HEAD@{1} @{-1}^! HEAD@{6} HEAD@{6}^! main@{6} HEAD@{6}..main; do check_range "$x" "$r"; done
# the same with parents and times from a commit-graph file
cg=$tmp/cg
git clone -q --no-local --bare "$r" "$cg"
git -C "$cg" commit-graph write --reachable
[ -f "$cg/objects/info/commit-graph" ] || die "no commit-graph written"
for_all "$cg"
ranges_checked

# ---- messages read again: the walk keeps at most 256 MB of them ------------------
# (the hooks build lowers the cap: none kept, then a few)
hooks=${GIT_ABBREV_HOOKS:-$(dirname "$GIT_ABBREV")/../tests/git-abbrev-hooks}
[ -x "$hooks" ] || die "no tests/git-abbrev-hooks: run make check (or set GIT_ABBREV_HOOKS)"
expect_exit 1 "$GIT_ABBREV" verify -C "$r" --format=json --range=HEAD
cp "$out" "$tmp/kept.json"
for keep in 0 300; do
	GIT_ABBREV_TEST_RANGE_KEEP=$keep
	export GIT_ABBREV_TEST_RANGE_KEEP
	expect_exit 1 "$hooks" verify -C "$r" --format=json --range=HEAD
	unset GIT_ABBREV_TEST_RANGE_KEEP
	checks=$((checks + 1))
	cmp -s "$out" "$tmp/kept.json" || { fail "--range with $keep bytes of messages kept: other findings"; show "$out"; }
done

# ---- the subject search over the walk's graph ------------------------------------
# No commit-graph file and the subject cache warm (the second run): ancestry
# and "public" come from the graph of what the walk read, with the history
# of the branches and tags on top.  Of two commits with the subject, the
# one on main is public, the one only a pull request's ref reaches is not.
p=$tmp/pub
git init -q -b main "$p"
P() { git -C "$p" "$@"; }
pc() { # FILE SUBJECT [BODY]
	echo "$2" >"$p/$1"
	P add "$1"
	if [ $# -gt 2 ]; then P commit -q -m "$2" -m "$3"; else P commit -q -m "$2"; fi
}
pc base.txt base
P checkout -q -b pr
pc x.txt "fix: the thing"
P update-ref refs/pull/1/head HEAD
P checkout -q main
pc y.txt "fix: the thing"
P checkout -q -b side main~1
P branch -q -D pr
pc z.txt "side: use it" 'Fixes: 0123456789ab ("fix: the thing")'
P repack -adq
y=$(P rev-parse --short=12 main)
for run in cold warm; do
	expect_exit 1 "$GIT_ABBREV" verify -C "$p" --range=side
	checks=$((checks + 1))
	grep -q "^    suggestion: Fixes: $y (\"fix: the thing\")\$" "$out" ||
		{ fail "subject search, $run cache: want main's commit $y"; show "$out"; }
done
ls "$GIT_ABBREV_CACHE_DIR"/*.subjects >/dev/null 2>&1 || fail "no subject cache written: the second run was not warm"

# ---- ancestry without a commit-graph file, the subject cache warm ----------------
# libgit2 walks parent by parent for each question; past a CPU budget every
# commit's parents are read once and the graph answers (the hooks build
# sets the budget to 0: after the first walk).  The findings are the same;
# git merge-base --is-ancestor is the oracle for the one that is not.
q=$tmp/anc
git init -q -b main "$q"
Q() { git -C "$q" "$@"; }
qt=1600000000
qc() { # SUBJECT [BODY]: a minute after the last (the walk stops by the dates)
	echo "$1" >"$q/f"
	Q add f
	qt=$((qt + 60))
	set -- "$@" ""
	GIT_COMMITTER_DATE="@$qt +0000" GIT_AUTHOR_DATE="@$qt +0000" \
		git -C "$q" commit -q -m "$1" ${2:+-m "$2"}
}
qc one
q1=$(Q rev-parse --short=12 main)
qc two
q2=$(Q rev-parse --short=12 main)
Q checkout -q -b side
qc "side work"
qs=$(Q rev-parse --short=12 side)
Q checkout -q main
# far enough below the range that its walk does not reach one and two
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do qc "filler $i"; done
qc three "Fixes: $q1 (\"one\")"
qc four "Fixes: $qs (\"side work\")
Fixes: $q2 (\"two\")"
qc five "Fixes: $(Q rev-parse --short=12 main) (\"four\")"
Q repack -adq
[ ! -e "$q/.git/objects/info/commit-graph" ] || die "a commit-graph in $q"
Q merge-base --is-ancestor "$qs" main && die "side is an ancestor of main"
Q merge-base --is-ancestor "$q1" main~2 || die "one is no ancestor of three"
expect_exit 1 "$GIT_ABBREV" verify -C "$q" --format=json --range=main~3..main # cold: fills the cache
expect_exit 1 "$GIT_ABBREV" verify -C "$q" --format=json --range=main~3..main
cp "$out" "$tmp/walks.json"
py_check "ancestry, warm cache: findings" verify_check.py only_error "$out" not-ancestor "$qs" 4
# with every pack's table cached, the questions below the range go to the
# tables' graph at once, whatever libgit2's budget (its first walk alone
# read 1.25M commits on a 1.3M-commit history)
GIT_ABBREV_TEST_TRACE=1
export GIT_ABBREV_TEST_TRACE
expect_exit 1 "$hooks" verify -C "$q" --format=json --range=main~3..main
unset GIT_ABBREV_TEST_TRACE
checks=$((checks + 1))
cmp -s "$out" "$tmp/walks.json" || { fail "ancestry, warm cache, hooks build: other findings"; show "$out"; }
checks=$((checks + 1))
grep -q "the tables cached: their graph, before any walk" "$err" &&
	grep -q "every pack's parents from its cached table" "$err" ||
	{ fail "warm cache: the ancestry below the range did not go to the tables' graph"; show "$err"; }
GIT_ABBREV_TEST_WALK_BUDGET_MS=0 GIT_ABBREV_TEST_TRACE=1
export GIT_ABBREV_TEST_WALK_BUDGET_MS GIT_ABBREV_TEST_TRACE
expect_exit 1 "$hooks" verify -C "$q" --format=json --range=main~3..main
unset GIT_ABBREV_TEST_WALK_BUDGET_MS GIT_ABBREV_TEST_TRACE
checks=$((checks + 1))
cmp -s "$out" "$tmp/walks.json" || { fail "ancestry from the parents read: other findings"; show "$out"; }
checks=$((checks + 1))
grep -q "every commit's parents read" "$err" || { fail "the parents were not read"; show "$err"; }
# the cache is warm: every pack's parents come from its table, no commit of it read again
checks=$((checks + 1))
grep -q "every pack's parents from its cached table" "$err" ||
	{ fail "warm cache: the packs' commits were read again for their parents"; show "$err"; }
# the same without a cache and with a cold one (the tables' parents as git says them)
GIT_ABBREV_TEST_WALK_BUDGET_MS=0
export GIT_ABBREV_TEST_WALK_BUDGET_MS
expect_exit 1 "$hooks" verify -C "$q" --format=json --range=main~3..main --no-cache
checks=$((checks + 1))
cmp -s "$out" "$tmp/walks.json" || { fail "ancestry without the cache: other findings"; show "$out"; }
rm -rf "$GIT_ABBREV_CACHE_DIR"
expect_exit 1 "$hooks" verify -C "$q" --format=json --range=main~3..main
checks=$((checks + 1))
cmp -s "$out" "$tmp/walks.json" || { fail "ancestry, cold cache: other findings"; show "$out"; }
unset GIT_ABBREV_TEST_WALK_BUDGET_MS

# ---- errors --------------------------------------------------------------------
for bad in no-such-rev "no-such-rev..main" "main ^no-such-rev" "HEAD^{tree}" "oct^-4" "v0~1^-" \
	"no-such-rev^!" "HEAD^{tree}^@"; do
	expect_exit 2 "$GIT_ABBREV" verify -C "$r" --range="$bad"
	one_line "$err" || { fail "--range='$bad': not one line on stderr"; show "$err"; }
	grep -q "^git-abbrev: bad revision range '$bad'" "$err" ||
		{ fail "--range='$bad': message"; show "$err"; }
done
# a commit of the history missing: a runtime error naming it
broken=$tmp/broken
cp -a "$r" "$broken"
a1=$(G rev-parse v0^{commit})
rm "$broken/.git/objects/$(echo "$a1" | cut -c1-2)/$(echo "$a1" | cut -c3-)"
expect_exit 3 "$GIT_ABBREV" verify -C "$broken" --range=HEAD
one_line "$err" || { fail "missing commit: not one line on stderr"; show "$err"; }
grep -q "^git-abbrev: cannot walk history: $a1: no such commit" "$err" ||
	{ fail "missing commit: message"; show "$err"; }
[ -s "$out" ] && fail "missing commit: findings printed before the error"

# ---- a port citing its original by an ID not here, with the port's own subject:
# under --range only the citing commit has that subject, so it is another
# project's commit (a warning, nothing suggested); as a file, an error
p=$tmp/port
git init -q -b main "$p"
echo 1 >"$p/a"
git -C "$p" add a
git -C "$p" commit -q -m "base"
echo 2 >"$p/a"
git -C "$p" commit -qam "net: fix the loop" -m 'Same as commit 0123456789ab ("net: fix the loop") there.'
[ "$(git -C "$p" log --all --format=%s | grep -c '^net: fix the loop$')" = 1 ] ||
	die "port: the subject is not the citing commit's alone"
git -C "$p" rev-parse -q --verify 0123456789ab >/dev/null && die "port: 0123456789ab names an object"
expect_exit 1 "$GIT_ABBREV" verify -C "$p" --range=HEAD --format=json
py_check "port: --range" verify_check.py at_given "$out" 0123456789ab warning not-here 0
git -C "$p" log -1 --format=%B >"$tmp/port.msg"
expect_exit 1 "$GIT_ABBREV" verify -C "$p" --format=json "$tmp/port.msg"
py_check "port: as a file" verify_check.py at_given "$out" 0123456789ab error unknown-id -

finish
