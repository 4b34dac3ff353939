#!/bin/sh
# t-formats.sh - the formats people read: --format=csv, markdown, svg and
# classic of the report, and csv, markdown and svg of the model.
#
# On gen_repo.py repositories (planted collisions, 17000 blobs, 3 objects,
# none, alternates, odd paths) every format is parsed back and compared
# with numbers from elsewhere:
#   csv       python's csv module; every count against the JSON report,
#             the expected prefixes against the birthday formula in
#             decimals of 60 digits and more (tests/birthday.py)
#   markdown  the table cells, the heading and the min-unique line, against
#             the JSON report and the same formula
#   svg       xml.etree: one series per set with the right ids and classes,
#             one point per length with colliding prefixes (data-length /
#             data-prefixes as in the JSON), points on a log scale that
#             agrees with the y-axis ticks, axis labels, legend, notes
#   classic   line by line against git-unique-abbrev's layout computed from
#             `git cat-file --batch-all-objects` by tests/oracle.py's counter
# and the model's formats against `model --format=json`.  Formats a command
# lacks are usage errors (exit 2) naming the ones it has.  The checks are
# tests/formats_check.py's; the birthday formulas tests/birthday.py's.

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"

# check KIND LABEL ARGS...: the checker on the last run's output, queued
# (sh has no local variables: these helpers use names of their own); the
# queue goes to one formats_check.py at check_queued, before a file it
# names is written again
jobs=0 done_jobs=0
check() {
	c_kind=$1 c_label=$2
	shift 2
	[ "$rc" -eq 0 ] || return 0 # already failed
	checks=$((checks + 1))
	# notes of a shallow or partial clone go to stderr where the format has no place for them
	if grep -v '^git-abbrev: note: ' "$err" >"$tmp/check.err" || [ -s "$tmp/check.err" ]; then
		fail "$c_label: unexpected stderr"
		show "$err"
	fi
	case $c_kind in
	json|markdown|svg)
		if [ -s "$err" ]; then
			fail "$c_label: a note on stderr, the format carries it"
			show "$err"
		fi ;;
	esac
	checks=$((checks + 1))
	jobs=$((jobs + 1))
	printf '%s\n' "$c_label" >"$tmp/job$jobs.label"
	printf '%s\0' "$c_kind" "$@" >"$tmp/job$jobs.args"
}

# check_queued: the checks queued since the last call, in one process;
# each that fails (or that the checker never passed) fails under its label
check_queued() {
	[ "$jobs" -gt "$done_jobs" ] || return 0
	"$PYTHON3" "$tests_dir/formats_check.py" batch "$tmp" $((done_jobs + 1)) "$jobs" \
		>"$tmp/check.out" 2>&1 || :
	while [ "$done_jobs" -lt "$jobs" ]; do
		done_jobs=$((done_jobs + 1))
		[ -e "$tmp/job$done_jobs.ok" ] && continue
		fail "$(cat "$tmp/job$done_jobs.label")"
		if [ -s "$tmp/job$done_jobs.out" ]; then show "$tmp/job$done_jobs.out"; else show "$tmp/check.out"; fi
	done
}

# all_formats LABEL REPO...: every report format of REPO... against its JSON
all_formats() {
	a_label=$1
	shift
	expect_exit 0 "$GIT_ABBREV" report --format=json "$@"
	[ "$rc" -eq 0 ] || return 0
	json=$tmp/$runs.json
	cp "$out" "$json"
	for f in csv markdown svg; do
		expect_exit 0 "$GIT_ABBREV" report --format=$f "$@"
		check $f "$a_label: --format=$f" "$json" "$out"
	done
	for t in all commit commit-ish tree blob tag; do
		expect_exit 0 "$GIT_ABBREV" report --format=classic --type=$t "$@"
		check classic "$a_label: --format=classic --type=$t" "$out" $t "$@"
	done
	expect_exit 0 "$GIT_ABBREV" --format=classic "$@"
	check classic "$a_label: --format=classic" "$out" all "$@"
	check_queued
}

# usage MESSAGE-PART CMD...: a usage error (exit 2) whose one line holds MESSAGE-PART
usage() { # MESSAGE-PART CMD...
	u_want=$1
	shift
	expect_exit 2 -C "$tmp/planted" "$@"
	[ "$rc" -eq 2 ] || return 0
	checks=$((checks + 1))
	[ ! -s "$out" ] || { fail "$*: stdout not empty"; show "$out"; }
	checks=$((checks + 1))
	grep -qF -e "$u_want" "$err" || { fail "$*: stderr lacks '$u_want'"; show "$err"; }
	checks=$((checks + 1))
	[ "$(grep -c '^git-abbrev: ' "$err")" -eq 1 ] || { fail "$*: not one error line"; show "$err"; }
}

say "generating repositories"
gen_repo "$tmp/planted" planted
gen_repo "$tmp/many" many
gen_repo "$tmp/small" small
gen_repo "$tmp/empty" empty
gen_repo "$tmp/alt" alternates

say "planted collisions"
all_formats "planted" "$tmp/planted"
say "17000 blobs"
all_formats "many" "$tmp/many"
say "3 objects, no objects"
all_formats "small" "$tmp/small"
all_formats "empty" "$tmp/empty"
say "alternates; several repositories"
all_formats "downstream" "$tmp/alt/downstream"
all_formats "planted + many" "$tmp/planted" "$tmp/many"

say "a shallow clone: every format, and markdown and svg say what it lacks"
git clone -q --depth=1 "file://$tmp/planted" "$tmp/shallow" 2>/dev/null ||
	die "git clone --depth=1 failed"
