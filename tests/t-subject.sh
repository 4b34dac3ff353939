#!/bin/sh
# t-subject.sh - the words check lists beside a colliding commit are git's:
# the subject exactly as `git log --format=%s` prints it (the first line's
# indentation kept, the first paragraph's lines right-trimmed and joined
# by one space, a form feed or vertical tab kept: git's isspace() has
# neither) and the day as `git log --date=short` gives it (the committer's
# own zone).  The commits are dated in zones far from UTC at hours where
# their day there is not UTC's.
. "$(dirname "$0")/setup.sh"

n=2000
git init -q "$tmp/r"
"$PYTHON3" "$tests_dir/commit_days.py" subjects "$n" >"$tmp/stream"
fast_import -C "$tmp/r" <"$tmp/stream" || die "fast-import failed"

say "check 4: each listed commit's subject and day as git log prints them"
expect_exit 1 "$GIT_ABBREV" check 4 "$tmp/r"
# "  commit <id> <words>", or the words on the next line, indented, when long
awk '/^  commit [0-9a-f]+ /{ id = ""; x = $2; sub(/^  commit [0-9a-f]+ /, ""); print x " " $0; next }
     /^  commit [0-9a-f]+$/{ id = $2; next }
     id != "" && /^    /{ sub(/^    /, ""); print id " " $0; id = "" }' "$out" >"$tmp/listed"
[ "$(wc -l <"$tmp/listed")" -eq "$(grep -c '^  commit ' "$out")" ] ||
	die "not every listed commit has words: $(cat "$out")"
[ "$(wc -l <"$tmp/listed")" -ge 8 ] || die "too few collisions listed: $(cat "$out")"
git -C "$tmp/r" log main --date=short --format='%H ("%s") %cd' >"$tmp/git"
while read -r id _; do
	checks=$((checks + 1))
	want=$(grep "^$id " "$tmp/git")
	got=$(grep "^$id " "$tmp/listed")
	[ "$got" = "$want" ] || fail "'$got', git: '$want'"
done <"$tmp/listed"
say "$(wc -l <"$tmp/listed") commits listed, of each form: $(cut -d'"' -f2 "$tmp/listed" |
	tr -d '0-9' | sort | uniq -c | tr -s ' \n\t\f\v' ' ')"
finish
