"""The host check before a run that decides verdicts: a row of the 2026-11-26 A/A run again as
the A/A ran it, its fork spread and time held against the A/A's forks of it."""

import dataclasses
import json

import pytest

from hotpath.errors import HotpathError
from hotpath import machine
from hotpath.measure import hostcheck
from hotpath.measure.hostcheck import HostCheck, Row
from hotpath.measure.profiles import PROFILES
from hotpath.paths import JAR

AA = Row(87.0, 0.0095, 8, "ns/op")


def test_the_anchor_is_the_committed_aas_forks_of_old_encode_str_64_from_3_s_on():
    row = hostcheck.aa_row()
    assert (row.forks, row.unit) == (8, "ns/op")
    assert row.time == pytest.approx(86.99, abs=0.01) and row.fork_cv == pytest.approx(0.00949, abs=1e-5)


@pytest.mark.parametrize("today, same_kind, quiet", [
    (Row(88.0, 0.012, 6, "ns/op"), True, True),     # a day like the 2026-11-26 A/A's
    (Row(200.3, 0.139, 6, "ns/op"), True, False),   # the day whose A/A called no row same
    (Row(184.5, 0.037, 6, "ns/op"), False, False),  # another CPU, forks 3.9x as far apart
    (Row(184.5, 0.015, 6, "ns/op"), False, True),   # another CPU, forks as close: its time is its own
    (Row(184.5, 0.015, 6, "ns/op"), True, False),   # the A/A's CPU at 2.12x its time
])
def test_a_host_is_quiet_within_twice_the_aas_spread_and_time(today, same_kind, quiet):
    found = HostCheck(today, AA, same_kind)
    assert found.quiet is quiet
    assert f"{today.time:.1f} ns/op over 6 forks (each fork's p10)" in found.describe()
    assert ("another CPU" in found.describe()) is (not same_kind)


def test_a_contended_host_stops_the_run_before_it_starts_and_says_how_to_go_on(monkeypatch, capsys):
    monkeypatch.delenv(machine.OVERRIDE, raising=False)
    contended = HostCheck(Row(200.3, 0.139, 6, "ns/op"), AA)
    with pytest.raises(HotpathError, match=r"host is contended today: .*2\.30x.*14\.6x.*HOTPATH_ALLOW_BUSY=1"):
        hostcheck.refuse_if_contended(PROFILES["aa"], check=lambda: contended)
    quiet = HostCheck(Row(88.0, 0.012, 6, "ns/op"), AA)
    assert hostcheck.refuse_if_contended(PROFILES["aa"], check=lambda: quiet) is quiet
    assert "1.01x the 2026-11-26 A/A's 87.0" in capsys.readouterr().out
    # told to run anyway, it does not measure at all
    monkeypatch.setenv(machine.OVERRIDE, "1")
    assert hostcheck.refuse_if_contended(PROFILES["aa"], check=pytest.fail) is None


def test_a_run_records_the_check_it_ran_before_it():
    record = json.loads(json.dumps(HostCheck(Row(88.0, 0.012, 6, "ns/op"), AA, False).record()))
    assert record["today"] == {"time": 88.0, "fork_cv": 0.012, "forks": 6, "unit": "ns/op",
                               "probe_slow": 0, "probed": 0, "fast": 0, "fast_time": 0.0}
    assert record["committed_aa"]["time"] == 87.0 and record["estimate"] == "p10"
    assert (record["quiet"], record["same_kind"]) == (True, False)
    assert record["command"].startswith("java -jar target/benchmarks.jar '^hotpath.encoder.")
    assert f"-jvmArgsAppend '{' '.join(hostcheck.SHAPE.jvm_args)}" in record["command"]
    assert "-rff" not in record["command"]


def test_the_check_counts_the_iterations_beside_which_the_host_ran_its_probe_slow():
    entry = {"benchmark": hostcheck.BENCHMARK, "params": {"payload": "STR_64", "variant": "old"},
             "primaryMetric": {"scoreUnit": "ns/op", "rawData": [[90.0, 88.0, 89.0], [91.0, 180.0, 170.0]]},
             "secondaryMetrics": {"host.probe": {"rawData": [[91.0, 91.5, 91.2], [92.0, 170.0, 175.0]]}}}
    row = hostcheck.row_of([entry], skip=1)
    assert (row.probe_slow, row.probed) == (2, 4)
    found = HostCheck(row, AA)
    assert found.describe().endswith("the host-speed probe 1.1x its full speed or slower beside 2 of 4 iterations")
    assert hostcheck.row_of([{**entry, "secondaryMetrics": {}}]).probed == 0


