"""The five case studies: what each write-up is, which benchmarks belong to it, and the figures
kept beside it (data/claims/<case>.csv: what the write-up claims; data/floors/<case>.csv: the
least each benchmark must allocate). Every stage reads them."""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING
from pathlib import Path

from .errors import HotpathError, ResultsError, UnknownNameError
from .paths import CLAIMS, FLOORS, ROOT

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True)
class Case:
    id: str
    writeup: str
    system: str
    title: str
    question: str
    #: The JMH include regex selecting the case's benchmarks.
    benchmarks: str
    #: The `variant` @Param value every other variant is compared with.
    baseline: str = "old"
    #: A hotpath.peak.PeakCalls class: peak live heap per call is measured after JMH.
    peak_calls: str | None = None
    #: The write-up's own variant, and its main measurement: what the headline states first.
    candidate: str = "optimized"
    headline: tuple[str, str] = ("", "")
    #: The released artifact that holds the old code, and what of it no release can check.
    upstream: str = ""
    unchecked: str = ""

    @property
    def notebook(self):
        return ROOT / "notebooks" / f"{self.id}.ipynb"

    @property
    def java_package(self):
        return ROOT / "java-src" / "main" / "java" / "hotpath" / self.id

    @property
    def exists(self) -> bool:
        """A case exists once its models and its report notebook are in the tree."""
        return self.java_package.is_dir() and self.notebook.is_file()


CASES: dict[str, Case] = {
    c.id: c
    for c in (
        Case(
            id="writer",
            writeup="IGNITE-28836 (PR #13296)",
            system="Apache Ignite",
            title="DirectMessageWriter: cached stream, reused heap scratch for compressed fields",
            question=(
                "Does caching the current stream and reusing a heap scratch buffer and writer "
                "for compressed fields raise throughput and remove the direct-buffer churn?"
            ),
            benchmarks=r"^hotpath\.writer\.",
            headline=("hotpath.writer.WriterCompressedMapBenchmark.compressedMapFields", "entries=30"),
            upstream="org.apache.ignite:ignite-core:2.17.0 (the uncompressed primitive path only)",
            unchecked=("No release holds the compressed-field path: CompressedMessage and the "
                       "compressed fields exist only on Ignite's master branch, so the "
                       "write-up's allocation claims are checked against our model alone."),
        ),
        Case(
            id="encoder",
            writeup="IGNITE-28847",
            system="Apache Ignite",
            title="memcache REST response encoding: four payload copies to one",
            question=(
                "Does encoding the response straight into an exactly sized packet cut the "
                "payload copies from four to one without changing a byte on the wire?"
            ),
            benchmarks=r"^hotpath\.encoder\.",
            headline=("hotpath.encoder.EncoderPayloadBenchmark.encode", "payload=STR_64"),
            upstream="org.apache.ignite:ignite-core:2.17.0 (GridTcpRestParser)",
        ),
        Case(
            id="marshaller",
            writeup="IGNITE-28835",
            system="Apache Ignite",
            title="BinaryMarshaller marshal-to-stream: no trim copy, no second name scope",
            question=(
                "How much does writing the marshaller's internal array straight to the stream "
                "save, in isolation and once serialization is included?"
            ),
            benchmarks=r"^hotpath\.marshaller\.",
            headline=("hotpath.marshaller.MarshallerStreamBenchmark.marshalToStream", "size=1024"),
            upstream="org.apache.ignite:ignite-core:2.17.0 (BinaryMarshaller)",
        ),
        Case(
            id="zip",
            writeup="IGNITE-28848",
            system="Apache Ignite",
            title="ZooKeeper discovery marshalZip streamed through the compressor",
            question=(
                "Does streaming serialization through a buffered compressor cut allocation and "
                "peak memory, and where is the break-even against marshal-then-zip?"
            ),
            benchmarks=r"^hotpath\.zip\.",
            candidate="buffered",
            headline=("hotpath.zip.ZipMarshalBenchmark.marshalZip", "payload=LIST_1660K"),
            upstream="org.apache.ignite:ignite-zookeeper:2.17.0 (ZookeeperDiscoveryImpl.marshalZip)",
            peak_calls="hotpath.zip.ZipPeakCalls",
        ),
        Case(
            id="store",
            writeup="RocketMQ PR #10526 (issue #10525)",
            system="Apache RocketMQ",
            title="pull/dispatch path allocation, each change measured on its own",
            question=(
                "What does each of the five allocation changes save per operation, and what "
                "does the combined pull path save?"
            ),
            benchmarks=r"^hotpath\.store\.",
            headline=("hotpath.store.StorePullPathBenchmark.pull32", ""),
            upstream="org.apache.rocketmq:rocketmq-store:5.5.1 (the pull request is unmerged: every release is old)",
            unchecked=("The put-statistics lambda lives inside DefaultMessageStore.asyncPutMessage "
                       "and needs a started store: it cannot be run in isolation, so change 4 is "
                       "checked against our model alone."),
        ),
        # `make new-case NAME=<id>` adds a case above this line.
    )
}


