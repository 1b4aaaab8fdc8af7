"""The figures README.md and docs/ quote from the committed data, generated from it.

A quoted figure sits between two markers:

    <!-- generated: headline (hotpath docs) -->
    ...
    <!-- end: headline -->

`hotpath docs` (`make docs`) rewrites what is between them from data/reference/ and
data/matrix/; `hotpath docs --check`, and a test, fail when any block differs from what the
data say, so that no quoted figure can go stale."""

from __future__ import annotations

import re
from collections import Counter
from functools import cached_property
from pathlib import Path

import pandas as pd

from ..analyze import aa, claims, compare
from ..analyze import cpu as cpu_analysis
from ..analyze import mechanisms as mechanism_analysis
from ..analyze import sites as site_analysis
from . import fmt, markup, matrix, overview
from .sections import heldto
from .sections import mechanisms as mechanisms_section
from ..cases import existing_cases, load_claims
from ..errors import HotpathError
from ..jmh import MethodName, params_of
from ..analyze.load import read_provenance, read_results
from ..paths import AA_CALIBRATION, AA_REFERENCE, DEFAULT_RUNS, ROOT, results_file

PROFILE = "reference"
#: The pages that may quote a block: the README, docs/ and every file of docs/evidence/.
FILES = ("README.md", "docs/method.md", "docs/results.md", "docs/usage.md", "docs/faq.md",
         *(p.relative_to(ROOT).as_posix() for p in sorted((ROOT / "docs" / "evidence").glob("*.md"))))
#: Where the default-run sentence sends a reader for the design behind it (from README.md).
DESIGN_LINK = "[how the runs are planned](docs/method.md#the-sequential-fork-plan)"
NOT_MEASURED = "Not measured yet (`make aa`).\n"
BLOCK = re.compile(r"(<!-- generated: (?P<name>[\w-]+) \(hotpath docs\) -->\n)(?P<body>.*?)"
                   r"(<!-- end: (?P=name) -->)", re.S)


class Reference:
    """The committed reference run, read and paired once for every block: per case its pairs
    and provenance, and the overview's tables (which check every claim)."""

    def __init__(self) -> None:
        self.cases = existing_cases()
        self.runs = {}
        self.frames = {}
        for case in self.cases:
            run = read_results(results_file(PROFILE, case.id))
            self.runs[case.id] = (compare.paired(run).pairs, run.provenance or {})
            self.frames[case.id] = run.frame
        self.table, self.checked = overview.rows(PROFILE)

    @cached_property
    def aa_run(self) -> aa.AA | None:
        """The reference A/A run, read once for its blocks; None before `make aa`."""
        return aa.AA(AA_REFERENCE) if (AA_REFERENCE / "ab.json").is_file() else None

    @cached_property
    def calibration_run(self) -> aa.AA | None:
        """The A/A the designs were calibrated on (paths.AA_CALIBRATION), whose forks the
        evidence on real forks describes."""
        return aa.AA(AA_CALIBRATION) if (AA_CALIBRATION / "ab.json").is_file() else None

    @cached_property
    def default_runs(self) -> pd.DataFrame:
        """The default `make report` as fresh clones ran it (data/default-runs.tsv)."""
        try:
            runs = pd.read_csv(DEFAULT_RUNS, sep="\t", dtype={"commit": str})
        except (OSError, ValueError) as e:
            raise HotpathError(f"{DEFAULT_RUNS}: unreadable ({e})") from None
        if runs.empty:
            raise HotpathError(f"{DEFAULT_RUNS}: no run recorded")
        return runs

    @cached_property
    def parts(self) -> dict[str, mechanism_analysis.Found]:
        """Each case's rows split among its patch's mechanisms as its reference report finds them:
        the reference run's own, else the committed run of the mechanisms."""
        return {c.id: mechanism_analysis.found_for(results_file(PROFILE, c.id), self.frames[c.id], c.id)
                for c in self.cases}

    def mine(self, case) -> pd.DataFrame:
        """The rows of the write-up's variant against old."""
        pairs = self.runs[case.id][0]
        return pairs[pairs["candidate"] == case.candidate]


