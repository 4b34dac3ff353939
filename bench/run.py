#!/usr/bin/env python3
"""run.py - time git-abbrev's report against git's own object listing.

    python3 run.py [--tool PATH] [--runs N] [--libgit2-max M] [--out FILE] REPO...

For each repository, in one run and alternating (round after round, the
order rotated each round so no command always goes first), it runs

  pack     git-abbrev report --format=json --walker=pack, with the cache
           of commit tables warm (filled by the unmeasured run) and cold
           (emptied before each run: its verdict reads commit dates)
  libgit2  git-abbrev report --format=json --walker=libgit2
           (only for repositories of at most M objects, default 3,000,000:
           it is 3-4x slower than git and would dominate the run)
  git      git cat-file --batch-all-objects --unordered --batch-check
  reach    git-abbrev report --format=json --reachable
  rev-list git rev-list --objects --missing=print HEAD --branches --tags
           (the same refs, what a clone receives; --missing=print because
           git-abbrev too looks every blob up, and a partial clone's
           missing ones are then listed instead of fetched)
  history  git-abbrev history --format=json
           (cache cold and warm, as the report)
  log      git log --all --format='%H %ct'
           (every commit of the refs with its committer time, what the
           history reads of each commit; git reads the commit-graph too)
  verify   git-abbrev verify --range=HEAD (cache cold and warm)
  log %B   git log --format=%B HEAD
           (every message of the range, what verify reads)

with the output thrown away, after one unmeasured run of each that warms
the page cache (so every figure is for a warm cache).  For each command it
reports the median wall time of N runs (default 5) and its range, the
median CPU time (user + system: on a shared machine the wall time also
holds the time spent waiting for a core, the CPU time does not), the peak
RSS, the peak anonymous memory, both per object, the ratios of the
median wall and CPU times and of the peak RSS to git's: to cat-file's for
the reports of all objects, to rev-list's for the --reachable report, to
git log's for history and verify; and the median load average (1 min)
when the command started: on a shared machine only ratios measured in the
same run compare.  The cache of commit tables is a temporary directory of
the run (GIT_ABBREV_CACHE_DIR), removed after it.  A repository's label
says whether it has a commit-graph file.

How memory is measured:
  - peak RSS is GNU time's %M (ru_maxrss from wait4): every resident page,
    including the pages of the pack and index files the process maps or
    reads through the page cache, so it grows with the pack size;
  - peak anonymous memory is what the process itself allocated (heap, Judy
    arrays, stacks), the figure the memory goal is about (mapped pack files
    not counted).  Linux keeps no high-water mark for it, so this script
    samples /proc/<pid>/statm every millisecond while the command runs and
    takes the largest `resident - shared` (= RssAnon: "shared" counts the
    resident file and shmem pages).  Both programs build their tables
    gradually and then hold them while they work through them (hundreds of
    milliseconds at these sizes), so the sampled maximum is the true peak
    within a millisecond's growth.  Each command is run under /usr/bin/time
    and the sampler watches its child, the command itself.

Prints a markdown table (also appended to FILE with --out).  Standard
library only; Linux only (/proc).
"""
import argparse
import json
import os
import platform
import statistics
import shutil
import subprocess
import sys
import tempfile
import time

PAGE = os.sysconf("SC_PAGE_SIZE")

# The speed goals, by command: the most CPU time against git's command of
# the row (CPU / git); every command's peak RSS is to stay within
# RSS_GOAL of git's.  Rows without a goal say "-".
CPU_GOALS = {
    "git-abbrev report (pack walker), warm cache": 0.06,
    "git-abbrev history, cold cache": 0.5,
    "git-abbrev history, warm cache": 0.1,
    "git-abbrev verify --range=HEAD, cold cache": 1.0,
    "git-abbrev verify --range=HEAD, warm cache": 0.5,
}
RSS_GOAL = 1.5
TIME = "/usr/bin/time"


def machine():
    """One line naming the machine: CPUs, CPU model, RAM, kernel, git."""
    model = "unknown CPU"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as f:
        mem_kb = int(f.readline().split()[1])
    git = subprocess.run(["git", "--version"], capture_output=True, text=True).stdout.strip()
    return "%d CPUs (nproc), %s, %.1f GiB RAM, Linux %s, %s" % (
        os.cpu_count(), model, mem_kb / 2**20, platform.release(), git)


def child_of(pid):
    """The (single) child of pid, once it has forked it, else None."""
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            kids = f.read().split()
        return int(kids[0]) if kids else None
    except (OSError, ValueError):
        return None


def anon_bytes(pid):
    try:
        with open("/proc/%d/statm" % pid) as f:
            fields = f.read().split()
        return (int(fields[1]) - int(fields[2])) * PAGE
    except (OSError, ValueError, IndexError):
        return 0


