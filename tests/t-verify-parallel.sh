#!/bin/sh
# t-verify-parallel.sh - verify --range and Fixes: tags whose target is
# not an ancestor of the fix.  Fix and culprit made on parallel branches,
# both merged into HEAD since: a warning, not-ancestor-merged, not an
# error.  Recall: a culprit on a branch never merged (not in the range),
# and a rebased-away culprit whose subject an ancestor has, stay
# not-ancestor errors (the latter suggesting the ancestor).  An unknown
# ID whose subject a commit on a parallel branch has is one error,
# unknown-id, and not a second one about that commit's ancestry.
# Oracle: git merge-base --is-ancestor, git rev-list HEAD, git
# rev-parse --disambiguate.

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"

r=$tmp/par
git init -q -b main "$r"
G() { git -C "$r" "$@"; }
n=0
c() { # file, message: a commit a minute after the last
	n=$((n + 1))
	echo "$2" >>"$r/$1"
	G add "$1"
	printf '%s\n' "$2" | GIT_AUTHOR_DATE="$((1700000000 + 60 * n)) +0000" \
		GIT_COMMITTER_DATE="$((1700000000 + 60 * n)) +0000" G commit -q -F -
	G rev-parse HEAD
}
m() { # branch: merged into the current one, a minute after the last commit
	n=$((n + 1))
	GIT_AUTHOR_DATE="$((1700000000 + 60 * n)) +0000" \
		GIT_COMMITTER_DATE="$((1700000000 + 60 * n)) +0000" G merge -q --no-ff -m "Merge $1" "$1"
}
c base "base: first" >/dev/null
G checkout -q -b topic-a
culprit=$(c a "area: add the frob")
G checkout -q main
G checkout -q -b topic-b
c b "other: prepare" >/dev/null
fix=$(c b "area: fix the frob

Fixes: $(G rev-parse --short=12 "$culprit") (\"area: add the frob\")")
G checkout -q main
m topic-a
m topic-b
# a parallel branch merged after the fix below
G checkout -q -b topic-c
hrob=$(c h "area: add the hrob")
G checkout -q main
# a branch never merged
G checkout -q -b lost
stray=$(c s "area: add the stray")
G checkout -q main
G branch -q -D lost
# rebased away: the same subject again on main, the old commit left behind
G checkout -q -b old
gone=$(c g "area: add the grob")
G checkout -q main
kept=$(c g2 "area: add the grob")
G branch -q -D old
unknown=0a1b2c3d4e5f
fix2=$(c c "area: fix the stray and the grob

Fixes: $(G rev-parse --short=12 "$stray") (\"area: add the stray\")
Fixes: $(G rev-parse --short=12 "$gone") (\"area: add the grob\")
Fixes: $unknown (\"area: add the hrob\")")
m topic-c

# the oracle
G merge-base --is-ancestor "$culprit" "$fix" && die "the culprit is an ancestor of the fix"
G rev-list HEAD | grep -qx "$culprit" || die "the culprit is not in HEAD's history"
G merge-base --is-ancestor "$hrob" "$fix2" && die "the hrob commit is an ancestor of fix2"
G rev-list HEAD | grep -qx "$hrob" || die "the hrob commit is not in HEAD's history"
G rev-list HEAD | grep -qx "$stray" && die "the stray commit is in HEAD's history"
G rev-list HEAD | grep -qx "$gone" && die "the rebased-away commit is in HEAD's history"
G merge-base --is-ancestor "$kept" "$fix2" || die "the kept copy is no ancestor"
[ -z "$(G rev-parse --disambiguate=$unknown 2>/dev/null)" ] || die "$unknown names an object"

expect_exit 1 -C "$r" "$GIT_ABBREV" verify --range=HEAD --format=json
py_check "not-ancestor is not told from a parallel branch" verify_check.py parallel "$out" "$fix" "$fix2" "$culprit" "$stray" "$gone" "$kept" "$unknown"
finish
