#!/bin/sh
# t-reachable.sh - --reachable is what a clone receives, --refs chooses
# other refs, and what the refs reach but the repository lacks is counted
# apart.
#
# gen_repo.py --scenario refs builds a repository with what a hosting
# site's mirror holds beside a clone's refs: pull-request refs, a
# remote-tracking branch and notes, each with objects of its own.  The
# oracle is git itself: `git rev-list --objects --missing=print HEAD
# --branches --tags` (tests/oracle.py --reachable), with --glob for --refs
# patterns.  A blob-less mirror clone of it has a promisor pack and every
# ref; a copy with a ref to an object that does not exist has a broken ref.
. "$(dirname "$0")/setup.sh"

gen_repo "$tmp/src" refs
S=$tmp/src

say "default: HEAD, the branches and the tags, as git clone fetches them"
expect_exit 0 "$GIT_ABBREV" report --format=json --reachable "$S"
oracle_compare "clone view" "$out" --reachable "$S"
cp "$out" "$tmp/clone.json"
checks=$((checks + 1))
[ "$(jget "$out" 'd["reachable"]["refs"]')" = "['HEAD', 'refs/heads/*', 'refs/tags/*']" ] ||
	fail "JSON does not name the refs walked: $(jget "$out" 'd["reachable"]')"
nrefs=$(($(git -C "$S" for-each-ref refs/heads refs/tags | wc -l) + 1))
checks=$((checks + 1))
[ "$(jget "$out" 'd["reachable"]["refs_walked"]')" = "$nrefs" ] ||
	fail "refs_walked is not $nrefs (HEAD, branches, tags)"
# a clone of it has exactly these objects
git clone -q --bare "file://$S" "$tmp/clone.git" 2>/dev/null || die "clone failed"
checks=$((checks + 1))
[ "$(jget "$out" 'd["objects"]')" = "$(git -C "$tmp/clone.git" cat-file --batch-all-objects --batch-check | wc -l)" ] ||
	fail "the clone view is not what git clone receives"
expect_exit 0 "$GIT_ABBREV" report --reachable "$S"
checks=$((checks + 1))
grep -qx "reachable from HEAD, refs/heads/\*, refs/tags/\*: $nrefs refs" "$out" ||
	fail "text does not say which refs were walked"
show "$out"
expect_exit 0 "$GIT_ABBREV" report --format=markdown --reachable "$S"
checks=$((checks + 1))
grep -qxF "Reachable from \`HEAD\`, \`refs/heads/*\`, \`refs/tags/*\`: $nrefs refs." "$out" ||
	fail "markdown does not say which refs were walked"
expect_exit 0 "$GIT_ABBREV" report --format=svg --reachable "$S"
py_check "svg does not say which refs were walked" report_check.py svg_refs "$out" "$nrefs"
args=
cp -a "$S" "$tmp/long"
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	args="$args --refs=refs/heads/a-long-branch-name-for-the-notes-$i"
	git -C "$tmp/long" branch a-long-branch-name-for-the-notes-$i
done
# shellcheck disable=SC2086
expect_exit 0 "$GIT_ABBREV" report --format=svg $args --refs=HEAD "$tmp/long"
py_check "svg: the refs walked run past the picture's bottom" report_check.py svg_text_inside "$out"
expect_exit 0 "$GIT_ABBREV" report --format=csv --refs='refs/tags/*' --refs=HEAD "$S"
ntags=$(($(git -C "$S" for-each-ref refs/tags | wc -l) + 1))
py_check "csv does not say which refs were walked" report_check.py csv_refs "$out" "$ntags"

say "--refs: the pull requests, the remote and the notes are not a clone's"
expect_exit 0 "$GIT_ABBREV" report --format=json --refs='refs/*' "$S"
oracle_compare "--refs='refs/*'" "$out" --refs='refs/*' "$S"
checks=$((checks + 1))
[ "$(jget "$out" 'd["objects"]')" -gt "$(jget "$tmp/clone.json" 'd["objects"]')" ] ||
	fail "every ref reaches no more than a clone's refs"
[ "$(jget "$out" 'd["reachable"]["refs_walked"]')" = "$(git -C "$S" for-each-ref | wc -l)" ] ||
	fail "--refs='refs/*' did not walk every ref"
expect_exit 0 "$GIT_ABBREV" report --format=json --refs=refs/pull --refs=HEAD "$S"
oracle_compare "--refs=refs/pull --refs=HEAD (a name without a wildcard: all below it)" \
	"$out" --refs=refs/pull --refs=HEAD "$S"