def measure(cmd, env=None, cold=None, ok=(0,)):
    """Run cmd once: (wall s, peak RSS bytes, peak anonymous bytes, CPU s).

    env: variables added to the environment; cold: a directory emptied
    first (the cache of a cold run); ok: the exit statuses that are no
    failure (verify exits 1 when it finds something)."""
    if cold:
        shutil.rmtree(cold, ignore_errors=True)
    with tempfile.NamedTemporaryFile("r") as tf:
        start = time.monotonic()
        p = subprocess.Popen([TIME, "-f", "%M %U %S", "-o", tf.name] + cmd,
                             env=dict(os.environ, **(env or {})),
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        peak = 0
        kid = None
        while p.poll() is None:
            if kid is None:
                kid = child_of(p.pid)
            if kid is not None:
                peak = max(peak, anon_bytes(kid))
            time.sleep(0.001)
        wall = time.monotonic() - start
        err = p.stderr.read().decode(errors="replace")
        if p.returncode not in ok:
            sys.exit("run.py: %s failed (%d): %s" % (" ".join(cmd), p.returncode, err))
        rss_kb, user, system = tf.read().split()[-3:]
    return wall, int(rss_kb) * 1024, peak, float(user) + float(system)


def count_objects(tool, repo):
    out = subprocess.run([tool, "report", "--format=json", "--no-progress", repo],
                         capture_output=True, check=True).stdout
    return json.loads(out)["objects"]


def count_packs(repo):
    gitdir = subprocess.run(["git", "-C", repo, "rev-parse", "--git-common-dir"],
                            capture_output=True, text=True, check=True).stdout.strip()
    packdir = os.path.join(repo, gitdir, "objects", "pack")  # gitdir may be absolute
    try:
        return sum(1 for n in os.listdir(packdir) if n.endswith(".idx"))
    except OSError:
        return 0


def has_commit_graph(repo):
    objdir = subprocess.run(["git", "-C", repo, "rev-parse", "--git-path", "objects"],
                            capture_output=True, text=True, check=True).stdout.strip()
    objdir = os.path.join(repo, objdir)  # may be absolute
    return (os.path.exists(os.path.join(objdir, "info", "commit-graph")) or
            os.path.isdir(os.path.join(objdir, "info", "commit-graphs")))


def load():
    """The load averages now, as uptime prints them."""
    return "%.2f %.2f %.2f" % os.getloadavg()


def bench_repo(a, repo, rows, label=None):
    nobj = count_objects(a.tool, repo)
    listing = "git cat-file --batch-all-objects --unordered --batch-check"
    revlist = "git rev-list --objects --missing=print HEAD --branches --tags"
    gitlog = "git log --all --format='%H %ct'"
    logb = "git log --format=%B HEAD"
    # the tool's cache of commit tables: emptied before each cold run, kept for the warm ones
    caches = tempfile.mkdtemp(prefix="gab-bench-")
    cold = {"GIT_ABBREV_CACHE_DIR": os.path.join(caches, "cold")}
    warm = {"GIT_ABBREV_CACHE_DIR": os.path.join(caches, "warm")}
    # (name, command, the git command it is measured against, environment, cold, exit statuses)
    cmds = [("git-abbrev report (pack walker), warm cache",
             [a.tool, "report", "--format=json", "--no-progress", "--walker=pack", repo],
             listing, warm, None, (0,)),
            ("git-abbrev report (pack walker), cold cache",
             [a.tool, "report", "--format=json", "--no-progress", "--walker=pack", repo],
             listing, cold, cold["GIT_ABBREV_CACHE_DIR"], (0,))]
    if nobj <= a.libgit2_max:
        cmds.append(("git-abbrev report (--walker=libgit2)",
                     [a.tool, "report", "--format=json", "--no-progress",
                      "--walker=libgit2", repo], listing, warm, None, (0,)))
    cmds.append((listing, ["git", "-C", repo, "cat-file", "--batch-all-objects", "--unordered",
                           "--batch-check"], None, None, None, (0,)))
    if a.history:
        hist = [a.tool, "history", "--format=json", "--no-progress", repo]
        cmds.append(("git-abbrev history, cold cache", hist, gitlog, cold,
                     cold["GIT_ABBREV_CACHE_DIR"], (0,)))
        cmds.append(("git-abbrev history, warm cache", hist, gitlog, warm, None, (0,)))
        cmds.append((gitlog, ["git", "-C", repo, "log", "--all", "--format=%H %ct"], None,
                     None, None, (0,)))
    if a.verify:
        ver = [a.tool, "verify", "-C", repo, "--no-progress", "--range=HEAD"]
        cmds.append(("git-abbrev verify --range=HEAD, cold cache", ver, logb, cold,
                     cold["GIT_ABBREV_CACHE_DIR"], (0, 1)))
        cmds.append(("git-abbrev verify --range=HEAD, warm cache", ver, logb, warm, None,
                     (0, 1)))
        cmds.append((logb, ["git", "-C", repo, "log", "--format=%B", "HEAD"], None, None, None,
                     (0,)))
    if a.reachable:
        cmds.append(("git-abbrev report --reachable",
                     [a.tool, "report", "--format=json", "--no-progress", "--reachable", repo],
                     revlist, warm, None, (0,)))
        cmds.append((revlist, ["git", "-C", repo, "rev-list", "--objects", "--missing=print",
                               "HEAD", "--branches", "--tags"], None, None, None, (0,)))
    results = {c[0]: [] for c in cmds}
    loads = {c[0]: [] for c in cmds}
    for name, cmd, _, env, cd, ok in cmds:  # warm the page cache (and the warm cache); not counted
        measure(cmd, env, cd, ok)
    for r in range(a.runs):
        k = r % len(cmds)
        for name, cmd, _, env, cd, ok in cmds[k:] + cmds[:k]:
            loads[name].append(os.getloadavg()[0])
            results[name].append(measure(cmd, env, cd, ok))
            print("  run %d: %.3f s  %s  (load %s)" % (r + 1, results[name][-1][0], name, load()),
                  file=sys.stderr)
    shutil.rmtree(caches, ignore_errors=True)
    given = label
    label = label or os.path.basename(os.path.normpath(repo))
    if not given and label in ("repo", ".git", "objects"):
        label = os.path.normpath(repo)  # a name that says nothing: the path
    label += " (commit-graph)" if has_commit_graph(repo) else " (no commit-graph)"

    def medians(name):
        return (statistics.median(r[0] for r in results[name]),
                statistics.median(r[3] for r in results[name]))

    for name, _, base, _, _, _ in cmds:
        walls = [r[0] for r in results[name]]
        med, cpu = medians(name)
        rss = max(r[1] for r in results[name])
        anon = max(r[2] for r in results[name])
        goal = "-"
        if base:
            bmed, bcpu = medians(base)
            brss = max(r[1] for r in results[base])
            ratios = "%.2f | %s | %.2f" % (med / bmed, "%.2f" % (cpu / bcpu) if bcpu else "-",
                                          rss / brss)
            if name in CPU_GOALS and bcpu:
                goal = "CPU <= %gx: %s" % (CPU_GOALS[name],
                                           "met" if cpu / bcpu <= CPU_GOALS[name] else "not met")
            if not name.startswith("git "):
                goal += "; RSS <= %gx: %s" % (RSS_GOAL, "met" if rss / brss <= RSS_GOAL else "not met")
                goal = goal[3:] if goal.startswith("-; ") else goal
        else:
            ratios = "1 | 1 | 1"
        rows.append("| %s | %s | %d | %s | %.3f | %.3f-%.3f | %.2f | %.0f | %.0f | %.0f | %.0f | %s | %s | %.1f |" % (
            label, format(nobj, ","), count_packs(repo), name, med, min(walls), max(walls), cpu,
            rss / 2**20, anon / 2**20, rss / nobj, anon / nobj, ratios, goal,
            statistics.median(loads[name])))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("repos", nargs="+")
    ap.add_argument("--tool", default="src/git-abbrev")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--libgit2-max", type=int, default=3_000_000)
    ap.add_argument("--label", action="append", default=[],
                    help="name for a repository in the table (once per repository, in order)")
    ap.add_argument("--no-reachable", dest="reachable", action="store_false",
                    help="leave out report --reachable against git rev-list")
    ap.add_argument("--no-history", dest="history", action="store_false",
                    help="leave out history against git log --all")
    ap.add_argument("--no-verify", dest="verify", action="store_false",
                    help="leave out verify --range=HEAD against git log --format=%%B HEAD")
    ap.add_argument("--out", help="also append the table to this file")
    a = ap.parse_args()
    if not os.access(TIME, os.X_OK):
        sys.exit("run.py: %s not found (Debian: apt-get install time)" % TIME)
    a.tool = os.path.abspath(a.tool)
    rows = []
    for i, repo in enumerate(a.repos):
        print("run.py: %s" % repo, file=sys.stderr)
        bench_repo(a, repo, rows, a.label[i] if i < len(a.label) else None)
    table = "\n".join([
        "Machine: %s." % machine(),
        "Runs: %d per command, alternating; warm page cache; %s." % (
            a.runs, time.strftime("%Y-%m-%d")),
        "",
        "| repository | objects | packs | command | median s | range s | CPU s | peak RSS MiB"
        " | peak anon MiB | RSS B/object | anon B/object | time / git | CPU / git"
        " | RSS / git | goal | load |",
        "|---|--:|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|--:|",
    ] + rows) + "\n"
    sys.stdout.write(table)
    if a.out:
        with open(a.out, "a") as f:
            f.write(table + "\n")


if __name__ == "__main__":
    main()
