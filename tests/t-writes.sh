#!/bin/sh
# t-writes.sh - output that cannot be written (a full disk: /dev/full) is
# an error with the system's reason, exit 3, for the report, --help and
# --version alike; never a silent exit 0.
. "$(dirname "$0")/setup.sh"

[ -w /dev/full ] || skip "no /dev/full"
gen_repo "$tmp/r" small
for args in "--help" "--version" "help report" "--format=json $tmp/r" "check 7 $tmp/r"; do
	# shellcheck disable=SC2086
	expect_exit 3 sh -c 'exec "$@" >/dev/full' sh "$GIT_ABBREV" $args
	checks=$((checks + 1))
	one_line "$err" && grep -q '^git-abbrev: cannot write .*: No space left on device$' "$err" ||
		{ fail "$args >/dev/full: want one line with the reason"; show "$err"; }
	say "$args >/dev/full: $(cat "$err")"
done
finish