expect_exit 0 "$GIT_ABBREV" report --format=json --refs='refs/notes/*' --refs='refs/remotes/*/old' "$S"
oracle_compare "--refs of notes and a remote" "$out" --refs='refs/notes/*' --refs='refs/remotes/*/old' "$S"
expect_exit 0 "$GIT_ABBREV" check 4 --format=json --type=all --refs=refs/tags/v1.0 "$S"
checks=$((checks + 1))
[ "$(jget "$out" 'd["reachable"]["refs"]')" = "['refs/tags/v1.0']" ] ||
	fail "check --format=json does not name the refs walked"
expect_exit 2 "$GIT_ABBREV" report --refs= "$S"
say "--refs naming no ref: an error, not a count over fewer objects"
git -C "$S" for-each-ref refs/heads/mian | grep -q . && die "refs/heads/mian exists"
expect_exit 3 "$GIT_ABBREV" report --refs=refs/heads/mian "$S"
checks=$((checks + 1))
[ "$(cat "$err")" = "git-abbrev: no ref matches 'refs/heads/mian'" ] ||
	fail "report: no one-line error naming the pattern: $(cat "$err")"
[ -s "$out" ] && fail "report printed a count over no ref"
expect_exit 3 "$GIT_ABBREV" check 4 --refs=HEAD --refs='refs/nomatch/*' "$S"
checks=$((checks + 1))
[ "$(cat "$err")" = "git-abbrev: no ref matches 'refs/nomatch/*'" ] ||
	fail "check: one of two patterns names no ref, and no error says so: $(cat "$err")"
[ -s "$out" ] && fail "check printed an answer for fewer refs than asked"
git init -q "$tmp/empty"
expect_exit 0 "$GIT_ABBREV" report --format=json --reachable "$tmp/empty"
checks=$((checks + 1))
[ "$(jget "$out" 'd["reachable"]["refs_walked"]')" = 0 ] ||
	fail "an empty repository's clone view is not an answer over no ref"
expect_exit 3 "$GIT_ABBREV" report --refs=HEAD "$tmp/empty"
expect_exit 2 "$GIT_ABBREV" report "$S" --refs

say "a blob-less mirror (promisor pack): missing objects counted apart"
git -C "$S" config uploadpack.allowFilter true
git clone -q --mirror --filter=blob:none "file://$S" "$tmp/part.git" 2>/dev/null ||
	die "partial mirror clone failed"
