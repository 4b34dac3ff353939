#!/bin/sh
# t-readme.sh - the README tells the truth: every sample in it (an
# indented "$ git abbrev ..." line and the lines under it) is what that
# command prints, run in the repository the README says it ran in
# (tests/gen_repo.py's planted scenario, at /home/me/demo); a sample that
# ends in "..." is the start of the output.  Every command is in its list.
# And the build's ar flags make no warning (automake's default "cru":
# "ar: `u' modifier ignored"), and make clean removes the fuzz targets.
. "$(dirname "$0")/setup.sh"

readme=$srcdir/README
[ -r "$readme" ] || die "no $readme"
gen_repo "$tmp/demo" planted

# the samples: $tmp/sample.N holds the command line, then the output
awk -v dir="$tmp" '
	/^    \$ git abbrev/ { n++; f = dir "/sample." n; sub(/^    \$ git abbrev ?/, ""); print > f; inblock = 1; next }
	inblock && /^    / { sub(/^    /, ""); print >> f; next }
	inblock && /^$/ { print >> f; next }
	{ inblock = 0 }
' "$readme"
checks=$((checks + 1))
set -- "$tmp"/sample.*
[ $# -ge 3 ] && [ -f "$1" ] || fail "fewer than 3 samples in the README"

real=$(cd "$tmp/demo" && pwd -P)
for s in "$@"; do
	args=$(head -n 1 "$s")
	# the sample without its command line and its trailing blank lines
	sed '1d' "$s" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' >"$s.want"
	# shellcheck disable=SC2086
	if (cd "$tmp/demo" && exec "$GIT_ABBREV" $args) >"$s.out" 2>"$s.err"; then rc=0; else rc=$?; fi
	checks=$((checks + 1))
	[ "$rc" -le 1 ] || { fail "README's 'git abbrev $args' exits $rc"; show "$s.err"; continue; }
	sed "s|$real|/home/me/demo|g; s|$tmp/demo|/home/me/demo|g" "$s.out" >"$s.got"
	if [ "$(tail -n 1 "$s.want")" = "..." ]; then
		sed '$d' "$s.want" >"$s.head"
		head -n "$(wc -l <"$s.head")" "$s.got" >"$s.got.head"
		mv "$s.head" "$s.want"
		mv "$s.got.head" "$s.got"
	fi
	checks=$((checks + 1))
	diff -u "$s.want" "$s.got" >"$s.diff" || {
		fail "README's sample of 'git abbrev $args' is not what it prints"
		sed -n '1,25s/^/    | /p' "$s.diff"
	}
done

say "the README's list of commands is the tool's: each one runs, and none is missing"
# the list: "    git abbrev [report] [<options>] ...  what it answers"
sed -n 's/^    git abbrev \[*\([a-z][a-z-]*\)\]* .*  .*/\1/p' "$readme" >"$tmp/readme.cmds"
checks=$((checks + 1))
[ "$(wc -l <"$tmp/readme.cmds")" -ge 5 ] ||
	{ fail "the README lists $(wc -l <"$tmp/readme.cmds") commands"; show "$tmp/readme.cmds"; }
"$GIT_ABBREV" --git-completion-helper=commands >"$tmp/tool.raw" ||
	fail "--git-completion-helper=commands failed"
tr ' ' '\n' <"$tmp/tool.raw" | sed '/^$/d' >"$tmp/tool.cmds"
while read -r cmd; do
	# a command git abbrev has: -h prints its usage (git's 129), not "unknown command" (2)
	st=0
	"$GIT_ABBREV" "$cmd" -h >"$tmp/usage" 2>&1 || st=$?
	checks=$((checks + 2))
	[ "$st" -eq 129 ] && grep -q "^usage: git abbrev \[*$cmd[] ]" "$tmp/usage" ||
		{ fail "the README lists $cmd: git abbrev $cmd -h exits $st"; show "$tmp/usage"; }
	grep -qx "$cmd" "$tmp/tool.cmds" || fail "the README lists $cmd, git abbrev -h does not"
done <"$tmp/readme.cmds"
for cmd in $(cat "$tmp/tool.cmds"); do
	checks=$((checks + 1))
	grep -q "^    git abbrev \[*$cmd[] ]" "$readme" || fail "command $cmd is not in the README"
done

say "the build's ar flags make no warning"
mk=$(dirname "$(dirname "$GIT_ABBREV")")/Makefile
[ -r "$mk" ] || skip "no Makefile beside $GIT_ABBREV"
ar=$(sed -n 's/^AR = //p' "$mk")
arflags=$(sed -n 's/^ARFLAGS = //p' "$mk")
printf 'int x;\n' >"$tmp/x.c"
cc -c "$tmp/x.c" -o "$tmp/x.o" || skip "no C compiler"
checks=$((checks + 1))
# shellcheck disable=SC2086
${ar:-ar} $arflags "$tmp/x.a" "$tmp/x.o" 2>"$tmp/ar.err" || fail "ar $arflags failed"
[ ! -s "$tmp/ar.err" ] || { fail "ar $arflags warns"; show "$tmp/ar.err"; }

say "make clean removes what make fuzz and fuzz-run leave"
clean=$(make -s -n -C "$(dirname "$mk")" clean-generic clean-local 2>&1) ||
	skip "make -n clean failed: $clean"
clean=$(printf '%s\n' "$clean" | tr '\n' ' ')
for t in $(sed -n 's/^fuzz: //p' "$mk"); do
	checks=$((checks + 1))
	case " $clean " in *" $t "*) ;; *) fail "make clean leaves $t" ;; esac
	log=fuzz-${t#tests/fuzz/fuzz_}.log
	checks=$((checks + 1))
	case " $clean " in *" $log "*) ;; *) fail "make clean leaves $log" ;; esac
done
finish
