#!/bin/sh
# t-verify-repo.sh - verify --repo=<path>: references to another
# repository's commits (mainline from a stable tree, a project's
# upstream).  Three separate generated repositories (gen_repo.py forks):
# stable is checked; mainline and other are given with --repo.  A right
# reference to a mainline commit is an error without --repo and nothing
# with it; a wrong subject, an ID ambiguous in mainline and a short ID are
# judged there and said to be "not in this repository"; an ID no
# repository has is "in none of the given repositories", and where its
# subject is a --repo's commit's, that commit is named; a bare ID is a
# reference only where a commit has it; --repo is consulted in order after
# this repository; bad --repo values are clear errors.  IDs and subjects
# come from git.

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"

d=$tmp/forks
gen_repo "$d" forks
stable=$d/stable mainline=$d/mainline other=$d/other
A=$(jget "$d.json" 'd["planted"][0]["ids"][0]')
A8=$(echo "$A" | cut -c1-8)
M=$(git -C "$mainline" rev-parse mainline~5)
M12=$(echo "$M" | cut -c1-12) M7=$(echo "$M" | cut -c1-7)
S_M=$(git -C "$mainline" log -1 --format=%s "$M")
S_O=$(git -C "$other" log -1 --format=%s other~2)
O12=$(git -C "$other" rev-parse other~2 | cut -c1-12)
U=0000000000ab
for r in "$stable" "$mainline" "$other"; do
	[ -z "$(git -C "$r" rev-parse --disambiguate=$U)" ] || die "$U names an object in $r"
done
[ -z "$(git -C "$stable" rev-parse --disambiguate="$M12")" ] || die "stable has $M12"
[ "$(git -C "$mainline" rev-parse --disambiguate="$A8" | wc -l)" -eq 2 ] ||
	die "$A8 is not ambiguous in mainline"
say "mainline $M12 (\"$S_M\"), $A8 x2 in mainline; other $O12"

# ---- a right reference to mainline ---------------------------------------------
printf 'Fixes: %s ("%s")\n' "$M12" "$S_M" >"$tmp/right.txt"
expect_exit 1 -C "$stable" "$GIT_ABBREV" verify "$tmp/right.txt"
grep -q "error: $M12 names no object in this repository" "$out" ||
	{ fail "without --repo: not unknown"; show "$out"; }
expect_exit 0 -C "$stable" "$GIT_ABBREV" verify --repo="$mainline" "$tmp/right.txt"
checks=$((checks + 1))
verify_summary 1 1 0 0 | cmp -s - "$out" || { fail "a right reference to mainline reported"; show "$out"; }
# a relative path is taken from the directory verify runs in (as after -C)
expect_exit 0 -C "$stable" "$GIT_ABBREV" verify --repo=../mainline "$tmp/right.txt"

# ---- judged in mainline, worded apart -------------------------------------------
cat >"$tmp/cases.txt" <<EOF
Fixes: $M12 ("$S_O")
Fixes: $A8 ("x")
Fixes: $M7 ("$S_M")
Fixes: $U ("$S_M")
See $M12 for it.
The hash $U is nothing.
EOF
expect_exit 1 -C "$stable" "$GIT_ABBREV" verify --repo="$mainline" --format=json "$tmp/cases.txt"
py_check "findings with --repo" verify_check.py other_repo "$out" "$mainline" "$M" "$S_M"
# without --repo the bare ID names nothing here: not a reference
expect_exit 1 -C "$stable" "$GIT_ABBREV" verify --format=json "$tmp/cases.txt"
checks=$((checks + 1))
[ "$(jget "$out" 'd["references"]')" = 4 ] || fail "without --repo the bare ID counted"

# ---- repeatable, in order ------------------------------------------------------
printf 'Fixes: %s ("%s")\nFixes: %s ("%s")\n' "$O12" "$S_O" "$M12" "$S_M" >"$tmp/two.txt"
expect_exit 1 -C "$stable" "$GIT_ABBREV" verify --repo="$other" "$tmp/two.txt"
grep -q "error: $M12 is in none of the given repositories" "$out" || { fail "one --repo"; show "$out"; }
# other has no commit with mainline's subject either: said of every repository given
[ -z "$(git -C "$other" log --all --format=%s | grep -Fx "$S_M")" ] &&
[ -z "$(git -C "$stable" log --all --format=%s | grep -Fx "$S_M")" ] || die "$S_M in other or stable"
grep -q "error: $M12 is in none of the given repositories .*; no commit has this subject\$" "$out" ||
	{ fail "no subject in any --repo"; show "$out"; }
grep -q "$O12" "$out" && { fail "other's commit not found"; show "$out"; }
expect_exit 0 -C "$stable" "$GIT_ABBREV" verify --repo="$other" --repo="$mainline" "$tmp/two.txt"

# ---- bad values ----------------------------------------------------------------
expect_exit 2 -C "$stable" "$GIT_ABBREV" verify --repo= "$tmp/right.txt"
grep -q "^git-abbrev: option '--repo' needs" "$err" || { fail "--repo= message"; show "$err"; }
expect_exit 3 -C "$stable" "$GIT_ABBREV" verify --repo="$tmp/nothing" "$tmp/right.txt"
one_line "$err" && grep -q "^git-abbrev: .*$tmp/nothing" "$err" ||
	{ fail "a --repo that is no repository"; show "$err"; }
[ -s "$out" ] && { fail "output after a bad --repo"; show "$out"; }

finish
