#!/bin/sh
# t-verify-stable.sh - verify --range on a history that brings in Linux
# commits with their tags: a message with a line "Cc: stable@vger.kernel.org"
# was sent to Linux's stable list, which takes Linux's commits only, so
# outside Linux its references are Linux's.  An ID no object here has, with
# a subject no commit here has (or none written), is then a not-here
# warning with no suggestion, not an error.  Recall: in such a message an
# ID no object has whose subject a commit here has stays an error that
# suggests that commit (a rebased ID, in Linux's own history too); the same
# bad tag with no Cc, with another project's stable list
# (stable@example.org), or with the address only in prose, stays an
# error; a typo one hex char off a commit with the subject stays an error;
# and a patch file (not --range) with the Cc is judged as any other.
# Oracle: git rev-parse --disambiguate (the cited IDs name nothing here),
# git log (no commit has the subjects written; which one has the rebased
# one), git merge-base --is-ancestor.

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"

r=$tmp/st
git init -q "$r"
c() { commit_msg "$r" "$(printf '%s\n\n%s' "$1" "$2")"; } # subject, body
X1=0a1b2c3d4e5f X2=1b2c3d4e5f6a X3=2c3d4e5f6a7b X4=3d4e5f6a7b8c X5=4e5f6a7b8c9d X6=5f6a7b8c9d0e

c "base: first" "The start." >/dev/null
added=$(c "lib: add orob" "Add it.")
# the typo: $added's ID with its 8th hex char changed (one hex char off)
h=$(git -C "$r" rev-parse "$added" | cut -c1-12)
n=0
[ "$(echo "$h" | cut -c8)" != 0 ] || n=1
T=$(echo "$h" | cut -c1-7)$n$(echo "$h" | cut -c9-12)
plain=$(c "lib: fix the nrob leak" "Free it.

Fixes: $X1 (\"lib: add nrob\")
Cc: stable@vger.kernel.org
Signed-off-by: A U Thor <author@example.com>")
bare=$(c "lib: fix the prob lock" "Lock it.

Cc: <stable@vger.kernel.org> # 5.10.x
Fixes: $X2")
rebased=$(c "lib: fix the orob size" "Size it.

Fixes: $X3 (\"lib: add orob\")
Cc: stable@vger.kernel.org")
typo=$(c "lib: fix the orob count" "Count it.

Fixes: $T (\"lib: add orob\")
Cc: stable@kernel.org")
nocc=$(c "lib: fix the qrob type" "Type it.

Fixes: $X4 (\"lib: add qrob\")")
other=$(c "lib: fix the rrob name" "Name it.

Fixes: $X5 (\"lib: add rrob\")
Cc: stable@example.org")
prose=$(c "lib: fix the srob path" "Path it; no need to write to stable@vger.kernel.org for this.

Fixes: $X6 (\"lib: add srob\")")

for x in $X1 $X2 $X3 $X4 $X5 $X6 $T; do
	[ -z "$(git -C "$r" rev-parse --disambiguate="$x" 2>/dev/null)" ] || die "$x names an object"
done
[ "$(git -C "$r" rev-parse "$added" | cut -c1-7)" = "$(echo "$T" | cut -c1-7)" ] || die "typo"
[ "$(git -C "$r" rev-parse "$added" | cut -c8)" != "$(echo "$T" | cut -c8)" ] || die "typo"
[ "$(git -C "$r" rev-parse "$added" | cut -c9-12)" = "$(echo "$T" | cut -c9-12)" ] || die "typo"
for s in nrob qrob rrob srob; do
	[ -z "$(git -C "$r" log --all --format=%s | grep -x "lib: add $s")" ] || die "lib: add $s is here"
done
[ "$(git -C "$r" log --all --format='%H %s' | grep -c ' lib: add orob$')" -eq 1 ] || die "orob"
git -C "$r" merge-base --is-ancestor "$added" "$rebased" || die "the rebased ID's commit"

say "an unknown ID in a message Cc'd to Linux's stable list is a warning"
expect_exit 1 -C "$r" "$GIT_ABBREV" verify --range=HEAD --format=json
"$PYTHON3" "$tests_dir/verify_check.py" not_here "$out" 5 \
	"$plain:$X1:not-here:" "$bare:$X2:not-here:" \
	"$rebased:$X3:unknown-id:$added" "$typo:$T:unknown-id:$added" "$nocc:$X4:unknown-id:" \
	"$other:$X5:unknown-id:" "$prose:$X6:unknown-id:" ||
	{ fail "a Linux commit brought in with its tags is not told from this project's"; show "$out"; }

expect_exit 1 -C "$r" "$GIT_ABBREV" verify --range=HEAD
grep -q "^$(git -C "$r" rev-parse --short=12 "$plain"):.*$X1 names no object in this repository and no commit here has this subject; the message is Linux's (Cc: stable@vger.kernel.org)" "$out" ||
	{ fail "the not-here warning does not say why"; show "$out"; }

say "a patch file with the Cc is judged as any other"
git -C "$r" format-patch -q -1 --stdout "$plain" >"$tmp/p.patch"
expect_exit 1 -C "$r" "$GIT_ABBREV" verify --format=json "$tmp/p.patch"
[ "$(jget "$out" "[f['kind'] for f in d['findings'] if f['given_id'] == '$X1']")" = "['unknown-id']" ] ||
	{ fail "a patch's Cc changed its judgment"; show "$out"; }
finish
