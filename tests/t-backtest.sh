#!/bin/sh
# t-backtest.sh - `git abbrev history --backtest` against an independent
# computation.
#
# A generated history of 4000 commits whose count grows as 50 e^(0.3 t) - 50
# (gen_repo.py --scenario growth, nothing planted) and the planted history
# (--scenario history, one commit unreachable): tests/backtest_oracle.py
# redoes every cut-off, fit, prediction, Poisson range and measured count
# from `git log` and `git cat-file --batch-all-objects`, and the JSON must
# match it under the default fit and two forced ones.  The last cut-off's
# fit must find the growth the history was made with; the text's table
# and hit rate and the chart's points must say what the JSON says; the
# chart passes tests/chart_check.py.  A history too short for a cut-off
# says so.

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"

say "generating a history of known growth, and the planted one"
gen_repo "$tmp/growth" growth
gen_repo "$tmp/history" history
gen_repo "$tmp/small" small

oracle() { # LABEL JSON REPO [WINDOW FIT]
	o_label=$1
	shift
	checks=$((checks + 1))
	if "$PYTHON3" "$tests_dir/backtest_oracle.py" "$2" "$1" ${3:+"$3"} ${4:+"$4"} \
		>"$tmp/oracle.out" 2>&1; then
		:
	else
		fail "$o_label: the backtest differs from the oracle's"
		show "$tmp/oracle.out"
	fi
}

say "every cut-off, prediction and count as the oracle computes them"
for r in growth history; do
	expect_exit 0 "$GIT_ABBREV" history --backtest --format=json "$tmp/$r"
	cp "$out" "$tmp/$r.bt.json"
	oracle "$r" "$tmp/$r.bt.json" "$tmp/$r"
done
for opts in "1 linear" "10 exponential"; do
	# shellcheck disable=SC2086
	set -- $opts
	expect_exit 0 "$GIT_ABBREV" history --backtest --format=json --window-years="$1" \
		--fit="$2" "$tmp/growth"
	cp "$out" "$tmp/growth-$2.json"
	oracle "growth --window-years=$1 --fit=$2" "$tmp/growth-$2.json" "$tmp/growth" "$1" "$2"
done

say "the last cut-off's fit finds the growth the history was made with"
# N(t) = 50 e^(0.3 t) - 50: d ln N / dt = 0.3 e^(0.3 t) / (e^(0.3 t) - 1), 0.304 to
# 0.31 over the five years before the last cut-off (t = 7.6 .. 12.6 years)
checks=$((checks + 1))
"$PYTHON3" - "$tmp/growth.bt.json" >"$tmp/rate.out" 2>&1 <<'PY' || { fail "known growth"; show "$tmp/rate.out"; }
import json, math, sys
b = json.load(open(sys.argv[1]))["backtest"]
assert len(b["cutoffs"]) >= 5, b["cutoffs"]
last = b["cutoffs"][-1]
assert last["fit"] == "exponential", last
assert 0.295 <= last["growth"] <= 0.32, last
# and the prediction it makes for the end is close to the count there
p = [p for p in b["predictions"] if p["cutoff"] == last["time"]]
assert len(p) == 1 and abs(p[0]["commits_fitted"] / p[0]["commits"] - 1) < 0.05, p
PY

say "the text: one row per prediction and length, misses starred, the hit rate"
expect_exit 0 "$GIT_ABBREV" history --backtest "$tmp/growth"
cp "$out" "$tmp/growth.txt"
checks=$((checks + 1))
"$PYTHON3" - "$tmp/growth.txt" "$tmp/growth.bt.json" >"$tmp/text.out" 2>&1 <<'PY' || { fail "text"; show "$tmp/text.out"; }
import json, re, sys
text = open(sys.argv[1]).read()
b = json.load(open(sys.argv[2]))["backtest"]
part = text[text.index("\nbacktest:"):]
lines = part.splitlines()
head = [i for i, l in enumerate(lines) if l.startswith("cut-off")]
assert len(head) == 1, lines[:8]
rows = []
for l in lines[head[0] + 1:]:
    if l.startswith("("):
        break
    rows.append(l)
assert len(rows) == b["total"], (len(rows), b["total"])
starred = sum(l.rstrip().endswith("*") for l in rows)
assert starred == b["total"] - b["hits"], (starred, b["hits"], b["total"])
m = re.search(r"hit rate: (\d+) of (\d+) predictions", part)
assert m and (int(m.group(1)), int(m.group(2))) == (b["hits"], b["total"]), m
for L, v in b["by_length"].items():
    assert "%s chars %d of %d" % (L, v["hits"], v["predictions"]) in " ".join(part.split()), L
assert max(len(l) for l in text.splitlines()) <= 80, max(text.splitlines(), key=len)
PY

