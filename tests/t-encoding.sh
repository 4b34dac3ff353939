#!/bin/sh
# t-encoding.sh - strings that are not UTF-8 in JSON and SVG.
#
# A repository path with the bytes \377\376 and commit subjects in Latin-1
# (gen_repo.py --scenario quoting plants two pairs of commits sharing 6
# hex chars, one pair with a Latin-1 subject).  Every JSON string and the
# SVG text follow one rule: valid UTF-8 is kept, any other byte is the
# Latin-1 character of its value.  Nothing may be dropped: not a
# repository from "repositories", not a "description" from the groups.
# The checks are tests/encoding_check.py's.
. "$(dirname "$0")/setup.sh"

B=$(printf '%s/bad-\377\376-dir' "$tmp")
mkdir "$B"
gen_repo "$B/q" quoting
gen_repo "$tmp/small" small

# json_check LABEL FILE CHECK: tests/encoding_check.py's CHECK of FILE
# (JSON of $B/q) asserts what LABEL says
json_check() {
	checks=$((checks + 1))
	"$PYTHON3" "$tests_dir/encoding_check.py" "$3" "$2" "$B/q" || fail "$1"
}

say "report --format=json: the path and the Latin-1 subjects"
expect_exit 0 "$GIT_ABBREV" report --format=json "$B/q" "$tmp/small"
json_check "report: both repositories, the odd one decoded" "$out" report-repositories
json_check "report: the Latin-1 subject is the description of its commits" "$out" report-subjects

say "check --format=json: the same subjects in its groups"
expect_exit 1 "$GIT_ABBREV" check 6 --format=json "$B/q"
json_check "check: repositories and descriptions" "$out" check

say "history --format=json: the path"
expect_exit 0 "$GIT_ABBREV" history --format=json --no-projection "$B/q"
json_check "history: repositories" "$out" history

say "svg: the repository's name as Latin-1 characters, not U+FFFD"
# the chart names the repository (the path's last part), so the bytes go there
gen_repo "$(printf '%s/bad-\377\376-repo' "$B")" small
expect_exit 0 "$GIT_ABBREV" report --format=svg "$(printf '%s/bad-\377\376-repo' "$B")"
checks=$((checks + 1))
"$PYTHON3" "$tests_dir/encoding_check.py" svg "$out" ||
	fail "svg: the name's bytes are not the Latin-1 characters"

finish
