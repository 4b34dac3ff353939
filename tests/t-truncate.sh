#!/bin/sh
# t-truncate.sh - a pack truncated by another process while the report
# has it mapped: reading past the new end faults (SIGBUS).  The report
# must fail with one line naming the pack (exit 3), never die of the
# signal.  The test suite's build of the tool (test_hooks.h) waits after
# mapping the packs, so the truncation lands before the scan every time.
. "$(dirname "$0")/setup.sh"

hooks=${GIT_ABBREV_HOOKS:-$(dirname "$GIT_ABBREV")/../tests/git-abbrev-hooks}
[ -x "$hooks" ] || die "no $hooks: build it with make check"
R=$tmp/repo
gen_repo "$R" planted
git -C "$R" gc -q
pack=$(ls "$R"/.git/objects/pack/pack-*.pack)
checks=$((checks + 1))
[ "$(wc -c <"$pack")" -gt 65536 ] || fail "the pack is too small to cut short"
GIT_ABBREV_TEST_PAUSED=$tmp/paused GIT_ABBREV_TEST_PAUSE_MS=3000 \
	"$hooks" --format=json "$R" >"$tmp/out" 2>"$tmp/err" &
reporter=$!
# cut the pack once the report has mapped it and paused (not after a
# fixed sleep: on a loaded machine the report may not have mapped it yet)
n=0
while [ ! -e "$tmp/paused" ] && kill -0 "$reporter" 2>/dev/null && [ "$n" -lt 1200 ]; do
	sleep 0.05
	n=$((n + 1))
done
[ -e "$tmp/paused" ] || die "the report never reached its pause"
# in place, as a failing disk or a careless script would: the same inode
"$PYTHON3" -c 'import os, sys; os.truncate(sys.argv[1], 4096)' "$pack"
if wait "$reporter"; then rc=0; else rc=$?; fi
checks=$((checks + 1))
[ "$rc" -eq 3 ] || fail "pack truncated under the report: exit $rc, want 3"
checks=$((checks + 1))
one_line "$tmp/err" && grep -q "pack-.*cut short" "$tmp/err" ||
	{ fail "want one line naming the pack"; show "$tmp/err"; }
checks=$((checks + 1))
[ ! -s "$tmp/out" ] || fail "a partial report on stdout"
say "pack truncated under the report: exit $rc: $(cat "$tmp/err")"
finish
