#!/bin/sh
# t-json-schema.sh - every JSON document the tool prints carries
# `schema_version` at its top level (docs/json.md), the same one as the
# report's: each command whose -h offers --format=json is run (its forms:
# check's two answers, history with --backtest, policy on counts, cache's
# listing and --clear, verify on a file and a range) on a generated
# repository, and a command that offers JSON and is not run here fails.

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"

r=$tmp/planted
gen_repo "$r" planted
git -C "$r" cat-file --batch-all-objects --batch-check >"$tmp/ids"
git -C "$r" log -1 --format='Fixes: %h ("%s")' --abbrev=12 HEAD >"$tmp/msg"
expect_exit 0 "$GIT_ABBREV" report --format=partial "$r"
cp "$out" "$tmp/part"
mkdir "$tmp/json"

say "the commands that offer --format=json, from the tool's own help"
commands_offering json "$tmp/json-commands"
checks=$((checks + 1))
[ "$(wc -l <"$tmp/json-commands")" -ge 10 ] || { fail "fewer than 10 commands offer JSON"; show "$tmp/json-commands"; }

doc() { # NAME STATUS ARGS...: git abbrev ARGS into $tmp/json/NAME.json
	d_name=$1
	d_want=$2
	shift 2
	expect_exit "$d_want" "$GIT_ABBREV" "$@"
	cp "$out" "$tmp/json/$d_name.json"
	echo "$d_name" >>"$tmp/run"
}
: >"$tmp/run"
doc report 0 report --format=json "$r"
doc check-collide 1 check --format=json 4 "$r"
doc check-unique 0 check --format=json 16 "$r"
doc model 0 model --format=json --objects=1000
doc history 0 history --format=json "$r"
doc history-backtest 0 history --backtest --format=json "$r"
doc policy 0 policy --format=json "$r"
doc policy-counts 0 policy --format=json --objects=13021585
doc verify-file 0 -C "$r" verify --format=json "$tmp/msg"
doc verify-range 0 -C "$r" verify --format=json --range=HEAD~2..HEAD
doc cache 0 -C "$r" cache --format=json
doc cache-clear 0 -C "$r" cache --clear --format=json
doc audit 0 -C "$r" audit --format=json
doc watch 0 -C "$r" watch --format=json
doc ids 0 ids --format=json "$tmp/ids"
doc merge 0 merge --format=json "$tmp/part"

say "each document: one JSON object with the report's schema_version as its first key"
py_check "schema_version" report_check.py schema_versions "$tmp/json" "$tmp/run" "$tmp/json-commands"
finish
