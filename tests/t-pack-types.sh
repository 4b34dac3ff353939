#!/bin/sh
# t-pack-types.sh - the pack walker keeps every pack's object types in
# the cache (pack-<checksum>.types, two bits an object, and what each
# annotated tag points at) when it scans the pack, and the next report,
# check or policy of the unchanged pack reads that table instead of the
# pack: zeros written over the packed tags under it change no answer.  The output is the same
# byte for byte cold, warm and with --no-cache (which neither reads nor
# writes the cache), with a reachability bitmap and without one, for
# repositories of several packs (deltas of both kinds, annotated tags)
# and loose objects, SHA-1 and SHA-256; the counts per type are git's own
# (git cat-file --batch-all-objects --batch-check).  A table answers only
# for the very pack and .idx it was built from: not for a copy of the
# pack (same checksum, other files), and a damaged table, one writable by
# others or a FIFO at its path is passed over and rebuilt.

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"

cache=$tmp/cache
GIT_ABBREV_CACHE_DIR=$cache
GIT_PROGRESS_DELAY=0
export GIT_ABBREV_CACHE_DIR GIT_PROGRESS_DELAY

# A repository of several packs and loose objects: commits that change a
# large file a little (OFS_DELTAs), annotated tags, a pack of REF_DELTAs
# (pack-objects without --delta-base-offset) holding objects of another
# pack too, then loose commits and a loose tag.
make_repo() { # dir [--object-format=sha256]
	d=$1
	shift
	git init -q "$@" "$d"
	git -C "$d" config gc.auto 0
	i=0
	while [ "$i" -lt 6 ]; do
		seq 1 2000 | sed "s/^$i/x&/" >"$d/big"
		echo "$i" >"$d/small$i"
		git -C "$d" add big "small$i"
		git -C "$d" commit -q -m "commit $i"
		git -C "$d" tag -a -m "tag $i" "v$i"
		i=$((i + 1))
		# a pack every two commits: three packs
		if [ $((i % 2)) -eq 0 ]; then
			git -C "$d" repack -q -d
		fi
	done
	# one more pack of REF_DELTAs (git's own --delta-base-offset off)
	seq 1 2000 | sed 's/^7/y&/' >"$d/big"
	git -C "$d" add big
	git -C "$d" commit -q -m "ref delta"
	git -C "$d" rev-list --objects HEAD~1..HEAD >"$tmp/objs"
	git -C "$d" rev-list --objects HEAD~2..HEAD~1 >>"$tmp/objs"
	cut -d' ' -f1 "$tmp/objs" |
		git -C "$d" pack-objects -q "$d/.git/objects/pack/pack" >/dev/null
	git -C "$d" prune-packed
	# and loose objects after the last pack
	echo loose >"$d/loose"
	git -C "$d" add loose
	git -C "$d" commit -q -m "loose commit"
	git -C "$d" tag -a -m "loose tag" vloose
}

# Every output of the three commands, into dir/: report text and JSON,
# check's text and status, policy's JSON.  Extra arguments go to each.
outputs() { # repo dir [args]
	r=$1
	o=$2
	shift 2
	mkdir -p "$o"
	"$GIT_ABBREV" -C "$r" report "$@" >"$o/report.txt" 2>"$o/report.err" || echo "report $?" >>"$o/status"
	"$GIT_ABBREV" -C "$r" report --format=json "$@" >"$o/report.json" 2>>"$o/report.err" ||
		echo "report json $?" >>"$o/status"
	"$GIT_ABBREV" -C "$r" check 7 "$@" >"$o/check.txt" 2>"$o/check.err" || echo "check $?" >>"$o/status"
	"$GIT_ABBREV" -C "$r" check 4 --against=all "$@" >"$o/check4.txt" 2>>"$o/check.err" ||
		echo "check 4 $?" >>"$o/status"
	# (without commit dates, a SHA-256 repository's policy counts from today: the clock's lines out)
	"$GIT_ABBREV" -C "$r" policy --format=json "$@" 2>"$o/policy.err" |
		grep -v -e '^  "now' -e '^  "horizon_year"' >"$o/policy.json" || echo "policy $?" >>"$o/status"
	touch "$o/status"
}

same() { # label dir1 dir2
	checks=$((checks + 1))
	for f in report.txt report.json check.txt check4.txt policy.json status; do
		cmp -s "$2/$f" "$3/$f" || { fail "$1: $f differs"; diff "$2/$f" "$3/$f" | head -5; }
	done
}

