#!/bin/sh
# t-verify-checkpatch.sh - `git abbrev verify --format=checkpatch`: each
# kind of finding as the kernel's scripts/checkpatch.pl --show-types
# prints its own (golden lines: level, type, message, the "#N: FILE:"
# line and the quoted line), the total line with the input's line count
# (from wc -l), the verdict of a clean input, and the output parsed with
# the regular expressions of a tool that reads checkpatch's (U-Boot's
# patman).  IDs and subjects come from git, never from the tool.

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"

repo=$tmp/planted
gen_repo "$repo" planted
G() { git -C "$repo" "$@"; }
subj() { G log -1 --format=%s "$1"; }
short() { G rev-parse --short=12 "$1"; }

# the first ID of three planted pairs, from one jget
# shellcheck disable=SC2046 # its three words
set -- $(jget "$repo.json" 'words([planted(k)["ids"][0] for k in ("commit-commit", "commit-blob", "tree-tree")])')
A=$1 C=$2 T=$3
A8=$(echo "$A" | cut -c1-8); C8=$(echo "$C" | cut -c1-8); T12=$(echo "$T" | cut -c1-12)
[ "$(G rev-parse --disambiguate="$A8" | wc -l)" -ge 2 ] || die "$A8 is not ambiguous"
M3=$(G rev-parse main~3); M4=$(G rev-parse main~4); M5=$(G rev-parse main~5)
S_M3=$(subj "$M3"); S_M4=$(subj "$M4"); S_M5=$(subj "$M5")
M3s=$(short "$M3"); M4s=$(short "$M4"); M5s=$(short "$M5"); Cs=$(short "$C")
S_C=$(subj "$C")
M3_7=$(echo "$M3" | cut -c1-7)
U=0000000000ab
[ -z "$(G rev-parse --disambiguate=$U)" ] || die "$U names an object"

cat >"$tmp/p.patch" <<EOF
From 1111111111111111111111111111111111111111 Mon Sep 17 00:00:00 2001
From: A U Thor <author@example.com>
Subject: [PATCH] one finding of each kind

Fixes: $U ("no such subject")
Fixes: $A8
Fixes: $M3s ("not the subject")
Fixes: $M3_7 ("$S_M3")
As commit $M4s ("$S_M5") said.
Fixes: $C8 ("$S_C")
Fixes: $T12 ("$S_M3")

Signed-off-by: A U Thor <author@example.com>
---
diff --git a/x b/x
+Fixes: $U ("a diff is not checked")
EOF
nlines=$(wc -l <"$tmp/p.patch")
cat >"$tmp/p.want" <<EOF
ERROR:UNKNOWN_COMMIT_ID: $U names no object in this repository; no commit has this subject
#5: FILE: p.patch:5:
+Fixes: $U ("no such subject")

ERROR:AMBIGUOUS_COMMIT_ID: $A8 is ambiguous: 2 commits start with it; no subject to tell which
#6: FILE: p.patch:6:
+Fixes: $A8

WARNING:BAD_FIXES_TAG: Fixes: tag style: no ("subject") after the ID
#6: FILE: p.patch:6:
+Fixes: $A8

ERROR:BAD_FIXES_TAG: subject does not match $M3s ("$S_M3"), and no commit has the subject written: the ID or the subject is wrong, nothing tells which
#7: FILE: p.patch:7:
+Fixes: $M3s ("not the subject")

WARNING:BAD_FIXES_TAG: $M3_7 has 7 hex chars, fewer than 12 - ie: 'Fixes: $M3s ("$S_M3")'
#8: FILE: p.patch:8:
+Fixes: $M3_7 ("$S_M3")

ERROR:GIT_COMMIT_ID: subject does not match $M4s ("$S_M4"); it is the subject of $M5s - ie: 'commit $M5s ("$S_M5")'
#9: FILE: p.patch:9:
+As commit $M4s ("$S_M5") said.

WARNING:AMBIGUOUS_COMMIT_ID: $C8 also names a blob: \`git show $C8\` fails, \`git log $C8\` works - ie: 'Fixes: $Cs ("$S_C")'
#10: FILE: p.patch:10:
+Fixes: $C8 ("$S_C")

WARNING:BAD_FIXES_TAG: $C8 has 8 hex chars, fewer than 12 - ie: 'Fixes: $Cs ("$S_C")'
#10: FILE: p.patch:10:
+Fixes: $C8 ("$S_C")

ERROR:UNKNOWN_COMMIT_ID: $T12 is not a commit but a tree; a commit has this subject - ie: 'Fixes: $M3s ("$S_M3")'
#11: FILE: p.patch:11:
+Fixes: $T12 ("$S_M3")

total: 5 errors, 4 warnings, $nlines lines checked

p.patch has style problems, please review.
EOF
say "every kind of finding, golden"
# a relative input is read from where the command started, not from -C's
expect_exit 1 -C "$tmp" "$GIT_ABBREV" verify -C "$repo" --format=checkpatch p.patch
checks=$((checks + 1))
diff -u "$tmp/p.want" "$out" >"$tmp/diff" || { fail "checkpatch lines of p.patch"; cat "$tmp/diff"; }
[ -s "$err" ] && fail "stderr not empty: $(cat "$err")"

say "parsed as patman parses checkpatch.pl"
py_check "patman's expressions do not read the output" verify_check.py patman "$out"

say "the same findings as the text format, one for one"
expect_exit 1 -C "$repo" "$GIT_ABBREV" verify "$tmp/p.patch"
checks=$((checks + 1))
grep -c '^[^ ]*:[0-9]*: \(error\|warning\): ' "$out" >"$tmp/n.text"
grep -c '^\(ERROR\|WARNING\):' "$tmp/p.want" | cmp -s - "$tmp/n.text" || fail "text and checkpatch disagree"

say "a clean input: no finding, the total, checkpatch's verdict"
printf 'good\n\nFixes: %s ("%s")\n' "$M3s" "$S_M3" >"$tmp/good.txt"
expect_exit 0 -C "$repo" "$GIT_ABBREV" verify --format=checkpatch "$tmp/good.txt"
checks=$((checks + 1))
printf 'total: 0 errors, 0 warnings, 3 lines checked\n\n%s has no obvious style problems and is ready for submission.\n' \
	"$tmp/good.txt" | cmp -s - "$out" || { fail "clean input"; cat "$out"; }
expect_exit 0 -C "$repo" "$GIT_ABBREV" verify --format=checkpatch - <"$tmp/good.txt"
checks=$((checks + 1))
tail -1 "$out" | grep -qx 'Your patch has no obvious style problems and is ready for submission.' ||
	fail "stdin is not \"Your patch\": $(tail -1 "$out")"

say "--fail-on=error: warnings printed and counted, exit 0"
printf 'short\n\nFixes: %s ("%s")\n' "$M3_7" "$S_M3" >"$tmp/short.txt"
expect_exit 0 -C "$repo" "$GIT_ABBREV" verify --format=checkpatch --fail-on=error "$tmp/short.txt"
checks=$((checks + 1))
grep -qx 'total: 0 errors, 1 warnings, 3 lines checked' "$out" || { fail "warning total"; cat "$out"; }
grep -q '^WARNING:BAD_FIXES_TAG: ' "$out" || fail "no BAD_FIXES_TAG warning"

say "only verify has it"
expect_exit 2 -C "$repo" "$GIT_ABBREV" report --format=checkpatch
checks=$((checks + 1))
head -1 "$err" | grep -q "no format 'checkpatch'" || fail "report --format=checkpatch: $(cat "$err")"

finish
