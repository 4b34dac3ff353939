#!/usr/bin/env python3
"""ids_sim.py - the archive-scale simulation: N random IDs as M shards.

    python3 ids_sim.py --tool git-abbrev --gen gen_ids [--total 1e9]
                       [--shards 256] [--seed 1] [--out DIR]

For each shard K of M, one after the other, runs

    gen_ids --total=N --shard=K/M --seed=S | git-abbrev ids --shard=K/M --format=partial

into DIR/part-K and records the git-abbrev process's wall time, user and
system CPU time and peak resident memory (os.wait4's rusage of that one
process) in DIR/shards.tsv, then merges the parts with `git abbrev merge`
into DIR/merged.txt and DIR/merged.json, timed the same way.  A shard
whose part and row exist is not run again, so an interrupted run goes
on where it stopped.  Prints a summary; docs/benchmark.md has the
results and how to read them.  Standard library only.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import time


def run_timed(argv, stdin=None, stdout=None):
    """Run argv; return (exit status, wall s, user s, sys s, max RSS KiB)."""
    t0 = time.monotonic()
    p = subprocess.Popen(argv, stdin=stdin, stdout=stdout)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    return p.returncode, wall, ru.ru_utime, ru.ru_stime, ru.ru_maxrss


def model_table(merged_json):
    """Markdown: measured colliding prefixes beside the birthday model.

    For each length, with q = 16^-L and B = 16^L prefixes, the model
    expects E = B (1 - (1-q)^n - n q (1-q)^(n-1)) prefixes shared by two or
    more of n random IDs (the JSON's expected_prefixes).  Each prefix is
    shared with probability p = E / B; counting them as B independent
    trials gives the spread sd = sqrt(B p (1-p)) (the true one is a little
    smaller: one crowded prefix leaves fewer IDs for the others), and
    z = (measured - E) / sd says how many spreads apart they are.
    """
    r = json.load(open(merged_json))
    out = ["| set | L | colliding prefixes | expected | sd | z | colliding objects | expected |",
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    worst = 0.0
    for name in ("all", "commit"):
        st = r["types"][name]
        for L, cell in st["lengths"].items():
            m = st["model"].get(L)
            if m is None:
                continue
            B = 16.0 ** int(L)
            e = m["expected_prefixes"]
            p = e / B
            sd = math.sqrt(B * p * (1 - p))
            z = (cell["prefixes"] - e) / sd if sd > 0 else 0.0
            if sd > 0 and e >= 1:
                worst = max(worst, abs(z))
            out.append("| %s | %s | %d | %.1f | %.1f | %s | %d | %.1f |" % (
                name, L, cell["prefixes"], e, sd, "%+.2f" % z if sd > 0 else "-",
                cell["objects"], m["expected_objects"]))
    out.append("")
    out.append("largest |z| where the model expects one prefix or more: %.2f" % worst)
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--gen", required=True)
    ap.add_argument("--total", default="1e9")
    ap.add_argument("--shards", type=int, default=256)
    ap.add_argument("--seed", default="1")
    ap.add_argument("--out", default="ids-sim")
    ap.add_argument("--model-only", action="store_true",
                    help="only write DIR/model.md from DIR/merged.json")
    a = ap.parse_args()
    if a.model_only:
        table = model_table(os.path.join(a.out, "merged.json"))
        open(os.path.join(a.out, "model.md"), "w").write(table)
        print(table, end="")
        return
    os.makedirs(a.out, exist_ok=True)
    tsv = os.path.join(a.out, "shards.tsv")
    done = set()
    if os.path.exists(tsv):
        with open(tsv) as f:
            for line in f:
                if line[0].isdigit():
                    done.add(int(line.split("\t")[0]))
    else:
        with open(tsv, "w") as f:
            f.write("shard\twall_s\tuser_s\tsys_s\tmaxrss_kib\tgen_cpu_s\n")
    for k in range(a.shards):
        part = os.path.join(a.out, "part-%03d" % k)
        if k in done and os.path.exists(part):
            continue
        shard = "%d/%d" % (k, a.shards)
        with open(part + ".tmp", "wb") as out:
            gen = subprocess.Popen([a.gen, "--total=" + a.total, "--shard=" + shard,
                                    "--seed=" + a.seed], stdout=subprocess.PIPE)
            rc, wall, user, sys_, rss = run_timed(
                [a.tool, "ids", "--shard=" + shard, "--format=partial", "--no-progress"],
                stdin=gen.stdout, stdout=out)
            gen.stdout.close()
            _, _, gru = os.wait4(gen.pid, 0)
        if rc != 0:
            sys.exit("ids_sim.py: shard %s failed (exit %d)" % (shard, rc))
        os.rename(part + ".tmp", part)
        with open(tsv, "a") as f:
            f.write("%d\t%.3f\t%.3f\t%.3f\t%d\t%.3f\n" % (k, wall, user, sys_, rss,
                                                         gru.ru_utime + gru.ru_stime))
        print("shard %s: %.1f s wall, %.1f s CPU, %d MiB" % (shard, wall, user + sys_,
                                                             rss // 1024), flush=True)
    parts = [os.path.join(a.out, "part-%03d" % k) for k in range(a.shards)]
    for fmt in ("text", "json"):
        with open(os.path.join(a.out, "merged." + ("txt" if fmt == "text" else fmt)), "wb") as out:
            rc, wall, user, sys_, rss = run_timed([a.tool, "merge", "--format=" + fmt] + parts,
                                                  stdout=out)
        if rc != 0:
            sys.exit("ids_sim.py: merge failed (exit %d)" % rc)
        print("merge --format=%s: %.2f s wall, %.2f s CPU, %d MiB" % (fmt, wall, user + sys_,
                                                                     rss // 1024))
    table = model_table(os.path.join(a.out, "merged.json"))
    open(os.path.join(a.out, "model.md"), "w").write(table)
    print(table, end="")
    rows = [l.split("\t") for l in open(tsv) if l[0].isdigit()]
    wall = sum(float(r[1]) for r in rows)
    cpu = sum(float(r[2]) + float(r[3]) for r in rows)
    rss = [int(r[4]) for r in rows]
    print("%d shards: %.0f s wall, %.0f s CPU in all; peak memory per shard %d to %d MiB"
          % (len(rows), wall, cpu, min(rss) // 1024, max(rss) // 1024))


if __name__ == "__main__":
    main()
