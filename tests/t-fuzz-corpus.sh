#!/bin/sh
# t-fuzz-corpus.sh - the fuzz targets' seeds, and every input a fuzzer
# once crashed on, replayed through the ordinary build (and so through
# ASan/UBSan in the sanitizer run): none may crash or fail a target's
# own invariants (each target aborts on a broken one).
. "$(dirname "$0")/setup.sh"

for t in cite pack partial subjects; do
	replay=${GIT_ABBREV%/src/git-abbrev}/tests/fuzz/replay_$t
	[ -x "$replay" ] || die "no $replay"
	n=$(ls "$tests_dir/fuzz/corpus-$t" | wc -l)
	expect_exit 0 "$replay" "$tests_dir/fuzz/corpus-$t"/*
	say "$t: $n inputs replayed"
done
finish
