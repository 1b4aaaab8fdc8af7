"""README.md and docs/: short, every quoted figure generated from the data, every command and
link in them still there."""

import re
import shlex
from pathlib import Path

import pytest

from hotpath.render import docs
from hotpath.cli import parser

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / name for name in docs.FILES]


def test_the_readme_starts_short():
    assert (ROOT / "README.md").stat().st_size <= 12 * 1024


@pytest.fixture(scope="module")
def made() -> dict[str, str]:
    """The blocks as the data give them, made once: every block reads the whole reference."""
    return docs.blocks()


def test_quoted_figures_match_the_data(made):
    assert docs.stale(made=made) == []


def test_every_generated_block_is_quoted_somewhere():
    text = "".join(p.read_text(encoding="utf-8") for p in PAGES)
    quoted = {m.group("name") for m in docs.BLOCK.finditer(text)}
    assert quoted == set(docs.GENERATORS)


def test_a_stale_block_is_found(tmp_path, made):
    for name in docs.FILES:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text((ROOT / name).read_text(encoding="utf-8"), encoding="utf-8")
    readme = tmp_path / "README.md"
    readme.write_text(readme.read_text(encoding="utf-8").replace("| writer |", "| writer (edited) |"),
                      encoding="utf-8")
    assert docs.stale(tmp_path, made) == ["README.md: headline"]


def _commands():
    """Each simple command of the pages' sh blocks: continued lines joined, `a && b` and `a; b`
    apart, a subshell's parentheses and shell variable assignments dropped."""
    for page in PAGES:
        for block in re.findall(r"```sh\n(.*?)```", page.read_text(encoding="utf-8"), re.S):
            lines = [line.split(" #")[0].rstrip() for line in block.splitlines()]
            for line in re.sub(r"\\\n\s*", " ", "\n".join(lines)).splitlines():
                for command in re.split(r"&&|;", line):
                    command = command.strip().strip("()").strip()
                    if command and not command.startswith("#") \
                            and not re.fullmatch(r"[a-z_]\w*=\S*", command):
                        yield page.relative_to(ROOT), command


def _make_variables() -> set[str]:
    """The variables the Makefile reads, which a command line may set."""
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    return set(re.findall(r"\$\(([A-Z][A-Z_]*)\)", text))


def _targets() -> set[str]:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    return set(re.findall(r"(?m)^([a-z][\w-]*):", text))


@pytest.mark.parametrize("page, line", list(_commands()))
def test_every_command_in_the_docs_exists(page, line):
    words = shlex.split(line)
    if words[0] == "make":
        targets = [w for w in words[1:] if "=" not in w]
        assert all(t in _targets() for t in targets), f"{page}: {line}"
        for w in words[1:]:
            if "=" in w:
                assert w.split("=")[0] in _make_variables(), f"{page}: {line}"
    elif words[0].endswith("bin/hotpath"):
        args = [w for w in words[1:]]
        try:
            parser().parse_args(args)
        except SystemExit as e:
            pytest.fail(f"{page}: {line}: hotpath refuses these arguments ({e})")
    else:
        assert words[0] in ("git", "cd", "mvn"), f"{page}: {line}: an unknown command"


def test_every_relative_link_resolves():
    for page in PAGES:
        for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8")):
            assert (page.parent / target).exists(), f"{page.name}: {target}"