def headline_table(ref: Reference) -> str:
    """The reference run at a glance: the overview's row per case, as Markdown."""
    table, checked = ref.table, ref.checked
    shown = table.drop(columns=["report", "JDK × GC matrix", *overview.NOT_FIGURES],
                       errors="ignore")
    counts = Counter(checked["verdict"]) if not checked.empty else Counter()
    decided = [tuple(map(int, d.split(" of "))) for d in table["time rows decided"] if " of " in d]
    done, rows = sum(d for d, _ in decided), sum(n for _, n in decided)
    text = markup.to_markdown(shown)
    mechanisms = (checked[checked["why"].str.contains(claims.AT_SITES, regex=False)]
                  if not checked.empty else checked)
    said = Counter(mechanisms["verdict"]) if not mechanisms.empty else Counter()
    text += (f"\n{done} of the {rows} time rows that set a write-up's variant against old are "
             f"decided ({done / rows:.0%}). The write-ups' claims: " + ", ".join(
                 f"{counts[v]} {v}" for v in ("reproduced", "contradicted", "undecided",
                                              "not comparable") if counts[v])
             + (f"; among them the {len(mechanisms)} mechanisms, counted at the allocation "
                f"sites: " + ", ".join(f"{said[v]} {v}" for v in ("reproduced", "contradicted",
                                                                 "not comparable") if said[v])
                + _what_was_checked(mechanisms) if len(mechanisms) else "")
             + _time_mechanisms(checked) + ".\n")
    return text


def _time_mechanisms(checked: pd.DataFrame) -> str:
    """'; the 5 time mechanisms, timed at their frames: 4 reproduced, 1 undecided'."""
    timed = (checked[checked["why"].str.contains(claims.AT_FRAMES, regex=False)]
             if not checked.empty else checked)
    if timed.empty:
        return ""
    said = Counter(timed["verdict"])
    return (f"; the {len(timed)} time mechanisms, timed at their frames: "
            + ", ".join(f"{said[v]} {v}" for v in ("reproduced", "contradicted", "undecided",
                                                   "not comparable") if said[v]))


#: Generated prose is wrapped as the docs' own is: no line of it runs past this.
WIDTH = 100


def wrap(text: str, indent: str = "") -> str:
    """A paragraph of generated prose in lines of at most WIDTH characters, ending in a newline;
    its lines after the first indented by ``indent`` (a list item's)."""
    import textwrap

    return textwrap.fill(text, WIDTH, subsequent_indent=indent, break_long_words=False,
                         break_on_hyphens=False) + "\n"


def _what_was_checked(mechanisms: pd.DataFrame) -> str:
    """' (12 state their counts, each measured as stated; 3 state none and were checked for
    their direction only)': what the mechanisms' verdicts rest on."""
    why = mechanisms["why"]
    matched = int(why.str.contains(claims.COUNTS_MATCH + ":", regex=False).sum())
    differ = int(why.str.contains(claims.COUNTS_DIFFER, regex=False).sum())
    bare = int(why.str.contains(claims.DIRECTION_ONLY, regex=False).sum())
    stating = matched + differ
    parts = [(f"{stating} state their counts, " if stating != 1 else "1 states its counts, ") + (
        "each measured as stated" if not differ else
        f"{matched} measured as stated, {differ} not")] if stating else []
    if bare:
        parts.append(f"{bare} state none and were checked for their direction only" if bare != 1
                     else "1 states none and was checked for its direction only")
    return f" ({'; '.join(parts)})" if parts else ""


def mechanisms_table(ref: Reference) -> str:
    """Every mechanism claim, counted at the reference's allocation sites: the write-up's counts,
    ours, the verdict and what it checked (the counts stated, or the direction alone)."""
    checked = ref.checked
    if checked.empty:
        return "None.\n"
    mine = checked[checked["why"].str.contains(claims.AT_SITES, regex=False)]
    if mine.empty:
        return "Not measured yet (`make sites PROFILE=reference`).\n"
    what = [claims.COUNTS_DIFFER if claims.COUNTS_DIFFER in w else claims.COUNTS_MATCH
            if claims.COUNTS_MATCH in w else "direction only" if claims.DIRECTION_ONLY in w
            else "—" for w in mine["why"]]
    shown = pd.DataFrame({"claim": mine["claim"], "write-up": mine["write-up"],
                          "ours": mine["ours"], "verdict": mine["verdict"], "checked": what})
    return markup.to_markdown(shown.reset_index(drop=True))


