#!/bin/sh
# t-repo-shapes.sh - repositories of unusual shape, named as git names
# them: a bare repository whose config file is gone (git still takes it
# for bare: it is printed as itself, not as its parent directory), and a
# repository whose alternates hold a partial clone's promisor pack (it is
# partial too: objects it reaches through them may be promised only),
# whether info/alternates or GIT_ALTERNATE_OBJECT_DIRECTORIES names them.
. "$(dirname "$0")/setup.sh"

say "a bare repository without a config file is printed as itself"
git init -q --bare "$tmp/b"
rm "$tmp/b/config"
blob=$(echo hello | git --git-dir="$tmp/b" hash-object -w --stdin)
[ "$(git -C "$tmp/b" rev-parse --is-bare-repository)" = true ] || die "git does not take it for bare"
expect_exit 0 "$GIT_ABBREV" "$tmp/b"
checks=$((checks + 1))
head -n 1 "$out" | grep -q "^$tmp/b: 1 object" || fail "not named as itself: $(head -n 1 "$out")"
expect_exit 0 "$GIT_ABBREV" --format=json "$tmp/b"
checks=$((checks + 1))
[ "$(jget "$out" 'd["repositories"]')" = "['$tmp/b']" ] ||
	fail "JSON repositories: $(jget "$out" 'd["repositories"]')"
oracle_compare "bare without config" "$out" "$tmp/b"
expect_exit 0 -C "$tmp/b" "$GIT_ABBREV" check 4 --type=all --format=json
checks=$((checks + 1))
[ "$(jget "$out" 'd["repositories"]')" = "['$tmp/b']" ] ||
	fail "from inside: $(jget "$out" 'd["repositories"]')"
# the usual shapes keep their names: a work tree, a bare repository with config
gen_repo "$tmp/w" small
expect_exit 0 "$GIT_ABBREV" --format=json "$tmp/w/.git"
checks=$((checks + 1))
[ "$(jget "$out" 'd["repositories"]')" = "['$tmp/w']" ] || fail "a work tree's .git: $(jget "$out" 'd["repositories"]')"
git clone -q --bare "$tmp/w" "$tmp/wb.git"
expect_exit 0 "$GIT_ABBREV" --format=json "$tmp/wb.git"
checks=$((checks + 1))
[ "$(jget "$out" 'd["repositories"]')" = "['$tmp/wb.git']" ] || fail "a bare clone: $(jget "$out" 'd["repositories"]')"

say "alternates that hold a promisor pack make a partial repository"
gen_repo "$tmp/src" small
git -C "$tmp/src" config uploadpack.allowFilter true
git clone -q --bare --filter=blob:none "file://$tmp/src" "$tmp/part.git" 2>/dev/null ||
	die "partial clone failed"
ls "$tmp/part.git"/objects/pack/*.promisor >/dev/null 2>&1 || die "no promisor pack"
expect_exit 0 "$GIT_ABBREV" --format=json "$tmp/part.git"
checks=$((checks + 1))
[ "$(jget "$out" 'd["partial"]')" = True ] || fail "the partial clone itself is not partial"
cp "$out" "$tmp/part.json"
# an absolute alternate, and a relative one (against the objects directory)
for how in absolute relative; do
	r=$tmp/borrow-$how
	git init -q "$r"
	git -C "$r" config gc.auto 0
	if [ "$how" = absolute ]; then
		echo "$tmp/part.git/objects" >"$r/.git/objects/info/alternates"
	else
		echo "../../../part.git/objects" >"$r/.git/objects/info/alternates"
	fi
	git -C "$r" cat-file -e "$(git -C "$tmp/part.git" rev-parse HEAD)" ||
		die "$how alternate not followed by git"
	expect_exit 0 "$GIT_ABBREV" --format=json "$r"
	checks=$((checks + 1))
	[ "$(jget "$out" 'd["partial"]')" = True ] || fail "$how alternate with a promisor pack: not partial"
	oracle_compare "$how alternate" "$out" "$r"
	expect_exit 0 "$GIT_ABBREV" "$r"
	checks=$((checks + 1))
	grep -q "a partial clone" "$out" "$err" || fail "$how alternate: the text does not say partial"
done
# an alternate named by GIT_ALTERNATE_OBJECT_DIRECTORIES, as git reads it
# (both walkers; and from inside, no path given)
git init -q "$tmp/env"
head=$(git -C "$tmp/part.git" rev-parse HEAD)
GIT_ALTERNATE_OBJECT_DIRECTORIES="$tmp/part.git/objects" git -C "$tmp/env" cat-file -e "$head" ||
	die "GIT_ALTERNATE_OBJECT_DIRECTORIES not followed by git"
for w in pack libgit2; do
	expect_exit 0 env GIT_ALTERNATE_OBJECT_DIRECTORIES="$tmp/part.git/objects" \
		"$GIT_ABBREV" --walker=$w --format=json "$tmp/env"
	checks=$((checks + 1))
	[ "$(jget "$out" 'd["partial"]')" = True ] ||
		fail "GIT_ALTERNATE_OBJECT_DIRECTORIES with a promisor pack, --walker=$w: not partial"
	checks=$((checks + 1))
	[ "$(jget "$out" 'd["objects"]')" = "$(jget "$tmp/part.json" 'd["objects"]')" ] ||
		fail "GIT_ALTERNATE_OBJECT_DIRECTORIES, --walker=$w: not the partial clone's objects"
done
expect_exit 0 -C "$tmp/env" env GIT_ALTERNATE_OBJECT_DIRECTORIES="$tmp/part.git/objects" \
	"$GIT_ABBREV" check 4 --type=commit --format=json
checks=$((checks + 1))
[ "$(jget "$out" 'd["partial"]')" = True ] || fail "GIT_ALTERNATE_OBJECT_DIRECTORIES, no path: not partial"
# and an alternate without one does not
git init -q "$tmp/plain"
echo "$tmp/src/.git/objects" >"$tmp/plain/.git/objects/info/alternates"
expect_exit 0 "$GIT_ABBREV" --format=json "$tmp/plain"
checks=$((checks + 1))
[ "$(jget "$out" 'd["partial"]')" = False ] || fail "a plain alternate made it partial"

finish
