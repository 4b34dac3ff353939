#!/bin/sh
# t-extensions.sh - repositories with the extensions git writes: a
# blob-less sparse clone (extensions.worktreeconfig, a promisor pack),
# extensions.partialclone as older git writes it, preciousObjects,
# noop-v1.  git opens them; so must the tool, both walkers, counting what
# git cat-file --batch-all-objects lists.  An extension git does not know
# (in a version 1 repository) is refused, as git refuses it.
. "$(dirname "$0")/setup.sh"

# count LABEL REPO: both walkers count what git lists
count() {
	gitn=$(git -C "$2" cat-file --batch-all-objects --batch-check | wc -l | tr -d ' ')
	for w in pack libgit2; do
		expect_exit 0 "$GIT_ABBREV" --walker=$w --format=json "$2"
		[ "$rc" -eq 0 ] || { show "$err"; continue; }
		got=$(jget "$out" 'd["objects"]')
		checks=$((checks + 1))
		[ "$got" = "$gitn" ] || fail "$1, --walker=$w: $got objects, git lists $gitn"
	done
	say "$1: $gitn objects, as git"
}

src=$tmp/src
git init -q "$src"
for d in a b c; do
	mkdir -p "$src/$d"
	echo "file in $d" >"$src/$d/f"
	echo "more in $d" >"$src/$d/g"
done
git -C "$src" add .
git -C "$src" commit -q -m one
echo changed >"$src/a/f"
git -C "$src" commit -q -a -m two
git -C "$src" config uploadpack.allowFilter true

git clone -q --filter=blob:none --sparse "file://$src" "$tmp/sparse"
checks=$((checks + 1))
[ "$(git -C "$tmp/sparse" config extensions.worktreeconfig)" = true ] ||
	fail "the sparse clone has no extensions.worktreeconfig: the case is not tested"
count "blob-less sparse clone (extensions.worktreeconfig)" "$tmp/sparse"

# ext NAME KEY VALUE: a version 1 copy of src with one extension
ext() {
	git clone -q --no-local "$src" "$tmp/$1"
	git -C "$tmp/$1" config core.repositoryformatversion 1
	git -C "$tmp/$1" config "$2" "$3"
	git -C "$tmp/$1" status >/dev/null 2>&1 || die "git does not open $1"
}
ext partial extensions.partialclone origin
count "extensions.partialclone" "$tmp/partial"
ext precious extensions.preciousObjects true
count "extensions.preciousObjects" "$tmp/precious"
ext noop extensions.noop-v1 true
count "extensions.noop-v1" "$tmp/noop"

# one git does not know: git refuses, and so does the tool (one line, 3)
git clone -q --no-local "$src" "$tmp/unknown"
git -C "$tmp/unknown" config core.repositoryformatversion 1
git -C "$tmp/unknown" config extensions.nosuchthing true
checks=$((checks + 1))
! git -C "$tmp/unknown" status >/dev/null 2>&1 || fail "git opens an unknown extension"
expect_exit 3 "$GIT_ABBREV" "$tmp/unknown"
checks=$((checks + 1))
one_line "$err" && grep -q nosuchthing "$err" || { fail "unknown extension: want one line naming it"; show "$err"; }

finish
