# bitmap_setup.sh - what t-bitmap.sh and t-midx.sh share, sourced after
# setup.sh: the JSON report of a repository kept under a label, two
# reports compared byte for byte, and which phases ran (the progress
# lines: "reading pack bitmaps" when a bitmap gave types, "reading pack
# headers" when packs were read).

# every phase's meter at once, not after git's 2 s delay
GIT_PROGRESS_DELAY=0
export GIT_PROGRESS_DELAY

# report LABEL REPO: the JSON report into $tmp/LABEL.json, stderr into $err;
# without the cache, whose types tables would spare a second run the
# header scan whatever the bitmaps (t-pack-types.sh tests those)
report() {
	expect_exit 0 "$GIT_ABBREV" --progress --no-cache --format=json "$2"
	cp "$out" "$tmp/$1.json"
}

# same LABEL A B: the two reports are byte-identical
same() {
	checks=$((checks + 1))
	cmp -s "$tmp/$2.json" "$tmp/$3.json" || {
		fail "$1: the reports differ"
		diff "$tmp/$2.json" "$tmp/$3.json" | sed -n '1,10s/^/    /p'
	}
}

# phases LABEL WANT_BITMAP WANT_HEADERS: which phases ran (1 yes, 0 no)
phases() {
	checks=$((checks + 1))
	b=0
	h=0
	grep -q 'reading pack bitmaps' "$err" && b=1
	grep -q 'reading pack headers' "$err" && h=1
	[ "$b$h" = "$2$3" ] || { fail "$1: bitmap phase $b, header phase $h; want $2, $3"; show "$err"; }
}
