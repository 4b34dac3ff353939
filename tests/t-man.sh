#!/bin/sh
# t-man.sh - the man page keeps up with the tool: it documents every
# command, every option and option value of each command's option table
# (the table that parses, writes -h and feeds completion), and every key
# of the report's JSON; its examples run (exit 0 or 1, never a usage or runtime
# error); and it renders without warnings where groff is installed.
. "$(dirname "$0")/setup.sh"

man=${GIT_ABBREV%/src/git-abbrev}/docs/git-abbrev.1
[ -f "$man" ] || die "no $man (configure makes it from docs/git-abbrev.1.in)"
# the page as plain words: roff escapes for "-" undone
sed 's/\\-/-/g; s/\\f[BIRP]//g' "$man" >"$tmp/man.txt"

say "every command, option and option value of the option table is documented"
# the table itself answers: the words bash completion gets (--git-completion-helper)
commands=$("$GIT_ABBREV" --git-completion-helper=commands)
checks=$((checks + 1))
[ "$(echo "$commands" | wc -w)" -ge 5 ] || fail "the table lists only: $commands"
# the section of the page on one command's options, and the shared ones
section() { sed -n "/^\.SS $1\$/,/^\.S[SH] /p" "$tmp/man.txt"; }
{ section "Options of every command"; section "Options of the commands that read repositories"; } >"$tmp/shared"
sed -n '/^\.SH SYNOPSIS/,/^\.SH /p' "$tmp/man.txt" >"$tmp/synopsis"
for cmd in $commands; do
	checks=$((checks + 2))
	grep -q "^\.B $cmd\$\|^\.BI \"$cmd " "$man" || fail "command $cmd has no entry"
	grep -q "^git abbrev \[*$cmd" "$tmp/synopsis" || fail "command $cmd is not in the SYNOPSIS"
	section "$cmd" | cat - "$tmp/shared" >"$tmp/doc"
	for opt in $("$GIT_ABBREV" "$cmd" --git-completion-helper); do
		checks=$((checks + 1))
		grep -q -- "^\.B.*${opt%=}\b" "$tmp/doc" ||
			fail "$cmd: option ${opt%=} is not in the man page (.SS $cmd or the shared options)"
		case $opt in *=) ;; *) continue ;; esac
		for v in $("$GIT_ABBREV" "$cmd" --git-completion-helper="${opt%=}"); do
			checks=$((checks + 1))
			grep -q -- "$v" "$tmp/doc" || fail "$cmd: ${opt}$v is not in the man page"
		done
	done
	# -h shows the table's rows: every option of it
	st=0
	"$GIT_ABBREV" "$cmd" -h >"$tmp/usage" 2>&1 || st=$?
	[ "$st" -eq 129 ] || fail "$cmd -h exits $st, not 129"
	for opt in $("$GIT_ABBREV" "$cmd" --git-completion-helper); do
		checks=$((checks + 1))
		grep -q -- " ${opt%=}\b" "$tmp/usage" || fail "$cmd -h lacks ${opt%=}"
	done
done

say "every key of report --format=json is documented"
gen_repo "$tmp/repo" planted
expect_exit 0 "$GIT_ABBREV" report --format=json "$tmp/repo"
"$PYTHON3" "$tests_dir/report_check.py" json_keys "$out" >"$tmp/keys"
while read -r key; do
	checks=$((checks + 1))
	grep -q "\\\\fB$key\\\\fR" "$man" || fail "JSON key $key is not in the man page"
done <"$tmp/keys"

say "the examples run"
sed -n '/^\.SH EXAMPLES/,/^\.SH /p' "$tmp/man.txt" | grep '^git abbrev' >"$tmp/examples"
checks=$((checks + 1))
[ "$(wc -l <"$tmp/examples")" -ge 5 ] || fail "fewer than 5 examples"
while read -r line; do
	# shellcheck disable=SC2086
	set -- ${line#git abbrev}
	checks=$((checks + 1))
	if (cd "$tmp/repo" && exec "$GIT_ABBREV" "$@" --no-progress) >"$tmp/ex.out" 2>"$tmp/ex.err"
	then rc=0; else rc=$?; fi
	[ "$rc" -le 1 ] || fail "example exits $rc: $line: $(head -n 2 "$tmp/ex.err")"
done <"$tmp/examples"

if command -v groff >/dev/null 2>&1; then
	say "it renders without warnings"
	checks=$((checks + 1))
	groff -man -Tutf8 -ww -z "$man" 2>"$tmp/groff" || fail "groff failed"
	[ -s "$tmp/groff" ] && fail "groff warns: $(head -n 3 "$tmp/groff")"
fi
finish
