#!/bin/sh
# t-completion.sh - bash completion as a person meets it: a real
# interactive bash in a tmux terminal, git's own completion loaded the way
# bash-completion loads it (git-abbrev's script found lazily, as when
# installed), keys typed with send-keys and the screen read back with
# capture-pane.  `--format=<TAB><TAB>` must list formats, not files (bash
# splits the word at '='), `git abbrev <TAB><TAB>` the commands only, and
# `-C <TAB>` directories only (then the commands, as without -C); a value
# given as the next word (`--format json`, `--repo <path>`) is completed as
# after '=' and never taken for the command.
. "$(dirname "$0")/setup.sh"

command -v tmux >/dev/null 2>&1 || skip "tmux not found (build.sh installs it)"
command -v bash >/dev/null 2>&1 || skip "bash not found"
gitcomp=/usr/share/bash-completion/completions/git
[ -r "$gitcomp" ] || skip "git's bash completion not found ($gitcomp)"
comp=$srcdir/contrib/completion/git-abbrev.bash

# `git abbrev` finds git-abbrev on PATH, as an installed one is found
mkdir -p "$tmp/bin" "$tmp/bc/completions" "$tmp/work"
ln -s "$GIT_ABBREV" "$tmp/bin/git-abbrev"
cp "$comp" "$tmp/bc/completions/git-abbrev"
# files that must not be offered where options, values or commands go
: >"$tmp/work/json-notes.txt"
: >"$tmp/work/check-list.txt"
mkdir "$tmp/work/upstream-repo" "$tmp/work/other-repo"
# a file beside the directories: -C <path> must not offer it
: >"$tmp/work/up-notes.txt"

cat >"$tmp/bashrc" <<EOF
PS1='abbrev> '
unset HISTFILE
export PATH=$tmp/bin:\$PATH
bind 'set bell-style none'
if [ -r /usr/share/bash-completion/bash_completion ]; then
	# as installed: bash-completion loads git's completion on first use,
	# and git's loads completions/git-abbrev from here
	BASH_COMPLETION_USER_DIR=$tmp/bc
	. /usr/share/bash-completion/bash_completion
else
	. $gitcomp
	. $tmp/bc/completions/git-abbrev
fi
cd $tmp/work
EOF

. "$tests_dir/tmux.sh"
shell "$tmp/bashrc"

# complete LINE WANT: LINE and one Tab make the prompt line WANT
complete_line() {
	checks=$((checks + 1))
	type_keys "$1" Tab
	if ! wait_for "^abbrev> $2\$"; then
		fail "'$1<TAB>' does not become '$2'"
		sed 's/^/    | /' "$tmp/screen"
	fi
}

say "values after '=' (bash splits the word there)"
complete_list "git abbrev --format=" text json csv markdown svg classic
complete_line "git abbrev --format=j" "git abbrev --format=json "
complete_list "git abbrev check --type=" commit tree blob tag all
complete_line "git abbrev check 12 --against=a" "git abbrev check 12 --against=all "
complete_line "git abbrev history --fit=l" "git abbrev history --fit=linear "
# verify prints text or json only: its own table answers
complete_list "git abbrev verify --format=" text json
checks=$((checks + 1))
grep -qw csv "$tmp/screen" && fail "verify --format= offers csv"
# audit's formats are its own, map too
complete_list "git abbrev audit --format=" text json csv markdown svg map
complete_list "git abbrev watch --format=" text json

say "options from each command's table"
complete_line "git abbrev --form" "git abbrev --format="
complete_line "git abbrev check --ag" "git abbrev check --against="
complete_line "git abbrev model --obj" "git abbrev model --objects="
complete_line "git abbrev verify --min" "git abbrev verify --min-length="
complete_list "git abbrev history --" --window-years= --no-projection --progress

say "the commands, without the files, as 'git <TAB>' offers git's"
complete_list "git abbrev " report check model verify history
cp "$tmp/screen" "$tmp/screen.commands"
complete_line "git abbrev hi" "git abbrev history "
# a word no command starts is a repository path: files then
complete_line "git abbrev json-n" "git abbrev json-notes.txt"
# verify --repo=<path>: a directory
complete_line "git abbrev verify --repo=upstream-r" "git abbrev verify --repo=upstream-repo/"

