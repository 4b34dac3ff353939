#!/bin/sh
# t-damage.sh - damaged object stores are refused, never counted, never a
# crash:
# - a loose object whose size header does not fit in 63 bits is refused by
#   both walkers alike (libgit2 refuses it; git dies on one past 64 bits),
#   and one at 2^63 - 1 is read by both;
# - a pack index whose offset of an object lies past the end of its pack
#   (a tag's, a commit's; with and without .bitmap and .rev) makes every
#   command exit 3 naming the pack, where libgit2 1.5 used to be handed
#   the object and crash (SIGSEGV);
# - a multi-pack-index whose offset of an object lies past the end of its
#   pack (with and without its bitmap): every command exits 3 naming the
#   multi-pack-index, where libgit2 1.5 read at that offset (SIGSEGV);
# - a loose commit with bytes after its compressed data (git: "garbage at
#   end of loose object"): the commands that read the history's messages
#   exit 3 saying the commits cannot be read, not 2 (a usage error);
#   policy and history exit 3 naming it; report and check count it (as
#   git's --batch-check does) with one note that the verdict has no growth;
# - a SHA-256 loose commit (read by the own reader, not libgit2) with
#   garbage after its stream, or a stream longer than its header says.
# The damage is written by tests/damage.py.
. "$(dirname "$0")/setup.sh"

# refused REPO F|G PATTERN LABEL CMD...: each git abbrev CMD (split at
# blanks), run in REPO, exits 3 with one line on stderr that matches
# PATTERN (F: a fixed string, G: a basic regular expression, as grep -F,
# -G) and nothing on stdout
refused() {
	rf_repo=$1 rf_how=$2 rf_pat=$3 rf_label=$4
	shift 4
	for rf_cmd; do
		# shellcheck disable=SC2086
		expect_exit 3 "$GIT_ABBREV" -C "$rf_repo" $rf_cmd
		checks=$((checks + 1))
		one_line "$err" && grep -q"$rf_how" -e "$rf_pat" "$err" && [ ! -s "$out" ] ||
			fail "$rf_label, $rf_cmd: not one line matching '$rf_pat': $(cat "$err")"
	done
}

# plant_loose REPO SIZE: a loose blob whose header says SIZE; prints its ID
plant_loose() {
	"$PYTHON3" "$tests_dir/damage.py" loose "$1" "$2"
}

say "a loose object whose size overflows: both walkers refuse it"
for size in 99999999999999999999999 18446744073709551616 9223372036854775808; do
	gen_repo "$tmp/l$size" small
	id=$(plant_loose "$tmp/l$size" "$size")
	if [ "$size" = 99999999999999999999999 ]; then
		# git itself dies on it
		git -C "$tmp/l$size" cat-file --batch-all-objects --batch-check >/dev/null 2>&1 &&
			die "git reads a size of $size"
	fi
	for w in pack libgit2; do
		expect_exit 3 "$GIT_ABBREV" report --walker=$w "$tmp/l$size"
		checks=$((checks + 1))
		one_line "$err" && grep -q "$id\|$(echo "$id" | cut -c3-)" "$err" && [ ! -s "$out" ] ||
			fail "size $size, --walker=$w: not one line naming $id: $(cat "$err")"
	done
done
say "a loose object of size 2^63 - 1: both walkers count it, as git does"
gen_repo "$tmp/lmax" small
plant_loose "$tmp/lmax" 9223372036854775807 >/dev/null
git -C "$tmp/lmax" cat-file --batch-all-objects --batch-check >"$tmp/listed" || die "git cannot list: $(cat "$tmp/listed")"
nobj=$(wc -l <"$tmp/listed")
for w in pack libgit2; do
	expect_exit 0 "$GIT_ABBREV" report --format=json --walker=$w "$tmp/lmax"
	checks=$((checks + 1))
	[ "$(jget "$out" 'd["objects"]')" = "$nobj" ] ||
		fail "--walker=$w does not count the $nobj objects git lists"
