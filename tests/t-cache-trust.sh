#!/bin/sh
# t-cache-trust.sh - verify's subject cache is nobody's to poison: each
# case gives the findings of --no-cache.  A crafted repository whose pack
# and .idx claim another repository's pack checksum (the same object
# count) fills the cache first; a cache directory owned by another user or
# writable by others is not used (one note); a FIFO at a table's path is
# skipped, not waited on; a relative GIT_ABBREV_CACHE_DIR is taken from
# where the command started, not from -C's directory; a symlink planted at
# the temporary file's name is not written through; a temporary file of a
# killed run is removed; the directory is made 0700 and tables 0600.
# IDs and subjects come from git.

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"

cache=$tmp/cache
GIT_ABBREV_CACHE_DIR=$cache
export GIT_ABBREV_CACHE_DIR
# the same shape of history, subjects with another word
A=$tmp/a B=$tmp/b
small_history "$A" "parser" 6
small_history "$B" "forged" 6
# B's pack renamed to A's checksum, its .pack and .idx claiming it
sumA=$(crafted_pack "$A" "$B") || die "the crafted pack could not be made"

short() { git -C "$A" rev-parse --short=12 "$1"; }
{
	for i in 1 2 3 4 5; do
		echo "Fixes: $(short "HEAD~$i") (\"$(git -C "$A" log -1 --format=%s "HEAD~$i")\")"
	done
	echo "Fixes: 0000000000ab (\"parser: change number 3\")"
	echo "Fixes: $(short HEAD~1) (\"parser: change number 4\")"
} >"$tmp/refs"
v() { # EXIT REPO ARGS...
	want=$1 repo=$2
	shift 2
	expect_exit "$want" -C "$repo" "$GIT_ABBREV" verify --format=json "$@" "$tmp/refs"
}
v 1 "$A" --no-cache
cp "$out" "$tmp/want.json"
[ ! -e "$cache" ] || die "--no-cache made the cache"
same() { # LABEL
	checks=$((checks + 1))
	cmp -s "$out" "$tmp/want.json" || { fail "$1: findings differ from --no-cache"; diff "$tmp/want.json" "$out" | head; }
}

# ---- the crafted repository fills the cache first ---------------------------
say "crafted pack claiming $sumA"
v 1 "$B"
checks=$((checks + 1))
[ -f "$cache/pack-$sumA.subjects" ] || fail "the crafted repository's run wrote no table"
v 1 "$A"
same "after the crafted repository"
v 1 "$A"
same "warm"

# ---- permissions: the directory 0700, the tables 0600 -----------------------
checks=$((checks + 1))
[ "$(stat -c %a "$cache")" = 700 ] || fail "cache directory mode $(stat -c %a "$cache"), want 700"
checks=$((checks + 1))
[ "$(stat -c %a "$cache/pack-$sumA.subjects")" = 600 ] || fail "table mode is not 600"

# ---- a FIFO at the table's path: skipped, never waited on ---------------------
rm -rf "$cache"
mkdir -m 700 "$cache"
mkfifo "$cache/pack-$sumA.subjects"
expect_exit 1 -C "$A" timeout 20 "$GIT_ABBREV" verify --format=json "$tmp/refs"
same "a FIFO at the table's path"

# ---- a directory writable by others, or another user's: not used, one note ----
rm -rf "$cache"
v 1 "$A"
cp "$cache/pack-$sumA.subjects" "$tmp/good.subjects"
chmod 777 "$cache"
v 1 "$A"
same "a cache writable by others"
checks=$((checks + 1))
one_line "$err" && grep -q "not using the cache.*writable by others" "$err" ||
	{ fail "a cache writable by others: want one note"; show "$err"; }
chmod 700 "$cache"
if [ "$(id -u)" -eq 0 ] && id nobody >/dev/null 2>&1; then
	# a table of the crafted pack planted in another user's directory
	rm -rf "$cache"
	v 1 "$B"
	chown -R nobody "$cache"
	v 1 "$A"
	same "another user's cache"
	checks=$((checks + 1))
	grep -q "owned by another user" "$err" || { fail "another user's cache: no note"; show "$err"; }
	# and another user's table in the user's own directory
	chown root "$cache"
	v 1 "$A"
	same "another user's table"
else
	say "not root: another user's cache not tried"
fi

# ---- a relative cache directory with -C: from where the command started ------
rm -rf "$cache" "$tmp/rel" "$A/rel"
(cd "$tmp" && GIT_ABBREV_CACHE_DIR=rel "$GIT_ABBREV" -C "$A" verify --format=json "$tmp/refs" \
	>"$tmp/rel.json" 2>/dev/null) || true
checks=$((checks + 1))
cmp -s "$tmp/rel.json" "$tmp/want.json" || fail "a relative cache directory: findings differ"
checks=$((checks + 1))
[ -f "$tmp/rel/pack-$sumA.subjects" ] && [ ! -e "$A/rel" ] ||
	fail "a relative cache directory was not taken from where the command started"

# ---- a symlink at the temporary file's name; a killed run's leftover ---------
rm -rf "$cache"
mkdir -m 700 "$cache"
: >"$tmp/target"
echo stale >"$cache/pack-$sumA.subjects.tmp999999999"
# the shell's process ID is the tool's after exec
sh -c 'ln -s "$1" "$2/pack-$3.subjects.tmp$$"; shift 3; exec "$@"' sh "$tmp/target" "$cache" "$sumA" \
	"$GIT_ABBREV" -C "$A" verify --format=json "$tmp/refs" >"$tmp/sym.json" 2>/dev/null || true
checks=$((checks + 1))
cmp -s "$tmp/sym.json" "$tmp/want.json" || fail "a symlink at the temporary name: findings differ"
checks=$((checks + 1))
[ ! -s "$tmp/target" ] || fail "the table was written through a symlink"
checks=$((checks + 1))
[ -f "$cache/pack-$sumA.subjects" ] && [ ! -L "$cache/pack-$sumA.subjects" ] ||
	fail "no table written beside a planted symlink"
checks=$((checks + 1))
[ -z "$(ls "$cache" | grep tmp)" ] || { fail "temporary files left"; ls -la "$cache"; }
finish
