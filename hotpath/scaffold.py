"""`make new-case NAME=<id>`: a new case that runs green from the start.

It writes a minimal old and optimized model (two copies against one) with every piece a case
needs — model package, same-output check, one benchmark, one JUnit test, a report notebook, a
Java notebook, an empty claims file, its floors and the registry entry — and names the files to
fill in. An invalid or taken name writes nothing.
"""

from __future__ import annotations

import json
import re
from typing import Any
from pathlib import Path

from .cases import CLAIM_FIELDS
from .errors import HotpathError

NAME = re.compile(r"[a-z][a-z0-9]{1,19}")
#: Java keywords and literals cannot name a package.
JAVA_WORDS = set("""abstract assert boolean break byte case catch char class const continue default
do double else enum extends final finally float for goto if implements import instanceof int
interface long native new package private protected public return short static strictfp super
switch synchronized this throw throws transient try void volatile while true false null var
record yield sealed permits""".split())
MARKER = "        # `make new-case NAME=<id>` adds a case above this line.\n"
SIZES = (64, 4096)


def files(root: Path, name: str) -> dict[str, Path]:
    cls = name.capitalize()
    java = root / "java-src"
    return {
        "old model": java / "main" / "java" / "hotpath" / name / f"Old{cls}.java",
        "optimized model": java / "main" / "java" / "hotpath" / name / f"Optimized{cls}.java",
        "same-output check": java / "main" / "java" / "hotpath" / name / f"{cls}Variant.java",
        "benchmark": java / "bench" / "java" / "hotpath" / name / f"{cls}CopyBenchmark.java",
        "JUnit test": java / "test" / "java" / "hotpath" / name / f"{cls}EquivalenceTest.java",
        "report notebook": root / "notebooks" / f"{name}.ipynb",
        "Java notebook": root / "notebooks" / "java" / f"{name}.ipynb",
        "claims": root / "data" / "claims" / f"{name}.csv",
        "floors": root / "data" / "floors" / f"{name}.csv",
    }


def check_name(root: Path, name: str) -> None:
    from .cases import CASES

    if not NAME.fullmatch(name or ""):
        raise HotpathError(f"case name {name!r}: 2 to 20 lower-case letters or digits, starting "
                           f"with a letter (it names a Java package and a notebook)")
    if name in JAVA_WORDS:
        raise HotpathError(f"case name {name!r} is a Java keyword and cannot name a package")
    if name in CASES:
        raise HotpathError(f"case {name!r} exists already (hotpath/cases.py)")
    taken = [p for p in files(root, name).values() if p.exists()]
    if taken or (root / "java-src" / "main" / "java" / "hotpath" / name).exists():
        shown = taken[0] if taken else root / "java-src" / "main" / "java" / "hotpath" / name
        raise HotpathError(f"case name {name!r} is taken: {shown.relative_to(root)} exists")
    if MARKER not in (root / "hotpath" / "cases.py").read_text(encoding="utf-8"):
        raise HotpathError("hotpath/cases.py has lost its new-case marker line; add the entry by hand")


def create(root: Path, name: str) -> list[Path]:
    """Write the case; return the files written, in the order a person fills them in."""
    check_name(root, name)
    cls = name.capitalize()
    out = files(root, name)
    texts = {
        "old model": _OLD, "optimized model": _OPTIMIZED, "same-output check": _VARIANT,
        "benchmark": _BENCHMARK, "JUnit test": _TEST,
    }
    written = []
    for part, template in texts.items():
        written.append(_write(out[part], template.replace("NAME", name).replace("Cls", cls)))
    written.append(_write(out["report notebook"], _notebook(name)))
    written.append(_write(out["Java notebook"], _java_notebook(name, cls)))
    written.append(_write(out["claims"], ",".join(CLAIM_FIELDS) + "\n"))
    bench = f"hotpath.{name}.{cls}CopyBenchmark.copy"
    floors = "benchmark,params,heap_floor,native_floor,basis\n" + "".join(
        f'{bench},size={n},{_array_bytes(n)},0,"one byte[] of the {n:,}-byte result with its '
        f'16-byte header, rounded up to 8"\n' for n in SIZES)
    written.append(_write(out["floors"], floors))
    cases = root / "hotpath" / "cases.py"
    text = cases.read_text(encoding="utf-8")
    cases.write_text(text.replace(MARKER, _ENTRY.replace("NAME", name) + MARKER), encoding="utf-8")
    written.append(cases)
    return written


def _array_bytes(n: int) -> int:
    return (16 + n + 7) // 8 * 8


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _nb(cells: list[dict], kernel: dict) -> str:
    return json.dumps({"cells": cells, "metadata": kernel, "nbformat": 4, "nbformat_minor": 5},
                      indent=1, ensure_ascii=False) + "\n"


def _cell(kind: str, source: str, n: int, tags: list[str] | None = None) -> dict:
    cell: dict[str, Any] = {"cell_type": kind, "id": f"cell-{n}", "metadata": {"tags": tags} if tags else {},
            "source": source}
    if kind == "code":
        cell.update(execution_count=None, outputs=[])
    return cell