say "-C <path>: directories only, then the commands"
complete_list "git abbrev -C " upstream-repo/ other-repo/
complete_line "git abbrev -C up" "git abbrev -C upstream-repo/"
complete_line "git abbrev check -C up" "git abbrev check -C upstream-repo/"
# no directory matches: nothing, not the file (the Z typed after the Tab
# lands right after what the Tab left)
checks=$((checks + 1))
type_keys "git abbrev -C up-n" Tab Z
wait_for '^abbrev> git abbrev -C up-nZ$' ||
	{ fail "'git abbrev -C up-n<TAB>' completes a file"; sed 's/^/    | /' "$tmp/screen"; }
complete_list "git abbrev -C upstream-repo " report check model verify history
complete_line "git abbrev -C upstream-repo -C . hi" "git abbrev -C upstream-repo -C . history "
complete_line "git abbrev -Cupstream-repo ch" "git abbrev -Cupstream-repo check "
complete_line "git-abbrev -C other-repo mo" "git-abbrev -C other-repo model "

say "a value given as the next word: --format json, --repo <path>"
complete_list "git abbrev --format " text json csv markdown svg classic
checks=$((checks + 1))
grep -qw history "$tmp/screen" && fail "'--format <TAB>' offers the commands"
complete_line "git abbrev --form j" "git abbrev --form json "
complete_list "git abbrev check 12 --type " commit tree blob tag all
complete_line "git abbrev -C . check --format json --type b" \
	"git abbrev -C . check --format json --type blob "
complete_line "git abbrev verify --repo up" "git abbrev verify --repo upstream-repo/"
complete_list "git abbrev verify --repo " upstream-repo/ other-repo/
# the value is no command: after `--title model` the options are report's
checks=$((checks + 1))
type_keys "git abbrev --title model --ob" Tab Z
wait_for '^abbrev> git abbrev --title model --obZ$' ||
	{ fail "'--title model' taken as the command model"; sed 's/^/    | /' "$tmp/screen"; }
complete_line "git abbrev --format json --walker l" "git abbrev --format json --walker libgit2 "
# free text (--title): neither files nor anything else
checks=$((checks + 1))
type_keys "git abbrev --title json-n" Tab Z
wait_for '^abbrev> git abbrev --title json-nZ$' ||
	{ fail "'--title <TAB>' completes a file"; sed 's/^/    | /' "$tmp/screen"; }

say "the same as git-abbrev"
complete_line "git-abbrev ch" "git-abbrev check "
complete_line "git-abbrev check --type=b" "git-abbrev check --type=blob "
complete_list "git-abbrev --format=" json markdown classic

say "help <command>, as git help <command>"
complete_line "git abbrev he" "git abbrev help "
complete_list "git abbrev help " report check model verify history policy --usage
complete_line "git abbrev help po" "git abbrev help policy "
complete_line "git abbrev help --usage ch" "git abbrev help --usage check "

say "--refs: the repository's ref names"
git init -q "$tmp/work/refrepo"
git -C "$tmp/work/refrepo" commit -q --allow-empty -m one
git -C "$tmp/work/refrepo" branch topic-xyz
git -C "$tmp/work/refrepo" tag v9.8
tm send-keys C-u "cd refrepo" Enter
complete_line "git abbrev --reachable --refs=topic-x" "git abbrev --reachable --refs=topic-xyz "
complete_line "git abbrev --reachable --refs v9" "git abbrev --reachable --refs v9.8 "
complete_line "git abbrev check 12 --reachable --refs=topic-x" \
	"git abbrev check 12 --reachable --refs=topic-xyz "
# audit's range, as git log completes one
complete_line "git abbrev audit topic-x" "git abbrev audit topic-xyz "
complete_line "git abbrev audit v9.8..topic-x" "git abbrev audit v9.8..topic-xyz "
tm send-keys C-u "cd .." Enter

# two screens for whoever reads the log
say "the screen after 'git abbrev --format=<TAB><TAB>':"
sed -n '1,4p' "$tmp/screen.1" 2>/dev/null | sed 's/^/    | /'
say "the screen after 'git abbrev <TAB><TAB>':"
sed -n '1,4p' "$tmp/screen.commands" 2>/dev/null | sed 's/^/    | /'
finish
