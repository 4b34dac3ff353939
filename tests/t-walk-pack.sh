#!/bin/sh
# t-walk-pack.sh - the pack-native walker (src/walk/walk_pack*.c) against git.
#
# Builds repositories whose packs exercise every path of the reader: several
# packs and loose objects, deep OFS_DELTA chains with and without a .rev
# file, REF_DELTA packs, a thin pack completed by `index-pack --fix-thin`
# (bases after their deltas), index version 1, 64-bit offset tables, objects
# stored twice, alternates (absolute, relative, chained, looping), SHA-256.
# For each, tests/walk_dump's "<id> <type>" list must equal `git cat-file
# --batch-all-objects`, and the libgit2 walker must give the same list.
# Then corrupt copies (truncated pack, garbage index, offsets outside the
# pack, bad types, looping and missing delta bases, bad loose objects...)
# must fail with status 3 and one line naming the bad file, never crash;
# alternates that are not there or nested too deep give a warning, as git.
# WALK_DUMP may name another build of walk_dump (e.g. one with ASan).

# shellcheck source-path=SCRIPTDIR source=setup.sh disable=SC2046
. "$(dirname "$0")/setup.sh"

if [ -z "${WALK_DUMP:-}" ]; then
	for c in "$PWD/tests/walk_dump" "$PWD/../tests/walk_dump" \
		 "$(dirname "$GIT_ABBREV")/../tests/walk_dump"; do
		if [ -x "$c" ]; then WALK_DUMP=$c; break; fi
	done
fi
[ -x "${WALK_DUMP:-}" ] || die "no tests/walk_dump: run make check (or set WALK_DUMP)"

