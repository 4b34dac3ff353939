#!/usr/bin/env python3
"""verify_forms.py - run every row of docs/verify-forms.md's table of forms.

    python3 verify_forms.py <verify-forms.md> <repo> <git-abbrev>

The table's rows are `| form | `text` | verdict |`.  Each text is checked
alone with `git abbrev verify --format=json` against <repo> (made by
tests/t-verify-forms.sh) after its placeholders are filled in from git
itself (the oracle, never the tool):

  {id}      the commit "area: make the loop end early when the list is
            empty" at 12 hex chars; {id6}, {id7}, {id11}, {id16}, {full},
            {ID} (upper case)
  {subject} its subject; {subject1} {subject2} its halves (for a split);
            {tail} it without its "area: " prefix; {date} its author date
  {other}   another commit's subject
  {blob} {tree}  a blob and a tree at 12 hex chars
  {unknown} 12 hex chars that name no object
  \\n        a line break

The verdict is `ok` (a reference, no finding), `none` (not a reference:
nothing counted), or the findings as `severity kind` joined by ` + `, in
any order; `N references: ` before it for a text of N references (the
findings of all of them).  Exit 1 if a row's verdict is not what verify says, and print
the rows that differ; so the table cannot drift from the tool.
"""
import json
import os
import re
import subprocess
import sys
import tempfile


def git(repo, *args):
    return subprocess.run(["git", "-C", repo] + list(args), check=True,
                          capture_output=True, text=True).stdout.strip()


def placeholders(repo):
    full = git(repo, "rev-parse", ":/^area: make the loop")
    subject = git(repo, "log", "-1", "--format=%s", full)
    words = subject.split(" ")
    half = len(words) // 2
    unknown = "0000000000ab"
    if git(repo, "rev-parse", "--disambiguate=" + unknown):
        sys.exit("verify_forms: %s names an object" % unknown)
    return {
        "id": full[:12], "id6": full[:6], "id7": full[:7], "id11": full[:11],
        "id16": full[:16], "full": full,
        "ID": full[:12].upper(), "subject": subject,
        "subject1": " ".join(words[:half]), "subject2": " ".join(words[half:]),
        "tail": subject.split(": ", 1)[1],
        "date": git(repo, "log", "-1", "--format=%ad", "--date=short", full),
        "other": git(repo, "log", "-1", "--format=%s", ":/^other: "),
        "blob": git(repo, "rev-parse", full + ":f2")[:12],
        "tree": git(repo, "rev-parse", full + "^{tree}")[:12],
        "unknown": unknown,
    }


ROW = re.compile(r"^\|\s*(.+?)\s*\|\s*`(.+)`\s*\|\s*(.+?)\s*\|\s*$")


def rows(doc):
    """The table rows: (line number, form, text, verdict)."""
    out = []
    with open(doc, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            m = ROW.match(line)
            if m and m.group(1) not in ("form",) and not set(m.group(1)) <= set("-: "):
                out.append((n, m.group(1), m.group(2), m.group(3)))
    return out


def expected(verdict):
    """(kind, findings, references): `2 references: ...` for a text of two."""
    m = re.fullmatch(r"(\d+) references: (.+)", verdict)
    if m:
        kind, kinds, _ = expected(m.group(2))
        return kind, kinds, int(m.group(1))
    if verdict in ("ok", "none"):
        return verdict, [], 0 if verdict == "none" else 1
    kinds = sorted(v.strip() for v in verdict.split(" + "))
    for k in kinds:
        if not re.fullmatch(r"(error|warning) [a-z-]+", k):
            sys.exit("verify_forms: bad verdict %r" % verdict)
    return "found", kinds, 1


def main():
    doc, repo, tool = sys.argv[1:4]
    ph = placeholders(repo)
    table = rows(doc)
    if len(table) < 30:
        sys.exit("verify_forms: only %d rows in %s" % (len(table), doc))
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n, form, text, verdict in table:
            body = text.replace("\\n", "\n")
            for k, v in ph.items():
                body = body.replace("{" + k + "}", v)
            if re.search(r"\{[a-zA-Z0-9]+\}", body):
                sys.exit("verify_forms: line %d: unknown placeholder in %r" % (n, text))
            path = os.path.join(tmp, "row%d.txt" % n)
            with open(path, "w", encoding="utf-8") as f:
                f.write(body + "\n")
            p = subprocess.run([tool, "verify", "--format=json", path], cwd=repo,
                               capture_output=True, text=True)
            if p.returncode not in (0, 1):
                print("line %d (%s): exit %d: %s" % (n, form, p.returncode, p.stderr.strip()))
                bad += 1
                continue
            d = json.loads(p.stdout)
            got = sorted("%s %s" % (f["severity"], f["kind"]) for f in d["findings"])
            kind, want, nrefs = expected(verdict)
            ok = d["references"] == nrefs and got == want
            if ok != (p.returncode == (1 if got else 0)):
                ok = False
            if not ok:
                bad += 1
                print("line %d (%s): table says %r; verify: %d reference(s), %s" %
                      (n, form, verdict, d["references"], " + ".join(got) or "no finding"))
    print("verify_forms: %d rows, %d differ" % (len(table), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
