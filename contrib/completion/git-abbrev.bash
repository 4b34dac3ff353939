# bash completion for git-abbrev, as `git-abbrev` and as `git abbrev`.
#
# Installed as bash-completion/completions/git-abbrev: bash-completion
# loads it for `git-abbrev`; git's own completion calls _git_abbrev for
# `git abbrev` once it is loaded (source it from ~/.bashrc to have that
# without typing git-abbrev first).

__git_abbrev_commands="report check model verify history"

__git_abbrev_repo_opts="--format= --reachable --improbable= --walker= --progress --no-progress --help"

# Options and fixed values of one command.
__git_abbrev_opts()
{
	case "$1" in
	report) echo "$__git_abbrev_repo_opts --type=" ;;
	check) echo "$__git_abbrev_repo_opts --type= --against= --quiet" ;;
	model) echo "--objects= --commits= --format= --from= --to= --reachable --walker= --help" ;;
	verify) echo "-C --min-length= --range= --format= --fix --reachable --walker= --progress --no-progress --help" ;;
	history) echo "--format= --window-years= --fit= --target-p= --horizon-years= --no-projection --reachable --walker= --progress --no-progress --help" ;;
	esac
}

__git_abbrev_values()
{
	case "$1" in
	--format=) echo "text json csv markdown svg classic" ;;
	--type=) echo "commit tree blob tag all" ;;
	--against=) echo "same all" ;;
	--walker=) echo "pack libgit2" ;;
	--fit=) echo "auto exponential linear" ;;
	esac
}

# Complete words[first..cword] of a git-abbrev command line.
__git_abbrev_complete()
{
	local first=$1 cur=${COMP_WORDS[COMP_CWORD]} cmd=report i

	for ((i = first; i < COMP_CWORD; i++)); do
		case " $__git_abbrev_commands " in
		*" ${COMP_WORDS[i]} "*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	case "$cur" in
	--*=*)
		local opt=${cur%%=*}= val=${cur#*=}
		COMPREPLY=($(compgen -P "$opt" -W "$(__git_abbrev_values "$opt")" -- "$val"))
		return
		;;
	-*)
		COMPREPLY=($(compgen -W "$(__git_abbrev_opts "$cmd")" -- "$cur"))
		[[ ${COMPREPLY[0]-} == *= ]] && compopt -o nospace 2>/dev/null
		return
		;;
	esac
	if ((i == COMP_CWORD)) && [[ $cmd == report ]]; then
		COMPREPLY=($(compgen -W "$__git_abbrev_commands" -- "$cur"))
	fi
	# repositories and files
	COMPREPLY+=($(compgen -f -- "$cur"))
}

# `git-abbrev ...`
_git_abbrev_main()
{
	__git_abbrev_complete 1
}

# `git abbrev ...`, called by git's completion with `abbrev` at words[1]
_git_abbrev()
{
	__git_abbrev_complete 2
}

complete -o bashdefault -o default -F _git_abbrev_main git-abbrev
