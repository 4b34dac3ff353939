#!/bin/sh
# t-errors.sh - exit statuses and messages of git-abbrev when things go wrong.
#
# Runtime errors (not a repository, a path that does not exist, a corrupt
# object database): exit 3 (or higher for corruption), exactly one line on
# stderr, nothing on stdout.  Usage errors: exit 2, a message on stderr,
# nothing on stdout.  --version: exit 0, one line.  -h / --help: exit 0.

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"

# runtime_error LABEL: the last run failed as a runtime error should.
runtime_error() {
	[ "$rc" -ge 3 ] && [ "$rc" -lt 128 ] || return 0 # already failed
	checks=$((checks + 1))
	one_line "$err" || { fail "$1: stderr is not exactly one line"; show "$err"; }
	checks=$((checks + 1))
	[ ! -s "$out" ] || { fail "$1: stdout is not empty"; show "$out"; }
}

# usage_error LABEL: the last run failed as a usage error should.
usage_error() {
	[ "$rc" -eq 2 ] || return 0 # already failed
	checks=$((checks + 1))
	[ -s "$err" ] || fail "$1: no message on stderr"
	checks=$((checks + 1))
	[ ! -s "$out" ] || { fail "$1: stdout is not empty"; show "$out"; }
}

# expect_runtime CODE LABEL [-C DIR] CMD...: exit CODE, as a runtime error.
expect_runtime() {
	want=$1 label=$2
	shift 2
	expect_exit "$want" "$@"
	runtime_error "$label"
}

mkdir "$tmp/notrepo"
# stop repository discovery at $tmp, whatever encloses it
GIT_CEILING_DIRECTORIES=$tmp
export GIT_CEILING_DIRECTORIES
gen_repo "$tmp/repo" small

say "not a repository: exit 3, one line on stderr, empty stdout"
for fmt in "" --format=json --format=text; do
	# shellcheck disable=SC2086
	expect_runtime 3 "cwd not a repository $fmt" -C "$tmp/notrepo" \
		"$GIT_ABBREV" $fmt
	# shellcheck disable=SC2086
	expect_runtime 3 "report $fmt <not a repository>" "$GIT_ABBREV" report \
		$fmt "$tmp/notrepo"
done
expect_runtime 3 "path that does not exist" "$GIT_ABBREV" "$tmp/no/such/dir"
expect_runtime 3 "report --format=json <path that does not exist>" \
	"$GIT_ABBREV" report --format=json "$tmp/no/such/dir"
expect_runtime 3 "a file as <repo>" "$GIT_ABBREV" "$tmp/repo.json"
expect_runtime 3 "a repository and a path that does not exist" \
	"$GIT_ABBREV" --format=json "$tmp/repo" "$tmp/no/such/dir"
expect_runtime 3 "GIT_DIR that is not a repository" -C "$tmp/repo" \
	env GIT_DIR="$tmp/notrepo" "$GIT_ABBREV" --format=json
# the message names the directory as git's does, never "the current directory"
expect_exit 3 -C "$tmp/notrepo" "$GIT_ABBREV" check 12
checks=$((checks + 1))
grep -qx "git-abbrev: not a git repository (or any of the parent directories): $(cd "$tmp/notrepo" && pwd)" "$err" ||
	{ fail "not a repository: the directory is not named"; show "$err"; }
expect_exit 3 "$GIT_ABBREV" "$tmp/no/such/dir"
checks=$((checks + 1))
grep -qx "git-abbrev: $tmp/no/such/dir: No such file or directory" "$err" ||
	{ fail "a path that does not exist: not said so"; show "$err"; }

say "corrupt object database: exit >= 3, one line on stderr, empty stdout"
cp -R "$tmp/repo" "$tmp/bad-loose"
blob=$(jget "$tmp/repo.json" 'd["ids"]["blob"]')
f=$tmp/bad-loose/.git/objects/$(echo "$blob" | cut -c1-2)/$(echo "$blob" | cut -c3-)
[ -f "$f" ] || die "no loose object $f"
chmod -R u+w "$tmp/bad-loose"
printf 'this is not zlib data\n' >"$f"
expect_runtime 3+ "garbage loose object" "$GIT_ABBREV" --format=json "$tmp/bad-loose"