def frames_held(ref: Reference) -> str:
    """How many time-mechanism claims' frames agree with their mechanisms measured alone: in the
    reference run's own mechanism rows and CPU samples, else in the committed run of the mechanisms
    (data/reference/mechanisms/), each from one run's forks (a local run is not read)."""
    held = []
    for case in ref.cases:
        found = ref.parts[case.id]
        if found.rows and found.source is not None:
            held += [(case.id, h) for h in mechanism_analysis.frames_held(
                load_claims(case.id), found, cpu_analysis.read(found.source))]
    if not held:
        return wrap("Not measured: the reference's run predates the mechanism variants, and no run "
                    "of them is committed. `make mechanisms REPLACE=mechanisms` measures every case's "
                    "into data/reference/mechanisms/.")
    told = [(c, h) for c, h in held if h.agree is not None]
    agree = sum(1 for _, h in told if h.agree)
    lines = [f"- {c} `{h.claim}` ({' + '.join(h.mechanisms)}): {heldto.agreement(h)}; frames "
             f"{heldto.share_text(h.frames)}, intervention {heldto.share_text(h.intervention)}"
             for c, h in held]
    return (wrap(f"The frames agree with the intervention on {agree} of {len(told)} claims whose shares "
                 f"both have a bounded interval ({len(held)} claims name their mechanisms).")
            + "\n" + "\n".join(lines) + "\n")


def parts_list(ref: Reference) -> str:
    """Each case's headline row split among its patch's mechanisms: the line its reports' paste
    keeps, and the run it comes from."""
    lines = []
    for case in ref.cases:
        found = ref.parts[case.id]
        if found.rows and found.source is not None:
            main = mechanisms_section.ordered(found.rows, case.headline[1])[0]
            lines.append(wrap(f"- {case.id} ([{found.source.relative_to(ROOT)}]"
                              f"(../{found.source.relative_to(ROOT)})): "
                              f"{mechanisms_section.summary(main, found.kind, found.levels)}", "  "))
    if not lines:
        return wrap("Not measured: no run of the mechanisms is committed (`make mechanisms "
                    "REPLACE=mechanisms`).")
    return "".join(lines)


def _minutes(seconds: float) -> str:
    m, s = divmod(int(round(seconds)), 60)
    return f"{m} min {s:02d} s"


def runs_table(ref: Reference) -> str:
    """How each case of the reference run was made: commit, plan, time, rows decided."""
    rows = []
    for case in ref.cases:
        p = ref.runs[case.id][1]
        mine = ref.mine(case)
        seq = p.get("sequential") or {}
        rows.append({
            "case": case.id,
            "commit": str(p.get("git_commit", "?"))[:7],
            "started": str(p.get("started", "?"))[:16].replace("T", " "),
            "took": _minutes(p["duration_s"]) if p.get("duration_s") else "—",
            "plan": (f"sequential, budget {_minutes(seq['budget_s'])}, {seq.get('forks_run', '?')} forks"
                     if seq.get("budget_s") else "fixed: "
                     + str(p.get("profile_settings", "?")).split(" x ")[0]),
            "write-up rows decided": f"{int((mine['verdict'] != 'undecided').sum())} of {len(mine)}",
        })
    return markup.to_markdown(pd.DataFrame(rows))


def undecided_list(ref: Reference) -> str:
    """Every write-up row the reference run left undecided: what its interval allows and the
    forks a decision would need."""
    lines = []
    for case in ref.cases:
        mine = ref.mine(case)
        for _, r in mine[mine["verdict"] == "undecided"].iterrows():
            _, lo, hi = compare.time_per_op(r)
            n, why = fmt.stopped(r)
            lines.append(f"- {case.id} {fmt.label(r)} ({n} forks per side{', ' + why if why else ''}): "
                         f"{fmt.undecided(r, lo, hi)}")
    return ("\n".join(lines) if lines else "None.") + "\n"


def claims_list(ref: Reference) -> str:
    """The claims the reference run does not reproduce, with both sides' figures."""
    checked = ref.checked
    table = checked[checked["verdict"] != "reproduced"].reset_index(drop=True) \
        if not checked.empty else checked
    return markup.to_markdown(table) if not table.empty else "None.\n"


def _how_measured(results: Path) -> str:
    """'sequential, 88 forks, 5.2 min, commit 04ea6f9': which plan made a cell, so that cells
    measured under different plans are not read as one matrix."""
    prov = read_provenance(results)
    if prov is None:
        return "no provenance sidecar"
    seq = prov.get("sequential")
    plan = (f"sequential, {seq['forks_run']} forks" if seq
            else prov["profile_settings"].split(" x ", 1)[0].replace("fork(s)", "forks per side"))
    return f"{plan}, {prov['duration_s'] / 60:.1f} min, commit {prov['git_commit'][:7]}"


