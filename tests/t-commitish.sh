#!/bin/sh
# t-commitish.sh - the commit-ish set against git itself.
#
# gen_repo.py's "commitish" scenario plants commits that share 7 hex chars
# with an annotated tag: of a commit, of a tag of a commit (commit-ish),
# of a tree, of a blob (not commit-ish).  For each, what the tool says
# (check --type=commit-ish, the commit~other count, the legend's claims)
# is compared with what git does: `git log -1 <prefix>` and
# `git rev-parse --verify <prefix>^{commit}` fail as ambiguous exactly
# for the commit-ish pairs, `git show <prefix>` for every pair.  The
# tags are stored as deltas (repack -f), one loose: both walkers and
# --reachable must give the same set, equal to the oracle's.
. "$(dirname "$0")/setup.sh"

repo=$tmp/ish
gen_repo "$repo" commitish
field() { # KIND FIELD -> value from gen_repo's JSON
	jget "$repo.json" "words(planted('$1')['$2'])"
}

# git's answer for a prefix: "ambiguous", or the ID it resolves to
git_answer() { # CMD...
	if res=$(git -C "$repo" "$@" 2>"$tmp/git.err"); then
		printf '%s\n' "$res" | head -1
	elif grep -q "is ambiguous" "$tmp/git.err"; then
		echo ambiguous
	else
		echo "error: $(head -1 "$tmp/git.err")"
	fi
}

expect_exit 0 "$GIT_ABBREV" report "$repo"
cp "$out" "$tmp/report.txt"
# the legend's claims, each checked against git below
grep -q "commit-ish: commits and the tags" "$tmp/report.txt" || fail "legend: no commit-ish"
grep -q "among which git log <prefix> and <prefix>^{commit}" "$tmp/report.txt" ||
	fail "legend: what commit-ish means to git log"
grep -q "ambiguous to git show <prefix>" "$tmp/report.txt" || fail "legend: commit~other"

expect_exit 0 "$GIT_ABBREV" report --format=json "$repo"
cp "$out" "$tmp/pack.json"
oracle_compare "commit-ish scenario" "$tmp/pack.json" "$repo"

for kind in tag-commit tag-tag-commit tag-tree tag-blob; do
	len=$(field "$kind" shared)
	ish=$(field "$kind" commitish)
	set -- $(field "$kind" ids)
	commit=$1 tag=$2
	prefix=$(printf %s "$commit" | cut -c1-"$len")
	checks=$((checks + 1))
	[ "$(printf %s "$tag" | cut -c1-"$len")" = "$prefix" ] ||
		die "$kind: planted IDs do not share $len chars"

	# what the tool says
	expect_exit 1 "$GIT_ABBREV" check "$len" --format=json --type=commit-ish "$repo"
	listed=$(jget "$out" "any(g['prefix'] == '$prefix' for g in d['groups'])")
	# every planted commit shares its prefix with a tag: commit~other
	expect_exit 1 "$GIT_ABBREV" check "$len" --against=all --format=json "$repo"
	cvo=$(jget "$out" "any(g['prefix'] == '$prefix' for g in d['groups'])")

	# what git does
	log=$(git_answer log -1 --format=%H "$prefix")
	verify=$(git_answer rev-parse --verify "$prefix^{commit}")
	show=$(git_answer show -s --format=%H "$prefix")
	say "$kind ($prefix): tool commit-ish $listed, commit~other $cvo; git log: $log," \
	    "rev-parse ^{commit}: $verify, show: $show"

	checks=$((checks + 4))
	[ "$cvo" = True ] || fail "$kind: commit~other does not list $prefix"
	[ "$show" = ambiguous ] || fail "$kind: git show $prefix: $show, the legend says ambiguous"
	if [ "$ish" = True ]; then
		[ "$listed" = True ] || fail "$kind: check --type=commit-ish does not list $prefix"
		[ "$log" = ambiguous ] || fail "$kind: git log -1 $prefix: $log, want ambiguous"
		[ "$verify" = ambiguous ] || fail "$kind: rev-parse $prefix^{commit}: $verify"
	else
		[ "$listed" = False ] || fail "$kind: check --type=commit-ish lists $prefix"
		[ "$log" = "$commit" ] || fail "$kind: git log -1 $prefix: $log, want $commit"
		[ "$verify" = "$commit" ] || fail "$kind: rev-parse $prefix^{commit}: $verify"
	fi
