#!/bin/sh
# t-verify.sh - `git abbrev verify` on a generated repository with planted
# collisions: a patch with every case of the issue on known lines (the
# exact findings, suggestions and exit status are compared), a patch of
# only correct references (exit 0), a revert, an mbox of two patches,
# --fix (the rewritten text, the file untouched, the result re-checked),
# JSON, --range on a history whose Fixes: tags point to a side branch and
# forward (after a reorder), random bytes, and a 400,000-line file of
# references (timed, not asserted).  Every ID and subject the test
# expects comes from git (rev-parse, log --format), never from the tool.

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"

repo=$tmp/planted
gen_repo "$repo" planted
planted() { # KIND INDEX -> the planted ID
	jget "$repo.json" "planted('$1')['ids'][$2]"
}
G() { git -C "$repo" "$@"; }
subj() { G log -1 --format=%s "$1"; }
short() { G rev-parse --short=12 "$1"; } # what verify suggests (git: unique among all objects)

A=$(planted commit-commit 0); B=$(planted commit-commit 1)
C=$(planted commit-blob 0)
T=$(planted tree-tree 0)
A8=$(echo "$A" | cut -c1-8); C8=$(echo "$C" | cut -c1-8); T12=$(echo "$T" | cut -c1-12)
[ "$(echo "$B" | cut -c1-8)" = "$A8" ] || die "planted commits do not share 8 chars"
[ "$(G cat-file -t "$(planted commit-blob 1)")" = blob ] || die "planted blob missing"
S_A=$(subj "$A"); S_C=$(subj "$C")
X1=$(printf '%s\n%s\n' "$A" "$B" | sort | head -1); X2=$(printf '%s\n%s\n' "$A" "$B" | sort | tail -1)
M3=$(G rev-parse main~3); M4=$(G rev-parse main~4); M5=$(G rev-parse main~5)
M6=$(G rev-parse main~6); M7=$(G rev-parse main~7)
S_M3=$(subj "$M3"); S_M4=$(subj "$M4"); S_M5=$(subj "$M5"); S_M6=$(subj "$M6"); S_M7=$(subj "$M7")
M3s=$(short "$M3"); M4s=$(short "$M4"); M5s=$(short "$M5"); M7s=$(short "$M7")
As=$(short "$A"); Cs=$(short "$C")
M3_7=$(echo "$M3" | cut -c1-7)
M3U=$(echo "$M3s" | tr a-f A-F)
U=0000000000ab
U40=deadbeef0123456789deadbeef0123456789ab
[ -z "$(G rev-parse --disambiguate=$U)" ] || die "$U names an object"
[ -z "$(G rev-parse --disambiguate=$U40)" ] || die "$U40 names an object"
# "main: change 296" shortened to "main: change 29..." and "planted cross-type coll..."
S_M3_short=$(echo "$S_M3" | sed 's/.$/.../')
case $S_M3 in *296) ;; *) die "unexpected subject of main~3: $S_M3" ;; esac
say "planted: $A8 x2 commits, $C8 commit+blob; main~3 $M3s ($S_M3)"

# ---- every case, one a line ------------------------------------------------
cat >"$tmp/cases.patch" <<EOF
From 1111111111111111111111111111111111111111 Mon Sep 17 00:00:00 2001
From: A U Thor <author@example.com>
Date: Thu, 7 Apr 2005 22:13:13 +0000
Subject: [PATCH] Fixes: $U ("a subject is the commit's")

Every case of the issue, one a line.

Fixes: $U ("$S_M5")
Fixes: $U ("no such subject")
Fixes: $U ("planted cross-type coll...")
Fixes: $A8 ("$S_A")
Fixes: $A8
Fixes: $C8 ("$S_C")
Fixes: $M3s ("$S_M7")
Fixes: $M3s ("not the subject")
Fixes: $M3_7 ("$S_M3")
Fixes: ${M3}0 ("$S_M3")
Fixes: $M3U ("$S_M3")
fixes:  $M3s ($S_M3)
Fixes: commit $M3s "$S_M3"
Fixes: $T12 ("$S_M3")
As commit $M3s ("$S_M3") said, and commit
  $M4s ("$S_M5") too.
> Fixes: $U ("a quoted reply is not checked")
Fixes: $M3s ("$S_M3_short")

Signed-off-by: A U Thor <author@example.com>
---
 x | 1 +
