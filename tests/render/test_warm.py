"""Kernels forked from a render's zygote are kernels of their own: each in its own process with
the launcher's folder and environment, nothing one sets seen by the next, killed with their
launcher, gone with the zygote; where no zygote answers, an ordinary kernel starts instead."""

import json
import os
import time
from pathlib import Path

from processes import descendants, gone

from hotpath.paths import ROOT
from hotpath.render import kernels, warm


def _run(code: str, env: dict[str, str] | None = None, cwd=None) -> tuple[dict, object]:
    """``code``'s last printed line, as JSON, from a python3 kernel started as a render starts
    one; and its manager, left running."""
    km = kernels.manager_class()(kernel_name="python3", transport="ipc")
    km.ip = str(cwd or ROOT) + "/.kernel-test"
    km.start_kernel(cwd=str(cwd or ROOT), env={**os.environ, **(env or {})})
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=60)
        printed = []
        kc.execute_interactive(code, timeout=60, output_hook=lambda m: printed.append(
            m["content"].get("text", "")) if m["msg_type"] == "stream" else None)
    finally:
        kc.stop_channels()
    return json.loads("".join(printed).strip().splitlines()[-1]), km


def _stop(km) -> None:
    km.shutdown_kernel(now=True)
    km.cleanup_resources()


REPORT = ("import gc, os, sys, json; print(json.dumps({'pid': os.getpid(), 'ppid': os.getppid(), "
          "'cwd': os.getcwd(), 'mark': os.environ.get('HOTPATH_TEST_MARK'), "
          "'preloaded': 'pandas' in sys.modules, 'seen': globals().get('LEFT_BEHIND'), "
          "'youngest': gc.get_threshold()[0], 'frozen': gc.get_freeze_count()}))")


def test_each_kernel_is_a_fork_of_its_own_with_its_launchers_folder_and_environment(tmp_path):
    with warm.zygote(ROOT) as zygote, warm.using(zygote):
        first, km1 = _run("LEFT_BEHIND = 1\nimport hotpath\n" + REPORT,
                          env={"HOTPATH_TEST_MARK": "one"}, cwd=tmp_path)
        second, km2 = _run(REPORT, env={"HOTPATH_TEST_MARK": "two"})
        _stop(km1)
        _stop(km2)
    assert first["pid"] != second["pid"]
    # both forked by the zygote, not launched by this process or by their launchers
    assert first["ppid"] == second["ppid"] != os.getpid()
    assert second["preloaded"], "a fork comes with what the zygote imported"
    assert first["cwd"] == str(tmp_path) and second["cwd"] == str(ROOT)
    assert (first["mark"], second["mark"]) == ("one", "two")
    assert second["seen"] is None, "a name one kernel set is not in the next"
    # the collector as the forkserver left it (hotpath.render.forkserver_ready)
    assert second["youngest"] == warm.YOUNGEST and second["frozen"] > 100_000


def test_a_kernel_whose_launcher_is_killed_is_killed_and_the_zygote_takes_the_next():
    with warm.zygote(ROOT) as zygote, warm.using(zygote):
        ran, km = _run(REPORT)
        km.provisioner.process.kill()  # the launcher, as a kernel manager's kill stops it
        assert gone(ran["pid"]), "the fork outlived its launcher"
        _stop(km)
        after, km = _run(REPORT)
        _stop(km)
    assert after["ppid"] == ran["ppid"]


def test_a_kernel_shut_down_by_its_manager_exits_and_so_does_its_launcher():
    with warm.zygote(ROOT) as zygote, warm.using(zygote):
        ran, km = _run(REPORT)
        launcher = km.provisioner.process
        km.shutdown_kernel(now=False)  # a shutdown request: the fork exits of itself
        km.cleanup_resources()
        assert gone(ran["pid"])
        assert launcher.wait(timeout=10) == 0


def test_forks_go_with_their_zygote():
    with warm.zygote(ROOT) as zygote, warm.using(zygote):
        ran, km = _run(REPORT)
    try:
        assert gone(ran["pid"])
    finally:
        _stop(km)


