#!/bin/sh
# bench.sh - what `make bench` runs: git-abbrev's report against git's own
# listing, on synthetic repositories or on the one named by BENCH_REPO.
#
# Environment (the Makefile passes its variables of the same names):
#   GIT_ABBREV     the binary to time (src/git-abbrev of the build tree)
#   BENCH_REPO     a repository to time instead of the synthetic ones
#                  (a work tree or a bare repository, e.g. a git.git mirror),
#                  or several separated by spaces (one table, each named
#                  by its directory; not with BENCH_BITMAP)
#   BENCH_LABEL    its name in the table (default: its directory's name)
#   BENCH_BITMAP   with BENCH_REPO: also time a copy of it repacked with a
#                  reachability bitmap (git repack -adb), made once into
#                  BENCH_DATA/<label>-bitmap (the repository itself is only
#                  read); a partial clone's copy keeps only its branches and
#                  tags, which have every object a bitmap needs.  Also a copy
#                  of that with a multi-pack-index bitmap instead of the
#                  pack's (git multi-pack-index write --bitmap), made once
#                  into BENCH_DATA/<label>-midx
#   BENCH_SIZES    object counts of the synthetic repositories (default
#                  2000000); each is generated once by gen_synth.py into
#                  BENCH_DATA/synth-<size> and reused by later runs
#   BENCH_DATA     where they go (default ./bench-data; never committed)
#   BENCH_RUNS     timed runs per command (default 5)
#   BENCH_LIBGIT2_MAX  objects above which --walker=libgit2 is not timed
#                  (default 3000000)
#   BENCH_OUT      file the tables are appended to (default bench-results.md)
#   BENCH_REACHABLE  0 leaves out report --reachable against git rev-list
#                  --objects over the same refs (default 1)
#   BENCH_HISTORY  0 leaves out history against git log --all (default 1)
#   BENCH_VERIFY   0 leaves out verify --range=HEAD against git log
#                  --format=%B HEAD (default 1)
#   PYTHON3        the Python to run the scripts with
set -eu
LC_ALL=C
export LC_ALL

here=$(cd "$(dirname "$0")" && pwd)
py=${PYTHON3:-python3}
tool=${GIT_ABBREV:-src/git-abbrev}
data=${BENCH_DATA:-bench-data}
runs=${BENCH_RUNS:-5}
out=${BENCH_OUT:-bench-results.md}

[ -x "$tool" ] || { echo "bench.sh: $tool not built (run make first)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench.sh: /usr/bin/time missing (Debian: apt-get install time)" >&2; exit 1; }

if [ -n "${BENCH_REPO:-}" ]; then
	# shellcheck disable=SC2086 # several repositories, separated by spaces
	set -- $BENCH_REPO
else
	set --
	mkdir -p "$data"
	for n in ${BENCH_SIZES:-2000000}; do
		d=$data/synth-$n
		if [ ! -d "$d" ]; then
			rm -rf "$d.tmp"
			"$py" "$here/gen_synth.py" --objects "$n" "$d.tmp"
			mv "$d.tmp" "$d"
		fi
		set -- "$@" "$d"
	done
fi
if [ "${BENCH_REACHABLE:-1}" = 0 ]; then
	set -- --no-reachable "$@"
fi
if [ "${BENCH_HISTORY:-1}" = 0 ]; then
	set -- --no-history "$@"
fi
if [ "${BENCH_VERIFY:-1}" = 0 ]; then
	set -- --no-verify "$@"
fi
# bitmap_copy SRC DEST: DEST is a copy of SRC's git dir repacked with -adb
bitmap_copy() {
	gd=$(git -C "$1" rev-parse --absolute-git-dir) || exit 1
	rm -rf "$2.tmp"
	mkdir -p "$(dirname "$2")"
	cp -a "$gd" "$2.tmp"
	git --git-dir="$2.tmp" config core.bare true
	# promisor packs are repacked apart, without a bitmap
	rm -f "$2.tmp"/objects/pack/*.promisor
	if ! git -C "$2.tmp" -c pack.writeReverseIndex=true repack -adbq 2>/dev/null ||
	   ! ls "$2.tmp"/objects/pack/*.bitmap >/dev/null 2>&1; then
		# objects missing (a partial clone): keep what branches and tags reach
		git -C "$2.tmp" for-each-ref --format='delete %(refname)' |
			grep -v ' refs/heads/' | grep -v ' refs/tags/' |
			git -C "$2.tmp" update-ref --stdin
		git -C "$2.tmp" -c pack.writeReverseIndex=true repack -adbq
	fi
	ls "$2.tmp"/objects/pack/*.bitmap >/dev/null 2>&1 ||
		{ echo "bench.sh: git repack -adb made no bitmap in $2.tmp" >&2; exit 1; }
	mv "$2.tmp" "$2"
}

# midx_copy SRC DEST: DEST is a copy of the bitmap copy SRC whose bitmap is
# a multi-pack-index's instead of the pack's (the pack files are the same)
midx_copy() {
	rm -rf "$2.tmp"
	cp -a "$1" "$2.tmp"
	rm -f "$2.tmp"/objects/pack/pack-*.bitmap
	git -C "$2.tmp" multi-pack-index write --bitmap --no-progress
	ls "$2.tmp"/objects/pack/multi-pack-index-*.bitmap >/dev/null 2>&1 ||
		{ echo "bench.sh: git multi-pack-index write --bitmap made no bitmap in $2.tmp" >&2; exit 1; }
	mv "$2.tmp" "$2"
}

labels=
if [ -n "${BENCH_REPO:-}" ]; then
	first=${BENCH_REPO%% *}
	name=${BENCH_LABEL:-$(basename "$(cd "$first" && pwd)")}
	labels="--label $name"
	if [ "$first" != "$BENCH_REPO" ]; then
		# several: each named by its directory (run.py)
		labels=
		[ -z "${BENCH_BITMAP:-}" ] ||
			{ echo "bench.sh: BENCH_BITMAP takes one BENCH_REPO" >&2; exit 1; }
	fi
	if [ -n "${BENCH_BITMAP:-}" ]; then
		bm=$data/$name-bitmap
		[ -d "$bm" ] || bitmap_copy "$first" "$bm"
		[ -d "$data/$name-midx" ] || midx_copy "$bm" "$data/$name-midx"
		set -- "$@" "$bm" "$data/$name-midx"
		labels="$labels --label $name-bitmap --label $name-midx"
	fi
fi
# shellcheck disable=SC2086 # the labels are words
exec "$py" "$here/run.py" --tool "$tool" --runs "$runs" $labels \
	--libgit2-max "${BENCH_LIBGIT2_MAX:-3000000}" --out "$out" "$@"
