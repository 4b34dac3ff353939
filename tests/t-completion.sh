#!/bin/sh
# t-completion.sh - the bash completion completes commands, each
# command's options and option values, as `git-abbrev` and `git abbrev`,
# and offers only options the command accepts (each one is tried on the
# real binary: not a usage error).
. "$(dirname "$0")/setup.sh"

command -v bash >/dev/null 2>&1 || skip "bash not found"
comp=$srcdir/contrib/completion/git-abbrev.bash

# complete WORD...: the completions of the last word, one per line
complete_words() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1));
		if [ "$1" = git ]; then _git_abbrev; else _git_abbrev_main; fi
		printf "%s\n" "${COMPREPLY[@]}"' sh "$comp" "$@"
}

expect_completion() { # WANT WORD...: WANT is among the completions
	want=$1
	shift
	checks=$((checks + 1))
	complete_words "$@" >"$tmp/c" 2>"$tmp/e" || fail "completion failed: $* ($(cat "$tmp/e"))"
	grep -qx -- "$want" "$tmp/c" || fail "'$*' does not offer '$want': $(tr '\n' ' ' <"$tmp/c")"
}

expect_completion check git-abbrev ch
expect_completion history git abbrev hi
expect_completion --type= git-abbrev check --ty
expect_completion --format=json git-abbrev --format=j
expect_completion --against=all git abbrev check 12 --against=a
expect_completion --walker=libgit2 git-abbrev report --walker=l
expect_completion --min-length= git-abbrev verify --min

# every option offered for a command is one the command knows
gen_repo "$tmp/repo" small
for cmd in report check model verify history; do
	for opt in $(complete_words git-abbrev "$cmd" -); do
		case $cmd in check) args="12" ;; model) args="" ;; *) args="" ;; esac
		case $opt in
		--help|--progress|--no-progress) continue ;;
		--format=|--type=|--against=|--walker=|--fit=)
			v=$(complete_words git-abbrev "$cmd" "$opt" | head -n 1); opt=$v ;;
		--improbable=|--target-p=) opt=${opt}0.5 ;;
		--objects=|--commits=|--min-length=|--window-years=|--horizon-years=) opt=${opt}12 ;;
		--from=) opt=--from=5 ;;
		--to=) opt=--to=20 ;;
		--range=) opt=--range=HEAD ;;
		-C) opt="-C $tmp/repo" ;;
		esac
		# shellcheck disable=SC2086
		if (cd "$tmp/repo" && exec "$GIT_ABBREV" $cmd $args $opt </dev/null) >/dev/null 2>"$tmp/e"
		then rc=0; else rc=$?; fi
		checks=$((checks + 1))
		[ "$rc" -ne 2 ] || grep -q "needs\|only with\|goes with\|--objects" "$tmp/e" ||
			fail "$cmd rejects offered option $opt: $(cat "$tmp/e")"
	done
done
finish