ls "$tmp/part.git"/objects/pack/*.promisor >/dev/null 2>&1 || die "no promisor pack"
git -C "$tmp/part.git" show-ref -q refs/pull/1/head || die "the mirror has no pull refs"
expect_exit 0 "$GIT_ABBREV" report --format=json --reachable "$tmp/part.git"
oracle_compare "partial mirror, clone view" "$out" --reachable "$tmp/part.git"
missing=$(jget "$out" 'd["reachable"]["missing"]')
checks=$((checks + 1))
[ "$missing" -gt 0 ] || fail "a blob-less clone misses no blob?"
[ "$(jget "$out" 'd["types"]["blob"]["count"]')" -lt "$(jget "$tmp/clone.json" 'd["types"]["blob"]["count"]')" ] ||
	fail "missing blobs counted as present"
[ -s "$err" ] && fail "JSON: the note is a key, not a line on stderr"
expect_exit 0 "$GIT_ABBREV" report --format=json --refs='refs/*' "$tmp/part.git"
oracle_compare "partial mirror, every ref" "$out" --refs='refs/*' "$tmp/part.git"
expect_exit 0 "$GIT_ABBREV" report --reachable "$tmp/part.git"
checks=$((checks + 1))
git -C "$tmp/part.git" config remote.origin.url >/dev/null || die "the mirror has no remote origin"
[ "$(git -C "$tmp/part.git" config --bool remote.origin.promisor)" = true ] ||
	[ "$(git -C "$tmp/part.git" config extensions.partialclone)" = origin ] ||
	die "origin is not the mirror's promisor remote"
grep -qx "git-abbrev: note: $missing objects the refs reach are missing, not counted: promised by remote 'origin' (a partial clone)" "$err" ||
	fail "text: no note on stderr naming the missing objects and the remote: $(cat "$err")"
show "$err"
grep -q "^note: $missing" "$out" && fail "text: the missing note is on stdout"
expect_exit 0 "$GIT_ABBREV" check 4 --reachable "$tmp/part.git"
checks=$((checks + 1))
grep -q "^git-abbrev: note: $missing objects" "$err" || fail "check: no note on stderr"

say "a broken ref: a warning naming it, counted as missing"
cp -a "$S" "$tmp/broken"
git -C "$tmp/broken" rev-parse HEAD | tr 0-9a-f 1-9a-f0 >"$tmp/ghost"
ghost=$(cat "$tmp/ghost")
git -C "$tmp/broken" cat-file -e "$ghost" 2>/dev/null && die "the ghost exists"
echo "$ghost" >"$tmp/broken/.git/refs/heads/ghost"
expect_exit 0 "$GIT_ABBREV" report --format=json --reachable "$tmp/broken"
checks=$((checks + 1))
grep -qx "git-abbrev: warning: bad object refs/heads/ghost" "$err" ||
	fail "no warning naming the broken ref"
show "$err"
checks=$((checks + 1))
[ "$(jget "$out" '(d["objects"], d["reachable"]["missing"], d["reachable"]["bad_refs"])')" = \
  "($(jget "$tmp/clone.json" 'd["objects"]'), 1, 1)" ] ||
	fail "the broken ref's object is not counted apart as missing: $(jget "$out" 'd["reachable"]')"

say "the note tells a broken ref's object from what a partial clone's remote promises"
# git's count of what the refs reach and the repository lacks
git_missing() { # REPO [REVS]: what git rev-list --missing=print says is missing
	r=$1
	shift
	git -C "$r" rev-list --objects --missing=print "${@:-HEAD}" --branches --tags |
		grep -c '^?' || :
}
promised=$(git_missing "$tmp/part.git")
[ "$promised" -gt 0 ] || die "git sees nothing missing in the blob-less mirror"
cp -a "$tmp/part.git" "$tmp/part-broken.git"
echo "$ghost" >"$tmp/part-broken.git/refs/heads/ghost"
expect_exit 0 "$GIT_ABBREV" report --reachable "$tmp/part-broken.git"
checks=$((checks + 1))
grep -qx "git-abbrev: warning: bad object refs/heads/ghost" "$err" &&
	grep -qx "git-abbrev: note: $((promised + 1)) objects the refs reach are missing, not counted: 1 the own object of broken ref refs/heads/ghost; $promised promised by remote 'origin' (a partial clone)" "$err" ||
	fail "partial clone with a broken ref: $(cat "$err")"
show "$err"

say "a partial clone whose remote is gone: no remote named"
cp -a "$tmp/part.git" "$tmp/part-orphan.git"
git -C "$tmp/part-orphan.git" config --remove-section remote.origin
[ -z "$(git -C "$tmp/part-orphan.git" remote)" ] || die "git still lists a remote"
expect_exit 0 "$GIT_ABBREV" report --reachable "$tmp/part-orphan.git"
checks=$((checks + 1))
grep -qx "git-abbrev: note: $promised objects the refs reach are missing, not counted: lacked by a partial clone with no promisor remote configured" "$err" ||
	fail "partial clone without a remote: $(cat "$err")"
grep -q "remote '" "$err" && fail "a remote that does not exist is named: $(cat "$err")"
show "$err"

say "a broken ref in a full repository: its ref named, no partial clone, no remote"
expect_exit 0 "$GIT_ABBREV" report --reachable "$tmp/broken"
checks=$((checks + 1))
grep -qx "git-abbrev: note: 1 object the refs reach is missing, not counted: the own object of broken ref refs/heads/ghost" "$err" ||
	fail "broken ref: $(cat "$err")"
grep -q "partial\|remote" "$err" && fail "a full repository's broken ref: $(cat "$err")"

say "a full repository that lost a reachable blob: absent, not promised"
git init -q "$tmp/lost"
echo lost >"$tmp/lost/f"
git -C "$tmp/lost" add f
git -C "$tmp/lost" commit -q -m lost
blob=$(git -C "$tmp/lost" rev-parse HEAD:f)
rm "$tmp/lost/.git/objects/$(echo "$blob" | cut -c1-2)/$(echo "$blob" | cut -c3-)"
lost=$(git_missing "$tmp/lost")
[ "$lost" -eq 1 ] || die "git does not see the blob missing"
expect_exit 0 "$GIT_ABBREV" report --reachable "$tmp/lost"
checks=$((checks + 1))
grep -qx "git-abbrev: note: 1 object the refs reach is missing, not counted: absent from the object database" "$err" ||
	fail "a lost blob: $(cat "$err")"

say "a tag without an object line: an error naming that tag, exit 3"
cp -a "$S" "$tmp/badtag"
bad=$(printf 'type commit\ntag bad\n\nno object line\n' |
	git -C "$tmp/badtag" hash-object -t tag -w --literally --stdin)
# named through a good tag of it: the message names the bad one
outer=$(printf 'object %s\ntype tag\ntag outer\ntagger C O Mitter <c@example.com> 1112911993 +0000\n\nouter\n' "$bad" |
	git -C "$tmp/badtag" hash-object -t tag -w --literally --stdin)
echo "$outer" >"$tmp/badtag/.git/refs/tags/bad"
expect_exit 3 "$GIT_ABBREV" report --reachable "$tmp/badtag"
checks=$((checks + 1))
one_line "$err" && grep -q "cannot read tag $bad: no object line" "$err" ||
	fail "a malformed tag: $(cat "$err")"
[ -s "$out" ] && fail "a malformed tag: a partial answer on stdout"

finish
