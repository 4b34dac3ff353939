#!/bin/sh
# t-verify-reflog.sh - `verify --range=<ref>@{<date>}..HEAD` checks the
# messages `git rev-list` lists for the same range: the date is looked up
# in that very ref's own reflog, as git does (HEAD@{<date>} in HEAD's,
# which here is not main's: a checkout to a side branch and back), for a
# date between two entries, on an entry's second, before the log's first
# entry, after its last, with a time zone or none (TZ=UTC), as seconds
# since 1970, and relative to now.  Every commit is made at a fixed time
# and so is every reflog entry (GIT_COMMITTER_DATE dates both).  A date
# form not read here is a usage error on HEAD (exit 2, one line), never
# a range taken from main's reflog.
. "$(dirname "$0")/setup.sh"

r=$tmp/r
git init -q -b main "$r"
G() { git -C "$r" "$@"; }
base=1112900000
step=0
at() { # the next step's time: GIT_COMMITTER_DATE dates the commit and the reflog entry
	step=$((step + 1))
	GIT_COMMITTER_DATE="$((base + step * 1000)) +0000"
	GIT_AUTHOR_DATE=$GIT_COMMITTER_DATE
	export GIT_COMMITTER_DATE GIT_AUTHOR_DATE
}
mk() { # SUBJECT: a commit whose message names an unknown commit (one error each)
	at
	echo "$1" >"$r/$1"
	G add "$1"
	G commit -q -m "$1" -m 'Fixes: 0123456789ab ("no such commit")'
}
mk a1            # 1112901000
mk a2
mk a3
at               # 1112904000: HEAD to side, main stays
G checkout -q -b side HEAD~2
mk s1            # 1112905000
mk s2
at               # 1112907000: HEAD back to main
G checkout -q main
mk a4
at
G merge -q --no-ff side -m "merge side" -m 'Fixes: 0123456789ab ("no such commit")'
mk a5            # 1112910000
# HEAD's reflog has 10 entries, main's 6: at 1112905500 HEAD was s1, main a3
[ "$(G rev-parse 'HEAD@{1112905500}')" = "$(G rev-parse side~1)" ] || die "HEAD@{date} is not s1"
[ "$(G rev-parse 'main@{1112905500}')" = "$(G rev-parse main~3)" ] || die "main@{date} is not a3"

# RANGE: verify judges as many messages as git rev-list --count lists
check_count() {
	count=$(G rev-list --count "$1") || { checks=$((checks + 1)); fail "git rev-list $1"; return; }
	code=1
	[ "$count" -gt 0 ] || code=0
	expect_exit $code "$GIT_ABBREV" verify -C "$r" --range="$1"
	[ "$rc" = $code ] || { show "$err"; return 0; }
	checks=$((checks + 1))
	got=$(sed -n '$s/^.* in \([0-9]*\) messages\{0,1\}:.*$/\1/p' "$out")
	[ "$got" = "$count" ] ||
		{ fail "--range='$1': ${got:-no count} messages judged, git rev-list --count says $count"; show "$out"; }
}

for d in 1112905500 1112904500 1112903500 1112907000 1112900500 1112999999 \
	"2005-04-07 20:25:00 +0000" "2005-04-07T20:25:00Z" "2005-04-07 22:25 +0200" \
	"2005-04-07 20:25:00" "2005-04-07 19:05" 2005-04-07 2005-04-08 "3.days.ago" yesterday; do
	check_count "HEAD@{$d}..HEAD"
	check_count "main@{$d}..HEAD"
	check_count "HEAD@{$d}"
done
check_count "side@{1112905500}..main@{1112908500}"

# a date git reads but this tool does not, on HEAD: refused, not read from main's log
G rev-parse -q --verify 'HEAD@{last.friday}' >/dev/null || die "git does not read HEAD@{last.friday}"
expect_exit 2 "$GIT_ABBREV" verify -C "$r" --range='HEAD@{last.friday}..HEAD'
one_line "$err" || fail "HEAD@{last.friday}: not one line on stderr"
[ ! -s "$out" ] || fail "HEAD@{last.friday}: output on a usage error"

finish
