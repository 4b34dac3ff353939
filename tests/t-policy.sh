#!/bin/sh
# t-policy.sh - `git abbrev policy`: the numbers of a length policy, per
# length, now and grown, in every format.
#
# On a gen_repo.py repository with planted collisions (lengths 4..16, so
# some are measured), the JSON is checked against the report's counts, the
# history's fit, git's own commit times (for the dates already passed) and
# the birthday formulas computed in 60 digits (tests/policy_check.py); on
# the kernel's published counts with each form of --growth the same way.
# Text, Markdown, CSV and SVG are read back against the JSON: the same
# numbers, the text within 80 columns, the chart's x axis holding 12 and 16
# and the model's points there apart by its ratio on the log axis
# (tests/svgcheck.py, shared with t-formats.sh).  --title names every chart.

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"

check() { # LABEL ARGS...: tests/policy_check.py ARGS
	c_label=$1
	shift
	checks=$((checks + 1))
	if PYTHONPATH=$tests_dir "$PYTHON3" "$tests_dir/policy_check.py" "$@" >"$tmp/check.out" 2>&1; then
		:
	else
		fail "$c_label"
		show "$tmp/check.out"
	fi
}

# formats LABEL ARGS...: every format of `policy ARGS` against its JSON
formats() {
	f_label=$1
	shift
	expect_exit 0 "$GIT_ABBREV" policy --format=json "$@"
	cp "$out" "$tmp/f.json"
	for f in text markdown csv svg; do
		expect_exit 0 "$GIT_ABBREV" policy --format=$f "$@"
		cp "$out" "$tmp/f.$f"
	done
	check "$f_label: every format against the JSON" formats "$tmp/f.json" "$tmp/f.text" \
		"$tmp/f.markdown" "$tmp/f.csv" "$tmp/f.svg"
}

# repo_check LABEL REPO: policy --lengths=4..16 of REPO against its report,
# its history, git and the formulas; the JSON stays in $tmp/policy.json
repo_check() {
	expect_exit 0 "$GIT_ABBREV" report --format=json "$2"
	cp "$out" "$tmp/report.json"
	expect_exit 0 "$GIT_ABBREV" history --format=json "$2"
	cp "$out" "$tmp/history.json"
	expect_exit 0 "$GIT_ABBREV" policy --format=json --lengths=4..16 "$2"
	cp "$out" "$tmp/policy.json"
	check "$1" repo "$tmp/policy.json" "$tmp/report.json" "$tmp/history.json" "$2"
}

say "generating a repository with planted collisions, and one with years of history"
gen_repo "$tmp/planted" planted
gen_repo "$tmp/history" history

say "a repository: measured, modelled, grown by history's fit, dated by git"
repo_check "policy of a repository" "$tmp/planted"
# the planted collisions are measured: some length has colliding prefixes
checks=$((checks + 1))
grep -q '"colliding_prefixes": [1-9]' "$tmp/policy.json" || fail "no colliding prefixes measured"
# a date already passed is starred in the text
checks=$((checks + 1))
expect_exit 0 "$GIT_ABBREV" policy --lengths=4..16 "$tmp/planted"
grep -q '^  4 .* 20[0-9][0-9] \* ' "$out" || { fail "text: no starred year at 4 chars"; show "$out"; }
# its commits span days: no growth fitted to them, and the line says why
checks=$((checks + 1))
tr '\n' ' ' <"$out" | sed 's/  */ /g' >"$tmp/joined"
why=$(jget "$tmp/history.json" 'd["no_projection"]')
grep -qF "no growth fitted: $why (--growth=" \
	"$tmp/joined" || { fail "text: no reason for the missing growth"; show "$out"; }
formats "planted" --lengths=4..16 "$tmp/planted"
formats "planted, 12 and 16" --lengths=16,12 "$tmp/planted"
formats "planted, --growth overrides the fit" --growth=3% "$tmp/planted"
# five years of commits: a growth that dates every length within the horizon
repo_check "policy of years of history" "$tmp/history"
checks=$((checks + 1))
grep -q '"state": "future"' "$tmp/policy.json" || fail "history: no length dated ahead"
# the planted collisions up to 9 chars are quoted as collisions, not as the model's years
checks=$((checks + 1))
grep -q '"9": "9 chars: commits, commit-ish and all objects collide already (1 colliding prefix now)"' \
	"$tmp/policy.json" || fail "history: the quote at 9 chars ignores what was measured"
