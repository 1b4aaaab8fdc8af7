"""The host check before a run that decides verdicts: a row of the reference run again in its
own fork shape, its time and fork spread held against the reference's."""

import dataclasses

import pytest

from hotpath.errors import HotpathError
from hotpath.measure import hostcheck, machine
from hotpath.measure.hostcheck import HostCheck, Row
from hotpath.measure.profiles import PROFILES
from hotpath.paths import JAR

REFERENCE = Row(65.5, 0.058, 8, "ns/op")


def test_the_reference_row_is_old_encode_str_64_as_the_reference_ran_it():
    row = hostcheck.reference_row()
    assert (row.forks, row.unit) == (8, "ns/op")
    assert row.time == pytest.approx(65.50, abs=0.01) and row.fork_cv == pytest.approx(0.0582, abs=1e-4)


@pytest.mark.parametrize("today, same_kind, quiet", [
    (Row(90.0, 0.03, 6, "ns/op"), True, True),     # the committed A/A's day: 1.37x, 3%
    (Row(242.0, 0.16, 6, "ns/op"), True, False),   # the day whose A/A called no row same
    (Row(202.0, 0.07, 6, "ns/op"), True, False),   # 3.08x the time, the spread near the reference's
    (Row(202.0, 0.07, 6, "ns/op"), False, True),   # the same on another CPU: its time is its own
    (Row(70.0, 0.12, 6, "ns/op"), True, False),    # as fast, but forks 2.1x as far apart
    (Row(70.0, 0.12, 6, "ns/op"), False, False),
])
def test_a_host_is_quiet_within_twice_the_references_time_and_spread(today, same_kind, quiet):
    found = HostCheck(today, REFERENCE, same_kind)
    assert found.quiet is quiet
    assert f"{today.time:.1f} ns/op over 6 forks" in found.describe()
    assert ("another CPU" in found.describe()) is (not same_kind)


def test_a_contended_host_stops_the_run_before_it_starts_and_says_how_to_go_on(monkeypatch, capsys):
    monkeypatch.delenv(machine.OVERRIDE, raising=False)
    contended = HostCheck(Row(242.0, 0.16, 6, "ns/op"), REFERENCE)
    with pytest.raises(HotpathError, match=r"host is contended today: .*3\.69x.*HOTPATH_ALLOW_BUSY=1"):
        hostcheck.refuse_if_contended(PROFILES["aa"], check=lambda: contended)
    quiet = HostCheck(Row(90.0, 0.03, 6, "ns/op"), REFERENCE)
    assert hostcheck.refuse_if_contended(PROFILES["aa"], check=lambda: quiet) is quiet
    assert "1.37x the reference's 65.5" in capsys.readouterr().out
    # told to run anyway, it does not measure at all
    monkeypatch.setenv(machine.OVERRIDE, "1")
    assert hostcheck.refuse_if_contended(PROFILES["aa"], check=pytest.fail) is None


def test_the_check_runs_the_row_in_the_references_fork_shape(tmp_path):
    cmd = hostcheck.command(tmp_path / "x.json")
    shape = " ".join(cmd)
    assert "-f 6 -wi 3 -w 1 s -i 2 -r 1 s" in shape
    assert "-p payload=STR_64 -p variant=old" in shape and cmd[cmd.index("-jar") + 2] == f"^{hostcheck.BENCHMARK}$"
    assert "-prof gc" in shape


@pytest.mark.forks
@pytest.mark.skipif(not JAR.is_file(), reason="needs target/benchmarks.jar (make build)")
def test_the_check_measures_the_row_and_reads_its_forks():
    short = dataclasses.replace(PROFILES["reference"], warmup_iterations=1, warmup_time="200 ms",
                                measurement_time="200 ms")
    found = hostcheck.measure(forks=2, profile=short)
    assert found.today.forks == 2 and found.today.unit == "ns/op"
    assert 10 < found.today.time < 10_000 and found.today.fork_cv >= 0
    assert found.reference == hostcheck.reference_row()
