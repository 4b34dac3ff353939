#!/bin/sh
# t-truncate.sh - a pack (or its .idx) truncated by another process while
# the tool has it mapped: reading past the new end faults (SIGBUS).  The
# report, and verify (which maps the packs again to read commits,
# objread.c) must fail with one line naming the file (exit 3), never die
# of the signal; verify's subject cache file, read rather than mapped, is
# rebuilt when cut short.
# The test suite's build of the tool (test_hooks.h) waits after mapping
# the packs, so the truncation lands before they are read every time.
. "$(dirname "$0")/setup.sh"

hooks=${GIT_ABBREV_HOOKS:-$(dirname "$GIT_ABBREV")/../tests/git-abbrev-hooks}
[ -x "$hooks" ] || die "no $hooks: build it with make check"
R=$tmp/repo
gen_repo "$R" planted
git -C "$R" gc -q
pack=$(ls "$R"/.git/objects/pack/pack-*.pack)
idx=${pack%.pack}.idx
cp "$pack" "$tmp/whole.pack"
cp "$idx" "$tmp/whole.idx"
checks=$((checks + 1))
[ "$(wc -c <"$pack")" -gt 65536 ] || fail "the pack is too small to cut short"
# a wrong subject: verify reads the named commit, then every commit's subject
head=$(git -C "$R" rev-parse --short=12 HEAD)
printf 'Fixes: %s ("not the subject of any commit")\n' "$head" >"$tmp/patch"

# cut_under WHAT FILE PAUSE-VARIABLE COMMAND...: run the hooks build of
# the tool, cut FILE in place once it says it paused, and judge the end
cut_under() {
	what=$1 cut=$2 var=$3
	shift 3
	cp "$tmp/whole.pack" "$pack"
	cp "$tmp/whole.idx" "$idx"
	rm -f "$tmp/paused"
	env GIT_ABBREV_TEST_PAUSED="$tmp/paused" "$var=3000" "$hooks" "$@" \
		>"$tmp/out" 2>"$tmp/err" &
	tool=$!
	# cut the pack once the tool has mapped it and paused
	wait_paused "$tool" "$tmp/paused" "$what"
	# in place, as a failing disk or a careless script would: the same inode
	truncate -s 4096 "$cut"
	if wait "$tool"; then rc=0; else rc=$?; fi
	checks=$((checks + 1))
	[ "$rc" -eq 3 ] || fail "pack truncated under $what: exit $rc, want 3"
	checks=$((checks + 1))
	one_line "$tmp/err" && grep -q "pack-.*cut short" "$tmp/err" ||
		{ fail "$what: want one line naming the pack"; show "$tmp/err"; }
	checks=$((checks + 1))
	[ ! -s "$tmp/out" ] || { fail "$what: a partial answer on stdout"; show "$tmp/out"; }
	say "pack truncated under $what: exit $rc: $(cat "$tmp/err")"
}

cut_under "the report" "$pack" GIT_ABBREV_TEST_PAUSE_MS --format=json "$R"
# the .idx, read outside the scan's guard (the merge): the walker hands
# the fault to the program's handler (mapguard.h), which names the file
cut_under "the report (.idx)" "$idx" GIT_ABBREV_TEST_PAUSE_MS --format=json "$R"
# verify's own maps: the walker has finished (its maps are gone) when
# objread maps the packs and pauses
cut_under "verify" "$pack" GIT_ABBREV_TEST_READ_PAUSE_MS -C "$R" verify "$tmp/patch"
# the pack's subject cache file (outside the repository), made by a first
# run, then cut short while a second run has it mapped
GIT_ABBREV_CACHE_DIR=$tmp/cache
export GIT_ABBREV_CACHE_DIR
cp "$tmp/whole.pack" "$pack"
if "$GIT_ABBREV" -C "$R" verify "$tmp/patch" >/dev/null 2>&1; then rc=0; else rc=$?; fi
checks=$((checks + 1))
[ "$rc" -eq 1 ] || fail "verify to fill the subject cache: exit $rc, want 1"
cache=$(ls "$tmp"/cache/pack-*.subjects)
# read, not mapped: cut short while read, the table is rebuilt, the findings those without it
"$GIT_ABBREV" -C "$R" verify --no-cache "$tmp/patch" >"$tmp/want" 2>/dev/null || true
rm -f "$tmp/paused"
env GIT_ABBREV_TEST_PAUSED="$tmp/paused" GIT_ABBREV_TEST_CACHE_PAUSE_MS=3000 "$hooks" -C "$R" \
	verify "$tmp/patch" >"$tmp/out" 2>"$tmp/err" &
tool=$!
wait_paused "$tool" "$tmp/paused" "verify (subject cache)"
truncate -s 100 "$cache"
if wait "$tool"; then rc=0; else rc=$?; fi
checks=$((checks + 1))
[ "$rc" -eq 1 ] && cmp -s "$tmp/out" "$tmp/want" ||
	{ fail "subject cache cut short while read: exit $rc, want 1 and the findings without it"; show "$tmp/err"; }
checks=$((checks + 1))
[ "$(wc -c <"$cache")" -gt 100 ] || fail "subject cache cut short: not rebuilt"
finish
