#!/bin/sh
# t-git-hooks.sh - contrib/hooks/commit-msg and contrib/hooks/pre-push, enabled
# with core.hooksPath as the README says, under real git commands: a
# `git commit` whose message cites no commit is refused with the finding
# on stderr and HEAD unmoved, one citing a commit rightly is made, a
# comment line is not checked; a `git push` to a local bare repository of
# a commit with a wrong reference is refused (the remote's ref unmoved, a
# new branch not made) and, once reworded, accepted.  pre-push watches
# too (gen_repo.py watch, abbrev.minLength 7): a branch whose commit was
# brute-forced to share >= 7 hex chars with a commit the pushed history
# cites is refused; one sharing them with a commit nobody cites is
# pushed, the share shown.  What happened is read
# from git (rev-parse, rev-list, log), never from the hooks.

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

# ---- pre-push: watch -------------------------------------------------------------
w=$tmp/watch
gen_repo "$w" watch
crafted=$(jget "$w.json" 'd["crafted"]')
target=$(jget "$w.json" 'd["target"]')
shared=$(jget "$w.json" 'd["shared"]')
# the oracles: the shared prefix names both commits; main cites the target
[ "$shared" -ge 7 ] || die "the crafted commit shares $shared chars only"
[ "$(git -C "$w" rev-parse --disambiguate="$(echo "$target" | cut -c1-7)" | sort)" = \
  "$(printf '%s\n' "$crafted" "$target" | sort)" ] || die "the 7-char prefix does not name exactly the two"
git -C "$w" merge-base --is-ancestor "$target" main || die "main lacks the target"
git -C "$w" log main --format=%B | grep -q "Fixes: $(echo "$target" | cut -c1-12)" || die "main cites no target"
[ "$(git -C "$w" rev-list main..topic)" = "$crafted" ] || die "the topic is not the crafted commit alone"
# a developer's clone of main alone (no crafted commit), pushing to a bare remote
c=$tmp/watch-clone
wbare=$tmp/watch-remote.git
git clone -q --no-local --single-branch --branch main "$w" "$c"
W() { git -C "$c" "$@"; }
W cat-file -e "$crafted" 2>/dev/null && die "the clone has the crafted commit"
git init -q --bare "$wbare"
W remote set-url origin "$wbare"
W update-ref -d refs/remotes/origin/main
W config abbrev.minLength 7
W config core.hooksPath "$hooks"

say "pre-push: a history with no shared prefix pushed"
expect_exit 0 -C "$c" git push -q origin main
checks=$((checks + 1))
[ "$(git -C "$wbare" rev-parse main)" = "$(W rev-parse main)" ] || { fail "pre-push: main was not pushed"; show "$err"; }

say "pre-push: a commit sharing 7 chars with one nobody cites pushed, the share shown"
# brute-forced on main's tip: its first 7 hex chars are those of a commit other than the target
W rev-list main | grep -v "^$target\$" >"$tmp/others"
"$PYTHON3" "$tests_dir/gen_repo.py" near "$c" "$tmp/others" 7 "shares with an uncited one" \
	>"$tmp/uncited" || die "no commit sharing 7 chars made"
read -r near other <"$tmp/uncited"
[ "$(W rev-parse --disambiguate="$(echo "$near" | cut -c1-7)" | sort)" = "$(printf '%s\n' "$near" "$other" | sort)" ] ||
	die "the 7-char prefix of $near does not name it and $other"
W log --all --format=%B | grep -q "$(echo "$other" | cut -c1-7)" && die "something cites $other"
W update-ref refs/heads/main "$near"
expect_exit 0 -C "$c" git push -q origin main
checks=$((checks + 1))
[ "$(git -C "$wbare" rev-parse main)" = "$near" ] || { fail "pre-push: the commit sharing with an uncited one was refused"; show "$err"; }
checks=$((checks + 1))
grep -q "commit $near " "$err" && grep -q "with commit $other " "$err" && grep -q "nobody cites" "$err" ||
	{ fail "pre-push: the share with an uncited commit is not shown"; show "$err"; }

say "pre-push: a commit brute-forced to share 7 chars with a cited one refused"
W fetch -q "$w" topic:topic
expect_exit 1 -C "$c" git push -q origin topic
checks=$((checks + 1))
git -C "$wbare" rev-parse -q --verify refs/heads/topic >/dev/null && fail "pre-push: the crafted commit was pushed"
checks=$((checks + 1))
git -C "$wbare" cat-file -e "$crafted" 2>/dev/null && fail "pre-push: the crafted commit reached the remote"
checks=$((checks + 1))
grep -q "commit $crafted " "$err" && grep -q "with commit $target " "$err" &&
	grep -q "possibly crafted" "$err" && grep -q "pre-push: git abbrev watch found" "$err" ||
	{ fail "pre-push: the crafted commit is not named on stderr"; show "$err"; }
# --no-verify is the way past it
expect_exit 0 -C "$c" git push -q --no-verify origin topic
checks=$((checks + 1))
[ "$(git -C "$wbare" rev-parse topic)" = "$crafted" ] || fail "pre-push: --no-verify did not push"

finish
