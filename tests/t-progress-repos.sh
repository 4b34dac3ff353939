#!/bin/sh
# t-progress-repos.sh - several repositories in one run (a union): the
# progress meter (forced on with --progress, from the start with git's
# GIT_PROGRESS_DELAY=0) ends every phase at its total, so a total is all
# that phase counts over the repositories (the commit dates read through
# libgit2 are one phase over all of them: the loose commits of both, as
# git counts them); the notes on stderr name the repository they are
# about (a shallow clone beside a full one; a partial clone's missing
# objects under --reachable).
. "$(dirname "$0")/setup.sh"

gen_repo "$tmp/planted" planted
gen_repo "$tmp/history" history
export GIT_PROGRESS_DELAY=0

# ends_at_total LABEL: every "(done/total), done." line of $err has done == total
ends_at_total() {
	tr '\r' '\n' <"$err" | sed -n 's/^\([^:]*\): *[0-9]*% (\([0-9]*\)\/\([0-9]*\)).*, done\.$/\1 \2 \3/p' \
		>"$tmp/phases"
	checks=$((checks + 1))
	[ -s "$tmp/phases" ] || { fail "$1: no phase with a total"; show "$err"; return 0; }
	while read -r line; do
		set -- $line
		n=$#
		eval "d=\${$((n - 1))} t=\${$n}"
		checks=$((checks + 1))
		[ "$d" = "$t" ] || fail "$label: '$line' ends at $d of $t"
	done <"$tmp/phases"
}

# loose_commits REPO...: the commits of the repositories that are loose and
# in no pack (git's own listings: the loose files, show-index of each pack)
loose_commits() {
	for r in "$@"; do
		o=$(git -C "$r" rev-parse --git-path objects)
		case $o in /*) ;; *) o=$r/$o ;; esac
		for i in "$o"/pack/*.idx; do
			[ -f "$i" ] && git show-index <"$i" | cut -d' ' -f2
		done | sort >"$tmp/packed"
		(cd "$o" && find . -path './??/*' -type f | sed 's|^\./\(..\)/|\1|') | sort |
			comm -23 - "$tmp/packed" |
			git -C "$r" cat-file --batch-check='%(objecttype)' | grep -c '^commit$' || :
	done | awk '{ s += $1 } END { print s + 0 }'
}

for cmd in "history" "policy" "report" "check 12" "report --walker=libgit2"; do
	label="$cmd over two repositories"
	say "$label: each phase ends at its total"
	# shellcheck disable=SC2086
	expect_exit 0+ "$GIT_ABBREV" $cmd --progress --format=json "$tmp/planted" "$tmp/history"
	ends_at_total "$label"
done

say "history: the commit dates libgit2 reads are the loose commits of both"
expect_exit 0 "$GIT_ABBREV" history --progress --format=json "$tmp/planted" "$tmp/history"
want=$(loose_commits "$tmp/planted" "$tmp/history")
got=$(tr '\r' '\n' <"$err" | sed -n 's/^reading commit dates: *[0-9]*% ([0-9]*\/\([0-9]*\)).*, done\.$/\1/p' | tail -1)
checks=$((checks + 1))
[ "$want" -gt 0 ] || fail "the generated repositories have no loose commit: nothing to test"
checks=$((checks + 1))
[ "$got" = "$want" ] || { fail "commit dates read: total '$got', loose commits $want"; show "$err"; }

say "notes name their repository when there are several"
git clone -q --depth=1 "file://$tmp/history" "$tmp/shallow" 2>/dev/null || die "shallow clone failed"
expect_exit 0 "$GIT_ABBREV" report "$tmp/planted" "$tmp/shallow"
checks=$((checks + 1))
grep -q "^git-abbrev: note: $tmp/shallow: a shallow clone" "$err" ||
	{ fail "the shallow note does not name $tmp/shallow"; show "$err"; }
checks=$((checks + 1))
grep -q "note: $tmp/planted" "$err" && fail "a note names $tmp/planted, which is whole"
# one repository: the note as before, without a path
expect_exit 0 "$GIT_ABBREV" report "$tmp/shallow"
checks=$((checks + 1))
grep -q "^git-abbrev: note: a shallow clone" "$err" || { fail "one repository: the note changed"; show "$err"; }

git -C "$tmp/history" config uploadpack.allowfilter true
git clone -q --filter=blob:none --no-checkout "file://$tmp/history" "$tmp/partial" 2>/dev/null ||
	die "partial clone failed"
expect_exit 0 "$GIT_ABBREV" report --reachable "$tmp/planted" "$tmp/partial"
checks=$((checks + 1))
grep -q "^git-abbrev: note: .*missing.* (in $tmp/partial)\$" "$err" ||
	{ fail "the missing-objects note does not name $tmp/partial"; show "$err"; }
checks=$((checks + 1))
grep -q "^git-abbrev: note: $tmp/partial: a partial clone" "$err" ||
	{ fail "the partial note does not name $tmp/partial"; show "$err"; }
finish
