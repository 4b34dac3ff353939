#!/bin/sh
# t-verify-typo.sh - an ID that names nothing but is one hex char off a
# commit (one char changed, or two neighbours swapped) is an error whose
# suggestion is that commit: the one with the subject written, or with
# none written the only such commit on HEAD; a copy on HEAD wins over one
# on another branch; under --range only ancestors of the citing commit.
# Abbreviated and full IDs, in Fixes: tags, in prose ("commit <id>") and
# bare ("Follow-up to <id>").  The repository is tests/gen_repo.py's typo
# scenario (a fix on HEAD and its copy on side, brute-forced to share 6+
# hex chars); git says that each ID written names nothing (rev-parse
# --disambiguate, cat-file -e), and which commit is one char off, on
# HEAD, with the subject (git log, merge-base --is-ancestor).
. "$(dirname "$0")/setup.sh"

r=$tmp/typo
gen_repo "$r" typo
G() { git -C "$r" "$@"; }
# shellcheck disable=SC2046
set -- $(jget "$r.json" 'words([d["fix"], d["copy"], d["side_only"], d["work"][3], d["work"][5],
	d["planted"][0]["shared"]])')
[ $# -eq 6 ] || die "gen_repo.py's typo description lacks a key"
fix=$1 copy=$2 side=$3 work3=$4 work5=$5 shared=$6
[ "$shared" -ge 6 ] || die "fix and copy share $shared hex chars"
[ "$(G log -1 --format=%s "$fix")" = "$(G log -1 --format=%s "$copy")" ] || die "the copies' subjects differ"
G merge-base --is-ancestor "$fix" HEAD || die "fix is not on HEAD"
G merge-base --is-ancestor "$copy" HEAD && die "copy is on HEAD"
G merge-base --is-ancestor "$side" HEAD && die "side is on HEAD"

# ID POS [TO]: ID with its hex char at POS (0-based) changed (to TO, else to the next digit)
sub() {
	awk -v s="$1" -v p="$2" -v to="${3:-}" 'BEGIN {
		h = "0123456789abcdef"
		if (to == "") to = substr(h, index(h, substr(s, p + 1, 1)) % 16 + 1, 1)
		print substr(s, 1, p) to substr(s, p + 2)
	}'
}
# ID POS: ID with its hex chars POS and POS+1 swapped (the first such pair from POS on that differ)
swap() {
	awk -v s="$1" -v p="$2" 'BEGIN {
		p++
		while (substr(s, p, 1) == substr(s, p + 1, 1)) p++
		print substr(s, 1, p - 1) substr(s, p + 1, 1) substr(s, p, 1) substr(s, p + 2)
	}'
}
# ID: git finds no object it names (as a prefix, or whole)
names_nothing() {
	if [ ${#1} -ge 40 ]; then
		! G cat-file -e "$1" 2>/dev/null
	else
		[ -z "$(G rev-parse --disambiguate="$1" 2>/dev/null)" ]
	fi
}

# LABEL WANT TEXT [OPTIONS]: verify of TEXT as a file finds one error, an
# unknown ID, suggesting WANT (a full ID, or "none"): its JSON kept, and
# listed in $tmp/typos for one verify_check.py call over all at the end
n_typo=0
: >"$tmp/typos"
expect_typo() {
	t_label=$1 t_want=$2 t_text=$3
	shift 3
	printf '%s\n' "$t_text" >"$tmp/msg"
	expect_exit 1 -C "$r" "$GIT_ABBREV" verify --format=json "$@" "$tmp/msg"
	suggests "$t_label: $t_text" "$t_want"
}
# LABEL WANT: $out (verify's JSON) is to suggest WANT, checked at the end
suggests() {
	n_typo=$((n_typo + 1))
	cp "$out" "$tmp/typo.$n_typo.json"
	printf '%s\t%s\t%s\n' "$tmp/typo.$n_typo.json" "$2" "$1" >>"$tmp/typos"
}

S='net: fix the leak'
fix12=$(G rev-parse --short=12 "$fix")
# ---- one char changed, each position of a 12-char ID, the subject written:
# fix and its copy have the subject, only fix is one char off
for p in 0 1 2 3 4 5 6 7 8 9 10 11; do
	t=$(sub "$fix12" $p)
	names_nothing "$t" || die "$t names an object"
	expect_typo "one char changed at $p" "$fix" "Fixes: $t (\"$S\")"
done
# ---- two neighbours swapped
for p in 0 4 9; do
	t=$(swap "$fix12" $p)
	names_nothing "$t" || die "$t names an object"
	expect_typo "swapped at $p" "$fix" "Fixes: $t (\"$S\")"
done

# ---- full IDs: a Fixes: tag keeps its 40 chars, a bare ID in prose is a
# reference when it is one char off ("Follow-up to"), with no subject
t=$(sub "$fix" 20)
names_nothing "$t" || die "$t names an object"
expect_typo "full ID, Fixes:" "$fix" "Fixes: $t (\"$S\")"
checks=$((checks + 1))
[ "$(jget "$out" 'd["findings"][0]["suggestion"]["id"]')" = "$fix" ] ||
	fail "full ID: the suggestion is not full length"
t=$(swap "$work3" 30)
names_nothing "$t" || die "$t names an object"
expect_typo "full ID, bare in prose" "$work3" "Follow-up to $t, which missed a case."
expect_typo "full ID, commit in prose" "$work3" "This is a follow-up to commit $t."
# ---- a short ID in prose without a subject: an error, not "another repository's"
t=$(swap "$(G rev-parse --short=8 "$work3")" 2)
names_nothing "$t" || die "$t names an object"
expect_typo "8 chars in prose" "$work3" "This is a follow-up for commit $t."

# ---- off both copies (they share 6 chars; the 7th written is neither's):
# the one on HEAD wins, with and without the subject
t7=$(awk -v a="$fix" -v b="$copy" 'BEGIN {
	h = "0123456789abcdef"
	for (i = 1; i <= 16; i++)
		if ((c = substr(h, i, 1)) != substr(a, 7, 1) && c != substr(b, 7, 1)) break
	print substr(a, 1, 6) c
}')
names_nothing "$t7" || die "$t7 names an object"
expect_typo "off both copies, subject" "$fix" "Fixes: $t7 (\"$S\")" --min-length=7
expect_typo "off both copies, no subject" "$fix" "Fixes: $t7" --min-length=7
# the copy on side alone is one char off: no subject to tell, not on HEAD: none
tc=$(sub "$(G rev-parse --short=12 "$copy")" 9)
names_nothing "$tc" || die "$tc names an object"
expect_typo "off the copy on side alone, no subject" none "Fixes: $tc"
# off the side commit with its subject: that commit (a branch, no copy on HEAD)
ts=$(sub "$(G rev-parse --short=12 "$side")" 3)
names_nothing "$ts" || die "$ts names an object"
expect_typo "off a side commit, its subject" "$side" "Fixes: $ts (\"side: only here\")"
# two chars off is no typo
t2=$(sub "$(sub "$(G rev-parse --short=12 "$work5")" 2)" 7)
names_nothing "$t2" || die "$t2 names an object"
expect_typo "two chars off" none "Fixes: $t2"

# ---- the text: an error with the commit as suggestion
printf 'Fixes: %s\n' "$(sub "$fix12" 1)" >"$tmp/text.msg"
expect_exit 1 -C "$r" "$GIT_ABBREV" verify "$tmp/text.msg"
checks=$((checks + 1))
grep -q "^$tmp/text.msg:1: error: $(sub "$fix12" 1) names no object in this repository; $fix12, one hex char away, is the only such commit on HEAD" "$out" &&
	grep -q "^    suggestion: Fixes: $fix12 (\"$S\")\$" "$out" ||
	{ fail "text of a typo"; show "$out"; }

# ---- --range: as of the citing commit, its ancestors only
t=$(sub "$fix12" 2)
names_nothing "$t" || die "$t names an object"
G commit -q --allow-empty -m "fix the fix" -m "Fixes: $t"
G checkout -q side
G commit -q --allow-empty -m "fix on side" -m "Fixes: $(sub "$(G rev-parse --short=12 "$copy")" 2)"
G checkout -q main
expect_exit 1 -C "$r" "$GIT_ABBREV" verify --format=json --range=main~1..main
suggests "--range: main" "$fix"
# on side the copy is the ancestor: it is meant, not fix on HEAD
expect_exit 1 -C "$r" "$GIT_ABBREV" verify --format=json --range=side~1..side
suggests "--range: side" "$copy"

say "each suggestion is the one wanted ($n_typo runs, one check each)"
checks=$((checks + n_typo))
"$PYTHON3" "$tests_dir/verify_check.py" suggested_each "$tmp/typos" >"$tmp/typos.out" 2>&1 ||
	while IFS= read -r line; do fail "$line"; done <"$tmp/typos.out"

finish
