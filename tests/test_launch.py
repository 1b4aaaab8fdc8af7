"""The entry point starts a render's forkserver before the command line's imports, for the
commands that render side by side, and for no other."""

import pytest

from hotpath import launch


@pytest.mark.parametrize("argv, started", [
    (["report", "--case", "zip"], True),
    (["notebook", "notebooks/zip.ipynb"], True),
    (["report", "--help"], False),
    (["table", "x.json"], False),
    ([], False),
])
def test_the_forkserver_starts_first_only_for_a_rendering_command(monkeypatch, argv, started):
    from hotpath import cli
    from hotpath.render import warm

    calls: list[str] = []
    monkeypatch.setattr(warm, "start", lambda: calls.append("forkserver"))
    monkeypatch.setattr(cli, "main", lambda args=None: calls.append("command line") or 0)
    assert launch.main(argv) == 0
    assert calls == (["forkserver", "command line"] if started else ["command line"])
