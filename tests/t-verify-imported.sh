#!/bin/sh
# t-verify-imported.sh - verify --range on a history that imports another
# project's commits: a message that is another project's cites that
# project's commits, so an ID no object here has is a not-here warning
# there, never an error.  Built here with git: a commit later listed, in
# git shortlog form, by a descendant saying "Syncing latest commits from
# kernel repository" (as libbpf's sync commits do); a commit that says
# "(cherry picked from commit <id>)" of an ID no object here has; one
# marked "[Ported to Foo from the Linux kernel]"; one marked "(cherry
# picked from linux commit <id>)"; one with a line "Source kernel commit:
# <id>" (as xfsprogs brings libxfs over from the kernel); a squash note,
# "merge with <id> (...)", whose subject only the squash has on HEAD (a
# pull request's copy is on a ref off it).  Recall: the same bad Fixes:
# tag with no marker stays an error, and so does one in a commit whose
# subject a sync commit lists but which is not its ancestor (made after
# it), and one whose subject a commit on HEAD has.
# Oracle: git rev-parse --disambiguate (the cited IDs name nothing here),
# git merge-base --is-ancestor, git log (which commit is which).

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"

r=$tmp/imp
git init -q "$r"
c() { commit_msg "$r" "$(printf '%s\n\n%s' "$1" "$2")"; } # subject, body
# IDs that name nothing here (checked below against git)
X1=0a1b2c3d4e5f X2=1b2c3d4e5f6a X3=2c3d4e5f6a7b X4=3d4e5f6a7b8c X5=4e5f6a7b8c9d X6=5f6a7b8c9d0e
X7=6e7f8a9b0c1d
PICK=6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b

c "base: first" "The start." >/dev/null
imported=$(c "lib: fix the frob leak" "Free it.

Fixes: $X1 (\"lib: add frob\")
Signed-off-by: A U Thor <author@example.com>")
picked=$(c "lib: fix the grob count" "Count once.

Fixes: $X2 (\"lib: count grobs\")
(cherry picked from commit $PICK)")
ported=$(c "lib: fix the hrob size" "Size it.

Fixes: $X3 (\"lib: add hrob\")
[Ported to Foo from the Linux kernel]")
linuxpick=$(c "lib: fix the irob lock" "Lock it.

Fixes: $X4 (\"lib: add irob\")
(cherry picked from linux commit $PICK)")
sourced=$(c "lib: fix the lrob order" "Source kernel commit: $PICK

Order it.

Fixes: $X7 (\"lib: add lrob\")")
plain=$(c "lib: fix the jrob type" "Type it.

Fixes: $X5 (\"lib: add jrob\")")
sync=$(c "sync: latest changes from kernel" "Syncing latest commits from kernel repository.

Jane Doe (2):
  lib: fix the frob leak
  lib: fix the krob
    length when wrapped

 src/lib.c | 2 +-")
after=$(c "lib: fix the krob length when wrapped" "Listed by name, but made after the list.

Fixes: $X6 (\"lib: add krob\")")

for x in $X1 $X2 $X3 $X4 $X5 $X6 $X7 $PICK; do
	[ -z "$(git -C "$r" rev-parse --disambiguate="$x" 2>/dev/null)" ] || die "$x names an object"
done
git -C "$r" merge-base --is-ancestor "$imported" "$sync" || die "the imported commit is no ancestor"
git -C "$r" merge-base --is-ancestor "$after" "$sync" && die "the later commit is an ancestor"
[ "$(git -C "$r" log -1 --format=%s "$after")" = "lib: fix the krob length when wrapped" ] ||
	die "subject"

expect_exit 1 -C "$r" "$GIT_ABBREV" verify --range=HEAD --format=json
"$PYTHON3" "$tests_dir/verify_check.py" not_here "$out" 2 \
	"$imported:$X1:not-here" "$picked:$X2:not-here" "$ported:$X3:not-here" \
	"$linuxpick:$X4:not-here" "$sourced:$X7:not-here" "$plain:$X5:unknown-id" "$after:$X6:unknown-id" ||
	{ fail "another project's messages are not told from this one's"; show "$out"; }

# text: the imported one says which commit lists it
expect_exit 1 -C "$r" "$GIT_ABBREV" verify --range=HEAD
short=$(git -C "$r" rev-parse --short=12 "$sync")
grep -q "$X1 is not in this repository; the message is another project's ($short lists" "$out" ||
	{ fail "the not-here warning does not name the sync commit"; show "$out"; }

# a squash note: "merge with <id> (...)" of a pull request's commit that is
# kept on a ref off HEAD; the subject is the squash's own.  Recall: a later
# fix citing a wrong ID with that subject stays an error (the squash, on
# HEAD, has it).
q=$tmp/squash
git init -q "$q"
commit_msg "$q" "base: first" >/dev/null
main=$(git -C "$q" symbolic-ref --short HEAD)
git -C "$q" checkout -q -b pr
commit_msg "$q" "lib: add mrob" >/dev/null
git -C "$q" checkout -q "$main"
X8=7f8a9b0c1d2e X9=8a9b0c1d2e3f
squash=$(commit_msg "$q" "$(printf 'lib: add mrob\n\nAdd it.\n\nmerge with %s ("lib: add mrob")' "$X8")")
later=$(commit_msg "$q" "$(printf 'lib: fix mrob\n\nFixes: %s ("lib: add mrob")' "$X9")")
for x in $X8 $X9; do
	[ -z "$(git -C "$q" rev-parse --disambiguate="$x" 2>/dev/null)" ] || die "$x names an object"
done
git -C "$q" merge-base --is-ancestor pr "$main" && die "the pull request is on HEAD"
[ "$(git -C "$q" log --all --format=%s | grep -c '^lib: add mrob$')" -eq 2 ] || die "subjects"
expect_exit 1 -C "$q" "$GIT_ABBREV" verify --range=HEAD --format=json
py_check "a squash note of a commit off HEAD is not told from a wrong ID" verify_check.py findings "$out" - "$squash:$X8:not-here" "$later:$X9:unknown-id"
finish
