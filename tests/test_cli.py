"""The command line refuses bad names with one line and exit code 2."""

import sys

from hotpath.cli import main


def test_unknown_case_and_profile_are_refused_with_one_line(capsys):
    assert main(["check", "--case", "nope", "--profile", "quick"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown case 'nope'" in err
    assert main(["check", "--case", "writer", "--profile", "fast"]) == 2
    assert "unknown profile 'fast'" in capsys.readouterr().err


def test_table_of_a_missing_file_is_refused(capsys, tmp_path):
    assert main(["table", str(tmp_path / "none.json")]) == 2
    assert "no such results file" in capsys.readouterr().err


def test_table_prints_jira_markup_for_any_jmh_file(capsys, data_dir):
    assert main(["table", str(data_dir / "avgt-variant-gc.json"), "--format", "jira"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("||benchmark||old ns/op||optimized ns/op||")
    assert "→ 0 B/op" in out


def test_the_reference_profile_reads_and_writes_only_the_committed_data_set():
    from hotpath.paths import REFERENCE, RESULTS, results_file
    from hotpath.measure.profiles import get_profile

    assert results_file("reference", "zip") == REFERENCE / "zip.json"
    assert results_file("full", "zip") == RESULTS / "full" / "zip.json"
    # The full profile: recorded forks, each by its 10th percentile, the CPU tail in its timed forks
    # (its verdicts and its frames from the same forks).
    import dataclasses

    assert get_profile("reference") == dataclasses.replace(get_profile("full"), name="reference",
                                                           purpose=get_profile("reference").purpose)
    assert get_profile("reference").samples_cpu and get_profile("reference").estimate == "p10"
    assert "each recorded from its start" in get_profile("reference").describe()


def test_what_a_command_wrote_is_said_as_it_comes_and_a_failure_after_it_is_one_line(
        capsys, tmp_path, monkeypatch):
    import json

    from hotpath import cli
    from hotpath.errors import HotpathError
    from hotpath.render.document import MANIFEST

    report_dir = tmp_path / "report"
    report_dir.mkdir()
    (report_dir / MANIFEST).write_text(json.dumps({"headline": "old -> new: 2 of 2 faster"}))

    def wrote_then_failed(args):
        yield tmp_path / "results.json"
        yield cli._report(report_dir)
        raise HotpathError("the third step failed")

    monkeypatch.setattr(cli.command, "declared",
                        [d if d[0] != "profiles" else (*d[:3], wrote_then_failed)
                         for d in cli.command.declared])
    assert main(["profiles"]) == 2
    captured = capsys.readouterr()
    assert captured.out.splitlines() == [f"hotpath: wrote {tmp_path / 'results.json'}",
                                         f"hotpath: wrote {report_dir}/report.html",
                                         "hotpath: old -> new: 2 of 2 faster"]
    assert captured.err == "hotpath: the third step failed\n"


def test_every_command_is_offered_once_in_the_order_declared():
    from hotpath.cli import command, parser

    names = [d[0] for d in command.declared]
    assert len(names) == len(set(names)) == 24
    choices = parser()._subparsers._group_actions[0].choices
    assert list(choices) == names


def test_a_command_that_only_checks_starts_without_the_analysis_libraries(data_dir):
    # `make report` runs `hotpath check` first: 2 s of imports it never used, now none
    import subprocess

    code = ("import sys; from hotpath.cli import main; rc = main(['check', '--case', 'all', '--profile', "
            "'reference']); print(rc, *sorted(m for m in ('pandas', 'scipy', 'matplotlib') if m in sys.modules))")
    said = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert said == ["0"]
    # and a command that reads a run imports them when it runs
    code = (f"import sys; from hotpath.cli import main; main(['table', {str(data_dir / 'avgt-variant-gc.json')!r}]); "
            "print('pandas' in sys.modules, file=sys.stderr)")
    said = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert said.stderr.split()[-1] == "True" and "old" in said.stdout