def get_case(case_id: str) -> Case:
    try:
        return CASES[case_id]
    except KeyError:
        raise UnknownNameError(
            f"unknown case {case_id!r}; known cases: {', '.join(CASES)}"
        ) from None


def existing_cases() -> list[Case]:
    return [c for c in CASES.values() if c.exists]


#: The columns of data/claims/<case>.csv: the figures a write-up states, one claim a row.
#: ``mechanisms`` (optional): the patch's mechanisms ('+'-joined) whose work a time-mechanism
#: claim's frames are (what its share is held to), or the one a part claim states the effect of.
CLAIM_FIELDS = ["id", "claim", "benchmark", "params", "metric", "unit", "variant", "old", "new",
                "claimed_change", "note", "mechanisms"]
#: A part claim's metrics: what one of the patch's mechanisms changes alone, as the write-up
#: measured it apart; checked on a run of the mechanisms (make mechanisms), not a timed row.
PART_METRICS = ("part.time",)
#: The columns of data/floors/<case>.csv: the least each benchmark must allocate.
FLOOR_FIELDS = ["benchmark", "params", "heap_floor", "native_floor", "basis"]


def case_ids(given: str) -> list[str]:
    """The cases a command was given: 'all' (or empty) is every case that exists in the tree;
    else a comma list, each of which must exist."""
    if given in ("", "all"):
        return [c.id for c in existing_cases()]
    ids = [a.strip() for a in given.split(",") if a.strip()]
    for case_id in ids:
        if not get_case(case_id).exists:
            raise HotpathError(f"case {case_id!r} is not built yet (no models or notebook)")
    return ids


def read_table(path: Path, fields: list[str], numbers: tuple[str, ...] = (),
               optional: tuple[str, ...] = ()) -> pd.DataFrame:
    """A case's CSV of figures: every field present but the ``optional`` ones (blank where
    absent), the numeric ones as floats (blank: NaN); a case without the file has none."""
    import pandas as pd  # at first use: the command line starts without it

    if not path.is_file():
        return pd.DataFrame(columns=fields)
    with path.open(newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        missing = set(fields) - set(reader.fieldnames or []) - set(optional)
        if missing:
            raise ResultsError(f"{path}: missing columns {', '.join(sorted(missing))}")
        rows = list(reader)
    frame = pd.DataFrame(rows, columns=fields, dtype=object).fillna("")
    for col in numbers:
        frame[col] = frame[col].map(lambda v: float(v) if str(v).strip() else math.nan)
    return frame


def params_key(text: str) -> str:
    """A claim's or a floor's params as data/ writes them ('a=1;b=2'), as the pairs key a row
    ('a=1, b=2')."""
    return ", ".join(p.strip() for p in str(text).split(";") if p.strip())


def load_claims(case_id: str, folder: Path = CLAIMS) -> pd.DataFrame:
    """The write-up's claimed figures (data/claims/<case>.csv); their rows are also the rows
    the default run measures."""
    return read_table(Path(folder) / f"{case_id}.csv", CLAIM_FIELDS, ("old", "new"), optional=("mechanisms",))


def load_floors(case_id: str, folder: Path | None = None) -> pd.DataFrame:
    """The least each benchmark must allocate given its API (data/floors/<case>.csv), keyed as
    the pairs are ('a=1, b=2')."""
    frame = read_table(Path(folder or FLOORS) / f"{case_id}.csv", FLOOR_FIELDS,
                        ("heap_floor", "native_floor"))
    frame["params"] = frame["params"].map(params_key)
    return frame