def _notebook(name: str) -> str:
    return _nb([
        _cell("markdown", f"# {name}: TODO the write-up's title (TODO issue)", 0),
        _cell("code", f'case: str = "{name}"  # case id (`hotpath cases` lists them)\n'
                      f'results: str = "data/results/quick/{name}.json"  # the JMH JSON file to report on\n'
                      f'output_dir: str = "reports/{name}"  # where report.html, jira.txt, summary.md and the PNGs go',
              1, ["parameters"]),
        _cell("code", "import hotpath as hp\n\ndoc = hp.Document.open(case, results, output_dir)\n"
                      "pairs = doc.pairs", 2),
        _cell("markdown", "## The change\n\nTODO: what the write-up changes and claims, and where our "
                          f"models live (`java-src/main/java/hotpath/{name}/`).", 3),
        _cell("code", 'doc.table("Details", hp.wide_table(pairs, gc=True), note=doc.verdict_note())\n'
                      'doc.figure("heap-alloc", hp.bar_chart(pairs, "alloc", "Heap bytes allocated per op", doc.floors),\n'
                      '           "Heap B/op (-prof gc), old vs optimized")', 4),
        _cell("code", "doc.finish()", 5),
    ], {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python"}})


def _java_notebook(name: str, cls: str) -> str:
    return _nb([
        _cell("markdown", f"# {name} models, interactively (Java)\n\nThe old and optimized models "
                          f"from `java-src/main/java/hotpath/{name}/` in the JJava kernel: the same "
                          "output from both, and heap bytes per call. The JMH report is the measurement.", 0),
        _cell("code", "int size = 4096; // input bytes\nint calls = 2000; // calls per variant for the allocation counter",
              1, ["parameters"]),
        _cell("code", "%classpath target/classes", 2),
        _cell("code", f"import hotpath.{name}.*;\nimport hotpath.notebook.HeapPerCall;\n\n"
                      "byte[] input = new byte[size];\nnew java.util.Random(42).nextBytes(input);\n"
                      f"{cls}Variant.requireSameOutput(input);\n"
                      f"for (var v : {cls}Variant.values()) {{\n"
                      "    System.out.print(String.format(\"%-10s heap bytes per call: %,d%n\", v, "
                      "HeapPerCall.of(() -> v.run(input), calls)));\n}", 3),
    ], {"kernelspec": {"display_name": "Java", "language": "java", "name": "java"},
        "language_info": {"name": "java"}})


_OLD = '''package hotpath.NAME;

import java.util.Arrays;

/** TODO: the old code, as the write-up describes it. The scaffold copies its input twice. */
public final class OldCls {
    public byte[] run(byte[] input) {
        byte[] staged = Arrays.copyOf(input, input.length); // the copy the write-up removes
        return Arrays.copyOf(staged, staged.length);
    }
}
'''

_OPTIMIZED = '''package hotpath.NAME;

import java.util.Arrays;

/** TODO: the optimized code. The scaffold copies its input once. */
public final class OptimizedCls {
    public byte[] run(byte[] input) {
        return Arrays.copyOf(input, input.length);
    }
}
'''

_VARIANT = '''package hotpath.NAME;

import java.util.Arrays;

/**
 * The implementations under test, selected by the benchmarks' {@code variant} @Param, and the
 * case's one same-output check: used by every benchmark setup, the JUnit test and the Java
 * notebook.
 */
public enum ClsVariant {
    old {
        private final OldCls model = new OldCls();

        @Override
        public byte[] run(byte[] input) {
            return model.run(input);
        }
    },
    optimized {
        private final OptimizedCls model = new OptimizedCls();

        @Override
        public byte[] run(byte[] input) {
            return model.run(input);
        }
    };

    public abstract byte[] run(byte[] input);

    /** Fails unless every variant gives old's bytes for this input: no timing is valid otherwise. */
    public static void requireSameOutput(byte[] input) {
        byte[] expected = old.run(input);
        for (ClsVariant v : values()) {
            byte[] actual = v.run(input);
            if (!Arrays.equals(expected, actual)) {
                throw new IllegalStateException(v + " gives other bytes than old for an input of "
                        + input.length + " bytes");
            }
        }
    }
}
'''

_BENCHMARK = '''package hotpath.NAME;

import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** TODO: the write-up's benchmark. One question per class: the cost of one call by input size. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ClsCopyBenchmark {

    @Param({"old", "optimized"})
    ClsVariant variant;

    @Param({"64", "4096"})
    int size;

    private byte[] input;

    @Setup
    public void setUp() {
        input = new byte[size];
        new Random(42).nextBytes(input);
        ClsVariant.requireSameOutput(input);
    }

    @Benchmark
    public byte[] copy() {
        return variant.run(input);
    }
}
'''

_TEST = '''package hotpath.NAME;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Random;

import org.junit.jupiter.api.Test;

/** Old and optimized give the same bytes over generated inputs, edge sizes included. */
class ClsEquivalenceTest {

    @Test
    void everyVariantGivesOldsBytes() {
        Random random = new Random(42);
        int[] edges = {0, 1, 63, 64, 65, 4095, 4096, 4097};
        for (int i = 0; i < 10_000; i++) {
            int size = i < edges.length ? edges[i] : random.nextInt(8192);
            byte[] input = new byte[size];
            random.nextBytes(input);
            ClsVariant.requireSameOutput(input);
            assertArrayEquals(input, ClsVariant.optimized.run(input), "input of " + size + " bytes");
        }
    }
}
'''

_ENTRY = '''        Case(
            id="NAME",
            writeup="TODO: the write-up (issue or pull request)",
            system="TODO: the project",
            title="TODO: what the change does",
            question="TODO: the question the write-up answers",
            benchmarks=r"^hotpath\\.NAME\\.",
        ),
'''