# Pack surgery: tests/damage.py lists a pack's entries and writes loose
# objects; poke FILE OFFSET HEX writes the bytes HEX at OFFSET of FILE
# (each byte as an octal escape of printf, then one dd).
pk() { "$PYTHON3" "$tests_dir/damage.py" "$@"; }
poke() {
	p_hex=$3 p_esc=
	while [ -n "$p_hex" ]; do
		p_rest=${p_hex#??}
		p_o=$((0x${p_hex%"$p_rest"}))
		p_esc="$p_esc\\$((p_o / 64))$((p_o / 8 % 8))$((p_o % 8))"
		p_hex=$p_rest
	done
	# shellcheck disable=SC2059 # the format is the escapes made above
	printf "$p_esc" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

# objdir REPO: its object directory, absolute.
objdir() { git -C "$1" rev-parse --path-format=absolute --git-path objects; }

# compare LABEL REPO [--rawsz=N]: the pack walker lists what git lists,
# and (SHA-1 only, unless $no_libgit2 is set) the libgit2 walker gives the
# same typed set.
no_libgit2=
compare() {
	label=$1 repo=$2
	shift 2
	git -C "$repo" cat-file --batch-all-objects \
		--batch-check='%(objectname) %(objecttype)' >"$tmp/git.list" ||
		die "$label: git cat-file failed"
	touch "$tmp/stamp"
	expect_exit 0 "$WALK_DUMP" "$@" "$(objdir "$repo")"
	if [ "$rc" -eq 0 ]; then
		checks=$((checks + 1))
		cmp -s "$tmp/git.list" "$out" || {
			fail "$label: pack walker and git differ"
			diff "$tmp/git.list" "$out" | sed -n '1,10s/^/    /p'
		}
	fi
	checks=$((checks + 1))
	[ -z "$(find "$repo" -newer "$tmp/stamp" -print | head -1)" ] ||
		fail "$label: the repository was written to"
	say "$label: $(wc -l <"$tmp/git.list" | tr -d ' ') objects agree"
	case "$*" in *--rawsz=32*) return 0 ;; esac
	[ -z "$no_libgit2" ] || return 0
	expect_exit 0 "$WALK_DUMP" --libgit2 "$repo"
	if [ "$rc" -eq 0 ]; then
		checks=$((checks + 1))
		cmp -s "$tmp/git.list" "$out" || fail "$label: libgit2 walker and git differ"
	fi
	expect_exit 0 "$WALK_DUMP" --repo "$repo"
	if [ "$rc" -eq 0 ]; then
		checks=$((checks + 1))
		cmp -s "$tmp/git.list" "$out" || fail "$label: --repo (repo_objdir) differs"
	fi
}

# ---- a history with many similar revisions ------------------------------
# commit REPO FROM TO: commits FROM..TO, each changing a line of a.txt,
# growing b.txt and touching a file in a subdirectory (deltas everywhere).
commit_range() {
	r=$1 i=$2
	while [ "$i" -le "$3" ]; do
		awk -v i="$i" '{ print ($0 == i ? "changed in revision " i : "line " $0 " of a text that changes slowly") }' \
			"$tmp/lines" >"$r/a.txt"
		echo "revision $i appended" >>"$r/b.txt"
		mkdir -p "$r/sub/dir"
		echo "sub $((i % 7))" >"$r/sub/dir/c.txt"
		git -C "$r" add a.txt b.txt sub
		git -C "$r" commit -q -m "revision $i"
		i=$((i + 1))
	done
}
seq 1 400 >"$tmp/lines"
base=$tmp/base
git init -q "$base"
: >"$base/b.txt"
commit_range "$base" 1 15
git -C "$base" tag -a -m "tag one" v1
git -C "$base" -c pack.writeReverseIndex=true repack -q -d
commit_range "$base" 16 30
git -C "$base" tag -a -m "tag two" v2
git -C "$base" -c pack.writeReverseIndex=false repack -q -d
commit_range "$base" 31 40
# an object in two packs: pack the last commits twice over
git -C "$base" rev-parse HEAD~2 | git -C "$base" pack-objects -q --revs "$(objdir "$base")/pack/pack" >/dev/null
git -C "$base" rev-parse HEAD | git -C "$base" pack-objects -q --revs "$(objdir "$base")/pack/pack" >/dev/null
# an unreachable blob, loose
echo "dangling" | git -C "$base" hash-object -w --stdin >/dev/null
compare "several packs, loose, duplicates" "$base"

# variant NAME REPACK-ARGS...: a copy of base, repacked.
variant() {
	name=$1
	shift
	rm -rf "${tmp:?}/$name"
	cp -R "$base" "$tmp/$name"
	git -C "$tmp/$name" "$@"
}
variant deep -c pack.writeReverseIndex=true repack -q -adf --depth=50 --window=50
compare "one pack, deep OFS_DELTA chains, .rev" "$tmp/deep"
variant norev -c pack.writeReverseIndex=false repack -q -adf --depth=50 --window=50
compare "one pack, deep OFS_DELTA chains, no .rev" "$tmp/norev"
variant ref -c repack.useDeltaBaseOffset=false -c pack.writeReverseIndex=false \
	repack -q -adf --depth=50 --window=50
checks=$((checks + 1))
pk entries "$tmp"/ref/.git/objects/pack/pack-*.idx >"$tmp/ref.entries"
awk '$2 == 7 { n++ } END { exit !(n > 10) }' "$tmp/ref.entries" ||
	fail "the REF_DELTA pack has no REF_DELTA entries"
compare "REF_DELTA pack" "$tmp/ref"
variant refrev -c repack.useDeltaBaseOffset=false -c pack.writeReverseIndex=true \
	repack -q -adf --depth=50 --window=50
compare "REF_DELTA pack, .rev" "$tmp/refrev"
variant idx1 -c pack.indexVersion=1 repack -q -adf --depth=20
compare "index version 1" "$tmp/idx1"

# 64-bit offsets: re-index the deep pack putting every offset >= 64 in the
# large-offset table
rm -rf "$tmp/large"
cp -R "$tmp/deep" "$tmp/large"
for p in "$tmp"/large/.git/objects/pack/pack-*.pack; do
	rm -f "${p%.pack}.idx" "${p%.pack}.rev"
	git -C "$tmp/large" index-pack -q --index-version=2,64 "$p" >/dev/null 2>&1 ||
		git -C "$tmp/large" index-pack --index-version=2,64 "$p" >/dev/null
done
compare "64-bit offset table" "$tmp/large"

# a thin pack completed with --fix-thin: its bases follow their deltas
thin=$tmp/thin
git clone -q --bare --no-local "$base" "$thin"
git -C "$thin" update-ref refs/heads/old 'v1^{commit}'
git -C "$thin" update-ref -d refs/heads/master 2>/dev/null || :
git -C "$thin" update-ref -d refs/heads/main 2>/dev/null || :
git -C "$thin" tag -d v2 >/dev/null
git -C "$thin" -c pack.writeReverseIndex=false repack -q -adf
git -C "$thin" prune --expire=now
printf '%s\n^%s\n' "$(git -C "$base" rev-parse HEAD)" "$(git -C "$base" rev-parse 'v1^{commit}')" |
	git -C "$base" pack-objects -q --revs --thin --stdout >"$tmp/thin.pack"
git -C "$thin" index-pack -q --stdin --fix-thin <"$tmp/thin.pack" >/dev/null 2>&1 ||
	git -C "$thin" index-pack --stdin --fix-thin <"$tmp/thin.pack" >/dev/null
compare "thin pack completed by --fix-thin" "$thin"

# ---- gen_repo.py scenarios ----------------------------------------------
for s in planted many small empty; do
	gen_repo "$tmp/$s" "$s"
	compare "gen_repo $s" "$tmp/$s"
done
gen_repo "$tmp/alt" alternates
compare "alternates, downstream" "$tmp/alt/downstream"
gen_repo "$tmp/sha256" sha256
compare "SHA-256" "$tmp/sha256" --rawsz=32

# alternates: relative, chained, comments, blank lines, a loop, quoting
chain=$tmp/chain
for r in a b c; do
	git init -q "$chain/$r"
	echo "only in $r" >"$chain/$r/f"
	git -C "$chain/$r" add f
	git -C "$chain/$r" commit -q -m "$r"
done
printf '# upstream of c\n\n../../../b/.git/objects\n' >"$chain/c/.git/objects/info/alternates"
printf '%s\n' "$(objdir "$chain/a")" >"$chain/b/.git/objects/info/alternates"
# a loop back to c (git ignores an object store it already has)
printf '%s\n' "$(objdir "$chain/c")" >"$chain/a/.git/objects/info/alternates"
compare "alternates: relative, chained, looping" "$chain/c"
# git C-quotes a path in alternates; libgit2 1.5 does not read those
printf '"%s"\n' "$(objdir "$chain/a")" >"$chain/b/.git/objects/info/alternates"
no_libgit2=1
compare "alternates: quoted path" "$chain/c"
no_libgit2=

# ---- corrupt object databases --------------------------------------------
# bad LABEL PATTERN OBJDIR: the walker fails with status 3 and one line on
# stderr naming PATTERN (a file), nothing on stdout.
bad() {
	label=$1 pattern=$2
	expect_exit 3 "$WALK_DUMP" "$3"
	[ "$rc" -eq 3 ] || return 0
	checks=$((checks + 1))
	one_line "$err" || { fail "$label: stderr is not exactly one line"; show "$err"; }
	checks=$((checks + 1))
	grep -q -- "$pattern" "$err" || { fail "$label: message does not name $pattern"; show "$err"; }
	checks=$((checks + 1))
	[ ! -s "$out" ] || fail "$label: stdout is not empty"
	say "$label: $(head -1 "$err")"
}

# broken FROM: a fresh writable copy of FROM's objects in $tmp/broken;
# sets $o (the object dir), $idx, $pack and $rev (its only pack).
broken() {
	rm -rf "$tmp/broken"
	cp -R "$(objdir "$1")" "$tmp/broken"
	chmod -R u+w "$tmp/broken"
	o=$tmp/broken
	idx=$(ls "$o"/pack/pack-*.idx)
	pack=${idx%.idx}.pack
	rev=${idx%.idx}.rev
}
size() { wc -c <"$1" | tr -d ' '; }

broken "$tmp/deep"
truncate -s $(($(size "$pack") / 2)) "$pack"
bad "truncated pack" "$(basename "$pack")" "$o"

broken "$tmp/deep"
truncate -s 0 "$pack"
bad "empty pack" "$(basename "$pack")" "$o"

broken "$tmp/deep"
yes 'garbage!' | head -n 700 | tr -d '\n' >"$idx"
bad "garbage index" "$(basename "$idx")" "$o"

broken "$tmp/deep"
truncate -s $(($(size "$idx") - 7)) "$idx"
bad "truncated index" "$(basename "$idx")" "$o"

broken "$tmp/deep"
poke "$idx" 4 00000003
bad "index version 3" "$(basename "$idx")" "$o"

broken "$tmp/deep"
poke "$idx" $((8 + 4 * 10)) ffffff00
bad "fan-out not monotone" "$(basename "$idx")" "$o"

# index v2 layout: 8 + 1024 + n * (20 + 4) bytes before the offsets
nobj=$(git -C "$tmp/deep" count-objects -v | sed -n 's/^in-pack: //p')
off32=$((8 + 1024 + nobj * 24))

# bad_git2 LABEL PATTERN OBJDIR: the same for the report through libgit2
# (--walker=libgit2): libgit2 trusts an index's offsets, so every one is
# checked when the repository is opened (odb_check_packs: its one pass over
# the offset table must find what a check of each offset finds)
bad_git2() {
	expect_exit 3 env GIT_OBJECT_DIRECTORY="$3" "$GIT_ABBREV" -C "$tmp/deep" report \
		--walker=libgit2 --no-cache --no-progress
	[ "$rc" -eq 3 ] || return 0
	checks=$((checks + 1))
	one_line "$err" || { fail "$1 (libgit2): stderr is not exactly one line"; show "$err"; }
	checks=$((checks + 1))
	grep -q -- "$2" "$err" || { fail "$1 (libgit2): message does not name $2"; show "$err"; }
	say "$1 (libgit2): $(head -1 "$err")"
}

broken "$tmp/deep"
poke "$idx" "$off32" 7ffffff0
bad "offset outside the pack" "$(basename "$idx")" "$o"
bad_git2 "offset outside the pack" "object 0 lies outside" "$o"

broken "$tmp/deep"
poke "$idx" "$((off32 + 4 * (nobj - 1)))" 00000003
bad "offset inside the pack header" "$(basename "$idx")" "$o"
bad_git2 "offset inside the pack header" "object $((nobj - 1)) lies outside" "$o"

broken "$tmp/deep"
poke "$idx" "$off32" 80000005
bad "large offset entry without a table" "$(basename "$idx")" "$o"

broken "$tmp/large"
poke "$idx" "$((off32 + 4 * nobj))" 7fffffffffffffff
bad "large offset outside the pack" "$(basename "$idx")" "$o"
bad_git2 "large offset outside the pack" "lies outside" "$o"

broken "$tmp/deep"
poke "$idx" $((8 + 1024)) ff
bad "index name outside its fan-out range" "$(basename "$idx")" "$o"

broken "$tmp/deep"
pk unsort "$idx"
bad "index names not sorted" "$(basename "$idx")" "$o"

broken "$tmp/deep"
poke "$pack" 0 5041434b00000009 # "PACK" stays: patch the version
bad "pack version 9" "$(basename "$pack")" "$o"

broken "$tmp/deep"
poke "$pack" 8 00000001
bad "pack object count" "$(basename "$pack")" "$o"

broken "$tmp/deep"
poke "$rev" 12 0000000000000000
bad ".rev not in pack order" "$(basename "$rev")" "$o"

broken "$tmp/deep"
poke "$rev" 0 58
bad ".rev bad signature" "$(basename "$rev")" "$o"

# Below, `set -- $(awk ... "$tmp/deep.entries")` picks pack entries (of
# the broken copy too: the same pack): the words are the offset, header
# length and ID of the entries wanted (split on purpose: SC2046 is off
# for this file).
pk entries "$tmp"/deep/.git/objects/pack/pack-*.idx >"$tmp/deep.entries"
need() { [ "$1" -ge "$2" ] || die "the test pack lacks the entries wanted"; }

# entry headers: an unknown type, a bad OFS_DELTA base
broken "$tmp/deep"
set -- $(awk '$2 == 3 { print $1; exit }' "$tmp/deep.entries")
need $# 1
b=$(od -An -tx1 -j "$1" -N1 "$pack" | tr -d ' ')
poke "$pack" "$1" "$(printf '%02x' $(( (0x$b & 0x8f) | 0x50 )))"
bad "unknown type 5" "$(basename "$pack")" "$o"

broken "$tmp/deep"
set -- $(awk '$2 == 6 { print $1, $3; exit }' "$tmp/deep.entries")
need $# 2
poke "$pack" $(($1 + $2)) 01 # the base would start inside the previous entry
bad "OFS_DELTA base not an entry" "$(basename "$pack")" "$o"

broken "$tmp/deep"
set -- $(awk '$2 == 6 { print $1, $3; exit }' "$tmp/deep.entries")
need $# 2
poke "$pack" $(($1 + $2)) ffffff7f # further back than the pack's start
bad "OFS_DELTA base before the pack" "$(basename "$pack")" "$o"

# REF_DELTA: a missing base, a base that is the delta itself, a loop of two
broken "$tmp/ref"
set -- $(awk '$2 == 7 { print $1, $3; exit }' "$tmp/ref.entries")
need $# 2
poke "$pack" $(($1 + $2)) 0000000000000000000000000000000000000001
bad "REF_DELTA base missing" "$(basename "$pack")" "$o"

broken "$tmp/ref"
set -- $(awk '$2 == 7 { print $1, $3, $4; exit }' "$tmp/ref.entries")
need $# 3
poke "$pack" $(($1 + $2)) "$3"
bad "REF_DELTA base is itself" "$(basename "$pack")" "$o"

broken "$tmp/ref"
set -- $(awk '$2 == 7 { n++; if (n == 1 || n == 2) printf "%s %s %s ", $1, $3, $4 }' "$tmp/ref.entries")
need $# 6
poke "$pack" $(($1 + $2)) "$6"
poke "$pack" $(($4 + $5)) "$3"
bad "REF_DELTA loop" "$(basename "$pack")" "$o"

# loose objects: not zlib, an unknown type, a header without its NUL
pk deflate "$tmp/unknown.z" 'blub 3\x00abc' "$tmp/short.z" 'blob 3'
broken "$tmp/base"
f=$(find "$o" -path "$o/[0-9a-f][0-9a-f]/*" -type f | sort | head -1)
chmod u+w "$f"
printf 'this is not zlib data' >"$f"
bad "loose object not zlib" "$(basename "$f")" "$o"
cp "$tmp/unknown.z" "$f"
bad "loose object of unknown type" "$(basename "$f")" "$o"
cp "$tmp/short.z" "$f"
bad "loose object header cut short" "$(basename "$f")" "$o"
: >"$f"
bad "empty loose object" "$(basename "$f")" "$o"

# alternates that lead nowhere, or too deep: as git, a warning and the
# walk goes on without them (their counts: tests/t-alternates.sh)
# warned LABEL PATTERN DIR: exit 0, one warning naming PATTERN
warned() {
	expect_exit 0 "$WALK_DUMP" "$3"
	checks=$((checks + 1))
	one_line "$err" && grep -q -- "warning: .*$2" "$err" ||
		{ fail "$1: want one warning naming $2"; show "$err"; }
	say "$1: $(head -1 "$err")"
}
broken "$tmp/base"
echo "/nonexistent/objects" >"$o/info/alternates"
warned "alternate that does not exist" "info/alternates" "$o"

rm -rf "$tmp/deepalt"
mkdir -p "$tmp/deepalt"
for i in 0 1 2 3 4 5 6 7; do
	mkdir -p "$tmp/deepalt/$i/info"
	echo "../$((i + 1))" >"$tmp/deepalt/$i/info/alternates"
done
mkdir -p "$tmp/deepalt/8"
warned "alternates nested too deep" "nesting too deep" "$tmp/deepalt/0"

bad "no object directory" "no-such-dir" "$tmp/no-such-dir"

finish
