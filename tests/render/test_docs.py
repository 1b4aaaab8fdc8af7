"""README.md and docs/: short, every quoted figure generated from the data, every command and
link in them still there."""

import re
import shlex
from pathlib import Path

import pandas as pd
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


class _Runs:
    """A stand-in for the reference, holding only data/default-runs.tsv's rows."""

    def __init__(self, **columns):
        import pandas as pd
        self.default_runs = pd.DataFrame({
            "commit": ["a", "b", "b"], "date": ["d"] * 3, "make_report_s": [500, 532, 575],
            "benchmarks": ["7 min"] * 3, "decided": [14, 10, 9], "rows": [18] * 3,
            "by_case": ["-"] * 3, "forks": ["older design", "this design", "this design"], **columns})


def test_the_default_run_sentence_says_it_plainly():
    """Time and rows decided over the current design's runs, then the design behind one link:
    no parenthesis of design terms."""
    text = docs.default_run(_Runs())
    assert text == ("From 2 fresh clones on a 2-core machine it took **8 min 52 s – 9 min 35 s** in "
                    "all, set-up included, and decided **9 – 10 of its 18** time rows "
                    f"({docs.DESIGN_LINK}).\n")
    assert text.count("(") == 1 + docs.DESIGN_LINK.count("(")


def test_the_default_run_sentence_adds_large_effects_and_noise_where_the_runs_record_them():
    text = docs.default_run(_Runs(large_decided=[13, 12, 9], large_rows=[13] * 3,
                                  fork_cv=[0.05, 0.113, 0.147]))
    assert ("decided **9 – 10 of its 18** time rows, and 9 – 12 of the 13 rows whose effect in the "
            "reference is 20% or more as the reference did; the machine's forks of one row spread "
            "11.3% – 14.7% from one another (") in text
    # runs from before the tsv kept the noise: said of the one that did, not of all
    text = docs.default_run(_Runs(fork_cv=[0.05, None, 0.024]))
    assert "; in the run that recorded it, the machine's forks of one row spread 2.4% from one another (" in text


def test_the_headline_says_what_the_mechanisms_verdicts_rest_on():
    from hotpath.analyze import claims

    def why(what: str) -> str:
        return f"{claims.AT_SITES} matching `x`; {what}"

    mechanisms = pd.DataFrame({"why": [why(claims.COUNTS_MATCH + ": stated 1 → 0"),
                                       why(claims.COUNTS_DIFFER + ": stated 64 → 31"),
                                       why(claims.DIRECTION_ONLY)]})
    assert docs._what_was_checked(mechanisms) == (
        " (2 state their counts, 1 measured as stated, 1 not; 1 states none and was checked for "
        "its direction only)")
    assert docs._what_was_checked(mechanisms.iloc[:1]) == (
        " (1 states its counts, each measured as stated)")


def test_the_fidelity_block_counts_each_kind_of_pairing_apart(made):
    text = made["fidelity-sites"]
    assert text.startswith("Of the reference's ")
    kinds = re.findall(r"^- (\d+) ", text, re.M)
    assert sum(map(int, kinds)) == int(re.search(r"reference's (\d+) rows", text).group(1))
    assert "nothing to pair" in text and "as totals" in text
    assert made["fidelity-counts"].startswith(text.split(":")[0])
