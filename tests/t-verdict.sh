#!/bin/sh
# t-verdict.sh - the verdict at the end of the report and of check: for
# git's own length, 12 and 16, per set, what collides now, P now and in
# ten years, the year P passes 1%, the level of concern, and the
# core.abbrev to suggest.
#
# On generated repositories (planted collisions without a growth; a
# history of six years with one; 17,000 objects, where git moves to 8
# chars), the JSON of the report and of check is checked against policy's
# JSON at the same lengths, against git's objects and `git rev-parse
# --short HEAD`, and against the definitions of the words
# (tests/verdict_check.py); the text and Markdown carry the same table
# within 80 columns, and the report's P(>=) column has no bare 1 for a
# measured 0.

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"

check() { # LABEL VERDICT.json POLICY.json REPO
	checks=$((checks + 1))
	if "$PYTHON3" "$tests_dir/verdict_check.py" "$2" "$3" "$4" >"$tmp/check.out" 2>&1; then
		:
	else
		fail "$1"
		show "$tmp/check.out"
	fi
}

say "generating repositories: planted collisions, years of history, 17,000 objects"
gen_repo "$tmp/planted" planted
gen_repo "$tmp/history" history
gen_repo "$tmp/many" many

for r in planted history many; do
	say "$r: the report's verdict against policy, git and its definitions"
	expect_exit 0 "$GIT_ABBREV" report --format=json "$tmp/$r"
	cp "$out" "$tmp/$r.report.json"
	lens=$(jget "$tmp/$r.report.json" '",".join(d["verdict"]["lengths"])')
	expect_exit 0 "$GIT_ABBREV" policy --format=json --lengths="$lens" "$tmp/$r"
	cp "$out" "$tmp/$r.policy.json"
	check "$r: report --format=json's verdict" "$tmp/$r.report.json" "$tmp/$r.policy.json" "$tmp/$r"

	say "$r: check's verdict is the report's"
	expect_exit 0 "$GIT_ABBREV" check --format=json 12 "$tmp/$r"
	cp "$out" "$tmp/$r.check.json"
	check "$r: check --format=json's verdict" "$tmp/$r.check.json" "$tmp/$r.policy.json" "$tmp/$r"

	say "$r: text and Markdown within 80 columns, with the verdict"
	for f in text markdown; do
		expect_exit 0 "$GIT_ABBREV" report --format=$f "$tmp/$r"
		cp "$out" "$tmp/$r.$f"
		checks=$((checks + 1))
		awk 'length > 80 { print FILENAME ": " length ": " $0; bad = 1 } END { exit bad }' \
			"$tmp/$r.$f" >"$tmp/wide" || { fail "$r: $f report wider than 80 columns"; show "$tmp/wide"; }
		checks=$((checks + 1))
		grep -q "git config core.abbrev" "$tmp/$r.$f" || fail "$r: $f report has no suggestion"
		# the suggestion's horizon is the JSON's over_years, never "until <year>" (which
		# reads as the year 1% is passed, the table's "1% in" column)
		checks=$((checks + 1))
		years=$(jget "$tmp/$r.report.json" 'd["verdict"]["suggest"]["over_years"]')
		sentence=$(sed -n '/^[Ss]uggested:/,/abbrev.minLength/p' "$tmp/$r.$f" | tr -s ' \n' '  ')
		case $years:$sentence in
		0*:*"no growth to look ten years ahead"*) ;;
		10*:*"stay below 1% for the next 10 years, through "*) ;;
		*) fail "$r: $f suggestion's horizon ($years years)"; echo "$sentence" ;;
		esac
		case $sentence in *" until "*) fail "$r: $f suggestion says until" ;; esac
	done
	expect_exit 0 "$GIT_ABBREV" check 12 "$tmp/$r"
	cp "$out" "$tmp/$r.check.text"
	checks=$((checks + 1))
	awk 'length > 80 { bad = 1 } END { exit bad }' "$tmp/$r.check.text" ||
		fail "$r: check's text wider than 80 columns"
	# the verdict's rows: the same lengths and concern in the text as in the JSON
	"$PYTHON3" "$tests_dir/verdict_formats.py" rows "$tmp/$r.report.json" "$tmp/$r.text" \
		"$tmp/$r.check.text" >"$tmp/rows.out" 2>&1 ||
		{ fail "$r: the text's verdict rows are not the JSON's"; show "$tmp/rows.out"; }
	checks=$((checks + 3))
done

