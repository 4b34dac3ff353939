# bash completion for git-abbrev, as `git abbrev` and as `git-abbrev`.
#
# Written as git's own commands are completed, with git's helpers
# (__gitcomp, __gitcomp_builtin, $cur, the _git_<command> convention), so
# `--format=<TAB>` works although bash splits the word at '='.  The words
# come from git-abbrev's option table: `git abbrev <command>
# --git-completion-helper` lists a command's options (what __gitcomp_builtin
# asks every git command), `--git-completion-helper=<option>` an option's
# values and `--git-completion-helper=commands` the commands.
#
# Installed as bash-completion/completions/git-abbrev: git's completion
# loads it the first time `git abbrev` is completed, bash-completion the
# first time `git-abbrev` is.  Without bash-completion, source git's
# completion and then this file from ~/.bashrc.

if ! declare -F __gitcomp >/dev/null 2>&1; then
	# completing `git-abbrev` first: git's completion is not loaded yet
	if declare -F __load_completion >/dev/null 2>&1; then
		__load_completion git
	elif [ -r /usr/share/bash-completion/completions/git ]; then
		. /usr/share/bash-completion/completions/git
	fi
fi

# The option of the table of `git abbrev $1` that the word $2 names (the
# whole name or a unique prefix, as git-abbrev takes it) when it takes a
# value, else nothing: "--format" for "--form".
__git_abbrev_valued ()
{
	local o found= n=0

	for o in $(__git abbrev "$1" --git-completion-helper); do
		case "$o" in
		"$2=") found=${o%=}; n=1; break ;;
		"$2"*=) found=${o%=}; n=$((n + 1)) ;;
		esac
	done
	[ $n -eq 1 ] && echo "$found"
}

# `git abbrev ...`: git's completion calls this with words, cword, cur and
# prev set and __git_cmd_idx at "abbrev" (at "git-abbrev" for git-abbrev).
_git_abbrev ()
{
	local commands command= word= opt= valued= c=$((__git_cmd_idx + 1))

	commands="$(__git abbrev --git-completion-helper=commands)"
	# the first word that is neither an option nor an option's value is
	# the command, or a repository path (the default command's, which an
	# option before it chooses: `git abbrev --format json <repo>`)
	while [ $c -lt $cword ]; do
		case "${words[c]}" in
		-C) c=$((c + 1)) ;;
		-C*|--*=*) ;;
		--*)
			opt=1
			# `--format json`: the value is the next word
			[ -n "$(__git_abbrev_valued report "${words[c]}")" ] && c=$((c + 1))
			;;
		-*) opt=1 ;;
		*) word="${words[c]}"; break ;;
		esac
		c=$((c + 1))
	done
	if [ -n "$word" ] && [ -z "$opt" ]; then
		case " $commands " in *" $word "*) command=$word ;; esac
	fi
	# the value of the option before: `--format <TAB>`, `--repo <TAB>`, `-C <TAB>`
	case "$prev" in
	-C) valued=-C ;;
	--*=*) ;;
	--*) valued=$(__git_abbrev_valued "${command:-report}" "$prev") ;;
	esac
	if [ "$valued" = --refs ]; then
		# ref names, as git completes them
		compopt +o default +o bashdefault 2>/dev/null
		__git_complete_refs --cur="$cur"
		return
	fi
	if [ -n "$valued" ]; then
		compopt +o default +o bashdefault 2>/dev/null
		case " $(__git abbrev "${command:-report}" --git-completion-helper=paths) " in
		*" $valued "*)
			# a directory, as `cd` completes: never a file, not even
			# through the default completion when no directory matches
			__gitcomp_file_direct "$(compgen -d -- "$cur")"
			;;
		*)
			# the values the table lists; none for free text (--title)
			__gitcomp "$(__git abbrev "${command:-report}" \
				--git-completion-helper="$valued")"
			;;
		esac
		return
	fi
	case "$cur" in
	--refs=*)
		__git_complete_refs --cur="${cur#--refs=}"
		return
		;;
	--*=*)
		__gitcomp "$(__git abbrev ${command:-report} --git-completion-helper="${cur%%=*}")" \
			"" "${cur#*=}"
		return
		;;
	-*)
		__gitcomp_builtin "abbrev${command:+_$command}"
		return
		;;
	esac
	case "$command" in
	audit|watch)
		# a revision range, as `git log <TAB>` completes one
		__git_complete_revlist
		return
		;;
	esac
	if [ "$word" = help ] && [ -z "$opt" ]; then
		# `git abbrev help <command>`, as `git help <command>`
		__gitcomp "--usage $commands"
		return
	fi
	if [ -z "$word" ] && [ -z "$opt" ]; then
		# the commands, as `git <TAB>` offers them, and help; a word none
		# of them starts is a repository path, left to readline's file
		# completion
		__gitcomp "$commands help"
	fi
}

if declare -F __git_complete >/dev/null 2>&1; then
	__git_complete git-abbrev _git_abbrev
fi
