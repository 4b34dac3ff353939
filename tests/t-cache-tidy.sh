#!/bin/sh
# t-cache-tidy.sh - verify's cache stays tidy and every way of running
# without it gives the same findings.  `git abbrev cache` lists each
# table with its pack (the paths and sizes are the file system's); a cap
# in git config (abbrev.cacheSize, k as git reads sizes) evicts the
# longest unused table; a repack followed by runs removes the table of
# the pack repacked away; --clear empties it; --no-cache writes nothing.
# Several processes building the same tables at once, HOME unset, a
# read-only cache directory and a full disk (a 64k tmpfs, as root) all
# give the findings of --no-cache, with one note where the cache cannot
# be used.  IDs and subjects come from git.

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"

cache=$tmp/cache
GIT_ABBREV_CACHE_DIR=$cache
export GIT_ABBREV_CACHE_DIR
repo=$tmp/repo
git init -q "$repo"
G() { git -C "$repo" "$@"; }
for i in $(seq 1 40); do
	echo "$i" >"$repo/f"
	G add f
	G commit -q -m "subsystem $i: change the value to $i"
	[ $((i % 10)) -eq 0 ] && G repack -q -d
done
[ "$(ls "$repo"/.git/objects/pack/*.pack | wc -l)" -eq 4 ] || die "not four packs"
# a wrong subject and a wrong ID: both need the subject search
s7=$(G log -1 --format=%s HEAD~7)
{
	echo "Fixes: $(G rev-parse --short=12 HEAD~3) (\"a subject nobody wrote\")"
	echo "Fixes: 0123456789ab (\"$s7\")"
} >"$tmp/refs"

expect_exit 1 "$GIT_ABBREV" -C "$repo" verify --no-cache --format=json "$tmp/refs"
cp "$out" "$tmp/want.json"
checks=$((checks + 1))
[ ! -e "$cache" ] || fail "--no-cache made the cache"
checks=$((checks + 1))
grep -q "$(G rev-parse HEAD~7)" "$tmp/want.json" || fail "git's commit of the subject is not named"

