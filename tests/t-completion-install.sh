#!/bin/sh
# t-completion-install.sh - the bash completion where `make install` puts
# it, found from there by bash-completion: `make install prefix=<tmp>`
# puts it in bash-completion's completionsdir (pkg-config), taken under
# that prefix (else <prefix>/share/bash-completion/completions); a real
# interactive bash in tmux with bash-completion loaded and <tmp>/share in
# XDG_DATA_DIRS then completes `git abbrev <TAB><TAB>` to the commands and
# `--format=<TAB><TAB>` to the formats; one loading it by hand as the man
# page says (git's completion, then the file) does the same.  configure's
# --with-bash-completion-dir=DIR installs it in DIR instead (configured in
# a copy of the sources from `make distdir`).
. "$(dirname "$0")/setup.sh"

command -v tmux >/dev/null 2>&1 || skip "tmux not found (build.sh installs it)"
command -v bash >/dev/null 2>&1 || skip "bash not found"
bc=/usr/share/bash-completion/bash_completion
gitcomp=/usr/share/bash-completion/completions/git
[ -r "$bc" ] && [ -r "$gitcomp" ] || skip "bash-completion or git's completion not found"
builddir=$(cd "$(dirname "$GIT_ABBREV")/.." && pwd)
[ -f "$builddir/Makefile" ] || skip "no build tree at $builddir"
MAKE=${MAKE:-make}
# a make of its own, not a job of the make that runs the tests
unset MAKEFLAGS MFLAGS MAKELEVEL || :

say "make install prefix=<tmp>: the completion under that prefix"
inst=$tmp/inst
(cd "$builddir" && $MAKE install prefix="$inst") >"$tmp/install.log" 2>&1 ||
	{ tail -20 "$tmp/install.log"; die "make install prefix=$inst failed"; }
want=$inst/share/bash-completion/completions
if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists bash-completion; then
	d=$(pkg-config --variable=completionsdir bash-completion)
	p=$(pkg-config --variable=prefix bash-completion)
	case $d in "$p"/*) want=$inst${d#"$p"} ;; esac
fi
checks=$((checks + 1))
cmp -s "$want/git-abbrev" "$srcdir/contrib/completion/git-abbrev.bash" ||
	fail "no completion at $want/git-abbrev: $(find "$inst" -name 'git-abbrev*' | tr '\n' ' ')"
checks=$((checks + 1))
[ -x "$inst/bin/git-abbrev" ] || fail "no $inst/bin/git-abbrev"
mkdir "$tmp/work"
: >"$tmp/work/json-notes.txt"

. "$tests_dir/tmux.sh"

# nothing of the source tree: the installed program and completion only
cat >"$tmp/rc.bc" <<EOF2
PS1='abbrev> '
unset HISTFILE
export PATH=$inst/bin:/usr/bin:/bin
export XDG_DATA_DIRS=$inst/share:/usr/share
bind 'set bell-style none'
. $bc
cd $tmp/work
EOF2
label="bash-completion, XDG_DATA_DIRS=<prefix>/share"
say "$label"
shell "$tmp/rc.bc"
complete_list "git abbrev " report check model verify history policy
complete_list "git abbrev --format=" text json csv markdown svg
complete_list "git-abbrev " report check model verify history policy

# by hand, as the man page says: git's completion, then the file
checks=$((checks + 1))
grep -q 'share/bash\\-completion/completions/git\\-abbrev' "$srcdir/docs/git-abbrev.1.in" ||
	fail "the man page does not say how to load the completion by hand"
cat >"$tmp/rc.hand" <<EOF2
PS1='abbrev> '
unset HISTFILE
export PATH=$inst/bin:/usr/bin:/bin
bind 'set bell-style none'
. $gitcomp
. $want/git-abbrev
cd $tmp/work
EOF2
label="loaded by hand"
say "$label"
shell "$tmp/rc.hand"
complete_list "git abbrev " report check model verify history policy
complete_list "git abbrev check --type=" commit tree blob tag all
cleanup_tmux

say "configure --with-bash-completion-dir=DIR: the completion in DIR"
(cd "$builddir" && $MAKE distdir distdir="$tmp/src") >"$tmp/distdir.log" 2>&1 ||
	{ tail -20 "$tmp/distdir.log"; die "make distdir failed"; }
mkdir "$tmp/b"
# configure's answers of this build tree (its config.log's cache
# variables, those of the environment aside) spare it probing the
# compiler and the libraries again; its option and AC_OUTPUT run as ever.
# No dependency tracking: nothing is compiled there.
sed -n '/^## Cache variables. ##$/,/^## Output variables. ##$/p' "$builddir/config.log" 2>/dev/null |
	grep '^[a-z][A-Za-z0-9_]*=' | grep -v '^ac_cv_env_' >"$tmp/config.cache" || :
(cd "$tmp/b" && "$tmp/src/configure" -q --cache-file="$tmp/config.cache" \
	--disable-dependency-tracking --with-bash-completion-dir="$tmp/own/bc" &&
	$MAKE install-data-local DESTDIR="$tmp/dest") >"$tmp/own.log" 2>&1 ||
	{ tail -20 "$tmp/own.log"; fail "configure --with-bash-completion-dir failed"; }
checks=$((checks + 1))
[ -f "$tmp/dest$tmp/own/bc/git-abbrev" ] ||
	fail "--with-bash-completion-dir: not installed in DIR: $(find "$tmp/dest" -type f | tr '\n' ' ')"
finish