say "P(>=) never prints a bare 1 for a measured 0"
checks=$((checks + 1))
if sed -n '/measured \/ expected/,/^(P/p' "$tmp/planted.text" |
	grep -E '^ *[0-9]+ .* 0 / [^ ]+ +1( |$)' >"$tmp/ones"; then
	fail "a P(>=) of 1 for a measured 0"
	show "$tmp/ones"
fi
checks=$((checks + 1))
sed -n '/measured \/ expected/,/^(P/p' "$tmp/planted.text" | grep -qE ' 0 / [^ ]+ +- ' ||
	fail "no - for a measured 0 in P(>=)"

say "--lengths adds lengths to the verdict of the report and of check"
expect_exit 0 "$GIT_ABBREV" report --format=json --lengths=5,9,10 "$tmp/history"
cp "$out" "$tmp/lengths.report.json"
expect_exit 0 "$GIT_ABBREV" check --format=json --lengths=9,5,10 12 "$tmp/history"
cp "$out" "$tmp/lengths.check.json"
# git's own length for this many objects, from git itself: the length of
# rev-parse --short (auto) of the history's tip
auto=$(git -C "$tmp/history" rev-parse --short HEAD | awk '{ print length }')
lens=$(printf '%s\n' 5 9 10 12 16 "$auto" | sort -n | uniq | paste -sd, -)
expect_exit 0 "$GIT_ABBREV" policy --format=json --lengths="$lens" "$tmp/history"
cp "$out" "$tmp/lengths.policy.json"
for k in report check; do
	checks=$((checks + 1))
	got=$(jget "$tmp/lengths.$k.json" '",".join(d["verdict"]["lengths"])')
	[ "$got" = "$lens" ] || fail "$k --lengths: the verdict's lengths are $got, not $lens"
	check "$k --lengths: the verdict against policy" "$tmp/lengths.$k.json" "$tmp/lengths.policy.json" "$tmp/history"
done
expect_exit 0 "$GIT_ABBREV" report --lengths=9 "$tmp/history"
checks=$((checks + 1))
grep -qE '^ +9  commits ' "$out" || { fail "report --lengths=9: no row for 9 in the text"; show "$out"; }
for bad in 41 4..40 x 3; do
	expect_exit 2 "$GIT_ABBREV" report --lengths=$bad "$tmp/history"
	checks=$((checks + 2))
	head -n 1 "$err" | grep -q "^git-abbrev: '--lengths'" ||
		{ fail "report --lengths=$bad: the error does not name --lengths"; show "$err"; }
	[ ! -s "$out" ] || fail "report --lengths=$bad: something on stdout"
done

say "check --format=csv: the verdict's rows, as its JSON has them"
for r in planted history; do
	expect_exit 0 "$GIT_ABBREV" check --format=json --lengths=10 12 "$tmp/$r"
	cp "$out" "$tmp/$r.csvcheck.json"
	expect_exit 0 "$GIT_ABBREV" check --format=csv --lengths=10 12 "$tmp/$r"
	checks=$((checks + 1))
	"$PYTHON3" "$tests_dir/verdict_formats.py" check-csv "$out" "$tmp/$r.csvcheck.json" >"$tmp/csv.out" 2>&1 ||
		{ fail "$r: check's CSV is not its verdict"; show "$tmp/csv.out"; }
done

say "report --format=csv: the verdict's columns on the rows of its lengths, as its JSON has them"
for r in planted history; do
	expect_exit 0 "$GIT_ABBREV" report --format=json --lengths=10 "$tmp/$r"
	cp "$out" "$tmp/$r.csvreport.json"
	expect_exit 0 "$GIT_ABBREV" report --format=csv --lengths=10 "$tmp/$r"
	checks=$((checks + 1))
	"$PYTHON3" "$tests_dir/verdict_formats.py" report-csv "$out" "$tmp/$r.csvreport.json" >"$tmp/csv.out" 2>&1 ||
		{ fail "$r: the report's CSV lacks its verdict"; show "$tmp/csv.out"; }
done

say "check --quiet prints nothing, and the exit status is still the answer"
expect_exit 1 "$GIT_ABBREV" check --quiet 8 "$tmp/planted"
checks=$((checks + 1))
[ ! -s "$out" ] || fail "check --quiet printed something"
expect_exit 1 "$GIT_ABBREV" check 8 "$tmp/planted"
checks=$((checks + 1))
grep -q "^verdict:" "$out" || fail "check 8 (collisions found) has no verdict"

finish
