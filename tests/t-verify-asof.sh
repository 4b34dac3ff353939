#!/bin/sh
# t-verify-asof.sh - verify --range judges a reference as of the commit
# that wrote it.  gen_repo.py asof: a commit cites sixteen commits by
# their first 6 hex chars; later, one commit on main (a descendant of the
# citing one) and one on a side branch forked from the root were
# brute-forced to share those 6 chars with two of them.  Under --range the
# two references stay clean (exit 0), each with a note naming the later
# commit, how many hex chars it shares and whether that is improbable for
# random IDs; the same prefix in a patch file (written now) is an error.
# A subject search never offers a commit made after the citing one.
# Oracle: git rev-parse --disambiguate (ambiguous now), git merge-base
# --is-ancestor (which commit is an ancestor), the objects git lists (the
# birthday model's p, computed here).

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"

r=$tmp/asof
gen_repo "$r" asof
J() { jget "$r.json" "$1"; }
citing=$(J 'd["citing"]')
side_tip=$(git -C "$r" rev-parse side)
for w in 0 1; do
	cited=$(J "d['planted'][$w]['ids'][0]")
	later=$(J "d['planted'][$w]['ids'][1]")
	where=$(J "d['planted'][$w]['where']")
	p6=$(echo "$cited" | cut -c1-6)
	# the oracle: unique as of the citing commit, ambiguous now
	git -C "$r" rev-parse --disambiguate="$p6" | sort >"$tmp/now"
	[ "$(wc -l <"$tmp/now")" -eq 2 ] || die "$p6 does not name two objects now"
	git -C "$r" merge-base --is-ancestor "$cited" "$citing" || die "$cited is no ancestor"
	if git -C "$r" merge-base --is-ancestor "$later" "$citing" ||
		[ "$later" = "$citing" ]; then
		die "$later is an ancestor of the citing commit"
	fi
	if [ "$where" = main ]; then
		git -C "$r" merge-base --is-ancestor "$citing" "$later" || die "$later is no descendant"
		main_p6=$p6 main_later=$later main_cited=$cited
	else
		git -C "$r" merge-base --is-ancestor "$citing" "$later" && die "$later is a descendant"
		side_p6=$p6 side_later=$later side_cited=$cited
	fi
done
say "main: $main_p6 (later $main_later), side: $side_p6 (later $side_later)"

# the objects git lists: the birthday model's count (tests/asof_check.py)
nobj=$(git -C "$r" cat-file --batch-all-objects --batch-check | wc -l)

# ---- --range: clean, with a note each ---------------------------------------------
expect_exit 0 -C "$r" "$GIT_ABBREV" verify --min-length=6 --range=HEAD --format=json
checks=$((checks + 1))
"$PYTHON3" "$tests_dir/asof_check.py" "$out" "$citing" "$nobj" "$main_p6" "$main_later" \
	"$main_cited" "$side_p6" "$side_later" "$side_cited" >"$tmp/asof.out" 2>&1 ||
	{ fail "--range: the notes are not as git says"; show "$tmp/asof.out"; }
# text says the same in one note line each
expect_exit 0 -C "$r" "$GIT_ABBREV" verify --min-length=6 --range=HEAD
for p6 in "$main_p6" "$side_p6"; do
	grep -q "note: $p6 was unique when written" "$out" || { fail "no note for $p6"; show "$out"; }
done
grep -q "suggestion:" "$out" && { fail "a note came with a suggestion"; show "$out"; }

# ---- a patch written now: every commit counts ---------------------------------------
for p6 in "$main_p6" "$side_p6"; do
	s=$(git -C "$r" log -1 --format=%s "$(git -C "$r" rev-parse --disambiguate="$p6" | head -1)")
	printf 'Fixes: %s ("%s")\n' "$p6" "$s" >"$tmp/new.patch"
	expect_exit 1 -C "$r" "$GIT_ABBREV" verify --min-length=6 "$tmp/new.patch"
	grep -q "error: $p6 is ambiguous: 2 commits start with it" "$out" ||
		{ fail "a new patch citing $p6: not an error"; show "$out"; }
done

# ---- a subject search offers no commit made after the citing one ---------------------
# side's tag names no object, by the subject of main's tip, committed after side
head=$(git -C "$r" rev-parse HEAD)
[ "$(git -C "$r" log -1 --format=%ct HEAD)" -gt "$(git -C "$r" log -1 --format=%ct side)" ] ||
	die "HEAD is not later than side"
[ "$(git -C "$r" log --all --format=%s | grep -cx 'after the later commit')" -eq 1 ] ||
	die "not one commit with the subject"
expect_exit 1 -C "$r" "$GIT_ABBREV" verify --min-length=6 --range=side
grep -q "123456789abc names no object in this repository; only $(echo "$head" | cut -c1-6)[0-9a-f]*, made after this commit, has this subject" "$out" ||
	{ fail "side: not said that only a later commit has the subject"; show "$out"; }
grep -q "suggestion:" "$out" && { fail "side: a later commit suggested"; show "$out"; }
# written now (a file), that commit is the one meant
git -C "$r" show -s --format=%B side >"$tmp/side.msg"
expect_exit 1 -C "$r" "$GIT_ABBREV" verify --min-length=6 "$tmp/side.msg"
grep -q "suggestion: Fixes: $(echo "$head" | cut -c1-6)" "$out" ||
	{ fail "a file: the commit with the subject not suggested"; show "$out"; }

# ---- the minimum length from git config abbrev.minLength, --min-length first ---------
git -C "$r" config abbrev.minLength 6
[ "$(git -C "$r" config --get abbrev.minLength)" = 6 ] || die "abbrev.minLength not set"
expect_exit 0 -C "$r" "$GIT_ABBREV" verify --range=HEAD
grep -q "short-id\|fewer than" "$out" && { fail "abbrev.minLength=6: 6-char IDs short"; show "$out"; }
expect_exit 1 -C "$r" "$GIT_ABBREV" verify --min-length=12 --range=HEAD
grep -q "warning: $main_p6 has 6 hex chars, fewer than 12" "$out" ||
	{ fail "--min-length=12 not before abbrev.minLength"; show "$out"; }
git -C "$r" config abbrev.minLength 3
expect_exit 2 -C "$r" "$GIT_ABBREV" verify --range=HEAD
grep -q "bad abbrev.minLength" "$err" || { fail "abbrev.minLength=3 taken"; show "$err"; }
git -C "$r" config --unset abbrev.minLength
expect_exit 1 -C "$r" "$GIT_ABBREV" verify --range=HEAD
grep -q "warning: $main_p6 has 6 hex chars, fewer than 12" "$out" ||
	{ fail "no abbrev.minLength: not 12"; show "$out"; }

finish