cp -R "$tmp/repo" "$tmp/bad-pack"
chmod -R u+w "$tmp/bad-pack"
git -C "$tmp/bad-pack" repack -a -d -q
cp -R "$tmp/bad-pack" "$tmp/bad-idx"
set -- "$tmp"/bad-pack/.git/objects/pack/*.pack
[ -f "$1" ] || die "no pack in $tmp/bad-pack"
chmod u+w "$1"
# keep the header, lose the objects: the index lists IDs whose type is gone
truncate -s 40 "$1"
expect_runtime 3+ "truncated pack" "$GIT_ABBREV" --format=json "$tmp/bad-pack"

# git itself skips a pack whose index is garbage; accept that, or an error
set -- "$tmp"/bad-idx/.git/objects/pack/*.idx
chmod u+w "$1"
printf 'garbage\n' >"$1"
expect_exit 0+ "$GIT_ABBREV" --format=json "$tmp/bad-idx"
[ "$rc" -eq 0 ] || [ "$rc" -ge 3 ] || fail "garbage pack index: exit $rc"
[ "$rc" -eq 0 ] || runtime_error "garbage pack index"

say "usage errors: exit 2, message on stderr, empty stdout"
expect_exit 2 -C "$tmp/repo" "$GIT_ABBREV" --bogus
usage_error "--bogus"
expect_exit 2 -C "$tmp/repo" "$GIT_ABBREV" report --bogus
usage_error "report --bogus"
expect_exit 2 -C "$tmp/repo" "$GIT_ABBREV" --format=nope
usage_error "--format=nope"
expect_exit 2 -C "$tmp/repo" "$GIT_ABBREV" report --format=nope
usage_error "report --format=nope"
expect_exit 2 -C "$tmp/repo" "$GIT_ABBREV" --format=
usage_error "--format="
expect_exit 2 -C "$tmp/notrepo" "$GIT_ABBREV" --bogus
usage_error "--bogus outside a repository"

say "--version and --help"
expect_exit 0 "$GIT_ABBREV" --version
if [ "$rc" -eq 0 ]; then
	checks=$((checks + 1))
	one_line "$out" || { fail "--version: stdout is not one line"; show "$out"; }
	checks=$((checks + 1))
	[ ! -s "$err" ] || { fail "--version: unexpected stderr"; show "$err"; }
fi
# as git's commands (git log -h): the usage on stdout, exit 129
for h in -h --help; do
	expect_exit 129 -C "$tmp/notrepo" "$GIT_ABBREV" "$h"
	checks=$((checks + 1))
	grep -q "^usage: git abbrev" "$out" || fail "$h: no usage on stdout"
	for c in report check model history verify policy ids merge; do
		expect_exit 129 -C "$tmp/notrepo" "$GIT_ABBREV" "$c" "$h"
		checks=$((checks + 2))
		grep -q "^usage: git abbrev \[*$c" "$out" || { fail "$c $h: no usage on stdout"; show "$out"; }
		[ ! -s "$err" ] || { fail "$c $h: stderr"; show "$err"; }
	done
done
# help <cmd> opens the manual on a terminal; here (no terminal) and with
# --usage it prints the command's options, exit 0 as git help does
for a in "help check" "help --usage check"; do
	# shellcheck disable=SC2086
	expect_exit 0 -C "$tmp/notrepo" "$GIT_ABBREV" $a </dev/null
	checks=$((checks + 1))
	grep -q "^usage: git abbrev check" "$out" || { fail "$a: no usage"; show "$out"; }
done
expect_exit 2 -C "$tmp/notrepo" "$GIT_ABBREV" help chek


say "a mistyped command is not a repository: exit 2 and git's suggestion"
expect_exit 2 -C "$tmp/repo" "$GIT_ABBREV" chek 12
checks=$((checks + 2))
grep -q "^git-abbrev: 'chek' is not a git-abbrev command" "$err" || { fail "chek: message"; show "$err"; }
[ "$(sed -n '/most similar command is/{n;p;}' "$err")" = "	check" ] || { fail "chek: no suggestion"; show "$err"; }
[ ! -s "$out" ] || fail "chek: stdout not empty"
expect_exit 2 -C "$tmp/repo" "$GIT_ABBREV" version
checks=$((checks + 1))
grep -q -- "--version" "$err" || { fail "version: no --version suggested"; show "$err"; }
# a word that names a path is a repository, even an odd one
mkdir -p "$tmp/chek"
expect_exit 3 -C "$tmp" "$GIT_ABBREV" chek
one_line "$err" || fail "an existing path: not one line"
grep -q "not a git repository" "$err" || { fail "an existing path: not read as a repository"; show "$err"; }

say "help <command> shows the command's help"
expect_exit 0 "$GIT_ABBREV" help check
checks=$((checks + 1))
head -n 1 "$out" | grep -q "^usage: git abbrev check " || { fail "help check"; show "$out"; }
expect_exit 2 "$GIT_ABBREV" help chek

say "-C <path> works for every command, as git's -C"
for cmd in report "check 4" "model ." history; do
	# shellcheck disable=SC2086
	expect_exit 0+ -C "$tmp/notrepo" "$GIT_ABBREV" $cmd -C "$tmp/repo" --no-progress
	checks=$((checks + 1))
	[ "$rc" -le 1 ] || { fail "$cmd -C: exit $rc"; show "$err"; }
done
expect_exit 3 "$GIT_ABBREV" check 4 -C "$tmp/no-such-dir"
one_line "$err" && grep -q "cannot change to" "$err" || { fail "-C no-such-dir"; show "$err"; }
# before the command too, as git -C; each one from the one before
expect_exit 0+ -C "$tmp/notrepo" "$GIT_ABBREV" -C "$tmp" -C repo check 4 --format=json
checks=$((checks + 1))
[ "$rc" -le 1 ] && grep -q '"length": 4' "$out" || { fail "-C <path> check"; show "$out"; show "$err"; }
expect_exit 0 -C "$tmp/notrepo" "$GIT_ABBREV" -C "$tmp/repo" help check
expect_exit 3 "$GIT_ABBREV" -C "$tmp/no-such-dir" check 4
expect_exit 2 "$GIT_ABBREV" -C
# a relative repository is read from the -C directory
expect_exit 0+ -C "$tmp" "$GIT_ABBREV" report --format=json -C "$tmp/repo" .
checks=$((checks + 1))
grep -q '"objects"' "$out" || { fail "-C then .: no report"; show "$err"; }

finish
