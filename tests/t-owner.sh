#!/bin/sh
# t-owner.sh - a repository another user owns is refused as git refuses
# it: "detected dubious ownership in repository at '<dir>'" naming the
# directory git names and the safe.directory setting, exit 3, one line,
# nothing on stdout; with safe.directory set it is read.  Runs as root
# with a repository given to the user nobody.
. "$(dirname "$0")/setup.sh"

[ "$(id -u)" -eq 0 ] || skip "needs root to give a repository to another user"
id nobody >/dev/null 2>&1 || skip "no user nobody"

gen_repo "$tmp/repo" small
mkdir "$tmp/repo/sub"
chown -R nobody "$tmp/repo"
for d in "$tmp/repo" "$tmp/repo/sub" "$tmp/repo/.git/refs"; do
	git -C "$d" rev-parse --git-dir >/dev/null 2>"$tmp/git.err" &&
		die "git reads a repository root does not own"
	# git's own words, with the directory it names
	said=$(sed -n "s/^fatal: \(detected dubious ownership in repository at '[^']*'\)$/\1/p" \
		"$tmp/git.err")
	[ -n "$said" ] || die "git did not say: $(cat "$tmp/git.err")"
	named=$(printf '%s\n' "$said" | sed "s/.*'\(.*\)'$/\1/")
	for cmd in report history; do
		say "$cmd in ${d#"$tmp/"}: $said"
		expect_exit 3 "$GIT_ABBREV" -C "$d" $cmd
		checks=$((checks + 1))
		one_line "$err" && [ ! -s "$out" ] &&
			grep -qF "git-abbrev: $said" "$err" &&
			grep -qF "safe.directory $named" "$err" ||
			fail "$cmd in $d: $(cat "$err")"
	done
done
say "with safe.directory, the repository is read"
git config --global --add safe.directory "$tmp/repo"
expect_exit 0 "$GIT_ABBREV" -C "$tmp/repo" report --format=json
oracle_compare "report with safe.directory" "$out" "$tmp/repo"
finish
