"""How long does a first render of the reference take? Every report of `make report
PROFILE=reference` (the five cases, their JDK x GC matrices, the runs of two builds, the A/A and
the overview) rendered into an empty folder, so that nothing is reused, timed by the wall clock:
through the command line, as `make report PROFILE=reference` runs it (`python -m hotpath report
--case all --profile reference --overview --out <folder>`, its start included), into
data/render-times/<day>.command.tsv. The files named <day>.tsv alone hold earlier rounds, which
timed a process (``python -c``) that imported ``hotpath.render.study`` and called its ``render``.

Runs (with --run) or reads (default) those files. With --against REV, each
round renders REV's tree first (a worktree of it, the same build folder) and then this one, so
that a host whose speed wanders between rounds moves both alike. Prints per commit its rounds'
seconds and their median, and the CPU and what `make host-check` said beside them.

    .venv/bin/python docs/evidence/render_time.py --run 3 --against 129e3f7   # about 4 min
    .venv/bin/python docs/evidence/render_time.py                          # the figures from the committed files
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "data" / "render-times"
RENDER = ("-m", "hotpath", "report", "--case", "all", "--profile", "reference", "--overview", "--out")
COLUMNS = ("commit", "round", "seconds", "cpu", "host")


def cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return "unknown"


def _git(*args: str, cwd: Path = ROOT) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout.strip()


def host() -> str:
    """`make host-check`'s verdict word (quiet, contended...), as it printed it."""
    done = subprocess.run(["make", "-s", "host-check"], cwd=ROOT, capture_output=True, text=True)
    said = [line for line in (done.stdout + done.stderr).splitlines() if line.startswith("hotpath: ")]
    return said[-1].removeprefix("hotpath: ").split(":")[0] if said else "unknown"


def render_seconds(tree: Path) -> float:
    with tempfile.TemporaryDirectory(prefix="hotpath-render-time-") as out:
        started = time.monotonic()
        # PYTHONPATH: the tree's own package, not the one installed in the virtual environment
        subprocess.run([sys.executable, *RENDER, out], cwd=tree, check=True, stdout=subprocess.DEVNULL,
                       env={**os.environ, "PYTHONPATH": str(tree)})
        return time.monotonic() - started


def run(rounds: int, against: str) -> None:
    if _git("status", "--porcelain", "--", "hotpath"):
        sys.exit("hotpath/ has uncommitted changes: a render time is a commit's")
    trees = [(_git("rev-parse", "--short", "HEAD"), ROOT)]
    with tempfile.TemporaryDirectory(prefix="hotpath-against-") as other:
        if against:
            _git("worktree", "add", "--detach", other, against)
            (Path(other) / "target").symlink_to(ROOT / "target")  # the same jar: flame graphs drawn alike
            trees.insert(0, (_git("rev-parse", "--short", against), Path(other)))
        try:
            checked = host()
            path = OUT / f"{datetime.date.today().isoformat()}.command.tsv"
            OUT.mkdir(parents=True, exist_ok=True)
            if not path.exists():
                path.write_text("\t".join(COLUMNS) + "\n")
            for k in range(1, rounds + 1):
                for commit, tree in trees:
                    seconds = render_seconds(tree)
                    print(f"{commit} round {k}: {seconds:.1f} s", flush=True)
                    with path.open("a") as f:
                        f.write(f"{commit}\t{k}\t{seconds:.1f}\t{cpu_model()}\t{checked}\n")
        finally:
            if against:
                _git("worktree", "remove", "--force", other)


def report() -> None:
    for path in sorted(OUT.glob("*.tsv")):
        rows = [dict(zip(COLUMNS, line.split("\t"))) for line in path.read_text().splitlines()[1:]]
        by_commit: dict[str, list[float]] = defaultdict(list)
        hosts: dict[str, set[str]] = defaultdict(set)
        for r in rows:
            by_commit[r["commit"]].append(float(r["seconds"]))
            hosts[r["commit"]].add(r["host"])
        how = "the command line" if path.name.endswith(".command.tsv") else "study.render from python -c"
        print(f"{path.name.split('.')[0]}, through {how} ({rows[0]['cpu']})")
        for commit, seconds in by_commit.items():
            # each commit's own: the host can read quiet one hour and contended the next
            print(f"  {commit}: median {statistics.median(seconds):.1f} s over {len(seconds)} rounds "
                  f"({', '.join(f'{s:.1f}' for s in seconds)}; host-check: {', '.join(sorted(hosts[commit]))})")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run", type=int, default=0, metavar="ROUNDS")
    parser.add_argument("--against", default="", metavar="REV")
    args = parser.parse_args()
    if args.run:
        run(args.run, args.against)
    report()