same() { # LABEL: the last run's findings are those of --no-cache
	checks=$((checks + 1))
	cmp -s "$out" "$tmp/want.json" || { fail "$1: findings differ from --no-cache"; show "$out"; }
}
run() { # LABEL [ENV...]: verify with the cache, findings compared
	label=$1
	shift
	expect_exit 1 env "$@" "$GIT_ABBREV" -C "$repo" verify --format=json "$tmp/refs"
	same "$label"
}
packs() { ls "$repo"/.git/objects/pack/*.pack | sort; }

# ---- cold, warm: `cache` lists a table a pack, with the file system's sizes ----
run "cold"
run "warm"
listing() { # LABEL: `cache --format=json` against the directory and the packs
	expect_exit 0 "$GIT_ABBREV" -C "$repo" cache --format=json
	py_check "$1: the listing is wrong" verify_check.py cache_listing "$out" "$cache" "$tmp/listed"
}
listing "warm"
packs | sed 's/$/ True/' >"$tmp/want.listed"
checks=$((checks + 1))
sort "$tmp/listed" | cmp -s - "$tmp/want.listed" || { fail "the tables are not the packs'"; show "$tmp/listed"; }
expect_exit 0 "$GIT_ABBREV" -C "$repo" cache
checks=$((checks + 1))
[ "$(sed -n 1p "$out")" = "cache: $cache" ] && [ "$(sed 1,2d "$out" | wc -l)" -eq 4 ] ||
	{ fail "the text listing"; show "$out"; }

# ---- a cap: the longest unused table goes first -------------------------------
# another repository's table, unused since 2001; this one's four are used by each run
other=$tmp/other
git init -q "$other"
git -C "$other" commit -q --allow-empty -m "other: a commit"
git -C "$other" repack -q -a -d
expect_exit 1 "$GIT_ABBREV" -C "$other" verify "$tmp/refs"
osum=$(ls "$other"/.git/objects/pack/*.pack | sed 's|.*/pack-||; s|\.pack$||')
otab=$cache/pack-$osum.subjects
[ -f "$otab" ] || die "no table for the other repository"
touch -d '2001-01-01' "$otab"
total=$(cat "$cache"/*.subjects | wc -c)
G config abbrev.cacheSize "$((total - 1))"
run "one byte short"
checks=$((checks + 1))
[ ! -e "$otab" ] && [ "$(ls "$cache"/*.subjects | wc -l)" -eq 4 ] ||
	{ fail "one byte short: not exactly the longest unused table evicted"; ls -l "$cache"; }
G config abbrev.cacheSize 2k
run "a 2k cap"
checks=$((checks + 1))
n=$(ls "$cache" | wc -l)
[ "$(cat "$cache"/*.subjects 2>/dev/null | wc -c)" -le 2048 ] && [ "$n" -ge 1 ] ||
	{ fail "a 2k cap (git's size suffix) is not kept"; ls -l "$cache"; }
G config abbrev.cacheSize 1
run "a one-byte cap"
checks=$((checks + 1))
[ -z "$(ls "$cache")" ] || { fail "a one-byte cap kept tables"; ls -l "$cache"; }
G config --unset abbrev.cacheSize

# ---- a repack: the old tables unused, then removed -----------------------------
run "before the repack"
G repack -q -a -d
run "after the repack"
listing "after the repack"
packs | sed 's/$/ True/' >"$tmp/want.listed"
checks=$((checks + 1))
sort "$tmp/listed" | cmp -s - "$tmp/want.listed" ||
	{ fail "after a repack the tables are not the one pack's"; show "$tmp/listed"; }

# ---- --clear -------------------------------------------------------------------
: >"$cache/not-ours"
expect_exit 0 "$GIT_ABBREV" cache --clear
checks=$((checks + 1))
[ "$(ls "$cache")" = "not-ours" ] || { fail "--clear"; ls -l "$cache"; }
rm "$cache/not-ours"

# ---- several builders at once: the same findings, whole tables -----------------
G commit -q --allow-empty -m "one more"
G repack -q -d
rm -rf "$cache"
for i in 1 2 3 4 5 6; do
	"$GIT_ABBREV" -C "$repo" verify --format=json "$tmp/refs" >"$tmp/w$i.json" 2>"$tmp/w$i.err" &
done
wait || :
for i in 1 2 3 4 5 6; do
	checks=$((checks + 1))
	cmp -s "$tmp/w$i.json" "$tmp/want.json" && [ ! -s "$tmp/w$i.err" ] ||
		{ fail "builder $i: findings differ"; show "$tmp/w$i.json"; show "$tmp/w$i.err"; }
done
run "after the builders"
listing "after the builders"

# ---- no cache to use: the same findings, one note --------------------------------
noted() { # LABEL PATTERN
	checks=$((checks + 1))
	one_line "$err" && grep -q "$2" "$err" || { fail "$1: not one note"; show "$err"; }
}
run "HOME unset" -u HOME -u GIT_ABBREV_CACHE_DIR -u XDG_CACHE_HOME
noted "HOME unset" "note: no cache directory (HOME is not set): nothing is kept between runs$"
# the same note from a command that caches object types, not subjects
HOME= GIT_ABBREV_CACHE_DIR= XDG_CACHE_HOME= "$GIT_ABBREV" -C "$repo" report >/dev/null 2>"$tmp/report.err" ||
	fail "report with HOME unset"
err=$tmp/report.err
noted "report, HOME unset" "note: no cache directory (HOME is not set): nothing is kept between runs$"
rm -rf "$cache"
mkdir -m 0500 "$cache"
run "a read-only cache"
if [ "$(id -u)" -ne 0 ]; then
	noted "a read-only cache" "note: cannot write the cache"
fi
chmod 0700 "$cache"
if [ "$(id -u)" -eq 0 ] && mkdir "$tmp/small" && mount -t tmpfs -o size=64k,mode=0700 none "$tmp/small" 2>/dev/null; then
	head -c 60000 /dev/zero >"$tmp/small/filler" 2>/dev/null || :
	run "a full disk" GIT_ABBREV_CACHE_DIR="$tmp/small"
	noted "a full disk" "note: cannot write the cache '$tmp/small': No space left"
	umount "$tmp/small"
else
	say "a full disk not tried: no tmpfs could be mounted (needs root)"
fi
finish
