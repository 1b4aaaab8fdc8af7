"""CPU samples made to a known answer, as ``<case>.cpu.json`` holds them: a row whose old side
spends 90 of its 200 ns/op in Arrays.copyOf and whose optimized side (110 ns/op) spends none,
Checksum.update's 25 ns/op on both, each fork slowed by the host as a whole, the collector's and
the compiler's threads beside them."""

import json
from pathlib import Path

import numpy as np

from hotpath.records import CPU_FORMAT

WORKER = "[hotpath.x.CodecBenchmark.encode-jmh-worker-1]"
STUB = "hotpath/x/jmh_generated/CodecBenchmark_encode_jmhTest.encode_avgt_jmhStub"
BENCH = "hotpath.x.CodecBenchmark.encode"


def _stacks(model: str) -> list[str]:
    return [f"{WORKER};{STUB};hotpath/x/{model}Codec.encode",
            f"{WORKER};{STUB};hotpath/x/{model}Codec.encode;java/util/Arrays.copyOf",
            f"{WORKER};{STUB};hotpath/x/{model}Codec.encode;hotpath/x/Checksum.update",
            "[GC Thread#0];G1ParScanThreadState::trim_queue",
            "[C2 CompilerThread0];C2Compiler::compile_method",
            "[VM Thread];VMThread::run;VM_G1CollectForAllocation::doit",
            "[Signal Dispatcher];os::signal_wait"]


def _entry(model: str, row_ns: float, copy_ns: float, forks: int, seed: int) -> dict:
    """A row-side whose encode takes row_ns per op, copy_ns of it in Arrays.copyOf, 25 ns in
    Checksum.update, each fork slowed by the host as a whole."""
    rng = np.random.default_rng(seed)
    out = []
    for k in range(forks):
        host = rng.lognormal(0, 0.04)
        samples = 1000  # of the worker, at 10 ms: 10 s of its CPU ...
        ops = int(samples * 1e7 / (row_ns * host) / 0.97)  # ... 97% of the fork's time
        copy = int(round(samples * copy_ns / row_ns * rng.normal(1, 0.02)))
        check = int(round(samples * 25 / row_ns * rng.normal(1, 0.02)))
        out.append({"fork": k, "first": 5, "iterations": 40, "ops": ops,
                    "time_ns": row_ns * host, "window_ns": 10 ** 10,
                    # the thread's clock: on the CPU 99% of the time (the samples miss some)
                    "cpu_ns": int(0.99 * ops * row_ns * host),
                    "samples": [[0, samples - copy - check], [1, copy], [2, check], [3, 30], [4, 5],
                                [5, 3], [6, 1]]})
    stacks = [s.split(";") for s in _stacks(model)]
    frames = sorted({f for s in stacks for f in s})
    return {"benchmark": BENCH, "params": {"payload": "STR_1K", "variant": model.lower()},
            "engine": "cpu", "interval_ns": 10_000_000, "jvm": "17", "frames": frames,
            "stacks": [[frames.index(f) for f in s] for s in stacks], "forks": out}


def write_profiles(path: Path) -> Path:
    """The two sides' file at ``path``, five forks each."""
    document = {"format": CPU_FORMAT, "engine": "cpu", "recorded": "CPU samples made for a test",
                "entries": [_entry("Old", 200.0, 90.0, 5, 1), _entry("Optimized", 110.0, 0.0, 5, 2)]}
    path.write_text(json.dumps(document))
    return path