def matrix_table(ref: Reference) -> str:
    """Per case with a matrix and per cell: time per op new/old (geometric mean) and verdicts;
    and where the verdict or sign differs from JDK 17 + G1, both decided or not."""
    rows = []
    for case in ref.cases:
        files = {c.id: f for c, f in matrix.cell_files("matrix", case.id).items()}
        if not files:
            continue
        pairs = matrix.read("matrix", case.id, case.candidate)
        for _, g in matrix.geomeans(pairs).iterrows():
            rows.append({"case": case.id, **g.to_dict(), "measured": _how_measured(files[g["cell"]])})
        rows[-1]["differs from JDK 17 + G1"] = matrix.summary(pairs)
    frame = pd.DataFrame(rows).fillna("")
    return markup.to_markdown(frame) if not frame.empty else "None measured.\n"


def _span(low: str, high: str) -> str:
    return low if low == high else f"{low} – {high}"


def default_run(ref: Reference) -> str:
    """The default `make report` from fresh clones of the current fork design, in plain words:
    its time and the time rows it decided, as ranges, and the design behind a link. Where
    data/default-runs.tsv records them, it says too how many of the rows of a large effect each
    run decided as the reference did (columns ``large_decided`` and ``large_rows``) and the
    machine's noise, the median spread of a run's forks of one row (``fork_cv``, a share such
    as 0.121)."""
    runs = _current_design(ref.default_runs)
    rows = sorted(set(runs["rows"]))
    text = (f"From {len(runs)} fresh clone{'' if len(runs) == 1 else 's'} on a 2-core machine it took "
            f"**{_span(_minutes(runs['make_report_s'].min()), _minutes(runs['make_report_s'].max()))}** "
            f"in all, set-up included, and decided "
            f"**{_span(str(runs['decided'].min()), str(runs['decided'].max()))} of its "
            f"{' or '.join(map(str, rows))}** time rows")
    if {"large_decided", "large_rows"} <= set(runs) and runs[["large_decided", "large_rows"]].notna().all().all():
        large = sorted(set(runs["large_rows"].astype(int)))
        low, high = int(runs["large_decided"].min()), int(runs["large_decided"].max())
        text += (f", and {_span(str(low), str(high))} of the {' or '.join(map(str, large))} rows whose "
                 f"effect in the reference is 20% or more as the reference did")
    if "fork_cv" in runs and runs["fork_cv"].notna().any():
        # the runs made before the tsv kept it say nothing of their machine's noise
        recorded = runs["fork_cv"].dropna()
        low, high = recorded.min(), recorded.max()
        where = ("" if len(recorded) == len(runs) else "in the run that recorded it, "
                 if len(recorded) == 1 else f"in the {len(recorded)} runs that recorded it, ")
        text += (f"; {where}the machine's forks of one row spread "
                 f"{_span(f'{low:.1%}', f'{high:.1%}')} from one another")
    return text + f" ({DESIGN_LINK}).\n"


def _current_design(runs: pd.DataFrame) -> pd.DataFrame:
    """The runs made with the last run's fork design (data/default-runs.tsv's ``forks``)."""
    if "forks" not in runs:
        return runs
    return runs[runs["forks"] == runs["forks"].iloc[-1]]


def default_runs_table(ref: Reference) -> str:
    """Each fresh clone's default `make report`: commit, time, rows decided per case."""
    runs = ref.default_runs
    shown = pd.DataFrame({
        "commit": runs["commit"], "date": runs["date"],
        "make report (set-up included)": runs["make_report_s"].map(_minutes),
        "benchmarks": runs["benchmarks"],
        **({"forks": runs["forks"]} if "forks" in runs else {}),
        "time rows decided": [f"{d} of {n}" for d, n in zip(runs["decided"], runs["rows"])],
        "by case": runs["by_case"]})
    return markup.to_markdown(shown)


