#!/bin/sh
# t-width.sh - the text a person pastes into a mail fits in 80 columns:
# report, check, model and history, and the Markdown of report and
# history (but for its heading, which holds the path), on generated
# repositories (planted collisions, tags beside commits, 17000 blobs, a
# SHA-256 repository)
# and on git.git when a copy is at hand ($GIT_ABBREV_BIG_REPO, default
# the mirror this project's machines keep; only read).  Widths are
# measured as a person sees them: awk's length, in characters.
. "$(dirname "$0")/setup.sh"

big=${GIT_ABBREV_BIG_REPO:-/work/.mirror/git+git/repo}

# width LABEL: the last run's stdout is at most 80 columns wide
width() {
	[ "$rc" -le 1 ] || return 0 # already failed
	checks=$((checks + 1))
	w=$(LC_ALL=C.UTF-8 awk '{ if (length > m) m = length } END { print m + 0 }' "$out")
	say "$1: $w columns"
	[ "$w" -le 80 ] || {
		fail "$1: $w columns wide"
		LC_ALL=C.UTF-8 awk 'length > 80' "$out" | sed -n '1,5s/^/    | /p'
	}
	checks=$((checks + 1))
	[ -s "$out" ] || fail "$1: no output"
}

# all_text LABEL REPO: every text output of REPO
all_text() {
	a_label=$1 a_repo=$2
	expect_exit 0 "$GIT_ABBREV" report "$a_repo"
	width "$a_label: report"
	# the longest colliding length of commits and of all objects (every
	# group is listed), from one jget
	# shellcheck disable=SC2046 # its two words
	set -- $(jget - 'words([max(4, (d["types"][t]["min_unique_length"] or 5) - 1) for t in ("commit", "all")])' \
		<"$(dirname "$a_repo")/json.$(basename "$a_repo")")
	for t in commit all; do
		len=$1
		shift
		expect_exit 0+ "$GIT_ABBREV" check "$len" --type=$t "$a_repo"
		width "$a_label: check $len --type=$t"
	done
	# Markdown pastes into a mail too; its heading holds the path (left out)
	expect_exit 0 "$GIT_ABBREV" report --format=markdown "$a_repo"
	sed -i 1d "$out"
	width "$a_label: report --format=markdown"
	expect_exit 0 "$GIT_ABBREV" history "$a_repo"
	width "$a_label: history"
	expect_exit 0 "$GIT_ABBREV" history --format=markdown "$a_repo"
	sed -i 1d "$out"
	width "$a_label: history --format=markdown"
}

gen_repo "$tmp/planted" planted
gen_repo "$tmp/commitish" commitish
gen_repo "$tmp/many" many
gen_repo "$tmp/sha256" sha256
for r in planted commitish many sha256; do
	"$GIT_ABBREV" report --format=json "$tmp/$r" >"$tmp/json.$r" || die "report of $r"
	all_text "$r" "$tmp/$r"
done

# the model for the kernel's published figures, for the most objects a
# count can hold, and for none
for args in "--objects=13021585 --commits=1300000" "--objects=18446744073709551615" \
	"--objects=0 --commits=0" "--objects=1000 --from=4 --to=40"; do
	# shellcheck disable=SC2086
	expect_exit 0 "$GIT_ABBREV" model $args
	width "model $args"
done

if [ -d "$big" ] && git -C "$big" rev-parse --git-dir >/dev/null 2>&1; then
	"$GIT_ABBREV" report --format=json "$big" >"$tmp/json.big" 2>/dev/null || die "report of $big"
	ln -s "$big" "$tmp/big"
	all_text "git.git" "$tmp/big"
else
	say "no $big: git.git not measured"
fi
finish