diff --git a/x b/x
--- a/x
+++ b/x
@@ -0,0 +1 @@
+Fixes: $U ("a diff is not checked")
-- 
2.34.1
EOF
# the Subject: (past [PATCH]) is the commit's subject, as git am makes it: checked
cat >"$tmp/cases.want" <<EOF
cases.patch:4: error: $U names no object in this repository; no commit has this subject
cases.patch:8: error: $U names no object in this repository; a commit has this subject
    suggestion: Fixes: $M5s ("$S_M5")
cases.patch:9: error: $U names no object in this repository; no commit has this subject
cases.patch:10: error: $U names no object in this repository; a commit has this subject
    suggestion: Fixes: $Cs ("$S_C")
cases.patch:11: error: $A8 is ambiguous: 2 commits start with it; the subject tells which
    candidate: $X1 ("$(subj "$X1")")
    candidate: $X2 ("$(subj "$X2")")
    suggestion: Fixes: $As ("$S_A")
cases.patch:12: error: $A8 is ambiguous: 2 commits start with it; no subject to tell which
cases.patch:12: warning: Fixes: tag style: no ("subject") after the ID
    candidate: $X1 ("$(subj "$X1")")
    candidate: $X2 ("$(subj "$X2")")
cases.patch:13: warning: $C8 also names a blob: \`git show $C8\` fails, \`git log $C8\` works
cases.patch:13: warning: $C8 has 8 hex chars, fewer than 12
    suggestion: Fixes: $Cs ("$S_C")
cases.patch:14: error: subject does not match $M3s ("$S_M3"); it is the subject of $M7s
    suggestion: Fixes: $M7s ("$S_M7")
cases.patch:15: error: subject does not match $M3s ("$S_M3"), and no commit has the subject written: the ID or the subject is wrong, nothing tells which
    candidate: $M3 ("$S_M3")
cases.patch:16: warning: $M3_7 has 7 hex chars, fewer than 12
    suggestion: Fixes: $M3s ("$S_M3")
cases.patch:17: error: ${M3}0 has 41 hex chars, more than a sha1 ID
    suggestion: Fixes: $M3 ("$S_M3")
cases.patch:18: warning: $M3U has upper-case hex; git writes IDs in lower case
    suggestion: Fixes: $M3s ("$S_M3")
cases.patch:19: warning: Fixes: tag style: the tag is not spelt "Fixes:"; not one space after "Fixes:" and before the subject; the subject lacks its double quotes
cases.patch:20: warning: Fixes: tag style: no word "commit" belongs after "Fixes:"; the subject lacks its parentheses
cases.patch:21: error: $T12 is not a commit but a tree; a commit has this subject
    suggestion: Fixes: $M3s ("$S_M3")
cases.patch:22: error: subject does not match $M4s ("$S_M4"); it is the subject of $M5s
    suggestion: commit $M5s ("$S_M5")
cases.patch:25: warning: subject shortened with "..."; $M3s is ("$S_M3")
EOF
# the last line counts what was checked: 18 references (the Subject:'s,
# the 14 Fixes: lines 8-21, the two in prose, the shortened one; not the
# quoted reply or the diff) in 1 message, and each finding of the lines above
verify_summary 18 1 "$(grep -c '^cases.patch:[0-9]*: error: ' "$tmp/cases.want")" \
	"$(grep -c '^cases.patch:[0-9]*: warning: ' "$tmp/cases.want")" >>"$tmp/cases.want"
# -C changes to the repository, but a relative input file is read from
# the directory the command started in (a patch here, checked against a
# repository there)
expect_exit 1 -C "$tmp" "$GIT_ABBREV" verify -C "$repo" cases.patch
checks=$((checks + 1))
diff -u "$tmp/cases.want" "$out" >"$tmp/diff" || { fail "findings of cases.patch"; cat "$tmp/diff"; }
[ -s "$err" ] && fail "stderr not empty: $(cat "$err")"
cp "$out" "$tmp/cases.out"

# from inside the repository, and from stdin, the same findings
expect_exit 1 -C "$repo" "$GIT_ABBREV" verify "$tmp/cases.patch"
checks=$((checks + 1))
sed "s|^cases.patch:|$tmp/cases.patch:|" "$tmp/cases.want" | cmp -s - "$out" ||
	fail "verify inside the repository differs"
expect_exit 1 -C "$repo/src" "$GIT_ABBREV" verify - <"$tmp/cases.patch"
checks=$((checks + 1))
sed 's|^cases.patch:|<stdin>:|' "$tmp/cases.want" | cmp -s - "$out" || fail "verify of stdin differs"

# ---- only correct references: exit 0, nothing printed -----------------------
cat >"$tmp/good.patch" <<EOF
From: A U Thor <author@example.com>
Subject: [PATCH] all good

Fixes: $M3s ("$S_M3")
Fixes: $C ("$S_C")
As commit $M4s ("$S_M4") showed, see commit
$M5s ("$S_M5"), and
$(short "$M6") ($S_M6, 2005-04-07) in git's own style.
Upstream commit $M7 and commit $M7 upstream need no subject.
---
diff --git a/x b/x
+Fixes: $U ("not checked")
EOF
expect_exit 0 "$GIT_ABBREV" verify -C "$repo" "$tmp/good.patch"
checks=$((checks + 1))
# nothing flagged: only the count of what was checked
verify_summary 7 1 0 0 | cmp -s - "$out" || { fail "good.patch flagged"; show "$out"; }
expect_exit 0 "$GIT_ABBREV" verify -C "$repo" --format=json "$tmp/good.patch"
py_check "JSON of good.patch" verify_check.py good "$out" 7

# ---- a revert: the title names the commit meant ------------------------------
printf 'Revert "%s"\n\nThis reverts commit %s.\n' "$S_M6" "$U40" >"$tmp/revert.txt"
expect_exit 1 "$GIT_ABBREV" verify -C "$repo" "$tmp/revert.txt"
checks=$((checks + 1))
{
	printf '%s\n    suggestion: This reverts commit %s.\n' \
		"$tmp/revert.txt:3: error: $U40 names no object in this repository; a commit has this subject" \
		"$M6"
	verify_summary 1 1 1 0
} | cmp -s - "$out" || { fail "revert"; show "$out"; }

# ---- an mbox of two patches ---------------------------------------------------
cat >"$tmp/two.mbox" <<EOF
From 2222222222222222222222222222222222222222 Mon Sep 17 00:00:00 2001
From: A U Thor <author@example.com>
Subject: [PATCH 1/2] one

Fixes: $M3s ("$S_M3")
---
diff --git a/a b/a
+Fixes: $U ("no")

From 3333333333333333333333333333333333333333 Mon Sep 17 00:00:00 2001
From: A U Thor <author@example.com>
Subject: [PATCH 2/2] two

> Fixes: $U ("quoted")
Fixes: $M4s ("$S_M3")
---
diff --git a/b b/b
+Fixes: $U ("no")
EOF
expect_exit 1 "$GIT_ABBREV" verify -C "$repo" "$tmp/two.mbox"
checks=$((checks + 1))
# each mail is one message; two references (one in each mail: not the
# quoted reply, not the diffs)
{
	printf '%s\n    suggestion: Fixes: %s ("%s")\n    message: "[PATCH 2/2] two"\n' \
		"$tmp/two.mbox:15: error: subject does not match $M4s (\"$S_M4\"); it is the subject of $M3s" \
		"$M3s" "$S_M3"
	verify_summary 2 2 1 0
} | cmp -s - "$out" || { fail "mbox"; show "$out"; }
# several files at once: findings in order, one exit status
expect_exit 1 "$GIT_ABBREV" verify -C "$repo" "$tmp/good.patch" "$tmp/two.mbox" "$tmp/revert.txt"
checks=$((checks + 1))
[ "$(grep -c '^/' "$out")" -eq 2 ] && head -1 "$out" | grep -q "two.mbox:15:" ||
	{ fail "several files"; show "$out"; }
# one that cannot be read (missing, a directory: a read error) among them:
# its error line, exit 3, and nothing on stdout, in any format, before or
# after the inputs that were read (never a document cut short)
for bad in "$tmp/no-such.patch" "$tmp"; do
	for args in --format=json --format=text --fix; do
		for files in "$tmp/two.mbox $bad" "$bad $tmp/two.mbox" "$bad"; do
			[ "$args" = --fix ] && [ "$files" != "$bad" ] && continue # one input
			# shellcheck disable=SC2086 # the files are words
			expect_exit 3 -C "$tmp" "$GIT_ABBREV" verify -C "$repo" $args $files
			checks=$((checks + 1))
			[ ! -s "$out" ] || { fail "$args $files: something on stdout"; show "$out"; }
			checks=$((checks + 1))
			one_line "$err" && grep -q "^git-abbrev: cannot read $bad: " "$err" ||
				{ fail "$args $files: not the one error line"; show "$err"; }
		done
	done
done

# ---- --fix: the input rewritten on stdout, the findings on stderr --------------
cp "$tmp/cases.patch" "$tmp/cases.orig"
expect_exit 1 -C "$tmp" "$GIT_ABBREV" verify -C "$repo" --fix cases.patch
cp "$out" "$tmp/fixed.patch"
checks=$((checks + 1))
cmp -s "$tmp/cases.patch" "$tmp/cases.orig" || fail "--fix edited the file"
cmp -s "$err" "$tmp/cases.out" || { fail "--fix findings on stderr differ"; show "$err"; }
line() { sed -n "$1p" "$tmp/fixed.patch"; }
expect_line() { # N TEXT
	checks=$((checks + 1))
	[ "$(line "$1")" = "$2" ] || fail "--fix line $1: '$(line "$1")', want '$2'"
}
expect_line 8 "Fixes: $M5s (\"$S_M5\")"
expect_line 9 "Fixes: $U (\"no such subject\")"
expect_line 11 "Fixes: $As (\"$S_A\")"
expect_line 12 "Fixes: $A8"
expect_line 13 "Fixes: $Cs (\"$S_C\")"
expect_line 14 "Fixes: $M7s (\"$S_M7\")"
# the ID and the subject disagree and nothing tells which is wrong: left as it is
expect_line 15 "Fixes: $M3s (\"not the subject\")"
# a full ID stays full
expect_line 17 "Fixes: $M3 (\"$S_M3\")"
# only IDs and subjects change: the style stays, a split reference stays split
expect_line 19 "fixes:  $M3s ($S_M3)"
expect_line 21 "Fixes: $M3s (\"$S_M3\")"
expect_line 22 "As commit $M3s (\"$S_M3\") said, and commit"
expect_line 23 "  $M5s (\"$S_M5\") too."
expect_line 24 "> Fixes: $U (\"a quoted reply is not checked\")"
expect_line 25 "Fixes: $M3s (\"$S_M3_short\")"
checks=$((checks + 1))
[ "$(wc -l <"$tmp/fixed.patch")" -eq "$(wc -l <"$tmp/cases.patch")" ] ||
	fail "--fix: the number of lines changed"
# what --fix could not fix is all that is left, and it suggests nothing more
expect_exit 1 "$GIT_ABBREV" verify -C "$repo" "$tmp/fixed.patch"
checks=$((checks + 1))
[ "$(grep '^/' "$out" | cut -d: -f2,3 | tr '\n' ' ')" = \
  "4: error 9: error 10: warning 12: error 12: warning 15: error 19: warning 20: warning 25: warning " ] ||
	{ fail "after --fix"; show "$out"; }
grep -q '^    suggestion:' "$out" && fail "after --fix: still a suggestion"

# ---- JSON ------------------------------------------------------------------------
expect_exit 1 "$GIT_ABBREV" verify -C "$repo" --format=json "$tmp/cases.patch"
py_check "JSON" verify_check.py cases "$out" "$A8" "$A" "$B" "$C8" "$C" "$S_C" "$Cs" "$tmp/cases.out"

# ---- --range: Fixes: tags that point to a side branch, and forward -----------
h=$tmp/hist
git init -q "$h"
H() { git -C "$h" "$@"; }
commit() { # FILE SUBJECT [BODY]
	echo "$2" >"$h/$1"
	H add "$1"
	if [ $# -gt 2 ]; then H commit -q -m "$2" -m "$3"; else H commit -q -m "$2"; fi
}
commit base.txt "base"
c1=$(H rev-parse HEAD)
commit x.txt "feature: add x"
c2=$(H rev-parse HEAD)
commit fix.txt "feature: fix x" "Fixes: $(H rev-parse --short=12 "$c2") (\"feature: add x\")"
c3=$(H rev-parse HEAD)
H checkout -q -b side "$c1"
commit y.txt "side: add y"
s1=$(H rev-parse HEAD)
H checkout -q -
commit z.txt "main: fix y" "Fixes: $(H rev-parse --short=12 "$s1") (\"side: add y\")"
c4=$(H rev-parse HEAD)
hs() { H rev-parse --short=12 "$1"; }
expect_exit 0 "$GIT_ABBREV" verify -C "$h" --range="$c1..$c3"
checks=$((checks + 1))
verify_summary 1 "$(H rev-list --count "$c1..$c3")" 0 0 | cmp -s - "$out" ||
	{ fail "--range $c1..$c3 flagged"; show "$out"; }
expect_exit 1 "$GIT_ABBREV" verify -C "$h" --range="$c1..HEAD"
checks=$((checks + 1))
[ "$(cat "$out")" = "$(hs "$c4"):3: error: $(hs "$s1") is not an ancestor of this commit
$(verify_summary 2 "$(H rev-list --count "$c1..HEAD")" 1 0)" ] ||
	{ fail "--range: side branch"; show "$out"; }
# the files are checked without --range: the same tag is fine there
H log -1 --format=%B "$c4" >"$tmp/c4.txt"
expect_exit 0 "$GIT_ABBREV" verify -C "$h" "$tmp/c4.txt"
# reordered: the fix first, then the commit it fixes (a new ID, same subject)
H checkout -q -b reordered "$c1"
H cherry-pick "$c3" >/dev/null
r3=$(H rev-parse HEAD)
H cherry-pick "$c2" >/dev/null
r2=$(H rev-parse HEAD)
expect_exit 1 "$GIT_ABBREV" verify -C "$h" --range="$c1..reordered"
checks=$((checks + 1))
[ "$(cat "$out")" = "$(hs "$r3"):3: error: $(hs "$c2") is not an ancestor of this commit; $(hs "$r2") with the same subject comes after it
$(verify_summary 1 "$(H rev-list --count "$c1..reordered")" 1 0)" ] ||
	{ fail "--range: forward"; show "$out"; }
# rebased: the fixed commit was rewritten before the fix; the same subject is an ancestor
H checkout -q -b rebased "$c1"
GIT_COMMITTER_DATE='1112920000 +0000' H cherry-pick "$c2" >/dev/null
q2=$(H rev-parse HEAD)
H cherry-pick "$c3" >/dev/null
q3=$(H rev-parse HEAD)
[ "$q2" != "$c2" ] || die "rebased commit kept its ID"
expect_exit 1 "$GIT_ABBREV" verify -C "$h" --range="$c1..rebased" --format=json
py_check "--range: rebased (JSON)" verify_check.py rebased "$out" "$q3" "$c2" "$q2" "$(hs "$q2")"
expect_exit 2 "$GIT_ABBREV" verify -C "$h" --range=no-such-rev..HEAD
one_line "$err" || fail "bad range: not one line on stderr"

# ---- ancestry from git's commit-graph: the verdicts libgit2 gives -----------------
# An octopus merge (its third and fourth parents live in the graph's EDGE
# chunk), a commit off the line, and Fixes: tags to each.  Without a
# commit-graph libgit2 answers; with one written before the fix, the fix is
# not in it (libgit2 again); with one written after, the graph answers.
cgr=$tmp/graph
git init -q "$cgr"
CG() { git -C "$cgr" "$@"; }
gcommit() { # FILE SUBJECT [BODY]
	echo "$2" >"$cgr/$1"
	CG add "$1"
	if [ $# -gt 2 ]; then CG commit -q -m "$2" -m "$3"; else CG commit -q -m "$2"; fi
}
gcommit a.txt "root"
groot=$(CG rev-parse HEAD)
for b in b1 b2 b3 late; do
	CG checkout -q -b "$b" "$groot"
	gcommit "$b.txt" "$b: work"
done
CG checkout -q -b m "$groot"
gcommit m.txt "main work"
CG merge -q --no-edit b1 b2 b3
fixes=
for x in b1 b2 b3 late m "$groot"; do
	fixes="${fixes}Fixes: $(CG rev-parse --short=12 "$x") (\"$(CG log -1 --format=%s "$x" --)\")
"
done
CG commit-graph write --reachable
gcommit f.txt "fix them all" "$fixes"
expect_exit 1 "$GIT_ABBREV" verify -C "$cgr" --range="$groot..m"
cp "$out" "$tmp/graph-before.out"
checks=$((checks + 1))
[ "$(cat "$out")" = "$(CG rev-parse --short=12 m):6: error: $(CG rev-parse --short=12 late) is not an ancestor of this commit
$(verify_summary 6 "$(CG rev-list --count "$groot..m")" 1 0)" ] ||
	{ fail "--range over an octopus: want late alone not an ancestor"; show "$out"; }
CG commit-graph write --reachable
expect_exit 1 "$GIT_ABBREV" verify -C "$cgr" --range="$groot..m"
checks=$((checks + 1))
cmp -s "$out" "$tmp/graph-before.out" ||
	{ fail "--range with a commit-graph: not what libgit2 says"; show "$out"; }
rm -f "$cgr/.git/objects/info/commit-graph"
expect_exit 1 "$GIT_ABBREV" verify -C "$cgr" --range="$groot..m"
checks=$((checks + 1))
cmp -s "$out" "$tmp/graph-before.out" ||
	{ fail "--range without a commit-graph: not what libgit2 says"; show "$out"; }

# ---- garbage: random bytes (fixed seed) ---------------------------------------------
"$PYTHON3" "$tests_dir/verify_check.py" garbage random >"$tmp/random.bin"
expect_exit 0 "$GIT_ABBREV" verify -C "$repo" "$tmp/random.bin"
"$PYTHON3" "$tests_dir/verify_check.py" garbage tokens >"$tmp/tokens.bin"
expect_exit 1 "$GIT_ABBREV" verify -C "$repo" "$tmp/tokens.bin"
expect_exit 1 "$GIT_ABBREV" verify -C "$repo" --format=json "$tmp/tokens.bin"
checks=$((checks + 1))
jget "$out" 'len(d)' >/dev/null || fail "JSON of garbage"
# schema_version, as every JSON document (docs/json.md), with findings and without
checks=$((checks + 1))
[ "$(jget "$out" 'd["schema_version"]')" = 2 ] ||
	fail "verify JSON: no schema_version 2"
expect_exit 0 "$GIT_ABBREV" verify -C "$repo" --format=json /dev/null
checks=$((checks + 1))
[ "$(jget "$out" 'd["schema_version"]')" = 2 ] ||
	fail "verify JSON without findings: no schema_version 2"

# ---- 400,000 lines of references (timed) -------------------------------------------
G log --abbrev=12 --format='%h %s' main side topic >"$tmp/ids"
"$PYTHON3" "$tests_dir/verify_check.py" big_input "$tmp/ids" 400000 >"$tmp/big.txt"
start=$(date +%s%N)
expect_exit 0 "$GIT_ABBREV" verify -C "$repo" --format=json "$tmp/big.txt"
end=$(date +%s%N)
checks=$((checks + 1))
[ "$(jget "$out" '(d["references"], len(d["findings"]))')" = "(300000, 0)" ] ||
	fail "400,000 lines: not 300,000 references and no finding"
say "400000 lines, 300000 references: $(((end - start) / 1000000)) ms"

# ---- the ambiguity sentence is true of git: a commit sharing its prefix with a tag --------
# that peels to a commit is ambiguous to `git log` too; beside a tag of a tree or blob it is not
ci=$tmp/commitish
gen_repo "$ci" commitish
jget "$ci.json" '"\n".join("%s %s %s" % (p["kind"], p["ids"][0], p["ids"][1]) for p in d["planted"])' \
	>"$tmp/cish.pairs"
[ "$(wc -l <"$tmp/cish.pairs")" -eq 4 ] || die "commitish: expected 4 planted pairs"
while read -r kind c t; do
	p=$(echo "$c" | cut -c1-7)
	[ "$(echo "$t" | cut -c1-7)" = "$p" ] || die "$kind: the pair does not share 7 chars"
	printf 'See commit %s ("%s").\n' "$p" "$(git -C "$ci" log -1 --format=%s "$c")" >"$tmp/cish.txt"
	expect_exit 1 "$GIT_ABBREV" verify -C "$ci" --min-length=7 "$tmp/cish.txt"
	checks=$((checks + 1))
	if git -C "$ci" log -1 --format=%H "$p" -- >/dev/null 2>&1; then
		grep -q "warning: $p also names a tag: .git show $p. fails, .git log $p. works" "$out" ||
			fail "$kind: git log $p works, verify says: $(cat "$out")"
	else
		grep -q "error: $p also names a tag that peels to a commit: .git log $p. and .git show $p. both fail" "$out" ||
			fail "$kind: git log $p fails, verify says: $(cat "$out")"
	fi
	checks=$((checks + 1))
	git -C "$ci" show -s "$p" -- >/dev/null 2>&1 && fail "$kind: git show $p works"
done <"$tmp/cish.pairs"
say "commit-ish: $(grep -c . "$tmp/cish.pairs") planted pairs judged as git log judges them"

# ---- --fix is safe: the property over every message of a generated history ------------
checks=$((checks + 1))
if "$PYTHON3" "$ABBREV_SRCDIR/tests/verify_fix.py" "$GIT_ABBREV" "$tmp/fixhist" --make \
	>"$tmp/fixprop" 2>&1; then
	say "$(cat "$tmp/fixprop")"
else
	fail "--fix property: $(cat "$tmp/fixprop")"
fi

# --fail-on=error: warnings printed, exit 0; an error still fails
printf 'See commit %s ("%s").\n' "$M3_7" "$S_M3" >"$tmp/warn-only.txt"
expect_exit 1 "$GIT_ABBREV" verify -C "$repo" "$tmp/warn-only.txt"
expect_exit 0 "$GIT_ABBREV" verify -C "$repo" --fail-on=error "$tmp/warn-only.txt"
grep -q "warning: $M3_7 has 7 hex chars" "$out" || fail "--fail-on=error: warning not printed"
printf 'Fixes: %s ("%s")\n' "$U" "$S_M3" >"$tmp/one-error.txt"
expect_exit 1 "$GIT_ABBREV" verify -C "$repo" --fail-on=error "$tmp/one-error.txt"
expect_exit 2 "$GIT_ABBREV" verify -C "$repo" --fail-on=never "$tmp/one-error.txt"

# ---- usage and runtime errors ---------------------------------------------------------
expect_exit 2 "$GIT_ABBREV" verify --min-length=3 "$tmp/good.patch"
[ -s "$out" ] && fail "usage error printed to stdout"
expect_exit 2 "$GIT_ABBREV" verify --format=csv "$tmp/good.patch"
expect_exit 2 "$GIT_ABBREV" verify --fix a b
expect_exit 2 "$GIT_ABBREV" verify --range=HEAD "$tmp/good.patch"
expect_exit 129 "$GIT_ABBREV" verify -h
expect_exit 3 "$GIT_ABBREV" verify -C "$tmp/nonexistent" "$tmp/good.patch"
one_line "$err" || fail "no repository: not one line on stderr: $(cat "$err")"
expect_exit 3 "$GIT_ABBREV" verify -C "$repo" "$tmp/no-such-file"
one_line "$err" || fail "missing file: not one line on stderr: $(cat "$err")"
expect_exit 3 "$GIT_ABBREV" verify -C "$repo" "$tmp"
one_line "$err" || fail "a directory: not one line on stderr: $(cat "$err")"
# unbounded input stops at the cap (--max-input, 256m by default) with one line naming it
expect_exit 3 "$GIT_ABBREV" verify -C "$repo" /dev/zero
one_line "$err" && grep -q "/dev/zero is larger than the 256m-byte input cap; raise it with --max-input" "$err" ||
	fail "/dev/zero: $(cat "$err")"
expect_exit 3 sh -c 'yes | "$1" verify -C "$2" --max-input=1m' sh "$GIT_ABBREV" "$repo"
one_line "$err" && grep -q "standard input is larger than the 1m-byte input cap" "$err" ||
	fail "yes | verify --max-input=1m: $(cat "$err")"
size=$(wc -c <"$tmp/good.patch" | tr -d ' ')
expect_exit 0 "$GIT_ABBREV" verify -C "$repo" --max-input="$size" "$tmp/good.patch"
expect_exit 3 "$GIT_ABBREV" verify -C "$repo" --max-input=$((size - 1)) "$tmp/good.patch"
grep -q "good.patch is larger than the $((size - 1))-byte input cap" "$err" || fail "cap - 1: $(cat "$err")"
expect_exit 2 "$GIT_ABBREV" verify -C "$repo" --max-input=0 "$tmp/good.patch"
# libgit2 cannot read SHA-256 repositories: a clear error, not a crash
if git init -q --object-format=sha256 "$tmp/s256" 2>/dev/null; then
	gen_repo "$tmp/sha256" sha256
	expect_exit 3 "$GIT_ABBREV" verify -C "$tmp/sha256" "$tmp/good.patch"
	one_line "$err" || fail "SHA-256: not one line on stderr: $(cat "$err")"
	checks=$((checks + 1))
	# worded as every other command that needs libgit2 words it
	grep -q "^git-abbrev: .*/sha256: verify needs libgit2, which cannot read this repository's 32-byte object IDs (SHA-256)\$" "$err" ||
		fail "SHA-256: message: $(cat "$err")"
fi

finish
