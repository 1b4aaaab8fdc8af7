"""`make lab` as a person starts it: it must come up (also as root), list both kernels and
show JupyterLab in a browser."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
import urllib.request

from conftest import VIEWPORT

from hotpath.paths import ROOT

TOKEN = "hotpath-lab-test"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_make_lab_starts_lists_both_kernels_and_renders(browser, reports, tmp_path):
    port = free_port()
    log = tmp_path / "lab.log"
    args = f"--no-browser --ip=127.0.0.1 --port={port} --ServerApp.token={TOKEN}"
    with log.open("w") as out:
        lab = subprocess.Popen(["make", "-s", "lab", f"LAB_ARGS={args}"], cwd=ROOT, stdout=out,
                               stderr=subprocess.STDOUT, start_new_session=True)
    try:
        base = f"http://127.0.0.1:{port}"
        specs = None
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and lab.poll() is None:
            try:
                with urllib.request.urlopen(f"{base}/api/kernelspecs?token={TOKEN}", timeout=5) as r:
                    specs = json.load(r)
                break
            except OSError:
                time.sleep(1)
        assert lab.poll() is None, f"make lab exited ({lab.returncode}):\n{log.read_text()[-2000:]}"
        assert specs is not None, f"the lab did not answer in 120 s:\n{log.read_text()[-2000:]}"
        assert {"python3", "java"} <= set(specs["kernelspecs"]), sorted(specs["kernelspecs"])

        page = browser.new_page(viewport=VIEWPORT)
        page.goto(f"{base}/lab?token={TOKEN}", wait_until="load")
        page.wait_for_selector("#jp-main-dock-panel", timeout=60_000)
        # the file browser lists the study's notebooks once the lab has finished starting
        page.wait_for_selector(".jp-DirListing-item >> text=writer.ipynb", timeout=60_000)
        shots = reports / "screenshots"
        shots.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(shots / "lab.png"))
        assert "JupyterLab" in page.title()
        page.close()
    finally:
        os.killpg(lab.pid, signal.SIGTERM)
        try:
            lab.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(lab.pid, signal.SIGKILL)
