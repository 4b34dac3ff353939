#!/bin/sh
# t-verify-prefix.sh - a subject written without its area prefix is the
# subject laid out otherwise (a warning), whether the prefix is one word
# ("gitk: ") or a few, as the kernel's are ("net: phy: micrel: "): left
# out in prose, in a Fixes: tag, or in part ("micrel: ...").  Recall: a
# subject with a word changed, or cut inside a word of the prefix chain
# rather than at a ": ", stays a subject-mismatch error, and so does one
# after a "prefix" with a blank in it ("the fix: ...").
# Oracle: git log -1 --format=%s (the commit's real subject).

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"

r=$tmp/pf
git init -q "$r"
commit_msg "$r" "base: first" >/dev/null
id=$(commit_msg "$r" "net: phy: micrel: Center FLP timing at 16ms")
sp=$(commit_msg "$r" "the fix: keep the old timing")
[ "$(git -C "$r" log -1 --format=%s "$id")" = "net: phy: micrel: Center FLP timing at 16ms" ] ||
	die "subject"
h=$(git -C "$r" rev-parse --short=12 "$id")
s=$(git -C "$r" rev-parse --short=12 "$sp")

check() { # WANT TEXT: WANT is "kind/severity" of the reference's subject finding, or "ok"
	printf '%s\n' "$2" >"$tmp/msg"
	code=1 # a warning is a finding too
	[ "$1" != ok ] || code=0
	expect_exit $code -C "$r" "$GIT_ABBREV" verify --format=json "$tmp/msg"
	got=$(jget "$out" "' '.join(sorted(f['kind'] + '/' + f['severity'] for f in d['findings'] if f['kind'] in ('subject-mismatch', 'layout'))) or 'ok'")
	[ "$got" = "$1" ] || { fail "$2: want $1, got $got"; show "$out"; }
}

say "the prefix chain left out is layout"
check layout/warning "Commit $h (\"Center FLP timing at 16ms\") breaks the restart."
check layout/warning "Fixes: $h (\"Center FLP timing at 16ms\")"
check layout/warning "Fixes: $h (\"micrel: Center FLP timing at 16ms\")"
check layout/warning "Fixes: $h (\"phy: micrel: Center FLP timing at 16ms\")"
say "recall: other words stay errors"
check subject-mismatch/error "Fixes: $h (\"Centre FLP timing at 16ms\")"
check subject-mismatch/error "Fixes: $h (\"FLP timing at 16ms\")"
check subject-mismatch/error "Fixes: $h (\"cro: Center FLP timing at 16ms\")"
check subject-mismatch/error "Fixes: $s (\"keep the old timing\")"
finish
