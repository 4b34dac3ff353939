#!/bin/sh
# t-projection.sh - history and policy project the same future: one
# starting point (the newest commit, as git log dates it), the same year
# for each length at 1% and 50%, and each projected count rounded once and
# printed the same everywhere (tests/projection_agree.py checks).
. "$(dirname "$0")/setup.sh"

gen_repo "$tmp/h" history
repo=$tmp/h
for fit in auto exponential linear; do
	for window in 5 3; do
		say "history and policy agree (--fit=$fit --window-years=$window)"
		for f in json text; do
			expect_exit 0 "$GIT_ABBREV" history --fit=$fit --window-years=$window \
				--format=$f "$repo"
			cp "$out" "$tmp/history.$f"
			expect_exit 0 "$GIT_ABBREV" policy --fit=$fit --window-years=$window \
				--horizon-years=999 --format=$f "$repo"
			cp "$out" "$tmp/policy.$f"
		done
		checks=$((checks + 1))
		"$PYTHON3" "$tests_dir/projection_agree.py" "$repo" "$tmp/history.json" \
			"$tmp/history.text" "$tmp/policy.json" "$tmp/policy.text" >"$tmp/agree" 2>&1 ||
			fail "--fit=$fit --window-years=$window: $(cat "$tmp/agree")"
	done
done
finish