def test_a_fork_in_the_compilers_faster_mode_is_set_aside_and_said_not_read_as_the_host():
    # as the Intel Xeon ran the row on 2026-12-01: five forks at 175 ns/op, one at 128
    fork = lambda level: [level * (1 + 0.002 * (i % 3)) for i in range(20)]  # noqa: E731
    entry = {"benchmark": hostcheck.BENCHMARK, "params": {"payload": "STR_64", "variant": "old"},
             "primaryMetric": {"scoreUnit": "ns/op",
                               "rawData": [fork(v) for v in (172.2, 174.9, 174.3, 174.4, 176.4, 128.0)]}}
    row = hostcheck.row_of([entry])
    assert (row.forks, row.fast) == (5, 1) and row.fast_time == pytest.approx(128.0, abs=0.1)
    assert row.fork_cv < 0.01 and HostCheck(row, AA, False).quiet
    assert "(each fork's p10; 1 more in the compiler's faster mode at 128.0, set aside)" in HostCheck(row, AA, False).describe()
    # a fork the host slowed is no mode of the compiler's: it stays, and the check reads contended
    slowed = hostcheck.row_of([{**entry, "primaryMetric": {"scoreUnit": "ns/op", "rawData": [
        fork(v) for v in (172.2, 174.9, 174.3, 174.4, 176.4, 230.0)]}}])
    assert slowed.fast == 0 and not HostCheck(slowed, AA, False).quiet
    # half the forks fast: not fewer than half, so no mode is set aside
    assert hostcheck.faster_mode([128.0, 129.0, 130.0, 175.0, 176.0, 177.0]) == 0
    assert hostcheck.faster_mode([128.0, 175.0, 176.0, 177.0, 175.5, 176.5]) == 1
    assert hostcheck.aa_row().fast == 0  # the A/A's forks, one mode


def test_the_check_runs_the_row_as_the_aa_did_after_a_3_s_warmup(tmp_path):
    cmd = hostcheck.command(tmp_path / "x.json")
    shape = " ".join(cmd)
    assert "-f 6 -wi 3 -w 1 s -i 20 -r 100 ms" in shape and "-prof gc" in shape
    assert "-prof hotpath.profiler.HostSpeedProfiler" in shape
    assert " ".join(PROFILES["aa"].jvm_args) in shape
    assert "-p payload=STR_64 -p variant=old" in shape and cmd[cmd.index("-jar") + 2] == f"^{hostcheck.BENCHMARK}$"
    assert hostcheck.SHAPE.estimate == PROFILES["aa"].estimate


@pytest.mark.forks
@pytest.mark.skipif(not JAR.is_file(), reason="needs target/benchmarks.jar (make build)")
def test_the_check_measures_the_row_and_reads_its_forks():
    short = dataclasses.replace(hostcheck.SHAPE, warmup_iterations=1, warmup_time="200 ms",
                                measurement_iterations=5)
    found = hostcheck.measure(forks=2, shape=short)
    assert found.today.forks == 2 and found.today.unit == "ns/op"
    assert 10 < found.today.time < 10_000 and found.today.fork_cv >= 0
    assert found.today.probed == 10 and "the host-speed probe" in found.describe()
    assert found.aa == hostcheck.aa_row()


def test_waiting_for_a_quiet_host_checks_every_interval_until_it_is():
    contended, quiet = HostCheck(Row(200.3, 0.139, 6, "ns/op"), AA), HostCheck(Row(88.0, 0.012, 6, "ns/op"), AA)
    now, slept, lines = [0.0], [], []

    def sleep(s):
        slept.append(s)
        now[0] += s

    def run(readings, wait_s):
        readings = iter(readings)
        slept.clear()
        now[0] = 0.0

        def check():
            now[0] += hostcheck.CHECK_S
            return next(readings)
        return hostcheck.wait_until_quiet(wait_s, 600, check, sleep, lambda: now[0], lines.append)

    assert run([quiet], 3600) is quiet and slept == []
    assert run([contended, contended, quiet], 3600) is quiet and slept == [600, 600]
    # no check starts that would end after the wait: in an hour, six checks, the last at 53 min 20 s
    assert run([contended] * 10, 3600) is contended and len(slept) == 5
    assert "14.6x" in lines[-1]


def test_a_wait_that_cannot_be_read_is_refused_before_any_check(capsys):
    from hotpath.cli import main

    assert main(["host-check", "--wait", "soon"]) == 2
    assert "cannot read the wait 'soon'" in capsys.readouterr().err
