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
"$PYTHON3" - "$n" >"$tmp/stream" <<'EOF'
import sys
n = int(sys.argv[1])
forms = ["  indented %d\f\n   second\tline  \n\nbody\n",
         "\n\n\tfirst %d\n\v\nthird\n\nbody\n",
         "plain %d  \n\f\nafter a form feed\n",
         "   %d\n"]
zones = ["-0700", "+1130", "-1100", "+0000"]
for i in range(1, n + 1):
    msg = (forms[i % len(forms)] % i).encode()
    # 04:30 UTC: the day before west of UTC; 21:00 UTC: the day after east of it
    t = 1143340200 + (i // 2) * 86400 + (i % 2) * 59400
    out = "commit refs/heads/main\nmark :%d\ncommitter C <c@x> %d %s\ndata %d\n" % (
        i, t, zones[(i // 4) % len(zones)], len(msg))
    sys.stdout.buffer.write(out.encode() + msg)
    if i > 1:
        sys.stdout.buffer.write(b"from :%d\n" % (i - 1))
    sys.stdout.buffer.write(b"\n")
EOF
git -C "$tmp/r" fast-import --quiet <"$tmp/stream" || die "fast-import failed"

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