all_formats "shallow clone" "$tmp/shallow"
for f in markdown svg; do
	expect_exit 0 "$GIT_ABBREV" --format=$f "$tmp/shallow"
	checks=$((checks + 1))
	[ "$rc" -ne 0 ] || grep -q "shallow clone" "$out" ||
		fail "--format=$f of a shallow clone does not say what it lacks"
done

say "the seed's layout, byte for byte"
expect_exit 0 "$GIT_ABBREV" --format=classic "$tmp/planted"
if [ "$rc" -eq 0 ]; then
	checks=$((checks + 1))
	# one "0 / 0" line, the last of the table, then only IDs
	n0=$(grep -c ': 0 / 0$' "$out" || :)
	after=$(sed '1,/: 0 \/ 0$/d' "$out" | grep -cvE '^[0-9a-f]{40}$' || :)
	[ "$n0" -eq 1 ] && [ "$after" -eq 0 ] ||
		fail "classic: the table does not end at its one '0 / 0' line"
	checks=$((checks + 1))
	if grep -vqE '^([0-9]+ objects|[ 1-9][0-9]: [0-9]+ / [0-9]+|[0-9a-f]{40})$' "$out"; then
		fail "classic: a line outside the layout"
		show "$out"
	fi
fi

say "paths that need quoting: CSV, Markdown code span, XML"
Q=$tmp/'we,ird "q" <a&b> `tick`'
mkdir "$Q"
gen_repo "$Q/r" small
all_formats "odd path" "$Q/r"
L1=$(printf '%s/latin1-\351' "$tmp")
mkdir "$L1"
gen_repo "$L1/r" small
expect_exit 0 "$GIT_ABBREV" --format=svg "$L1/r"
checks=$((checks + 1))
[ "$rc" -ne 0 ] || "$PYTHON3" "$tests_dir/formats_check.py" xml "$out" ||
	fail "svg of a Latin-1 path is not well-formed XML"

say "model: csv, markdown and svg against model --format=json"
for args in "--objects=13021585 --commits=1302158" "--objects=1000" \
	"--objects=0 --commits=0" "--objects=18446744073709551615"; do
	# shellcheck disable=SC2086
	expect_exit 0 "$GIT_ABBREV" model $args --format=json
	[ "$rc" -eq 0 ] || continue
	cp "$out" "$tmp/model.json"
	# shellcheck disable=SC2086
	expect_exit 0 "$GIT_ABBREV" model $args --format=csv
	check model-csv "model $args --format=csv" "$tmp/model.json" "$out"
	# the band text shows is the one markdown and svg show
	# shellcheck disable=SC2086
	expect_exit 0 "$GIT_ABBREV" model $args --format=text
	from=$(awk '$1 == "len" { getline; print $1; exit }' "$out")
	to=$(awk '$1 == "len" { on = 1; next } on && $1 !~ /^[0-9]+$/ { exit } on { l = $1 } END { print l }' "$out")
	# shellcheck disable=SC2086
	expect_exit 0 "$GIT_ABBREV" model $args --format=json --from="$from" --to="$to"
	cp "$out" "$tmp/band.json"
	for f in markdown svg; do
		# shellcheck disable=SC2086
		expect_exit 0 "$GIT_ABBREV" model $args --format=$f
		# svg widens the band to 12 and 16: its numbers come from the whole table
		js="$tmp/band.json"
		[ "$f" = svg ] && js="$tmp/model.json"
		check model-$f "model $args --format=$f" "$js" "$out" "$from" "$to"
	done
	check_queued
done
expect_exit 0 "$GIT_ABBREV" model --objects=5000 --format=csv --from=10 --to=12
checks=$((checks + 1))
[ "$rc" -ne 0 ] || [ "$(cut -d, -f1 "$out" | tr '\n' ' ')" = "length 10 11 12 " ] ||
	fail "model --format=csv --from=10 --to=12: $(cut -d, -f1 "$out" | tr '\n' ' ')"

say "history: csv, markdown and svg against history --format=json"
for args in "$tmp/planted" "--no-projection $tmp/planted" "$tmp/small" "$tmp/empty" \
	"$tmp/planted $tmp/many"; do
	# shellcheck disable=SC2086
	expect_exit 0 "$GIT_ABBREV" history $args --format=json
	[ "$rc" -eq 0 ] || continue
	cp "$out" "$tmp/history.json"
	for f in csv markdown svg; do
		# shellcheck disable=SC2086
		expect_exit 0 "$GIT_ABBREV" history $args --format=$f
		check history-$f "history $args --format=$f" "$tmp/history.json" "$out"
	done
	check_queued
done
usage "history prints text, json, csv, markdown or svg" "$GIT_ABBREV" history --format=classic

say "formats a command lacks: exit 2, one line naming the ones it has"
usage "check prints text, json or csv" "$GIT_ABBREV" check 8 --format=classic
usage "report prints text, json, csv, markdown, svg, classic or partial" "$GIT_ABBREV" --format=xml
usage "model prints text, json, csv, markdown or svg" "$GIT_ABBREV" model --objects=9 --format=classic
usage "--format=classic" "$GIT_ABBREV" report --type=commit
usage "--format=classic" "$GIT_ABBREV" report --format=csv --type=commit
usage "'--type' takes commit, commit-ish, tree, blob, tag or all, not 'note'" "$GIT_ABBREV" report --format=classic --type=note

check_queued
finish
