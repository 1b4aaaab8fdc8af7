"""'Where the time went' as a reader sees it: a row's frames old against new with intervals, the
collector and the compiler apart, the row's time last; both CPU flame graphs weighed per op."""

import pandas as pd
import pytest

import hotpath as hp
from cpu_samples import BENCH, write_profiles
from hotpath.analyze import cpu as C
from hotpath.paths import JAR, REFERENCE
from hotpath.render import cpu as R

ROW = {"benchmark": BENCH, "method": "encode", "params": "payload=STR_1K", "baseline": "old",
       "candidate": "optimized"}


@pytest.fixture
def profiles(tmp_path):
    return C.read_file(write_profiles(tmp_path / "x.cpu.json"))


def test_a_rows_lines_name_it_once_lead_with_what_changed_and_end_on_its_time(profiles):
    pairs = pd.DataFrame([ROW])
    rows = C.sampled_rows(pairs, profiles)
    table = R.table(rows, {R.slug(pairs.iloc[0]): ("cpu/a.html", "cpu/b.html")})
    assert table.iloc[0]["row"] == "encode(payload=STR_1K)" and set(table["row"][1:]) == {""}
    first = table.iloc[0]
    assert first["frame"] == "Arrays.copyOf"
    assert first["new"] == "0 ns" and first["Δ ns/op (95% CI)"].startswith("−")
    assert first["flame graphs"] == "[dropped](cpu/a.html) · [added](cpu/b.html)"
    frames = list(table["frame"])
    assert any(f.startswith("the collector's threads") for f in frames)
    assert any(f.startswith("the compiler's threads") for f in frames)
    last = table.iloc[-1]
    assert last["frame"].startswith("the row's time") and last["share of the change"] == "100%"


def test_the_note_says_how_it_was_made_and_how_far_the_samples_reach(profiles):
    pairs = pd.DataFrame([ROW])
    note = R.note(C.sampled_rows(pairs, profiles), profiles, graphs=True)
    assert note.startswith("CPU samples made for a test.")
    assert "Benjamini–Hochberg" in note and "Fieller" in note
    assert "within 10% on 2 of 2 row-sides" in note


def test_a_flame_graphs_weights_are_picoseconds_per_op(profiles):
    a = C.attribute(profiles, BENCH, "payload=STR_1K", "old", "optimized")
    lines = R.collapsed(a.old).splitlines()
    total_ps = sum(int(line.rsplit(" ", 1)[1]) for line in lines)
    assert total_ps == pytest.approx(a.old.time_ns.mean() * 1e3, rel=1e-3)
    assert all(";" in line.split(" ")[0] or "jmhStub" in line for line in lines)


@pytest.mark.skipif(not JAR.is_file(), reason="needs target/benchmarks.jar (make build): the converter")
def test_both_graphs_of_a_row_are_drawn(profiles, tmp_path):
    pairs = pd.DataFrame([ROW])
    pages, why = R.draw(C.sampled_rows(pairs, profiles))
    assert why == ""
    (dropped, added), = pages.values()
    assert "Arrays.copyOf" in dropped and "Arrays.copyOf" not in added  # new no longer copies
    assert "<canvas" in dropped and "no longer does" in dropped and "beyond old" in added


def test_a_row_of_one_fork_a_side_is_said_to_have_no_interval(tmp_path):
    import json

    path = write_profiles(tmp_path / "x.cpu.json")
    document = json.loads(path.read_text())
    for entry in document["entries"]:
        entry["forks"] = entry["forks"][:1]
    path.write_text(json.dumps(document))
    profiles = C.read_file(path)
    note = R.note(C.sampled_rows(pd.DataFrame([ROW]), profiles), profiles, graphs=False)
    assert "1 row(s) had one fork a side" in note and "without an interval" in note
    five = C.read_file(write_profiles(tmp_path / "y.cpu.json"))
    assert "one fork a side" not in R.note(C.sampled_rows(pd.DataFrame([ROW]), five), five, graphs=False)


@pytest.mark.skipif(not (REFERENCE / "encoder.cpu.json").is_file(), reason="no committed CPU samples")
def test_the_labs_call_shows_any_two_sampled_variants_by_self_or_total_time(tmp_path):
    row = "encode(payload=STR_1K)"
    own = hp.cpu_frames(REFERENCE / "encoder.json", row, old="old", new="floor", out_dir=tmp_path)
    assert list(own.columns)[:4] == ["frame", "old ns/op", "floor ns/op", "Δ ns/op"]
    graphs = sorted(p.name for p in (tmp_path / "cpu").iterdir())
    assert graphs == ["encode-payload-STR_1K-floor.added.html", "encode-payload-STR_1K-floor.dropped.html"]
    under = hp.cpu_frames(REFERENCE / "encoder.json", row, new="floor", how="total", graphs=False)
    # a frame's total time holds its own: the busiest frame by total outweighs any by self
    assert under["old ns/op"].max() > own["old ns/op"].max()
    with pytest.raises(hp.HotpathError, match=r"no row 'encode\(payload=X\)'.*encode\(payload=STR_1K\)"):
        hp.cpu_frames(REFERENCE / "encoder.json", "encode(payload=X)", graphs=False)
    with pytest.raises(hp.HotpathError, match="no variant best; sampled: .*old, optimized"):
        hp.cpu_frames(REFERENCE / "encoder.json", row, new="best", graphs=False)
    # EncoderMechanisms has encode(payload=STR_1K) too: old against optimized names the class
    with pytest.raises(hp.HotpathError, match=r"2 benchmark classes hold it with old and optimized: name one"):
        hp.cpu_frames(REFERENCE / "encoder.json", row, graphs=False)
    assert not hp.cpu_frames(REFERENCE / "encoder.json", f"EncoderPayload.{row}", graphs=False).empty
    with pytest.raises(hp.HotpathError, match="how='all': self or total"):
        hp.cpu_frames(REFERENCE / "encoder.json", row, how="all", graphs=False)