done

# set_offset IDX HEXID OFFSET: point the index entry of HEXID at OFFSET
set_offset() {
	chmod u+w "$1"
	"$PYTHON3" "$tests_dir/damage.py" idx-offset "$@"
}

for shape in "tag bitmap" "commit bitmap" "tag plain" "commit plain"; do
	set -- $shape
	say "an index offset past the end of the pack: the $1's, $2 pack: every command exits 3"
	r=$tmp/p-$1-$2
	git init -q "$r"
	for i in 1 2 3 4 5; do
		echo $i >"$r/f$i"
		git -C "$r" add "f$i"
		git -C "$r" commit -q -m "c$i"
		git -C "$r" tag -a -m "t$i" "v$i"
	done
	if [ "$2" = bitmap ]; then
		git -C "$r" -c pack.writeReverseIndex=true repack -q -a -d --write-bitmap-index
		ls "$r"/.git/objects/pack/*.bitmap "$r"/.git/objects/pack/*.rev >/dev/null ||
			die "no bitmap or .rev"
	else
		git -C "$r" -c pack.writeReverseIndex=false repack -q -a -d --no-write-bitmap-index
		ls "$r"/.git/objects/pack/*.bitmap "$r"/.git/objects/pack/*.rev >/dev/null 2>&1 &&
			die "a bitmap or .rev"
	fi
	if [ "$1" = tag ]; then victim=$(git -C "$r" rev-parse v3); else victim=$(git -C "$r" rev-parse v3^0); fi
	pack=$(ls "$r"/.git/objects/pack/*.pack)
	set_offset "${pack%.pack}.idx" "$victim" $(($(wc -c <"$pack") + 2000000))
	git -C "$r" cat-file -p "$victim" >/dev/null 2>&1 && die "git reads the damaged $1"
	printf 'Fixes: %s ("c5")\n' "$(git -C "$r" rev-parse --short=12 HEAD)" >"$tmp/msg"
	refused "$r" F "$pack" "$1 $2" report "check 4" model history policy "verify $tmp/msg" \
		"report --reachable" "report --walker=libgit2"
done

# set_midx_offset MIDX HEXID OFFSET: point the multi-pack-index entry of HEXID at OFFSET
set_midx_offset() {
	chmod u+w "$1"
	"$PYTHON3" "$tests_dir/damage.py" midx-offset "$@"
}

for shape in plain bitmap; do
	say "a multi-pack-index offset past the end of its pack ($shape): every command exits 3"
	r=$tmp/m-$shape
	git init -q "$r"
	for i in 1 2 3 4 5 6; do
		echo $i >"$r/f$i"
		git -C "$r" add "f$i"
		git -C "$r" commit -q -m "c$i"
		git -C "$r" tag -a -m "t$i" "v$i"
		# two packs, the second with the newer half
		if [ "$i" = 3 ]; then git -C "$r" repack -q -d --no-write-bitmap-index; fi
	done
	git -C "$r" repack -q -d --no-write-bitmap-index
	[ "$(ls "$r"/.git/objects/pack/*.pack | wc -l)" -eq 2 ] || die "not two packs"
	if [ "$shape" = bitmap ]; then
		git -C "$r" multi-pack-index write --bitmap
		ls "$r"/.git/objects/pack/multi-pack-index-*.bitmap >/dev/null || die "no midx bitmap"
	else
		git -C "$r" multi-pack-index write
	fi
	midx=$r/.git/objects/pack/multi-pack-index
	victim=$(git -C "$r" rev-parse v5^0)
	bad=$(($(cat "$r"/.git/objects/pack/*.pack | wc -c) + 2000000))
	set_midx_offset "$midx" "$victim" "$bad"
	git -C "$r" cat-file -p "$victim" >/dev/null 2>&1 && die "git reads the damaged commit"
	printf 'Fixes: %s ("c6")\n' "$(git -C "$r" rev-parse --short=12 HEAD)" >"$tmp/msg"
	refused "$r" F "$midx: offset $bad of object " "midx $shape" report "check 4" model history \
		policy "verify $tmp/msg" "report --reachable" "report --walker=libgit2"
done

say "a loose commit with garbage after its data: verify, audit and watch exit 3, as git refuses it"
r=$tmp/garbage
git init -q "$r"
for i in 1 2 3; do
	echo "$i" >"$r/f"
	git -C "$r" add f
	git -C "$r" commit -q -m "c$i"
done
h=$(git -C "$r" rev-parse HEAD)
f=$r/.git/objects/$(echo "$h" | cut -c1-2)/$(echo "$h" | cut -c3-)
chmod u+w "$f"
printf 'garbage' >>"$f"
git -C "$r" cat-file -p "$h" >/dev/null 2>&1 && die "git reads the commit with garbage"
# libgit2 1.5 leaks what it allocated on its way to this read error (inside
# the library, no object of ours): the sanitizer run checks these three for
# memory errors, not for leaks
asan_was=${ASAN_OPTIONS-}
ASAN_OPTIONS=${asan_was:+$asan_was:}detect_leaks=0
export ASAN_OPTIONS
for cmd in "verify --range=HEAD" audit watch; do
	expect_exit 3 "$GIT_ABBREV" -C "$r" $cmd
	checks=$((checks + 1))
	one_line "$err" && grep -q "cannot read the commits of 'HEAD'" "$err" ||
		fail "$cmd: not one line saying the commits cannot be read: $(cat "$err")"
done
# policy fits the growth of the commit dates: a date it cannot read is an
# error, as in history; report and check count IDs without reading commits
# (as git's --batch-check) and say their verdict has no growth
refused "$r" G "cannot read commit $h" "garbage" policy "policy --format=json" history
git -C "$r" cat-file --batch-all-objects --batch-check >"$tmp/listed"
for c in "report objects $(wc -l <"$tmp/listed")" "check count $(grep -c ' commit ' "$tmp/listed")"; do
	set -- $c
	[ "$1" = check ] && set -- "check 4" "$2" "$3"
	expect_exit 0 "$GIT_ABBREV" -C "$r" $1 --format=json
	checks=$((checks + 1))
	one_line "$err" &&
		grep -q "^git-abbrev: note: .*cannot read commit $h.*: the verdict looks ahead without growth\$" "$err" ||
		fail "$1: not one note naming $h: $(cat "$err")"
	[ "$(jget "$out" "(d['$2'], d['verdict']['growth'])")" = "($3, None)" ] ||
		fail "$1: not the $3 IDs git lists, without growth: $(jget "$out" "(d['$2'], d['verdict']['growth'])")"
done
ASAN_OPTIONS=$asan_was

# SHA-256: the own object reader reads the loose commits, and refuses what
# git refuses: bytes after the stream ("garbage at end of loose object"), a
# stream longer than its header says ("corrupt loose object")
for how in garbage short; do
	say "a SHA-256 loose commit, $how: history and policy exit 3 naming it, as git refuses it"
	r=$tmp/s256-$how
	git init -q --object-format=sha256 "$r"
	for i in 1 2 3; do
		echo "$i" >"$r/f"
		git -C "$r" add f
		git -C "$r" commit -q -m "c$i"
	done
	h=$(git -C "$r" rev-parse HEAD~1)
	f=$r/.git/objects/$(echo "$h" | cut -c1-2)/$(echo "$h" | cut -c3-)
	if [ $how = garbage ]; then
		chmod u+w "$f"
		printf 'garbage' >>"$f"
	else
		"$PYTHON3" "$tests_dir/damage.py" loose-short "$f" 3
	fi
	git -C "$r" cat-file -p "$h" >/dev/null 2>&1 && die "git reads the $how commit"
	refused "$r" G "cannot read commit $h: damaged object" "sha256 $how" history policy
done

finish
