"""Rendered reports, opened as a reviewer opens them: in headless Chromium (Debian's package).

Run by `make test-browser` on the smoke pass's reports, or `make check-reports` on reports/.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
#: Without these, Chromium reaches for Google's hosts at every start (this machine has no network).
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
VIEWPORT = {"width": 1280, "height": 900}


def pytest_addoption(parser):
    parser.addoption("--reports", default="reports", help="the folder of rendered reports")


@pytest.fixture(scope="session")
def reports(request) -> Path:
    folder = Path(request.config.getoption("--reports")).resolve()
    if not (folder / "index.html").is_file():
        pytest.fail(f"{folder}/index.html is missing: render the reports first (make report)")
    return folder


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).is_file():
        pytest.fail("Chromium is missing: apt-get install chromium (make test-browser does)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()
