#!/bin/sh
# t-oom.sh - out of memory is a clean error: the report run with ever
# larger address-space limits either succeeds with the right answer or
# fails with exit 4 and one line, never a crash or a partial answer.
# Skipped under AddressSanitizer (its shadow memory needs no limit); the
# write that fails for memory is checked first, under any build.
#
# The ramp starts where libgit2 initialises: libgit2 1.5 overflows its
# stack when its very first allocation fails (git_error_set_oom allocates
# its per-thread state and, failing, calls itself), which no caller can
# prevent; git-abbrev has that state made right after initialisation.
. "$(dirname "$0")/setup.sh"

gen_repo "$tmp/many" many

# A write that fails for memory (write(2) says ENOMEM, as the test build's
# stdout does with GIT_ABBREV_TEST_STDOUT_ENOMEM) is out of memory too: exit
# 4, "out of memory", as when the emitter runs out; a full disk stays exit 3.
hooks=${GIT_ABBREV_HOOKS:-$(dirname "$GIT_ABBREV")/../tests/git-abbrev-hooks}
[ -x "$hooks" ] || die "no test build of the tool: $hooks"
git -C "$tmp/many" cat-file --batch-all-objects --batch-check >"$tmp/objs"
"$GIT_ABBREV" ids --shard=0/2 --format=partial "$tmp/objs" >"$tmp/p0" || die "no part 0"
"$GIT_ABBREV" ids --shard=1/2 --format=partial "$tmp/objs" >"$tmp/p1" || die "no part 1"
say "a write that fails with ENOMEM: exit 4, out of memory; a full disk: exit 3"
for cmd in "ids $tmp/objs" "ids --format=partial $tmp/objs" "merge $tmp/p0 $tmp/p1" \
	"merge --format=json $tmp/p0 $tmp/p1" "report $tmp/many" "check 4 $tmp/many" \
	"model $tmp/many" "history $tmp/many" "policy $tmp/many" "--version"; do
	expect_exit 4 env GIT_ABBREV_TEST_STDOUT_ENOMEM=1 "$hooks" $cmd
	checks=$((checks + 1))
	one_line "$err" && grep -qx "git-abbrev: out of memory" "$err" ||
		fail "$cmd, a write failing with ENOMEM: $(cat "$err")"
	if [ -w /dev/full ]; then
		expect_exit 3 sh -c '"$@" >/dev/full' sh "$GIT_ABBREV" $cmd
		checks=$((checks + 1))
		one_line "$err" && grep -q "^git-abbrev: cannot write .*: No space left on device$" "$err" ||
			fail "$cmd >/dev/full: $(cat "$err")"
	fi
done

if ! (ulimit -v 400000 && "$GIT_ABBREV" --version) >/dev/null 2>&1; then
	skip "cannot run under an address-space limit (a sanitizer build?)"
fi
# the least memory with which libgit2 is up: `check` without a length is
# a usage error (exit 2), found after the initialisation
kb=4000
while [ "$kb" -le 60000 ]; do
	if (ulimit -v "$kb" && exec "$GIT_ABBREV" check) >/dev/null 2>&1; then rc=0; else rc=$?; fi
	[ "$rc" -eq 2 ] && break
	kb=$((kb + 128))
done
say "libgit2 initialises from $kb kB"
oom=0 ok=0
while [ "$kb" -le 60000 ] && [ "$ok" -eq 0 ]; do
	if (ulimit -v "$kb" && exec "$GIT_ABBREV" --format=json "$tmp/many") \
		>"$tmp/out" 2>"$tmp/err"; then rc=0; else rc=$?; fi
	case $rc in
	0)
		ok=1
		oracle_compare "first run that fits ($kb kB)" "$tmp/out" "$tmp/many"
		;;
	3|4)	# 4 from git-abbrev's own allocations, 3 from libgit2's
		oom=$((oom + 1))
		checks=$((checks + 1))
		one_line "$tmp/err" && grep -qi "memory" "$tmp/err" &&
			[ ! -s "$tmp/out" ] || fail "$kb kB: exit $rc but: $(cat "$tmp/err")"
		;;
	127) ;; # the loader could not map a library: before any of our code
	*)
		checks=$((checks + 1))
		fail "$kb kB: exit $rc: $(cat "$tmp/err")"
		;;
	esac
	kb=$((kb + 256))
done
say "$oom runs out of memory, then one that fits"
checks=$((checks + 1))
[ "$oom" -gt 0 ] && [ "$ok" -eq 1 ] || fail "no clean out-of-memory run before a full one"
finish