say "Markdown: the same rows, misses starred"
expect_exit 0 "$GIT_ABBREV" history --backtest --format=markdown "$tmp/growth"
checks=$((checks + 1))
"$PYTHON3" - "$out" "$tmp/growth.bt.json" >"$tmp/md.out" 2>&1 <<'PY' || { fail "markdown"; show "$tmp/md.out"; }
import json, sys
md = open(sys.argv[1]).read()
b = json.load(open(sys.argv[2]))["backtest"]
part = md[md.index("#### Backtest"):]
rows = [l for l in part.splitlines() if l.startswith("|")][2:]
assert len(rows) == b["total"], (len(rows), b["total"])
assert sum(l.endswith("\\* |") for l in rows) == b["total"] - b["hits"], rows[:4]
PY

say "the chart: its points are the JSON's, and a reader can read it"
mkdir "$tmp/svg"
expect_exit 0 "$GIT_ABBREV" history --backtest --format=svg "$tmp/growth"
cp "$out" "$tmp/svg/history-growth.svg"
expect_exit 0 "$GIT_ABBREV" history --backtest --format=svg "$tmp/history"
cp "$out" "$tmp/svg/history-planted.svg"
checks=$((checks + 1))
if PYTHONPATH=$tests_dir "$PYTHON3" "$tests_dir/chart_check.py" "$tmp"/svg/*.svg >"$tmp/check.out" 2>&1; then
	:
else
	fail "charts"
	show "$tmp/check.out"
fi
checks=$((checks + 1))
"$PYTHON3" - "$tmp/svg/history-growth.svg" "$tmp/growth.bt.json" >"$tmp/svg.out" 2>&1 <<'PY' || { fail "chart points"; show "$tmp/svg.out"; }
import json, sys
import xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
b = json.load(open(sys.argv[2]))["backtest"]
pts = [e for e in ET.parse(sys.argv[1]).getroot().iter(NS + "circle") if "bt-point" in (e.get("class") or "")]
want = sorted((int(L), c["colliding_prefixes"], c["low"], c["high"])
              for p in b["predictions"] for L, c in p["lengths"].items())
got = sorted((int(e.get("data-length")), int(e.get("data-measured")), int(e.get("data-low")),
              int(e.get("data-high"))) for e in pts)
assert got == want, (got[:5], want[:5])
PY

say "policy --backtest: the same numbers, the predictions for the end in a table"
expect_exit 0 "$GIT_ABBREV" policy --backtest --format=json "$tmp/growth"
cp "$out" "$tmp/policy.json"
expect_exit 0 "$GIT_ABBREV" policy --backtest "$tmp/growth"
cp "$out" "$tmp/policy.txt"
checks=$((checks + 1))
"$PYTHON3" - "$tmp/policy.json" "$tmp/policy.txt" "$tmp/growth.bt.json" >"$tmp/policy.out" 2>&1 <<'PY' || { fail "policy --backtest"; show "$tmp/policy.out"; }
import json, sys
got = json.load(open(sys.argv[1]))["backtest"]
want = json.load(open(sys.argv[3]))["backtest"]
assert got == want, "policy's backtest is not history's"
text = open(sys.argv[2]).read()
part = text[text.index("\ntrack record:"):].splitlines()
head = [i for i, l in enumerate(part) if l.startswith("cut-off")][0]
rows = part[head + 1:]
end = [p for p in want["predictions"] if p["time"] == want["end"]]
assert len(end) == len([c for c in want["cutoffs"] if c["fit"]]), end
for p, line in zip(end, rows):
    cells = line.split()
    stars = sum(1 for L in want["lengths"] if not p["lengths"][str(L)]["hit"])
    assert line.count("*") == stars, (line, p)
m = rows[len(end)].split()
assert m[0] == "measured" and m[1].replace(",", "") == str(end[-1]["commits"]), m
assert [int(v.replace(",", "")) for v in m[2:]] == [end[-1]["lengths"][str(L)]["colliding_prefixes"] for L in want["lengths"]], m
assert max(len(l) for l in text.splitlines()) <= 80
PY
expect_exit 2 "$GIT_ABBREV" policy --backtest --objects=1000

say "a history too short for a cut-off says so"
expect_exit 0 "$GIT_ABBREV" history --backtest --format=json "$tmp/small"
checks=$((checks + 1))
"$PYTHON3" -c '
import json, sys
b = json.load(open(sys.argv[1]))["backtest"]
assert b["predictions"] == [] and b["total"] == 0 and b["cutoffs"] == [], b
' "$out" >"$tmp/small.out" 2>&1 || { fail "short history JSON"; show "$tmp/small.out"; }
expect_exit 0 "$GIT_ABBREV" history --backtest "$tmp/small"
checks=$((checks + 1))
grep -q "^backtest: none" "$out" || { fail "short history text"; show "$out"; }
expect_exit 0 "$GIT_ABBREV" history --backtest --format=svg "$tmp/small"
checks=$((checks + 1))
grep -q "No backtest" "$out" || { fail "short history chart"; show "$out"; }

finish