# Did a report of repo read pack headers?  (its progress says so)
headers_read() { # repo
	"$GIT_ABBREV" -C "$1" report --progress --format=json >/dev/null 2>"$tmp/progress" ||
		die "report --progress failed"
	tr '\r' '\n' <"$tmp/progress" | grep -q '^reading pack headers'
}

# The counts per type of the report's JSON against git's own listing:
# git's counted now, the report's by one report_check.py call at the end
# (type_counts) for every report
counted=
git_counts() { # repo json
	checks=$((checks + 1))
	git -C "$1" cat-file --batch-all-objects --batch-check='%(objecttype)' | sort | uniq -c |
		awk '{ print $2, $1 }' >"$2.git-counts"
	counted="$counted $2 $2.git-counts"
}

packs() { ls "$1"/.git/objects/pack/*.pack | sed 's|.*/pack-||; s|\.pack$||' | sort; }

run_all() { # label repo
	label=$1
	r=$2
	say "$label: cold, warm, --no-cache"
	rm -rf "$cache"
	outputs "$r" "$tmp/$label.nocache" --no-cache
	checks=$((checks + 1))
	[ ! -e "$cache" ] || { fail "$label: --no-cache made the cache"; ls -la "$cache"; }
	git_counts "$r" "$tmp/$label.nocache/report.json"
	outputs "$r" "$tmp/$label.cold"
	same "$label cold" "$tmp/$label.nocache" "$tmp/$label.cold"
	checks=$((checks + 1))
	# a table for each pack without a bitmap (a bitmap gives the types itself)
	for p in $(packs "$r"); do
		[ -e "$r/.git/objects/pack/pack-$p.bitmap" ] && continue
		[ -f "$cache/pack-$p.types" ] || fail "$label: no types table for pack $p"
		[ "$(stat -c %a "$cache/pack-$p.types")" = 600 ] || fail "$label: table mode not 600"
	done
	outputs "$r" "$tmp/$label.warm"
	same "$label warm" "$tmp/$label.nocache" "$tmp/$label.warm"
	checks=$((checks + 1))
	if headers_read "$r"; then
		fail "$label: a warm report read the packs' headers"
		show "$tmp/progress"
	fi
	# and --no-cache on a warm cache: it reads the packs again
	checks=$((checks + 1))
	"$GIT_ABBREV" -C "$r" report --no-cache --progress --format=json >/dev/null 2>"$tmp/progress"
	tr '\r' '\n' <"$tmp/progress" | grep -q '^reading pack headers' ||
		fail "$label: --no-cache used the cache"
}

# ---- several packs and loose objects, no bitmap ----------------------------------
repo=$tmp/repo
make_repo "$repo"
[ "$(packs "$repo" | wc -l)" -ge 4 ] || die "fewer than four packs"
[ -n "$(find "$repo/.git/objects" -path '*/objects/[0-9a-f][0-9a-f]/*' -type f)" ] ||
	die "no loose objects"
git -C "$repo" verify-pack -v "$repo"/.git/objects/pack/*.idx | grep -q '^chain length' ||
	die "no deltas in the packs"
run_all plain "$repo"

# ---- the same with a bitmap for the first pack, more packs after it --------------
bm=$tmp/bitmap
make_repo "$bm"
git -C "$bm" repack -q -a -d -b
echo after >"$bm/after"
git -C "$bm" add after
git -C "$bm" commit -q -m after
git -C "$bm" repack -q -d
echo later >"$bm/later"
git -C "$bm" add later
git -C "$bm" commit -q -m later
ls "$bm"/.git/objects/pack/*.bitmap >/dev/null 2>&1 || die "no bitmap"
[ "$(packs "$bm" | wc -l)" -ge 2 ] || die "one pack only"
run_all bitmap "$bm"

# ---- SHA-256 -------------------------------------------------------------------------
if git init -q --object-format=sha256 "$tmp/probe" 2>/dev/null; then
	s256=$tmp/sha256
	make_repo "$s256" --object-format=sha256
	run_all sha256 "$s256"
fi

# ---- a table answers only for the files it was built from ------------------------------
say "a copy of the packs (same checksums, other files): the tables are not theirs"
rm -rf "$cache"
outputs "$repo" "$tmp/trust.first"
copy=$tmp/copy
cp -a "$repo" "$copy"
checks=$((checks + 1))
headers_read "$copy" || fail "the tables of the original were trusted for a copy of its packs"
outputs "$copy" "$tmp/trust.copy"
outputs "$copy" "$tmp/trust.copy.nocache" --no-cache
same "copy" "$tmp/trust.copy.nocache" "$tmp/trust.copy"

first=$(packs "$repo" | head -n 1)
tab=$cache/pack-$first.types
outputs "$repo" "$tmp/trust.rebuilt" # bound to the original again
cp "$tab" "$tmp/good.types"
size=$(wc -c <"$tab")

say "a damaged table is rebuilt"
for how in cut flip; do
	if [ $how = cut ]; then
		head -c $((size - 7)) "$tmp/good.types" >"$tab"
	else
		# flip a type bit in the body (the CRC then disagrees): the
		# fifth byte from the end, read by od, written by dd
		cp "$tmp/good.types" "$tab"
		b=$(od -An -tu1 -j $((size - 5)) -N1 "$tab")
		b=$((b ^ 1))
		# shellcheck disable=SC2059 # the byte's octal escape
		printf "\\$((b / 64))$((b / 8 % 8))$((b % 8))" |
			dd of="$tab" bs=1 seek=$((size - 5)) conv=notrunc 2>/dev/null
	fi
	outputs "$repo" "$tmp/damaged.$how"
	same "damaged ($how)" "$tmp/plain.nocache" "$tmp/damaged.$how"
	checks=$((checks + 1))
	cmp -s "$tab" "$tmp/good.types" || fail "$how: the damaged table was not made again"
done

say "a table writable by others is not used"
chmod 0666 "$tab"
checks=$((checks + 1))
headers_read "$repo" || fail "a table writable by others was used"
[ "$(stat -c %a "$tab")" = 600 ] || fail "the table writable by others was not replaced"

say "a FIFO at a table's path: passed over, never waited on"
rm -f "$tab"
mkfifo "$tab"
checks=$((checks + 1))
if timeout 60 "$GIT_ABBREV" -C "$repo" report --format=json >"$tmp/fifo.json" 2>"$tmp/fifo.err"; then
	cmp -s "$tmp/fifo.json" "$tmp/plain.nocache/report.json" || fail "FIFO: another report"
else
	fail "FIFO: the report failed or hung (status $?)"
	show "$tmp/fifo.err"
fi

say "a warm walk reads no pack: its tags' bytes overwritten in place, the same answers"
# The tables answer for these very files (device, inode, size, modification
# time): zeros written over every annotated tag's entry of each pack, the
# size and time stamp kept, leave them theirs.  A walk that read the tags
# from the pack again would find none there.
sc=$tmp/scribbled
cp -a "$repo" "$sc"
rm -rf "$cache"
outputs "$sc" "$tmp/sc.nocache" --no-cache
outputs "$sc" "$tmp/sc.cold"
same "scribbled, cold" "$tmp/sc.nocache" "$tmp/sc.cold"
ntags=0
for idx in "$sc"/.git/objects/pack/*.idx; do
	p=${idx%.idx}.pack
	touch -r "$p" "$tmp/stamp"
	chmod u+w "$p"
	git verify-pack -v "$idx" | awk '$2 == "tag" { print $4, $5 }' >"$tmp/tag.entries"
	while read -r len off; do
		dd if=/dev/zero of="$p" bs=1 seek="$off" count="$len" conv=notrunc 2>/dev/null ||
			die "cannot write over a tag"
		ntags=$((ntags + 1))
	done <"$tmp/tag.entries"
	chmod a-w "$p"
	touch -r "$tmp/stamp" "$p"
done
[ "$ntags" -ge 6 ] || die "only $ntags packed tags overwritten"
expect_exit 3 "$GIT_ABBREV" -C "$sc" report --no-cache
outputs "$sc" "$tmp/sc.warm"
same "scribbled, warm" "$tmp/sc.nocache" "$tmp/sc.warm"

say "git abbrev cache lists the types tables, --clear removes them"
expect_exit 0 "$GIT_ABBREV" -C "$repo" cache --format=json
checks=$((checks + 1))
"$PYTHON3" "$tests_dir/report_check.py" types_listed "$out" "$cache" >"$tmp/py.out" 2>&1 ||
	{ fail "the listing is not the cache's tables"; show "$tmp/py.out"; }
expect_exit 0 "$GIT_ABBREV" cache --clear
checks=$((checks + 1))
[ -z "$(find "$cache" -name 'pack-*.types' -type f)" ] || fail "--clear left types tables"

say "the counts per type of every report are git's"
# shellcheck disable=SC2086 # the report and git's counts, pairs of words
"$PYTHON3" "$tests_dir/report_check.py" type_counts $counted >"$tmp/py.out" 2>&1 ||
	while IFS= read -r line; do fail "$line"; done <"$tmp/py.out"

finish