def test_where_no_zygote_answers_an_ordinary_kernel_starts(tmp_path):
    with warm.using(str(tmp_path / "no-zygote")):
        ran, km = _run(REPORT)
        _stop(km)
    # the launcher became the kernel: this process's child, importing for itself
    assert ran["ppid"] == os.getpid() and not ran["preloaded"]


#: A chart drawn as the reports draw theirs (Agg, hotpath.render.charts), shown as a PNG.
CHART = """import io
import hotpath as hp
hp.THRESHOLD  # the face reached first, as every report does: its charts draw headless (Agg)
import matplotlib.pyplot as plt
from IPython.display import Image, display
figure, axes = plt.subplots()
axes.bar(["old", "new"], [3, 1])
axes.set_title(hp.__name__)
png = io.BytesIO()
figure.savefig(png, format="png")
display(Image(png.getvalue()))
print(1 + 1)"""


def test_a_notebook_executes_to_the_same_bytes_in_a_fork_and_in_a_kernel_of_its_own(tmp_path):
    """A fork runs ipykernel's own start: the outputs (a chart among them) are what a kernel of
    its own gives."""
    from hotpath.render import report

    notebook = tmp_path / "n.ipynb"
    notebook.write_text(json.dumps({
        "cells": [{"cell_type": "code", "execution_count": None, "id": "a", "metadata": {},
                   "outputs": [], "source": CHART}],
        "metadata": {"kernelspec": {"name": "python3", "language": "python", "display_name": "Python 3"}},
        "nbformat": 4, "nbformat_minor": 5}))
    executed = tmp_path / "executed.ipynb"
    own = report.execute(notebook, executed, {}).read_bytes()
    with warm.zygote(ROOT) as zygote, warm.using(zygote):
        forked = report.execute(notebook, executed, {}).read_bytes()
    assert b"image/png" in own
    assert forked == own


def test_a_zygote_whose_render_died_without_stopping_it_ends():
    import subprocess
    import sys

    # the render's process starts a zygote, names the processes it started (the forkserver and
    # its fork the zygote, the resource tracker) and is gone, as if killed
    script = """import os
from pathlib import Path
from hotpath.paths import ROOT
from hotpath.render import warm
held = warm.zygote(ROOT)
held.__enter__()
def parent(p):
    try:
        return (p / "stat").read_text().rsplit(")", 1)[1].split()[1]
    except OSError:  # a process of the machine's that ended while the others were read
        return None
started = {str(os.getpid())}
for _ in range(3):
    started |= {p.name for p in Path("/proc").iterdir() if p.name.isdigit() and parent(p) in started}
print(*(started - {str(os.getpid())}), flush=True)
os._exit(0)
"""
    started = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert started.returncode == 0, started.stderr
    pids = [int(pid) for pid in started.stdout.split()]
    assert len(pids) == 3, started  # the forkserver, the zygote, the resource tracker
    assert all(gone(pid) for pid in pids), "the zygote or its server outlived its render"

def test_a_render_sent_sigterm_leaves_nothing_running(tmp_path):
    import signal
    import subprocess
    import sys

    # SIGTERM ends a render's process at once, its pool's shutdown skipped: its workers, each
    # holding the forkserver open, would wait for work forever (hotpath.render.warm.worker_of)
    render = subprocess.Popen([sys.executable, "-m", "hotpath", "report", "--case", "all", "--profile",
                               "reference", "--out", str(tmp_path / "out")], cwd=ROOT,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline, running = time.monotonic() + 120, set()
        while time.monotonic() < deadline and render.poll() is None:
            running = descendants(render.pid)
            # a kernel's launcher is a worker's child: the workers are at work
            if any(b"warm_launch" in Path(f"/proc/{pid}/cmdline").read_bytes()
                   for pid in running if Path(f"/proc/{pid}/cmdline").exists()):
                break
            time.sleep(0.2)
        assert render.poll() is None, "the render ended before its workers were seen at work"
        render.send_signal(signal.SIGTERM)
        render.wait(timeout=30)
    finally:
        render.kill()
    assert len(running) >= 5, running  # the forkserver, its workers, the zygote, a launcher...
    left = [pid for pid in running if not gone(pid, within_s=15.0)]
    assert not left, f"left running after the render was sent SIGTERM: {left}"
