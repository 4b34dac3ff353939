#!/bin/sh
# t-verify-notes.sh - verify --range keeps, per pack, what each message
# yielded (nothing to check, and its lines; for a message that cites
# something, its parse: cite_digest.h) beside the pack's subject
# table (pack-<hex>.notes), and takes the walk's parents and times from
# the cached tables: the answer must be the same byte for byte whatever
# the cache holds.  A history of three packs and loose commits, messages
# that cite earlier commits (right, wrong subject, short, unknown) and
# many that cite nothing: JSON, text and checkpatch output (whose total
# counts the lines of every message) the same with --no-cache, a cold
# cache, a warm one (twice), after new commits, after a repack; a notes
# file edited with its CRC made right, one of another pack sealed with
# the cache's own key, one under another build's stamp, one cut short:
# not used (and written again).  A warm run reads no message of a pack
# (the test hooks' trace).  The
# expected output is --no-cache's, which reads every message; that the
# findings are right is the other tests' (t-verify-range.sh).

# shellcheck source-path=SCRIPTDIR source=setup.sh disable=SC2046 # the notes files: $(notes) split on purpose
. "$(dirname "$0")/setup.sh"

repo=$tmp/r
cache=$GIT_ABBREV_CACHE_DIR
G() { git -C "$repo" "$@"; }
n=0
commit() { # MESSAGE: one commit, a minute after the last
	n=$((n + 1))
	echo "$n" >"$repo/f$n"
	G add "f$n"
	GIT_COMMITTER_DATE="$((1112911993 + 60 * n)) +0000" G commit -q -F - <<EOF
$1
EOF
}
short() { G rev-parse --short="${2:-12}" "$1"; }
subj() { G log -1 --format=%s "$1"; }
batch() { # WORD: ten commits, three of them citing an earlier one
	for i in 1 2 3 4 5 6 7; do
		commit "$1: quiet change $i

A body of
three lines."
	done
	commit "$1: fix the first

Fixes: $(short HEAD~6) (\"$(subj HEAD~6)\")"
	commit "$1: fix with a wrong subject

Fixes: $(short HEAD~3 8) (\"no such subject\")"
	commit "$1: cite an unknown one

This reverts commit 0000000000000000000000000000000000abcdef."
}
git init -q "$repo"
batch one
G repack -q -d
batch two
G repack -q -d
batch three
G repack -q -d
batch four   # loose
[ "$(find "$repo/.git/objects/pack" -name '*.pack' | wc -l)" -eq 3 ] || die "not three packs"

run() { # NAME [OPTION]: every format's output into $tmp/NAME.*
	for f in json text checkpatch; do
		expect_exit 1 "$GIT_ABBREV" verify -C "$repo" --no-progress --range=HEAD --format=$f ${2:+"$2"}
		cp "$out" "$tmp/$1.$f"
	done
}
same() { # NAME WHAT: NAME's outputs are --no-cache's
	for f in json text checkpatch; do
		cmp -s "$tmp/ref.$f" "$tmp/$1.$f" || { fail "$2: --format=$f differs from --no-cache"; diff "$tmp/ref.$f" "$tmp/$1.$f" | head -5; }
	done
}
notes() { find "$cache" -name 'pack-*.notes' 2>/dev/null | sort; }

say "the same answer with the cache cold, warm and absent"
run ref --no-cache
[ -z "$(notes)" ] || fail "--no-cache wrote notes"
grep -q '"kind"' "$tmp/ref.json" || die "no findings to compare"
grep -q 'lines checked' "$tmp/ref.checkpatch" || die "no line total"
rm -rf "$cache"
run cold
same cold "a cold cache"
[ "$(notes | wc -l)" -eq 3 ] || fail "not one notes file per pack: $(notes | wc -l)"
run warm
same warm "a warm cache"
run warm2
same warm2 "a warm cache, again"

say "a warm run reads no message: each citing one's parse is its digest"
hooks=${GIT_ABBREV_HOOKS:-$(dirname "$GIT_ABBREV")/../tests/git-abbrev-hooks}
traced() { # the messages a warm --range=HEAD reads, and the digests it takes
	GIT_ABBREV_TEST_TRACE=1 "$hooks" verify -C "$repo" --no-progress --range=HEAD \
		--format=json >/dev/null 2>"$tmp/trace" || :
	read_n=$(grep -c "a message read" "$tmp/trace" || :)
	digests=$(grep -c "from its digest" "$tmp/trace" || :)
}
traced # the hooks' build: notes of its own stamp
traced
checks=$((checks + 1))
# the loose batch's ten messages are read (loose commits have no notes), no other
[ "$read_n" -eq 10 ] || fail "a warm run read $read_n messages, not the loose batch's 10"
checks=$((checks + 1))
[ "$digests" -eq 9 ] || fail "a warm run took $digests digests, not the packs' 9 citing messages"

say "a notes file cut short is not used, and written again"
for f in $(notes); do
	head -c "$(($(wc -c <"$f") / 2))" "$f" >"$f.cut" && mv "$f.cut" "$f"
done
run cut
same cut "notes cut short"
run cut2
same cut2 "notes written again"
# the hooks' build, whose notes those were: cut short, then written again
for f in $(notes); do
	head -c "$(($(wc -c <"$f") / 2))" "$f" >"$f.cut" && mv "$f.cut" "$f"
done
traced
checks=$((checks + 1))
[ "$read_n" -eq 40 ] || fail "notes cut short: $read_n messages read, not all 40"
traced
checks=$((checks + 1))
[ "$digests" -eq 9 ] || fail "notes cut short were not written again: $digests digests"

say "new commits, then a repack: the same as --no-cache"
batch five
run ref --no-cache
run grown
same grown "new loose commits"
G repack -q -d
run ref --no-cache
run repacked
same repacked "a new pack"
run repacked2
same repacked2 "a new pack, warm"

# the notes files edited by tests/damage.py's notes, CRC made right and
# sealed again with the cache's key (HMAC-SHA256)
ed() { "$PYTHON3" "$tests_dir/damage.py" notes "$@"; }
# the test's own seal (HMAC-SHA256) is the tool's: a file it seals again must still be taken
first=$(notes | head -1)
ed same "$cache/key" "$first"
inode=$(ls -i "$first")
run resealed
same resealed "a file sealed again by the test"
[ "$(ls -i "$first")" = "$inode" ] || fail "a file sealed again was rewritten: the test's seal is not the tool's"

say "a notes file edited with its CRC made right is not used"
ed quiet - $(notes)
run tampered
same tampered "edited notes"

say "another build's notes are not used"
rm -rf "$cache"
run cold
ed stamp "$cache/key" $(notes)
run stamped
same stamped "another build's notes"

say "notes of another pack, sealed with the cache's key, are not used"
rm -rf "$cache"
batch six
G repack -q -d
batch seven
run ref --no-cache
run cold
# every pack's file replaced by the notes of the largest other pack,
# claiming this pack's checksum and object count
set -- $(notes)
big=$(ls -S "$@" | head -1)
others=
for f in "$@"; do
	[ "$f" = "$big" ] && continue
	sum=${f##*/pack-}
	sum=${sum%.notes}
	count=$(git show-index <"$repo/.git/objects/pack/pack-$sum.idx" | wc -l)
	others="$others $sum $count $f"
done
# shellcheck disable=SC2086 # the words of $others, split on purpose
ed other "$cache/key" "$big" $others
run other
same other "another pack's notes"

finish
