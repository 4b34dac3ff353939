#!/bin/sh
# t-oom.sh - out of memory is a clean error: the report run with ever
# larger address-space limits either succeeds with the right answer or
# fails with exit 4 and one line, never a crash or a partial answer.
# Skipped under AddressSanitizer (its shadow memory needs no limit).
#
# The ramp starts where libgit2 initialises: libgit2 1.5 overflows its
# stack when its very first allocation fails (git_error_set_oom allocates
# its per-thread state and, failing, calls itself), which no caller can
# prevent; git-abbrev has that state made right after initialisation.
. "$(dirname "$0")/setup.sh"

gen_repo "$tmp/many" many
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
