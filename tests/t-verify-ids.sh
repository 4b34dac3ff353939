#!/bin/sh
# t-verify-ids.sh - verify's ID lookup from the .idx files and the loose
# objects (objidx.h), without loading every ID first.
#
# 1. The lookup itself against git (tests/objidx_oracle.py: the objects of
#    prefixes of every object, their types, unique lengths and whether a
#    tag is commit-ish) on generated repositories: several packs with
#    loose objects and an object in two packs, tags of commits, tags of
#    tags and delta'd tags, an alternate object store, SHA-256.
# 2. A pair of commits sharing 8 hex chars placed on purpose: in two
#    packs, one packed and one loose, one in an alternate.  verify must
#    call the 8-char prefix ambiguous exactly when git does.
# 3. verify's findings, text and JSON, byte for byte the same as from the
#    ID sets (--walker=libgit2 loads them first, as before), for
#    references to every object at 4, 7 and 12 hex chars.
# 4. A pack cut short while verify has it mapped: exit 3 and one line,
#    never a crash or a verdict; a repack meanwhile changes no answer.
# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"

dump=${WALK_DUMP:-$(dirname "$GIT_ABBREV")/../tests/walk_dump}
hooks=${GIT_ABBREV_HOOKS:-$(dirname "$GIT_ABBREV")/../tests/git-abbrev-hooks}
[ -x "$dump" ] || die "no $dump: build it with make check"
[ -x "$hooks" ] || die "no $hooks: build it with make check"

oracle() { # LABEL REPO OBJDIR [PREFIX...]
	label=$1
	shift
	checks=$((checks + 1))
	if "$PYTHON3" "$tests_dir/objidx_oracle.py" "$dump" "$@" >"$tmp/oracle" 2>&1; then
		say "$label: $(tail -n 1 "$tmp/oracle")"
	else
		fail "$label: the lookup disagrees with git"
		show "$tmp/oracle"
	fi
}

# ---- 1. the lookup against git ------------------------------------------------
P=$tmp/planted
gen_repo "$P" planted
oracle planted "$P" "$P/.git/objects"
C=$tmp/commitish
gen_repo "$C" commitish
oracle commitish "$C" "$C/.git/objects"
A=$tmp/alt
gen_repo "$A" alternates
oracle "alternates (downstream)" "$A/downstream" "$A/downstream/.git/objects"
if git init -q --object-format=sha256 "$tmp/s256probe" 2>/dev/null; then
	gen_repo "$tmp/sha256" sha256
	oracle sha256 "$tmp/sha256" "$tmp/sha256/.git/objects"
fi

# ---- 2. one colliding pair, placed -------------------------------------------------
# shellcheck disable=SC2046 # the pair's two IDs
set -- $(jget "$P.json" 'words(planted("commit-commit")["ids"])')
X=$1 Y=$2
X8=$(echo "$X" | cut -c1-8)
[ "$(echo "$Y" | cut -c1-8)" = "$X8" ] || die "the planted pair does not share 8 hex chars"
SX=$(git -C "$P" log -1 --format=%s "$X")
printf 'Subject: [PATCH] x\n\nFixes: %s ("%s")\n' "$X8" "$SX" >"$tmp/pair.patch"
git -C "$P" cat-file --batch-all-objects --batch-check='%(objectname)' | grep -v "^$Y" >"$tmp/rest"

# a bare repository whose packs hold every object of $P but Y; Y goes where $2 says
place() { # DIR WHERE
	git init -q --bare "$1"
	git -C "$P" pack-objects -q "$1/objects/pack/pack" <"$tmp/rest" >/dev/null
	git -C "$1" update-ref refs/heads/main "$(git -C "$P" rev-parse HEAD)"
	case $2 in
	pack) echo "$Y" | git -C "$P" pack-objects -q "$1/objects/pack/pack" >/dev/null ;;
	loose) git -C "$P" cat-file commit "$Y" | git -C "$1" hash-object -w -t commit --stdin >/dev/null ;;
	alternate)
		git init -q --bare "$1.alt"
		git -C "$P" cat-file commit "$Y" | git -C "$1.alt" hash-object -w -t commit --stdin >/dev/null
		echo "$1.alt/objects" >"$1/objects/info/alternates" ;;
	esac
}
for where in pack loose alternate; do
	R=$tmp/pair-$where
	place "$R" "$where"
	[ "$(git -C "$R" rev-parse --disambiguate="$X8" | wc -l)" -eq 2 ] ||
		die "$where: git does not see both commits of $X8"
	oracle "pair, second commit $where" "$R" "$R/objects" "$X8"
	expect_exit 1 "$GIT_ABBREV" verify -C "$R" --format=json "$tmp/pair.patch"
	cp "$out" "$tmp/pair-$where.json"
	checks=$((checks + 1))
	grep -q '"ambiguous"' "$out" && grep -q "$Y" "$out" ||
		{ fail "$where: $X8 not ambiguous between $X and $Y"; show "$out"; }
	expect_exit 1 "$GIT_ABBREV" verify -C "$R" --format=json --walker=libgit2 "$tmp/pair.patch"
	checks=$((checks + 1))
	cmp -s "$out" "$tmp/pair-$where.json" || fail "$where: the .idx lookup and the ID sets disagree"
done
say "the pair across two packs, packed and loose, here and in an alternate: ambiguous as git says"

