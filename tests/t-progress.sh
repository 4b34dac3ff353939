#!/bin/sh
# t-progress.sh - progress on a terminal (a pty from script(1)) as git
# shows it: a quick run prints no meter at all (git's 2 s delay); with
# the meter on from the start (GIT_PROGRESS_DELAY=0, git's own variable)
# every phase that counted something ends in ", done." and a phase that
# counted nothing (no loose objects) leaves no line; nothing at all when
# stderr is not a terminal.
. "$(dirname "$0")/setup.sh"

command -v script >/dev/null 2>&1 || skip "script(1) not found"
# a container or chroot without /dev/pts has no terminal to give
script -qec true /dev/null </dev/null >/dev/null 2>&1 || skip "script(1) cannot make a pseudo-terminal"
gen_repo "$tmp/repo" small
unset GIT_PROGRESS_DELAY || :

# on_tty FILE CMD...: run CMD with stderr on a pty, its stdout into $tmp/stdout;
# what the terminal got into FILE
on_tty() {
	f=$1
	shift
	checks=$((checks + 1))
	printf '%s\n' "$*" >"$tmp/cmd"
	script -qec "sh $tmp/cmd >$tmp/stdout" /dev/null </dev/null >"$f" 2>&1 ||
		fail "on a terminal: $* failed: $(head -c 300 "$f")"
}

say "a quick run on a terminal leaves no meter behind"
on_tty "$tmp/quick" "$GIT_ABBREV" report --format=json "$tmp/repo"
checks=$((checks + 1))
[ -s "$tmp/stdout" ] || fail "no report on stdout"
[ ! -s "$tmp/quick" ] || { fail "a quick run shows progress"; show "$tmp/quick"; }

say "with the delay at 0: each non-empty phase ends in ', done.', empty ones are not shown"
# the repository is packed: no loose objects
git -C "$tmp/repo" count-objects -v | grep -q '^count: 0$' || git -C "$tmp/repo" repack -adq
on_tty "$tmp/meter" env GIT_PROGRESS_DELAY=0 "$GIT_ABBREV" report --format=json "$tmp/repo"
tr '\r' '\n' <"$tmp/meter" | sed '/^$/d' >"$tmp/lines"
checks=$((checks + 3))
grep -q ', done\.$' "$tmp/lines" || { fail "no phase ends in done"; show "$tmp/lines"; }
grep -q 'loose' "$tmp/lines" && { fail "the empty loose phase is shown"; show "$tmp/lines"; }
grep -q ': 0,' "$tmp/lines" && { fail "a phase at 0 is shown"; show "$tmp/lines"; }

say "not a terminal: no progress, unless --progress"
expect_exit 0 env GIT_PROGRESS_DELAY=0 "$GIT_ABBREV" report --format=json "$tmp/repo"
checks=$((checks + 1))
[ ! -s "$err" ] || { fail "progress without a terminal"; show "$err"; }
expect_exit 0 env GIT_PROGRESS_DELAY=0 "$GIT_ABBREV" report --progress --format=json "$tmp/repo"
checks=$((checks + 1))
grep -q 'done\.' "$err" || { fail "--progress shows nothing"; show "$err"; }
finish
