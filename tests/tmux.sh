# tmux.sh - a real interactive bash in a tmux terminal, for the tests that
# type into one (sourced after setup.sh): tm runs tmux on the test's own
# socket; shell RCFILE starts a fresh bash reading RCFILE (no history kept:
# RCFILE unsets HISTFILE and sets PS1='abbrev> ') and waits for its prompt;
# wait_for PATTERN waits until a screen line matches; cleanup_tmux (also
# on exit) stops the server and waits until the shell is gone, so that the
# test's directory is not removed while the shell still writes into it;
# type_keys and complete_list type a line and check what Tab completes.

sock=$tmp/tmux.sock
tm() { tmux -S "$sock" "$@"; }
# the shell's pid, so that cleanup waits until it is gone: a shell still
# exiting while the directory is removed makes rm fail ("not empty")
shell_pid=
cleanup_tmux() {
	tm kill-server 2>/dev/null || :
	n=0
	while [ -n "$shell_pid" ] && kill -0 "$shell_pid" 2>/dev/null && [ $n -lt 50 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	shell_pid=
}
trap 'st=$?; cleanup_tmux; rm -rf "$tmp"; exit $st' EXIT

# wait until the screen has a line matching the pattern, or with a
# count, that many lines (30 s at most: every caller expects the line, so
# the bound costs time only on a failure, and 10 s was once too short for
# a completion that runs git on a machine loaded by parallel builds)
wait_for() { # PATTERN [COUNT]
	n=0
	while [ $n -lt 300 ]; do
		tm capture-pane -p -N >"$tmp/screen" 2>/dev/null || :
		[ "$(grep -c -- "$1" "$tmp/screen")" -ge "${2:-1}" ] && return 0
		sleep 0.1
		n=$((n + 1))
	done
	return 1
}

# shell RCFILE: a fresh interactive bash reading RCFILE, at its prompt
shell() {
	cleanup_tmux
	tm -f /dev/null new-session -d -x 100 -y 30 \
		"env -i HOME=$tmp TERM=xterm LC_ALL=C.UTF-8 bash --noprofile --rcfile $1 -i" ||
		skip "tmux cannot start a session"
	shell_pid=$(tm display-message -p '#{pane_pid}' 2>/dev/null) || shell_pid=
	wait_for '^abbrev> $' || { cat "$tmp/screen"; die "no prompt from the interactive bash"; }
}

# type_keys KEY...: a clear prompt line, then the keys
type_keys() {
	tm send-keys C-u C-l
	wait_for '^abbrev> $' || :
	tm send-keys "$@"
}

# complete_list LINE WORD...: LINE and two Tabs list every WORD, and no file
# (the failure names $label when set); the screen is kept as screen.<check>
complete_list() {
	line=$1
	shift
	checks=$((checks + 1))
	type_keys "$line" Tab Tab
	# the list is shown, then the prompt again with the line: the list
	# is whole once the line is on the screen twice, above and below it
	wait_for "^abbrev> $line\$" 2 || :
	for w in "$@"; do
		grep -qw -- "$w" "$tmp/screen" && continue
		fail "${label:+$label: }'$line<TAB><TAB>' does not list $w"
		sed 's/^/    | /' "$tmp/screen"
		return 0
	done
	if grep -q -- "-notes.txt\|-list.txt" "$tmp/screen"; then
		fail "${label:+$label: }'$line<TAB><TAB>' lists files"
		sed 's/^/    | /' "$tmp/screen"
	fi
	cp "$tmp/screen" "$tmp/screen.$checks"
}
