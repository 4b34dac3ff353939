#!/bin/sh
# t-encoding.sh - strings that are not UTF-8 in JSON and SVG.
#
# A repository path with the bytes \377\376 and commit subjects in Latin-1
# (gen_repo.py --scenario quoting plants two pairs of commits sharing 6
# hex chars, one pair with a Latin-1 subject).  Every JSON string and the
# SVG text follow one rule: valid UTF-8 is kept, any other byte is the
# Latin-1 character of its value.  Nothing may be dropped: not a
# repository from "repositories", not a "description" from the groups.
. "$(dirname "$0")/setup.sh"

B=$(printf '%s/bad-\377\376-dir' "$tmp")
mkdir "$B"
gen_repo "$B/q" quoting
gen_repo "$tmp/small" small

# json_check LABEL FILE: the Python below, with `d` the JSON of FILE and
# `want(b)` the rule applied to bytes b, asserts what LABEL says
json_check() {
	checks=$((checks + 1))
	"$PYTHON3" - "$2" "$B/q" "$3" <<EOF2 || fail "$1"
import codecs, json, os, subprocess, sys
codecs.register_error("latin1", lambda e: (e.object[e.start:e.start + 1].decode("latin-1"), e.start + 1))
def want(b):
    return b.decode("utf-8", "latin1")
d = json.load(open(sys.argv[1], encoding="utf-8"))
repo = os.fsencode(sys.argv[2])
def subject(oid):
    raw = subprocess.run(["git", "-C", sys.argv[2], "cat-file", "commit", oid],
                         stdout=subprocess.PIPE, check=True).stdout
    return want(raw.split(b"\n\n", 1)[1].split(b"\n", 1)[0])
def check_members(members):
    assert members, "no members"
    for m in members:
        assert "description" in m, ("no description", m)
        assert m["description"].startswith('("' + subject(m["id"]) + '")'), (m, subject(m["id"]))
$3
EOF2
}

say "report --format=json: the path and the Latin-1 subjects"
expect_exit 0 "$GIT_ABBREV" report --format=json "$B/q" "$tmp/small"
json_check "report: both repositories, the odd one decoded" "$out" '
r = d["repositories"]
assert len(r) == 2 and r[0] == want(repo) and r[1].endswith("/small"), r
'
json_check "report: the Latin-1 subject is the description of its commits" "$out" '
groups = d["types"]["commit"]["longest"]["groups"]
assert len(groups) == 2, groups
for g in groups:
    check_members(g)
assert any("caf\u00e9 na\u00efve" in m["description"] for g in groups for m in g), groups
'

say "check --format=json: the same subjects in its groups"
expect_exit 1 "$GIT_ABBREV" check 6 --format=json "$B/q"
json_check "check: repositories and descriptions" "$out" '
assert d["repositories"] == [want(repo)], d["repositories"]
assert len(d["groups"]) == 2, d["groups"]
for g in d["groups"]:
    check_members(g["members"])
'

say "history --format=json: the path"
expect_exit 0 "$GIT_ABBREV" history --format=json --no-projection "$B/q"
json_check "history: repositories" "$out" '
assert d["repositories"] == [want(repo)], d["repositories"]
'

say "svg: the repository's name as Latin-1 characters, not U+FFFD"
# the chart names the repository (the path's last part), so the bytes go there
gen_repo "$(printf '%s/bad-\377\376-repo' "$B")" small
expect_exit 0 "$GIT_ABBREV" report --format=svg "$(printf '%s/bad-\377\376-repo' "$B")"
checks=$((checks + 1))
"$PYTHON3" - "$out" <<'EOF2' || fail "svg: the name's bytes are not the Latin-1 characters"
import sys, xml.etree.ElementTree as E
text = "".join(E.parse(sys.argv[1]).getroot().itertext())
assert "bad-\u00ff\u00fe-repo" in text, text[:300]
assert "bad-\u00ff\u00fe-dir" not in text, "the chart shows the path"
assert "\ufffd" not in text
EOF2

finish