done

# the exit status: commit-ish IDs collide at 7, commits alone do not
expect_exit 1 "$GIT_ABBREV" check 7 --quiet --type=commit-ish "$repo"
expect_exit 0 "$GIT_ABBREV" check 7 --quiet "$repo"

# the walkers and --reachable (every object here is reachable) agree
expect_exit 0 "$GIT_ABBREV" report --format=json --walker=libgit2 "$repo"
cp "$out" "$tmp/git2.json"
expect_exit 0 "$GIT_ABBREV" report --format=json --reachable "$repo"
cp "$out" "$tmp/reach.json"
py_check "walkers differ on the commit-ish set" report_check.py commitish "$tmp/pack.json" "$tmp/git2.json" "$tmp/reach.json" "$repo.json"

# the pack walker reads the tags itself (deltified ones rebuilt, the loose
# one inflated): peeled from its own reading alone, without the libgit2
# reads the commands add for what a walker left unread, the set is git's
if [ -z "${WALK_DUMP:-}" ]; then
	for c in "$PWD/tests/walk_dump" "$PWD/../tests/walk_dump"; do
		if [ -x "$c" ]; then WALK_DUMP=$c; break; fi
	done
fi
[ -x "${WALK_DUMP:-}" ] || die "no tests/walk_dump: run make check (or set WALK_DUMP)"
expect_exit 0 "$WALK_DUMP" --commit-ish "$repo/.git/objects"
cut -d" " -f1 "$out" >"$tmp/walked"
checks=$((checks + 1))
grep -qx "unread tags: 0" "$err" || fail "the pack walker left tags unread: $(cat "$err")"
git -C "$repo" cat-file --batch-all-objects --batch-check='%(objectname) %(objecttype)' >"$tmp/all"
awk '$2 == "commit" { print $1 }' "$tmp/all" >"$tmp/want"
awk '$2 == "tag" { print $1 }' "$tmp/all" | while read -r t; do
	if [ "$(git -C "$repo" cat-file -t "$t^{commit}" 2>/dev/null)" = commit ]; then echo "$t"; fi
done >>"$tmp/want"
sort "$tmp/want" >"$tmp/want.sorted"
checks=$((checks + 1))
cmp -s "$tmp/want.sorted" "$tmp/walked" ||
	fail "pack walker's commit-ish set differs from git's: $(diff "$tmp/want.sorted" "$tmp/walked" | head -5)"

# the same from a pack with a reachability bitmap (types from the bitmap,
# the tags still read from the pack)
git clone -q --bare --no-local "$repo" "$tmp/bitmapped.git" 2>/dev/null || die "clone failed"
git -C "$tmp/bitmapped.git" repack -adbq || die "repack -b failed"
ls "$tmp/bitmapped.git"/objects/pack/*.bitmap >/dev/null 2>&1 || die "no bitmap written"
expect_exit 0 "$WALK_DUMP" --commit-ish "$tmp/bitmapped.git/objects"
checks=$((checks + 1))
grep -qx "unread tags: 0" "$err" || fail "bitmap pack: tags left unread: $(cat "$err")"
git -C "$tmp/bitmapped.git" cat-file --batch-all-objects --batch-check='%(objectname)' >"$tmp/bm.all"
checks=$((checks + 1))
[ "$(cut -d" " -f1 "$out")" = "$(grep -Fxf "$tmp/bm.all" "$tmp/want.sorted")" ] ||
	fail "bitmap pack: the commit-ish set differs from git's"

# the listing names the tag beside the commit
expect_exit 1 "$GIT_ABBREV" check 7 --type=commit-ish "$repo"
set -- $(field tag-commit ids)
grep -q "^  tag    $2 (tag tag-commit)" "$out" || fail "listing lacks the tag"
grep -q "^  commit $1\( \|\$\)" "$out" || fail "listing lacks the commit"
head -1 "$out" | grep -q "^commit-ish IDs collide at 7 chars: 4 commit-ish IDs in 2 prefixes" ||
	fail "headline: $(head -1 "$out")"

finish
