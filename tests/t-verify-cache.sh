#!/bin/sh
# t-verify-cache.sh - verify's subject cache: one file per pack, named by
# the pack's checksum, in $GIT_ABBREV_CACHE_DIR (outside the repository).
# A repository of two packs and two loose commits, and references whose
# subjects must be searched for (a wrong subject, an unknown ID, a
# shortened and a wrapped subject): the findings are the same without the
# cache, with an empty one (which it fills) and with a full one (which
# reads only the loose commits); a damaged, cut or another pack's file is
# rebuilt, never believed; a cache that cannot be written is no error; a
# repack makes a new file and leaves the old ones alone; a pack with a
# commit that cannot be read gets no file; a pack's commits are found from
# its entry headers (no walk of every object), and one with a header that
# cannot be read is the walk's error; two threads (as thousands of commits
# are read) write the same files; and the repository's files are byte for
# byte what they were.  IDs and subjects come from git.

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"

repo=$tmp/r
cache=$GIT_ABBREV_CACHE_DIR
G() { git -C "$repo" "$@"; }
n=0
commit() { # SUBJECT [BODY]: one commit, a minute after the last; $last
	n=$((n + 1))
	echo "$n" >"$repo/f$n"
	G add "f$n"
	GIT_COMMITTER_DATE="$((1112911993 + 60 * n)) +0000" G commit -q -m "$1" ${2:+-m "$2"}
	last=$(G rev-parse HEAD)
}
git init -q "$repo"
commit "base"
commit "parser: speed up the scan of long lines"; SPEED=$last
commit "typos"; T1=$last
G repack -q -d            # the first pack
commit "config: read the cache directory from the environment"; CONF=$last
commit "typos"; T2=$last
commit "docs: say where the cache lives"; DOCS=$last
G repack -q -d            # the second, of what was loose
commit "loose: a commit no pack holds"; LOOSE=$last
commit "tip"; TIP=$last
[ "$(find "$repo/.git/objects/pack" -name '*.pack' | wc -l)" -eq 2 ] || die "not two packs"
packs() { find "$repo/.git/objects/pack" -name 'pack-*.pack' | sed 's|.*/pack-||; s|\.pack$||' | sort; }
short() { G rev-parse --short=12 "$1"; }
U=0000000000ab
[ -z "$(G rev-parse --disambiguate=$U)" ] || die "$U names an object"