def aa_table(ref: Reference) -> str:
    """The A/A run: verdicts of identical code per case, the false alarms beside what the rule's
    simulation expects at the fork CVs the run observed, and the rule on resampled real forks."""
    run = ref.aa_run
    if run is None:
        return NOT_MEASURED
    counts = run.counts()
    expected = run.predicted()["p_false_alarm"]
    alarms = run.false_alarms()
    everything = counts.iloc[-1]
    made = (run.run.manifest.get("git_commit") or "")[:7]
    text = markup.to_markdown(counts)
    outcome, chance = aa.odds_of(expected, alarms)
    odds = f"{outcome} {chance:.0%} of the time"
    text += "\n" + wrap(
        f"{alarms} of {everything['rows']} rows of identical code called faster or slower; "
        f"at the fork CVs this run observed (median {run.table['fork_cv'].median():.1%}) the "
        f"rule's simulation expects {expected.sum():.1f} such calls in all, and {odds}. "
        f"{int(run.table['forks'].sum())} forks per side in all, commit {made}.")
    resampled = run.resample()
    if not resampled.empty:
        text += wrap(f"On fork means resampled from the run's own rounds ({len(resampled)} rows with at "
                     f"least {aa.LEAST_ROUNDS} rounds): "
                     f"{(resampled['faster'] + resampled['slower']).mean():.2%} of unchanged rows called "
                     f"faster or slower (bar: 5%), intervals covering 1 in "
                     f"{resampled['coverage'].mean():.1%} (bar: 94%).")
    frames = run.false_frames()
    if not frames.empty:
        tested, called = int(frames["tested"].sum()), int(frames["called"].sum())
        testing = frames[frames["tested"] > 0]
        calling = int((testing["called"] > 0).sum())
        text += wrap(f"Its timed forks' CPU samples, each row's frames tested old against old as "
                     f"a report tests them: {calling} of the {len(testing)} rows that tested a frame "
                     f"called any changed ({calling / len(testing) if len(testing) else 0:.1%}; bar: "
                     f"5%, the share of rows of identical code that call any frame which "
                     f"Benjamini–Hochberg's level bounds); per frame, {called} of {tested} called "
                     f"({called / tested if tested else 0:.2%}). Of the {len(frames)} rows sampled, "
                     f"{int((frames['forks'] < 2).sum())} had one fork a side and "
                     f"{len(frames) - len(testing)} tested no frame.")
    return text


def aa_structure(ref: Reference) -> str:
    """How the calibration A/A's real forks differ from the simulation's models."""
    run = ref.calibration_run
    return NOT_MEASURED if run is None else markup.to_markdown(run.structure())


def sites_reconcile(ref: Reference) -> str:
    """How the reference's allocation sites sum against its -prof gc B/op, row-side by row-side."""
    found = []
    for case in ref.cases:
        recorded = site_analysis.read(results_file(PROFILE, case.id))
        if recorded.measured:
            rec = site_analysis.reconcile(recorded, ref.runs[case.id][0])
            found.append(rec[rec["within"].notna()].assign(case=case.id))
    if not found:
        return "Not measured yet (`make sites PROFILE=reference`).\n"
    rec = pd.concat(found, ignore_index=True)
    ok = rec["within"].astype(bool)
    off = rec[~ok]
    text = (f"{int(ok.sum())} of the reference's {len(rec)} row-sides ({ok.mean():.1%}): "
            + ", ".join(f"{c} {int(g['within'].astype(bool).sum())} of {len(g)}"
                        for c, g in rec.groupby("case", sort=False)) + ".")
    if not off.empty:
        text += " Not on: " + "; ".join(
            f"{c} {m}({p}) {v}, sites {fmt.fmt_bytes(sb)} B against {fmt.fmt_bytes(gb)} B"
            for c, m, p, v, sb, gb in zip(off["case"], off["method"], off["params"], off["variant"],
                                          off["sites_bytes"], off["gc_bytes"])) + "."
    return wrap(text)


def quick_rows(ref: Reference) -> str:
    """The rows the default profile (`quick`) measures, case by case, as its plan picks them
    (the write-ups' own rows and each case's headline row, old against the write-up's
    variants), the params each benchmark declares read from the reference's results."""
    from ..measure import forkplan, profiles

    quick = profiles.get_profile("quick")
    lines, total, others = [], 0, []
    for case in ref.cases:
        frame = read_results(results_file(PROFILE, case.id)).frame
        declared: dict[str, dict[str, list[str]]] = {}
        for benchmark, params in zip(frame["benchmark"], frame["params"]):
            found = declared.setdefault(benchmark, {})
            for name, value in params_of(str(params)).items():
                if value not in found.setdefault(name, []):
                    found[name].append(value)
        rows = forkplan.plan_rows(case, quick, declared)
        total += len(rows)
        others += [f"{case.id}'s {r.candidate}" for r in rows if r.candidate != case.candidate]
        lines.append(f"- {case.id} ({len(rows)}): " + ", ".join(
            f"{MethodName.of(r.benchmark).method}({r.params_text})"
            .replace("()", "") + f" {r.candidate}" for r in rows))
    text = (f"{total} rows, {total - len(others)} of them the write-up's own variant against old "
            f"(the time rows the reports and the README count)")
    if others:
        text += (f" and {len(others)} another variant a write-up's claims name ("
                 + ", ".join(dict.fromkeys(others)) + ")")
    return wrap(text + ":") + "\n" + "\n".join(lines) + "\n"