formats "history" "$tmp/history"

say "SHA-256: measured and modelled; without dates libgit2 can read, no fit but a note"
gen_repo "$tmp/sha256" sha256
expect_exit 0 "$GIT_ABBREV" report --format=json "$tmp/sha256"
cp "$out" "$tmp/report.json"
expect_exit 0 "$GIT_ABBREV" policy --format=json --lengths=4..16 --growth=5% "$tmp/sha256"
check "sha256: the measured counts are not the report's" measured "$out" "$tmp/report.json"

say "counts: the kernel's figures, each form of --growth"
for g in "8%/year" "80000 commits/year" "1000000/year" ""; do
	set -- policy --format=json --objects=13021585 --commits=1300000
	[ -z "$g" ] || set -- "$@" --growth="$g"
	expect_exit 0 "$GIT_ABBREV" "$@"
	cp "$out" "$tmp/counts.json"
	check "policy --objects=13021585 --commits=1300000 --growth='$g'" counts "$tmp/counts.json" \
		13021585 1300000 "$g"
done
formats "kernel counts" --objects=13021585 --commits=1300000 --growth=8%/year
formats "kernel counts, no growth" --objects=13021585 --commits=1300000
formats "kernel counts, a titled chart" --objects=13021585 --growth=5%
expect_exit 0 "$GIT_ABBREV" policy --format=svg --objects=13021585 --title='Fixes: 12 & <16>'
cp "$out" "$tmp/t.svg"
for f in text markdown csv; do
	expect_exit 0 "$GIT_ABBREV" policy --format=$f --objects=13021585
	cp "$out" "$tmp/t.$f"
done
expect_exit 0 "$GIT_ABBREV" policy --format=json --objects=13021585
check "--title" formats "$out" "$tmp/t.text" "$tmp/t.markdown" "$tmp/t.csv" "$tmp/t.svg" \
	'Fixes: 12 & <16>'

say "the quotable line says beyond the horizon, not a year"
expect_exit 0 "$GIT_ABBREV" policy --objects=13021585 --commits=1300000 --growth=8% --lengths=16 \
	--horizon-years=20
checks=$((checks + 1))
grep -q '16 chars: commits and all objects stay below 1% beyond 20[0-9][0-9]$' "$out" ||
	{ fail "no 'beyond' quote"; show "$out"; }

say "--title names the charts of report, model and history"
for cmd in report history; do
	expect_exit 0 "$GIT_ABBREV" $cmd --format=svg --title='T & <x>' "$tmp/planted"
	cp "$out" "$tmp/$cmd.title.svg"
done
# both charts by one report_check.py start, one check each
checks=$((checks + 2))
"$PYTHON3" "$tests_dir/report_check.py" svg_title 'T & <x>' "$tmp/report.title.svg" "$tmp/history.title.svg" \
	>"$tmp/py.out" 2>&1 || while IFS= read -r line; do fail "--title: not the chart's title: $line"; done <"$tmp/py.out"
expect_exit 0 "$GIT_ABBREV" model --objects=1000 --format=svg --title='T & <x>'
checks=$((checks + 1))
grep -q '<title>T &amp; &lt;x&gt;</title>' "$out" || fail "model --title"

say "usage errors: exit 2, one line"
for args in "--objects=9 $tmp/planted" "--growth=fast" "--growth=8%/week" "--lengths=16..12" \
	"--lengths=3,12" "--format=classic" "--objects=9 --commits=10" \
	"--objects=9 --growth=5 commits/year"; do
	# shellcheck disable=SC2086
	expect_exit 2 "$GIT_ABBREV" policy $args
	checks=$((checks + 1))
	[ ! -s "$out" ] && [ "$(grep -c '^git-abbrev: ' "$err")" -eq 1 ] ||
		{ fail "policy $args: not one error line"; show "$err"; }
done
say "not a repository: exit 3"
mkdir "$tmp/empty"
expect_exit 3 -C "$tmp/empty" env GIT_CEILING_DIRECTORIES="$tmp" "$GIT_ABBREV" policy

finish