# subjects searched for: the wrong one names SPEED, then a loose commit's,
# a shortened one (CONF), one wrapped over two lines (DOCS), and "typos"
cat >"$tmp/refs.txt" <<EOF
Fixes: $(short "$TIP") ("parser: speed up the scan of long lines")
Fixes: $U ("loose: a commit no pack holds")
Fixes: $U ("config: read the cache directory...")
This goes back to commit $U ("docs: say where
the cache lives").
Fixes: $U ("typos")
EOF
sum_git() { (cd "$repo/.git" && find . -type f -exec sha1sum {} + | sort -k 2) >"$1"; }
sum_git "$tmp/git.before"

verify() { # EXIT ARGS...: verify the references with the cache as the environment says
	want=$1
	shift
	expect_exit "$want" -C "$repo" "${tool:-$GIT_ABBREV}" verify --format=json "$@" "$tmp/refs.txt"
}

# ---- without the cache: the findings, and no file written ---------------------
verify 1 --no-cache
cp "$out" "$tmp/want.json"
checks=$((checks + 1))
[ ! -e "$cache" ] || { fail "--no-cache made $cache"; ls -la "$cache"; }
# the answers are git's: each subject's commit named
for id in "$SPEED" "$LOOSE" "$CONF" "$DOCS" "$T1" "$T2"; do
	checks=$((checks + 1))
	grep -q "$(short "$id")" "$tmp/want.json" ||
		{ fail "$(G log -1 --format=%s "$id") not found by its subject"; show "$tmp/want.json"; }
done

same() { # LABEL: the last run's findings are those without the cache
	checks=$((checks + 1))
	cmp -s "$out" "$tmp/want.json" || { fail "$1: findings differ"; diff "$tmp/want.json" "$out" | head; }
}
files() { # LABEL: the cache holds one file per pack, named by its checksum
	checks=$((checks + 1))
	ls "$cache" | sed 's/^pack-//; s/\.subjects$//' | sort >"$tmp/files"
	packs >"$tmp/packs"
	cmp -s "$tmp/files" "$tmp/packs" || { fail "$1: cache files are not the packs'"; ls -la "$cache"; }
}
indexed() { # LABEL COUNT: the run read COUNT commits for the subject index
	checks=$((checks + 1))
	grep -q "indexing commit subjects: 100% ($2/$2)" "$err" ||
		{ fail "$1: not $2 commits read"; show "$err"; }
}
total=$(G rev-list --all | wc -l | tr -d ' ')

# ---- cold: every commit read, one file per pack; warm: only the loose ones ------
GIT_PROGRESS_DELAY=0 verify 1 --progress
same "cold"
files "cold"
indexed "cold" "$total"
checks=$((checks + 1))
grep -q "reading pack headers" "$err" &&
	{ fail "cold: every object was walked to find the commits"; show "$err"; }
cp -R "$cache" "$tmp/good"
GIT_PROGRESS_DELAY=0 verify 1 --progress
same "warm"
indexed "warm" 2

# ---- two threads, as for thousands of commits: the same findings, the same files ----
hooks=${GIT_ABBREV_HOOKS:-$(dirname "$GIT_ABBREV")/../tests/git-abbrev-hooks}
[ -x "$hooks" ] || die "no tests/git-abbrev-hooks: run make check (or set GIT_ABBREV_HOOKS)"
rm -rf "$cache"
GIT_ABBREV_TEST_SPLIT_MIN=1 GIT_PROGRESS_DELAY=0 tool=$hooks verify 1 --progress
same "two threads"
indexed "two threads" "$total"
checks=$((checks + 1))
diff -r "$cache" "$tmp/good" >/dev/null || fail "two threads: files differ from one thread's"

# ---- damaged, cut short, another pack's: rebuilt, never believed ----------------
first=$(packs | head -n 1)
second=$(packs | tail -n 1)
f=$cache/pack-$first.subjects
rebuilt() { # LABEL
	checks=$((checks + 1))
	cmp -s "$f" "$tmp/good/pack-$first.subjects" || fail "$1: the file was not made again"
}
size=$(wc -c <"$f" | tr -d ' ')
printf 'X' | dd of="$f" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
GIT_PROGRESS_DELAY=0 verify 1 --progress
same "a damaged file"
rebuilt "a damaged file"
checks=$((checks + 1))
grep -q "indexing commit subjects: 100% (2/2)" "$err" && fail "a damaged file was believed"
head -c $((size / 3)) "$tmp/good/pack-$first.subjects" >"$f"
verify 1
same "a file cut short"
rebuilt "a file cut short"
cp "$cache/pack-$second.subjects" "$f"
verify 1
same "another pack's file"
rebuilt "another pack's file"

# ---- a cache that cannot be written: no error, one note ------------------------
: >"$tmp/a-file"
GIT_ABBREV_CACHE_DIR=$tmp/a-file/cache verify 1
same "an unwritable cache"
checks=$((checks + 1))
[ "$(wc -l <"$err")" -eq 1 ] && grep -q "^git-abbrev: note: cannot write the cache '$tmp/a-file/cache'" "$err" ||
	{ fail "an unwritable cache is not one note"; show "$err"; }

# ---- two writers at once: both right, and the files whole ----------------------
rm -rf "$cache"
"$GIT_ABBREV" -C "$repo" verify --format=json "$tmp/refs.txt" >"$tmp/w1.json" 2>&1 &
"$GIT_ABBREV" -C "$repo" verify --format=json "$tmp/refs.txt" >"$tmp/w2.json" 2>&1 || :
wait || :
checks=$((checks + 1))
cmp -s "$tmp/w1.json" "$tmp/want.json" && cmp -s "$tmp/w2.json" "$tmp/want.json" ||
	{ fail "two writers: findings differ"; show "$tmp/w1.json"; show "$tmp/w2.json"; }
files "two writers"
checks=$((checks + 1))
diff -r "$cache" "$tmp/good" >/dev/null || fail "two writers: files differ from one writer's"

# ---- the repository itself: not one byte written -------------------------------
unchanged() { # LABEL
	sum_git "$tmp/git.after"
	checks=$((checks + 1))
	cmp -s "$tmp/git.before" "$tmp/git.after" ||
		{ fail "$1: the repository changed"; diff "$tmp/git.before" "$tmp/git.after" | head; }
}
unchanged "before the repack"

# ---- a repack: a new file for the new pack, the old packs' removed -------------
G repack -q -a -d
[ "$(packs | wc -l)" -eq 1 ] || die "repack left several packs"
sum_git "$tmp/git.before" # the repack is git's own write
new=$(packs)
verify 1
same "after a repack"
checks=$((checks + 1))
[ -f "$cache/pack-$new.subjects" ] || fail "no file for the new pack"
checks=$((checks + 1))
[ ! -e "$cache/pack-$first.subjects" ] && [ ! -e "$cache/pack-$second.subjects" ] ||
	fail "the files of the packs repacked away were kept"

verify 1
unchanged "after the repack"

# ---- a commit that cannot be read: its pack's table used, not kept -------------
# (a damaged entry now, a pack replaced under the reader: the next run tries again)
bad=$tmp/bad
git clone -q --bare "$repo" "$bad"
git -C "$bad" repack -q -a -d
idx=$(ls "$bad"/objects/pack/*.idx)
off=$(git verify-pack -v "$idx" | awk -v c="$CONF" '$1 == c { print $5 }')
[ -n "$off" ] || die "no offset for $CONF"
chmod u+w "$bad"/objects/pack/*.pack
printf '\377\377\377\377' | dd of="$(ls "$bad"/objects/pack/*.pack)" bs=1 seek=$((off + 6)) \
	conv=notrunc 2>/dev/null
for split in 0 1; do # one thread reads, then two
	rm -rf "$cache"
	GIT_ABBREV_TEST_SPLIT_MIN=$((split ? 1 : 1000000)) \
		expect_exit 1 -C "$bad" "$hooks" verify "$tmp/refs.txt"
	checks=$((checks + 1))
	[ -z "$(ls "$cache" 2>/dev/null)" ] ||
		{ fail "a table missing a commit was kept ($((split + 1)) threads)"; ls -la "$cache"; }
done

# ---- an entry header that cannot be read: the walk's error, as before -----------
# (the type bits of a blob's header made 5, a type git has none of)
git clone -q --bare "$repo" "$bad.2"
git -C "$bad.2" repack -q -a -d --no-write-bitmap-index
idx=$(ls "$bad.2"/objects/pack/*.idx)
blob=$(git -C "$bad.2" rev-parse HEAD:f1)
off=$(git verify-pack -v "$idx" | awk -v b="$blob" '$1 == b { print $5 }')
[ -n "$off" ] || die "no offset for $blob"
pack=$(ls "$bad.2"/objects/pack/*.pack)
chmod u+w "$pack"
byte=$(od -An -tu1 -j "$off" -N1 "$pack" | tr -d ' ')
printf "\\$(printf %o $(((byte & 143) | 80)))" | dd of="$pack" bs=1 seek="$off" conv=notrunc 2>/dev/null
rm -rf "$cache"
expect_exit 3 -C "$bad.2" "$GIT_ABBREV" verify "$tmp/refs.txt"
checks=$((checks + 1))
grep -q "unknown object type 5 at offset $off" "$err" || { fail "a bad header: not the walk's error"; show "$err"; }
checks=$((checks + 1))
[ -z "$(ls "$cache" 2>/dev/null)" ] || { fail "a bad header: a table was kept"; ls -la "$cache"; }


# ---- --reachable reads only what HEAD, the branches and tags reach ---------------
# its table of a pack is not the pack's: never kept, and a kept one not used
git clone -q --bare "$repo" "$tmp/gone"
GIT_COMMITTER_DATE="1112919993 +0000" git -C "$tmp/gone" commit-tree -m "gone: a commit no ref reaches" \
	"$(git -C "$tmp/gone" rev-parse HEAD^{tree})" >"$tmp/gone.id"
git -C "$tmp/gone" update-ref refs/heads/gone "$(cat "$tmp/gone.id")"
git -C "$tmp/gone" repack -q -a -d --no-write-bitmap-index
git -C "$tmp/gone" update-ref -d refs/heads/gone
printf 'Fixes: %s ("gone: a commit no ref reaches")\n' $U >"$tmp/gone.txt"
rm -rf "$cache"
expect_exit 1 -C "$tmp/gone" "$GIT_ABBREV" verify --reachable "$tmp/gone.txt"
checks=$((checks + 1))
[ -z "$(ls "$cache" 2>/dev/null)" ] || { fail "--reachable kept a table of its commits"; ls -la "$cache"; }
expect_exit 1 -C "$tmp/gone" "$GIT_ABBREV" verify "$tmp/gone.txt"
checks=$((checks + 1))
grep -q "$(cut -c1-12 "$tmp/gone.id")" "$out" ||
	{ fail "the pack's unreachable commit not found by its subject after --reachable"; show "$out"; }
checks=$((checks + 1))
[ -n "$(ls "$cache" 2>/dev/null)" ] || fail "no table kept by the run without --reachable"
expect_exit 1 -C "$tmp/gone" "$GIT_ABBREV" verify --reachable "$tmp/gone.txt"
checks=$((checks + 1))
! grep -q "$(cut -c1-12 "$tmp/gone.id")" "$out" ||
	{ fail "--reachable found an unreachable commit through the kept table"; show "$out"; }

finish
