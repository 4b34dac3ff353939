#!/bin/sh
# t-git-hooks.sh - contrib/hooks/commit-msg and contrib/hooks/pre-push, enabled
# with core.hooksPath as the README says, under real git commands: a
# `git commit` whose message cites no commit is refused with the finding
# on stderr and HEAD unmoved, one citing a commit rightly is made, a
# comment line is not checked; a `git push` to a local bare repository of
# a commit with a wrong reference is refused (the remote's ref unmoved, a
# new branch not made) and, once reworded, accepted.  What happened is
# read from git (rev-parse, log), never from the hooks.

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"

hooks=$srcdir/contrib/hooks
for h in commit-msg pre-push; do
	[ -x "$hooks/$h" ] || die "$hooks/$h is not an executable hook"
done
r=$tmp/work
git init -q -b main "$r" 2>/dev/null || { git init -q "$r" && git -C "$r" checkout -q -b main; }
G() { git -C "$r" "$@"; }
echo one >"$r/one"
G add one
G commit -q -m "base: one"
echo two >"$r/two"
G add two
G commit -q -m "base: two"
B1=$(G rev-parse --short=12 HEAD~1)
U=0000000000ab
[ -z "$(G rev-parse --disambiguate=$U)" ] || die "$U names an object"
G config core.hooksPath "$hooks"

# ---- commit-msg ---------------------------------------------------------------
head=$(G rev-parse HEAD)
echo x >"$r/x"
G add x
expect_exit 1 -C "$r" git commit -q -m "x: add" -m "Fixes: $U (\"no such commit\")"
checks=$((checks + 1))
[ "$(G rev-parse HEAD)" = "$head" ] || fail "commit-msg: a commit citing $U was made"
checks=$((checks + 1))
grep -q "error: $U names no object" "$err" || { fail "commit-msg: no finding on stderr"; show "$err"; }
checks=$((checks + 1))
[ ! -s "$out" ] || { fail "commit-msg: findings on stdout"; show "$out"; }

expect_exit 0 -C "$r" git commit -q -m "x: add" -m "Fixes: $B1 (\"base: one\")"
checks=$((checks + 1))
[ "$(G rev-parse HEAD~1)" = "$head" ] && G log -1 --format=%B | grep -qxF "Fixes: $B1 (\"base: one\")" ||
	fail "commit-msg: the right reference was not committed"

# a comment line is what git strips, not the message
echo y >"$r/y"
G add y
printf 'y: add\n\n# Fixes: %s ("a comment")\n' "$U" >"$tmp/msg"
head=$(G rev-parse HEAD)
expect_exit 0 -C "$r" git commit -q --cleanup=strip -F "$tmp/msg"
checks=$((checks + 1))
[ "$(G rev-parse HEAD~1)" = "$head" ] || { fail "commit-msg: a comment line refused the commit"; show "$err"; }

# ---- pre-push ------------------------------------------------------------------
bare=$tmp/remote.git
git init -q --bare "$bare"
G remote add origin "$bare"
expect_exit 0 -C "$r" git push -q origin main
checks=$((checks + 1))
[ "$(git -C "$bare" rev-parse main)" = "$(G rev-parse main)" ] || fail "pre-push: a clean history was not pushed"

# a wrong reference, committed past commit-msg
pushed=$(G rev-parse main)
echo z >"$r/z"
G add z
G commit -q --no-verify -m "z: add" -m "Fixes: $U (\"nothing\")"
bad=$(G rev-parse --short HEAD)
expect_exit 1 -C "$r" git push -q origin main
checks=$((checks + 1))
[ "$(git -C "$bare" rev-parse main)" = "$pushed" ] || fail "pre-push: the wrong reference was pushed"
checks=$((checks + 1))
grep -q "error: $U names no object" "$err" && grep -q "^$bad" "$err" ||
	{ fail "pre-push: no finding naming the commit on stderr"; show "$err"; }
# to a new branch: refused too
expect_exit 1 -C "$r" git push -q origin main:refs/heads/topic
checks=$((checks + 1))
git -C "$bare" rev-parse -q --verify refs/heads/topic >/dev/null && fail "pre-push: a new branch was pushed"

# reworded: accepted
G commit -q --amend --no-verify -m "z: add" -m "Fixes: $B1 (\"base: one\")"
expect_exit 0 -C "$r" git push -q origin main
checks=$((checks + 1))
[ "$(git -C "$bare" rev-parse main)" = "$(G rev-parse main)" ] || { fail "pre-push: the mended commit was not pushed"; show "$err"; }

finish
