"""Do the sampled forks' debug flags change the code C2 compiles? Its machine code, with and without.

-XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints (hotpath.measure.profiles.DEBUG_ARGS) has C2
record where inlined code lies between safepoints, beside the code. If the instructions are the
same, the flags cannot cost the counted iterations anything, whatever a noisy host does to timing.

Runs (with --run) or reads (default) data/cpu-sampler/code/: for each row of cpu_sampler_cost.py's
debug design and the inlined known answer, RUNS forks without the flags and RUNS with them (the
order turning), each a timed fork of the default run's kind (its JVM options, 20 iterations of
100 ms) that prints the machine code of every method C2 compiled in the project's classes (JMH's
stub, with the benchmark inlined into it, and the models), hex only: no disassembler is needed.
Kept per fork: each method's last C2 compile (an on-stack replacement apart), as hex.

A method's code is disassembled (capstone, from PyPI: the one package the study itself does not
need) and compared instruction by instruction, with what placement decides masked: a call or jump
to a runtime stub, an address or a compressed class pointer in an operand (two forks with the same
flags differ there). C2 compiles a method differently from fork to fork on its own (its profile,
its timing), so each fork with the flags is set against the forks without them, and, as the
control, each fork without them against the other forks without: the strictest of the same code,
the same but for its blocks' order, the same but for its registers, or how many instructions it
stands from the nearest. Prints each method whose forks are not all the same code, and the counts.

    .venv/bin/python docs/evidence/debug_flags_code.py --run 3   # about 4 min; any host
    .venv/bin/python docs/evidence/debug_flags_code.py           # the figures from the committed files
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from cpu_sampler_cost import DEBUG_ARGS, DEBUG_ROWS, JAR, JVM  # noqa: E402

OUT = ROOT / "data" / "cpu-sampler" / "code"
ROWS = {**DEBUG_ROWS,
        "inlined-old": ["^hotpath\\.calibration\\.KnownInlinedFramesBenchmark\\.frames$", "-p", "variant=old"]}
PRINT = "-XX:CompileCommand=quiet -XX:CompileCommand=print,hotpath.*::*"
HEADER = re.compile(r"Compiled method \((c\d)\)\s+\d+\s+\d+\s+(%?)\s*\d\s+(\S+)")
CODE = re.compile(r"\s+0x[0-9a-f]+: ((?:[0-9a-f]{2,8}\s*\|?\s*)+)$")


def machine_code(printed: str) -> dict[str, str]:
    """Each method's last C2 compile in -XX:+PrintAssembly's output (abstract mode: hex without a
    disassembler), its main code only (from the entry points to the stub code); an on-stack
    replacement apart, as 'method (OSR)' (a stub called once an iteration runs as one). A lambda's
    class is named without its address."""
    out: dict[str, str] = {}
    method, taking, code = None, False, []
    for line in printed.splitlines():
        head = HEADER.match(line)
        if head:
            if method and code:
                out[method] = "".join(code)
            name = re.sub(r"/0x[0-9a-f]+", "", head.group(3)) + (" (OSR)" if head.group(2) else "")
            method = name if head.group(1) == "c2" else None
            taking, code = False, []
        elif method is None:
            continue
        elif line.startswith(("[Entry Point]", "[Verified Entry Point]")):
            taking = True
        elif line.startswith(("[Stub Code]", "[Exception Handler]", "[Deopt Handler Code]", "[/MachCode]")):
            taking = False
        elif taking and (m := CODE.match(line)):
            code.append(re.sub(r"[\s|]", "", m.group(1)))
    if method and code:
        out[method] = "".join(code)
    return out


def run(runs: int) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, selection in ROWS.items():
        for r in range(runs):
            for side in (("with", "without") if r % 2 == 0 else ("without", "with")):
                jvm = f"{JVM} {DEBUG_ARGS if side == 'with' else '-XX:+UnlockDiagnosticVMOptions'} {PRINT}"
                # the code, not its timing: another JMH run beside it (JMH's lock) moves nothing here
                cmd = ["java", "-Djmh.ignoreLock=true", "-jar", str(JAR), *selection, "-f", "1", "-wi", "0",
                       "-i", "20", "-r", "100ms", "-jvmArgsAppend", jvm]
                done = subprocess.run(cmd, capture_output=True, text=True, check=True)
                code = machine_code(done.stdout)
                (OUT / f"{name}.{side}.{r:02d}.json").write_text(json.dumps(code, indent=0, sort_keys=True) + "\n")
                print(f"{name} {side} {r}: {len(code)} methods", flush=True)


REGISTER = re.compile(r"\b(?:[re]?[abcd]x|[abcd]l|[re]?[sd]il?|[re]?[sb]pl?|r\d+[dwb]?|[xyz]mm\d+|k\d)\b")


def instructions(code: str, placed: bool = True, registers: bool = True) -> tuple[str, ...]:
    """The code disassembled, with what placement decides masked: a jump or call outside the
    method (a runtime stub's address), an address or compressed class pointer in an operand.
    ``placed``: jumps inside the method keep their offset (the blocks' order), else not;
    ``registers``: registers keep their names, else not (which register C2 chose)."""
    from capstone import CS_ARCH_X86, CS_MODE_64, Cs

    raw, out = bytes.fromhex(code), []
    for ins in Cs(CS_ARCH_X86, CS_MODE_64).disasm(raw, 0):
        ops = ins.op_str
        if ins.mnemonic.startswith(("call", "j")) and re.fullmatch(r"0x[0-9a-f]+", ops):
            target = int(ops, 16)
            ops = (f"L{target}" if placed else "L") if 0 <= target < len(raw) else "outside"
        ops = re.sub(r"0x[0-9a-f]{7,}", "address", ops)
        out.append(f"{ins.mnemonic} {ops if registers else REGISTER.sub('reg', ops)}")
    return tuple(out)


#: How near a fork's code comes to another's, from the strictest to the loosest: each level
#: masks one more thing the two compiles may differ in.
LEVELS = ("the same code", "but for its blocks' order", "but for its registers")


def nearest(code: str, others: list[str]) -> str:
    """The strictest level at which ``code`` matches one of ``others``, or how many instructions
    apart it is from the nearest (its blocks' order and registers aside)."""
    for level, (placed, registers) in zip(LEVELS, ((True, True), (False, True), (False, False))):
        mine = Counter(instructions(code, placed, registers)) if not placed else instructions(code)
        for other in others:
            theirs = Counter(instructions(other, placed, registers)) if not placed else instructions(other)
            if mine == theirs:
                return level
    return f"{min(apart(code, other) for other in others)} instructions apart"


def apart(a: str, b: str) -> int:
    """How many instructions two compiles do not share, their blocks' order and registers aside."""
    x, y = (Counter(instructions(c, placed=False, registers=False)) for c in (a, b))
    return sum(((x - y) + (y - x)).values())


def report() -> None:
    try:
        import capstone  # noqa: F401
    except ImportError:
        sys.exit("the comparison disassembles with capstone: .venv/bin/pip install capstone")
    tally: Counter[tuple[str, str]] = Counter()
    for name in ROWS:
        sides = {s: [json.loads(p.read_text()) for p in sorted(OUT.glob(f"{name}.{s}.*.json"))]
                 for s in ("without", "with")}
        if not sides["without"] or not sides["with"]:
            print(f"{name}: no files under {OUT}: run with --run")
            continue
        # a method C2 compiled in two forks or more of each kind (a short fork may end before
        # C2 compiles a slow row's method)
        found = {s: Counter(m for c in codes for m in c) for s, codes in sides.items()}
        methods = sorted(m for m in found["without"] if found["without"][m] >= 2 and found["with"][m] >= 2)
        print(f"{name}: {len(sides['without'])} forks without the flags, {len(sides['with'])} with; "
              f"{len(methods)} methods C2 compiled in two forks or more of each")
        for m in methods:
            without = [c[m] for c in sides["without"] if m in c]
            with_ = [c[m] for c in sides["with"] if m in c]
            # the control: each fork without the flags against the other forks without them
            control = [nearest(c, without[:i] + without[i + 1:]) for i, c in enumerate(without)]
            flagged = [nearest(c, without) for c in with_]
            for kind, found_ in (("without", control), ("with", flagged)):
                tally.update((kind, f if f in LEVELS else "apart") for f in found_)
            if any(f != LEVELS[0] for f in control + flagged):
                print(f"  {m} ({len(instructions(without[0])):,} instructions)\n"
                      f"    without, against the others without: {'; '.join(control)}\n"
                      f"    with, against those without: {'; '.join(flagged)}")
    for kind, what in (("without", "each fork without the flags, against the others without them"),
                       ("with", "each fork with the flags, against those without them")):
        counts = {level: tally[(kind, level)] for level in (*LEVELS, "apart")}
        print(f"{what}: " + ", ".join(f"{level} {n}" for level, n in counts.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run", type=int, metavar="RUNS", help="RUNS forks a side per row, then report")
    args = parser.parse_args()
    if args.run:
        run(args.run)
    report()


if __name__ == "__main__":
    main()