# a commit and an annotated tag of it sharing 5 hex chars (loose beside packed):
# both commit-ish, so `git log <prefix>` is ambiguous, and verify must say so
R=$tmp/pair-pack
Z=$(git -C "$R" rev-parse main)
Z5=$(echo "$Z" | cut -c1-5)
"$PYTHON3" "$tests_dir/objidx_oracle.py" --tag-beside "$Z" 5 >"$tmp/tag"
ZT=$(git -C "$R" hash-object -w -t tag --stdin <"$tmp/tag")
[ "$(echo "$ZT" | cut -c1-5)" = "$Z5" ] || die "the tag $ZT does not share 5 hex chars with $Z"
! git -C "$R" rev-parse -q --verify "$Z5^{commit}" >/dev/null 2>&1 ||
	die "git finds $Z5^{commit} unambiguous"
oracle "a commit and a tag of it" "$R" "$R/objects" "$Z5"
printf 'Fixes: %s ("%s")\n' "$Z5" "$(git -C "$R" log -1 --format=%s "$Z")" >"$tmp/tag.patch"
expect_exit 1 "$GIT_ABBREV" verify -C "$R" --format=json "$tmp/tag.patch"
cp "$out" "$tmp/tag.json"
checks=$((checks + 1))
grep -q '"kind":"ambiguous".*also names a tag that peels to a commit' "$out" ||
	{ fail "$Z5: not ambiguous with the tag $ZT"; show "$out"; }
expect_exit 1 "$GIT_ABBREV" verify -C "$R" --format=json --walker=libgit2 "$tmp/tag.patch"
checks=$((checks + 1))
cmp -s "$out" "$tmp/tag.json" || fail "commit and tag: the .idx lookup and the ID sets disagree"

# ---- 3. the same findings as from the ID sets ---------------------------------------
refs_to_all() { # REPO -> a patch citing every object at 4, 7 and 12 hex chars
	git -C "$1" cat-file --batch-all-objects --batch-check='%(objectname) %(objecttype)' |
		awk '{ printf "Fixes: %s (\"x\")\ncommit %s\nSee %s (\"y\").\n", substr($1, 1, 4),
			substr($1, 1, 7), substr($1, 1, 12) }'
}
for r in "$P" "$C" "$A/downstream"; do
	refs_to_all "$r" >"$tmp/all.patch"
	for fmt in text json; do
		expect_exit 1 "$GIT_ABBREV" verify -C "$r" --format=$fmt "$tmp/all.patch"
		cp "$out" "$tmp/idx.$fmt"
		expect_exit 1 "$GIT_ABBREV" verify -C "$r" --format=$fmt --walker=libgit2 "$tmp/all.patch"
		checks=$((checks + 1))
		cmp -s "$out" "$tmp/idx.$fmt" ||
			{ fail "$(basename "$r") $fmt: the .idx lookup and the ID sets disagree"; \
			  diff "$tmp/idx.$fmt" "$out" | head -5; }
	done
done
say "every object cited at 4, 7 and 12 hex chars: the same findings as from the ID sets"

# ---- 4. packs that change under verify -------------------------------------------
T=$tmp/cut
gen_repo "$T" planted
git -C "$T" gc -q
pack=$(ls "$T"/.git/objects/pack/pack-*.pack)
refs_to_all "$T" >"$tmp/all.patch"
checks=$((checks + 1))
[ "$(wc -c <"$pack")" -gt 65536 ] || fail "the pack is too small to cut short"
run_paused() { # ACTION: verify pauses after mapping the packs; ACTION runs meanwhile
	# (the pause ends once ACTION is done: $tmp/resume; 10 s at most)
	rm -f "$tmp/paused" "$tmp/resume"
	GIT_ABBREV_TEST_PAUSED=$tmp/paused GIT_ABBREV_TEST_RESUME=$tmp/resume \
		GIT_ABBREV_TEST_PAUSE_MS=10000 \
		"$hooks" verify -C "$T" --format=json "$tmp/all.patch" >"$tmp/out" 2>"$tmp/err" &
	verifier=$!
	wait_paused "$verifier" "$tmp/paused" verify
	"$@"
	: >"$tmp/resume"
	if wait "$verifier"; then rc=0; else rc=$?; fi
}
expect_exit 1 "$GIT_ABBREV" verify -C "$T" --format=json "$tmp/all.patch"
cp "$out" "$tmp/before.json"
run_paused git -C "$T" repack -q -a -d -f
checks=$((checks + 1))
[ "$rc" -eq 1 ] && cmp -s "$tmp/out" "$tmp/before.json" ||
	{ fail "repacked under verify: exit $rc, or other findings"; show "$tmp/err"; }
pack=$(ls "$T"/.git/objects/pack/pack-*.pack)
# in place, as a failing disk or a careless script would: the same inode
run_paused truncate -s 4096 "$pack"
checks=$((checks + 1))
[ "$rc" -eq 3 ] || fail "pack cut short under verify: exit $rc, want 3"
checks=$((checks + 1))
one_line "$tmp/err" && grep -q "pack-.*cut short" "$tmp/err" ||
	{ fail "want one line naming the pack"; show "$tmp/err"; }
# nothing on stdout (as for any runtime error): no document is presented
# as a whole run
checks=$((checks + 1))
[ ! -s "$tmp/out" ] ||
	{ fail "findings on stdout from a pack cut short"; show "$tmp/out"; }
say "pack cut short under verify: exit $rc: $(cat "$tmp/err")"
finish