def fidelity_counts(ref: Reference) -> str:
    """fidelity_sites in one line: the count of each kind of pairing."""
    text = fidelity_sites(ref)
    if not text.startswith("Of "):
        return text
    head, _, rest = text.partition(":\n\n")
    counts = [line[2:].split(":")[0].split(" (")[0].split(",")[0] for line in rest.splitlines()]
    return wrap(f"{head}: " + "; ".join(counts) + ".")


def fidelity_sites(ref: Reference) -> str:
    """How the reference's rows that run the released code pair with our old model's at the
    allocation sites: how many site for site, by type and size, as totals, with nothing to pair
    and that differ, naming every row that is not site for site."""
    found: dict[str, list[str]] = {k: [] for k in site_analysis.PAIRED}
    declared = 0
    for case in ref.cases:
        recorded = site_analysis.read(results_file(PROFILE, case.id))
        if not recorded.measured:
            continue
        pairs = ref.runs[case.id][0]
        for _, p in pairs[pairs["candidate"] == site_analysis.RELEASE].iterrows():
            sides = [(p["benchmark"], p["params"], v) for v in (p["baseline"], p["candidate"])]
            if not all(site_analysis.has_side(recorded, *s) for s in sides):
                continue
            f = site_analysis.fidelity(recorded, p["benchmark"], p["params"], p["baseline"])
            kind = site_analysis.paired(f)
            found[kind].append(f"{case.id} {fmt.label(p)}")
            declared += kind == "site for site" and bool((f["how"] == "declared").any())
    rows = sum(len(v) for v in found.values())
    if not rows:
        return "Not measured yet (`make sites PROFILE=reference`).\n"
    said = {"site for site": "match site for site"
            + (f", {declared} of them with a type declared the release's" if declared else ""),
            "by type and size": "match by type and size (several sites of one type and size together)",
            "as totals": "match as totals of a type only",
            "nothing to pair": "have nothing to pair (no heap allocation on either side)",
            "differ": "differ"}
    lines = [f"- {len(found[k])} {said[k] if len(found[k]) != 1 or k != 'differ' else 'differs'}"
             + (f": {', '.join(found[k])}" if k != "site for site" else "")
             for k in site_analysis.PAIRED if found[k]]
    return (f"Of the reference's {rows} rows that run the released code beside our old model:\n\n"
            + "\n".join(lines) + "\n")


GENERATORS = {"headline": headline_table, "sites-reconcile": sites_reconcile, "reference-runs": runs_table,
              "undecided": undecided_list, "claims": claims_list,
              "mechanisms": mechanisms_table, "frames-held": frames_held, "parts": parts_list, "fidelity-sites": fidelity_sites,
              "fidelity-counts": fidelity_counts, "quick-rows": quick_rows, "matrix": matrix_table,
              "aa": aa_table, "aa-forks": aa_structure, "default-run": default_run,
              "default-runs": default_runs_table}


def blocks() -> dict[str, str]:
    ref = Reference()
    return {name: make(ref) for name, make in GENERATORS.items()}


def fill(text: str, made: dict[str, str]) -> str:
    def body(m: re.Match) -> str:
        name = m.group("name")
        if name not in made:
            raise HotpathError(f"no generator for the block {name!r}; known: {', '.join(made)}")
        return m.group(1) + made[name] + m.group(4)
    return BLOCK.sub(body, text)


def stale(root: Path = ROOT, made: dict[str, str] | None = None) -> list[str]:
    """'docs/results.md: claims' for every block whose text the data no longer give (`made`:
    the blocks, when the caller has them already)."""
    made = blocks() if made is None else made
    found = []
    for name in FILES:
        text = (root / name).read_text(encoding="utf-8")
        for m in BLOCK.finditer(text):
            if made.get(m.group("name")) != m.group("body"):
                found.append(f"{name}: {m.group('name')}")
    return found


def write(root: Path = ROOT) -> list[str]:
    """Rewrite every generated block; returns the files that changed."""
    made = blocks()
    changed = []
    for name in FILES:
        path = root / name
        text = path.read_text(encoding="utf-8")
        new = fill(text, made)
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed.append(name)
    return changed
