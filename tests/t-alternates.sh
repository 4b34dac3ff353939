#!/bin/sh
# t-alternates.sh - every object directory git reads, read by both walkers:
# GIT_ALTERNATE_OBJECT_DIRECTORIES (colon-separated, C-quoted entries as
# git writes them), relative alternates behind a symlinked object
# directory (resolved against the real directory, as git does), an
# alternate that is not there and alternates nested too deep (git warns
# and goes on without them; so must the tool: a warning, exit 0, git's
# count).  git cat-file --batch-all-objects, under the same environment,
# is the oracle.
. "$(dirname "$0")/setup.sh"

# mkrepo DIR N: a repository with a commit of N new blobs (named after DIR)
mkrepo() {
	git init -q "$1"
	k=0
	while [ "$k" -lt "$2" ]; do
		echo "$1 blob $k" >"$1/f$k"
		k=$((k + 1))
	done
	git -C "$1" add .
	git -C "$1" commit -q -m "$(basename "$1")"
}

# count LABEL REPO [ENV...]: both walkers count what git counts, with the
# warnings git gives (if any) as one "warning:" line each on stderr.
count() {
	label=$1 repo=$2
	shift 2
	gitn=$(env "$@" git -C "$repo" cat-file --batch-all-objects --batch-check 2>/dev/null | wc -l | tr -d ' ')
	for w in pack libgit2; do
		expect_exit 0 env "$@" "$GIT_ABBREV" --walker=$w --format=json "$repo"
		[ "$rc" -eq 0 ] || { show "$err"; continue; }
		got=$(jget "$out" 'd["objects"]')
		checks=$((checks + 1))
		[ "$got" = "$gitn" ] || fail "$label, --walker=$w: $got objects, git counts $gitn"
		checks=$((checks + 1))
		if [ -n "$warn" ]; then
			grep -q "^git-abbrev: warning: .*$warn" "$err" && [ "$(wc -l <"$err")" -eq 1 ] ||
				{ fail "$label, --walker=$w: want one warning '$warn'"; show "$err"; }
		else
			[ ! -s "$err" ] || { fail "$label, --walker=$w: unexpected stderr"; show "$err"; }
		fi
	done
	say "$label: $gitn objects, as git"
}
warn=

# ---- 1. GIT_ALTERNATE_OBJECT_DIRECTORIES ---------------------------------
mkrepo "$tmp/small" 1                       # 3 objects
mkrepo "$tmp/store" 5                       # 7 more
mkrepo "$tmp/store:two" 3                   # a ':' in the name: git quotes it
count "no variable" "$tmp/small"
count "GIT_ALTERNATE_OBJECT_DIRECTORIES" "$tmp/small" \
	GIT_ALTERNATE_OBJECT_DIRECTORIES="$tmp/store/.git/objects"
checks=$((checks + 1))
[ "$gitn" -eq 10 ] || fail "the oracle counts $gitn, want 10: the variable is not in use"
count "GIT_ALTERNATE_OBJECT_DIRECTORIES, two, one quoted" "$tmp/small" \
	GIT_ALTERNATE_OBJECT_DIRECTORIES="$tmp/store/.git/objects:\"$tmp/store:two/.git/objects\""
checks=$((checks + 1))
[ "$gitn" -eq 15 ] || fail "the oracle counts $gitn, want 15: the quoted entry is not in use"
# from the environment, no path given
expect_exit 0 -C "$tmp/small" env GIT_ALTERNATE_OBJECT_DIRECTORIES="$tmp/store/.git/objects" \
	"$GIT_ABBREV" --format=json
checks=$((checks + 1))
grep -q '"objects": 10' "$out" || fail "no path: the variable is not read"

# ---- 2. relative alternates behind a symlinked object directory ----------
# w/repo/.git/objects -> ../../store/deep/objs; its alternates name
# ../../alt/.git/objects, which is w/store/alt/... from the real
# directory, and w/repo/alt/... read lexically (a decoy with more objects)
w=$tmp/w
mkrepo "$w/repo" 1
mkdir -p "$w/store/deep"
mv "$w/repo/.git/objects" "$w/store/deep/objs"
ln -s ../../store/deep/objs "$w/repo/.git/objects"
mkrepo "$w/store/alt" 2                     # 4 objects
mkrepo "$w/repo/alt" 6                      # the decoy: 8 objects
echo "../../alt/.git/objects" >"$w/store/deep/objs/info/alternates"
count "relative alternate, symlinked objects" "$w/repo"
checks=$((checks + 1))
[ "$gitn" -eq 7 ] || fail "the oracle counts $gitn, want 7"

# ---- 8. an alternate that is not there: a warning, git's count -----------
mkrepo "$tmp/m" 1
printf '%s\n' "$tmp/nowhere/objects" "$tmp/store/.git/objects" >"$tmp/m/.git/objects/info/alternates"
warn="nowhere/objects"
count "an alternate that is not there" "$tmp/m"
# the repository given twice, or again as verify's other repository: the
# same object directories listed again, the same warning said once
expect_exit 0 "$GIT_ABBREV" check 4 --type=all "$tmp/m" "$tmp/m"
checks=$((checks + 1))
[ "$(grep -c "^git-abbrev: warning: .*$warn" "$err")" -eq 1 ] ||
	{ fail "a repository given twice: the warning not said once"; show "$err"; }
printf 'Fixes: %s ("m")\n' "$(git -C "$tmp/m" rev-parse --short=12 HEAD 2>/dev/null)" >"$tmp/msg"
expect_exit 0 -C "$tmp/m" "$GIT_ABBREV" verify --repo="$tmp/m" "$tmp/msg"
checks=$((checks + 1))
[ "$(grep -c "^git-abbrev: warning: .*$warn" "$err")" -eq 1 ] ||
	{ fail "verify --repo=<itself>: the warning not said once"; show "$err"; }

# ---- 8. alternates nested more than 5 deep: a warning, git's count -------
# d0 -> d1 -> ... -> d8; git reads the alternates of d0..d5 and says that
# d6's nest too deep
i=0
while [ "$i" -le 8 ]; do
	mkrepo "$tmp/d$i" 1
	i=$((i + 1))
done
i=0
while [ "$i" -lt 8 ]; do
	echo "$tmp/d$((i + 1))/.git/objects" >"$tmp/d$i/.git/objects/info/alternates"
	i=$((i + 1))
done
warn="nesting too deep"
count "alternates nested too deep" "$tmp/d0"
checks=$((checks + 1))
[ "$gitn" -eq 21 ] || fail "the oracle counts $gitn, want 21 (7 repositories)"
warn=

finish
