# hotpath: models -> JMH JSON (data/results/<profile>/) -> papermill notebooks -> reports/<case>/
#
#   make report                 set up, build, benchmark (if stale) and render every case
#   make test                   set up and run every test (JUnit, pytest, smoke pass)
#   make report CASE=writer PROFILE=smoke

.DEFAULT_GOAL := help
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c

CASE ?= all
PROFILE ?= quick

VENV := .venv
HOTPATH := $(VENV)/bin/hotpath
# The interpreter that makes .venv: python3 unless PYTHON= names another (PYTHON=python3.11).
# .venv keeps the one it was made with until `make distclean`.
PYTHON ?= python3
VENV_PY := $(VENV)/bin/python
JAR := target/benchmarks.jar
# Touched only when the jar's classes change: `mvn package` rewriting the jar stales nothing.
STAMP := target/benchmarks.stamp
SETUP := $(VENV)/.installed
LOCK := requirements.lock
LOCK_TOOLS := target/lock-tools
PIP_TOOLS := pip==26.3 pip-tools==7.6.2
CHROMIUM := /usr/bin/chromium
MVN := mvn -B -ntp -Dstyle.color=never
# Debian's Maven prints colour resets even in batch mode; they reach logs as raw [0m.
PLAIN := sed -u 's/\x1b\[[0-9;]*m//g'

JAVA_SOURCES := pom.xml $(shell find java-src -name '*.java' -o -path 'java-src/bench/resources/*' -type f 2>/dev/null)
# The cases are what the tree holds: a model package java-src/main/java/hotpath/<case>/ with a
# report notebook notebooks/<case>.ipynb. hotpath/cases.py describes each; tests/test_cases.py
# keeps the two (and every other file a case needs) in step.
EXISTING_CASES := $(sort $(foreach d,$(wildcard java-src/main/java/hotpath/*/),$(if $(wildcard notebooks/$(notdir $(d:/=)).ipynb),$(notdir $(d:/=)))))
KNOWN_CASES := $(EXISTING_CASES)
comma := ,
CASES := $(if $(filter all,$(CASE)),$(EXISTING_CASES),$(subst $(comma), ,$(CASE)))
SMOKE_REPORTS := target/smoke-reports

.PHONY: prerequisites compiled sites cpu mechanisms host-check replay shards merge test-shards against-reference aa demos demo-ignite demo-rocketmq new-case list-cases help setup lock build bench report docs matrix profile test test-java test-python test-render test-forks test-verdicts test-smoke test-smoke-bench test-smoke-reports test-notebooks test-browser check-reports lab clean distclean check

list-cases:
	@echo $(EXISTING_CASES)

help: ## list the targets
	@echo "hotpath: JMH studies of allocation and copy reductions on JVM hot paths"
	@echo "usage: make <target> [CASE=$(subst $() ,|,$(KNOWN_CASES))|all] [PROFILE=smoke|quick|full|reference|matrix] [BUDGET=45m] [CELLS=all|pressure|jdk25-zgc,...]"
	@echo
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-14s %s\n", $$1, $$2}'
	@echo
	@echo "cases in this tree: $(EXISTING_CASES)"

# The environment is requirements.lock: pyproject.toml's dependencies, its test extra and the
# build backend, every package pinned with its hashes. pip-tools rather than uv: its lock is a
# plain requirements file that the venv's own pip installs, so setting up needs no other tool.
# The venv is made anew from the lock and nothing else: --no-deps, since the lock is the whole set.
$(SETUP): pyproject.toml $(LOCK)
	$(PYTHON) -m venv --clear $(VENV)
	@# pip compiles every module one after the other (41 s of a 107 s install here); compileall
	@# does it on every core (19 s). Compiled now, not at first import: where
	@# PYTHONDONTWRITEBYTECODE is set (CI containers), a module left uncompiled is compiled again
	@# by every process that imports it, which doubled make test's render stage
	$(VENV)/bin/pip install --quiet --no-compile --disable-pip-version-check --require-hashes --no-deps -r $(LOCK)
	$(VENV_PY) -m compileall -q -j0 $(VENV)/lib > /dev/null
	@# the project itself, built offline with the locked setuptools; editable installs carry no hash
	@# (setuptools' notes on editable installs are not faults of ours)
	PYTHONWARNINGS=ignore $(VENV)/bin/pip install --quiet --disable-pip-version-check --no-index --no-deps --no-build-isolation -e .
	@# a dependency that pyproject.toml names and the lock does not hold stops here: `make lock`
	$(VENV_PY) -m hotpath.lock
	$(VENV)/bin/pip check
	@# ipykernel and jjava put their kernelspecs under the venv's share/jupyter, not the user's
	$(VENV)/bin/jupyter kernelspec list
	touch $@

setup: $(SETUP) ## create .venv from requirements.lock: the package, Jupyter and the Python and Java kernels

# pip-tools runs from a venv of its own, pinned here, so that the tool never enters .venv.
# `make lock` keeps every pin that still satisfies pyproject.toml; UPGRADE=1 takes the newest.
lock: ## refresh requirements.lock from pyproject.toml (UPGRADE=1: newest versions); review the diff
	$(PYTHON) -m venv $(LOCK_TOOLS)
	$(LOCK_TOOLS)/bin/pip install --quiet $(PIP_TOOLS)
	CUSTOM_COMPILE_COMMAND="make lock" $(LOCK_TOOLS)/bin/pip-compile --quiet $(if $(UPGRADE),--upgrade) \
	  --extra test --build-deps-for editable --allow-unsafe --strip-extras --generate-hashes \
	  --no-emit-index-url --no-emit-find-links --output-file $(LOCK) pyproject.toml

$(JAR): $(JAVA_SOURCES)
	$(MVN) -q package -DskipTests 2>&1 | $(PLAIN)
	@touch $@

$(STAMP): $(JAR) | $(SETUP)
	@$(VENV_PY) -m hotpath.measure.stamp $(JAR) $(STAMP)

build: $(STAMP) ## compile the models and build target/benchmarks.jar

# What the machine must have (hotpath/prerequisites.py: Linux, Java 17+ first on PATH, Maven,
# Python 3.11, GNU make 4, disk; perf events as a warning; make test: Chromium), checked before
# anything is set up, built or run: each missing piece in one line, then exit 2. It runs on the
# interpreter that is to make .venv, or on .venv's once made: the package is not installed yet,
# so it is a script on the standard library. PREREQ_FOR: render (nothing to build), report, test.
PREREQ_FOR ?= report
PREREQ_PY = $(if $(wildcard $(SETUP)),$(VENV_PY),$(PYTHON))
prerequisites: ## check what the machine must have for make report (and make test: PREREQ_FOR=test): one line per missing piece
	@command -v '$(PREREQ_PY)' > /dev/null || { echo "hotpath: needs Python 3.11 to make .venv (found no '$(PREREQ_PY)' on PATH): install it, or name another with PYTHON=python3.11" >&2; exit 2; }
	@'$(PREREQ_PY)' hotpath/prerequisites.py --for '$(PREREQ_FOR)' --make-version '$(MAKE_VERSION)'

check: prerequisites compiled
	@$(HOTPATH) check --case '$(CASE)' --profile '$(PROFILE)'

# The package's own modules compiled ahead, as .venv's are: where PYTHONDONTWRITEBYTECODE is set,
# every process that imports hotpath (each command, each kernel) would compile it again, 0.7 s of
# CPU each here (import hotpath: 2.9 s against 2.2 s). compileall redoes only what changed.
compiled: $(SETUP)
	@$(VENV_PY) -m compileall -q -j0 hotpath > /dev/null

# BUDGET: the time a sequential profile may spend (45m, 1h30m), shared by the cases; default: the profile's.
BUDGET ?=
# A run that would write into the committed data (data/ but data/results/: make bench
# PROFILE=reference, make aa, make matrix, make demos) refuses before anything starts, unless
# OUT=<folder> says where else to write or REPLACE=<name> names the committed run to replace
# (hotpath.measure.study.refuse_overwrite).
REPLACE_ARG = $(if $(REPLACE),--replace '$(REPLACE)')
bench: check $(STAMP) ## run the JMH matrices now: data/results/<profile>/<case>.json (BUDGET=45m to bound the time; SHARD=k/N: one shard; OUT=<folder> elsewhere; PROFILE=reference needs OUT= or REPLACE=reference)
	@$(HOTPATH) bench --case '$(CASE)' --profile $(PROFILE) --budget '$(BUDGET)' $(if $(SHARD),--shard '$(SHARD)') $(if $(OUT),--out '$(OUT)') $(REPLACE_ARG)

# A run cut into shards, each measured on a machine of its own (docs/usage.md, "Shards on a CI
# matrix"): `make shards SHARDS=3` prints the cut as the JSON a CI matrix takes (JSON=file: also
# into a file, which the set-up's own output cannot reach); each machine
# runs `make bench SHARD=k/3` into data/results/<profile>/shards/<k>-of-3/; `make merge
# FROM='dir1 dir2 dir3'` checks they are one run and joins them into data/results/<profile>/,
# which `make report` then renders without benchmarking.
SHARDS ?= 2
shards: check $(STAMP) ## print a run cut into SHARDS=N shards balanced by cost, as a CI matrix's JSON (MATRIX=1: the JDK x GC matrix's cells; BASELINE=a.jar CANDIDATE=b.jar BENCH=regex: two builds)
ifdef BASELINE
	@$(HOTPATH) shards --shards '$(SHARDS)' --baseline '$(BASELINE)' --candidate '$(CANDIDATE)' \
	  $(if $(BENCH),--bench '$(BENCH)') $(foreach p,$(PARAMS),-p '$(p)') $(if $(NAME),--name '$(NAME)') \
	  $(if $(BASELINE_NAME),--baseline-name '$(BASELINE_NAME)') $(if $(CANDIDATE_NAME),--candidate-name '$(CANDIDATE_NAME)') $(AB_PROFILE) \
	  $(if $(JSON),--json '$(JSON)')
else
	@$(HOTPATH) shards --case '$(CASE)' --profile $(if $(MATRIX),$(MATRIX_PROFILE),$(PROFILE)) --shards '$(SHARDS)' $(if $(MATRIX),--cells '$(CELLS)') $(if $(JSON),--json '$(JSON)')
endif

merge: $(SETUP) $(STAMP) ## join the shards' folders (FROM='a b c') of one run into data/results/<profile>/ (two builds: data/results/ab/<name>/; PROFILE=matrix: data/matrix/, REPLACE=matrix), checked
	@test -n '$(FROM)' || { echo "make merge needs FROM='<shard folder> ...'" >&2; exit 2; }
	@$(HOTPATH) merge --profile $(PROFILE) $(if $(OUT),--out '$(OUT)') $(REPLACE_ARG) $(FROM)

# Results are files: `make report` benchmarks only what is missing or older than the jar's
# classes, all such cases in one run that shares the profile's budget.
STALE_RESULTS := $(HOTPATH) bench --case '$(CASE)' --profile $(PROFILE) --budget '$(BUDGET)' --stale-only

# The committed reference data set is rendered as it is: `make report` never re-runs it.
ifeq ($(PROFILE),reference)
RESULT_FILES := $(CASES:%=data/reference/%.json)
REPORT_NEEDS :=
MAKE_RESULTS := $(MAKE) --no-print-directory $(RESULT_FILES)
data/reference/%.json:
	@echo "data/reference/$*.json is missing; the reference run is 'make bench PROFILE=reference'" >&2; exit 2
else
REPORT_NEEDS := $(STAMP)
MAKE_RESULTS := $(STALE_RESULTS)
endif

# The venv (pip: downloads, then one core) and the jar (Maven) made side by side, as make test
# makes its set-up: on a fresh clone they took 72 s and then 17 s, one after the other.
SIDE_BY_SIDE := $(SETUP) $(if $(REPORT_NEEDS),$(JAR))
.PHONY: set-up-side-by-side
set-up-side-by-side: prerequisites
	@$(MAKE) --no-print-directory -q $(SIDE_BY_SIDE) 2>/dev/null || \
	  $(MAKE) --no-print-directory -j2 --output-sync=target $(SIDE_BY_SIDE)

ifneq ($(and $(STEPS),$(if $(BASELINE),,missing)),)
$(error hotpath: a patch series needs its baseline beside STEPS=: BASELINE=master.jar)
endif
ifdef BASELINE
# Two builds measured (jars or classpaths): make report BASELINE=master.jar CANDIDATE=patch.jar
#   BENCH=<JMH regex> [PARAMS='size=64,1024 n=1'] [BUDGET=20m] [NAME=..] [BASELINE_NAME=master]
#   [CANDIDATE_NAME=patch] -> data/results/ab/<name>/, reports/ab/<name>/
# Two finished runs (JSON): make report BASELINE=master.json CANDIDATE=patch.json -> reports/compare/
# A patch series, a build per step (each the patch up to one more commit): make report
#   BASELINE=master.jar STEPS=a.jar,b.jar,c.jar [BENCH=..] [BUDGET=..] [STEP_NAMES=a,b,c] ->
#   data/results/series/<name>/, reports/series/<name>/ (which step pays)
# A build needs hotpath's jar (its memory pass's profiler); two JSON files need nothing built.
AB_PROFILE := $(if $(filter command line,$(origin PROFILE)),--profile '$(PROFILE)')
ifneq ($(and $(CANDIDATE),$(STEPS)),)
$(error hotpath: give CANDIDATE= (two builds) or STEPS= (a patch series), not both)
endif
# two JMH JSON files need nothing built
report: PREREQ_FOR = $(if $(filter %.json,$(BASELINE)),render,report)
report: prerequisites $(SETUP) $(if $(filter %.json,$(BASELINE)),,$(STAMP))
ifdef STEPS
	@$(HOTPATH) series '$(BASELINE)' $(foreach s,$(subst $(comma), ,$(STEPS)),'$(s)') \
	  $(if $(BENCH),--bench '$(BENCH)') $(foreach p,$(PARAMS),-p '$(p)') $(if $(BUDGET),--budget '$(BUDGET)') \
	  $(if $(NAME),--name '$(NAME)') $(if $(BASELINE_NAME),--baseline-name '$(BASELINE_NAME)') \
	  $(if $(STEP_NAMES),--step-names '$(STEP_NAMES)') $(AB_PROFILE)
else
	@$(HOTPATH) compare '$(BASELINE)' $(if $(CANDIDATE),'$(CANDIDATE)') \
	  $(if $(PARAM),--param '$(PARAM)' --baseline-value '$(BASELINE_VALUE)') \
	  $(if $(BENCH),--bench '$(BENCH)') $(foreach p,$(PARAMS),-p '$(p)') $(if $(BUDGET),--budget '$(BUDGET)') \
	  $(if $(NAME),--name '$(NAME)') $(if $(BASELINE_NAME),--baseline-name '$(BASELINE_NAME)') \
	  $(if $(CANDIDATE_NAME),--candidate-name '$(CANDIDATE_NAME)') $(AB_PROFILE) $(if $(SHARD),--shard '$(SHARD)')
endif
else
# the committed reference is rendered as it is: nothing to build
report: PREREQ_FOR = $(if $(filter reference,$(PROFILE)),render,report)
report: set-up-side-by-side check $(REPORT_NEEDS) ## render reports/<case>/ (benchmarks first where stale; another PROFILE: reports/<profile>/<case>/); or BASELINE=a.jar CANDIDATE=b.jar BENCH=regex (two builds); or BASELINE=a.jar STEPS=b.jar,c.jar (a patch series)
	@$(MAKE_RESULTS)
	@$(HOTPATH) report --case '$(CASE)' --profile $(PROFILE) --overview
endif

docs: $(SETUP) ## rewrite the figures README.md and docs/ quote from data/reference/ and data/matrix/
	@$(HOTPATH) docs

# A run's time rows held against the committed reference's (data/reference/): the rows whose 95%
# intervals, each widened by 15% for the differences between machines, do not overlap. Reads the
# files only (no build, no benchmarks); exit 1 when a row contradicts the reference, 2 on bad input.
against-reference: $(SETUP) ## a run's time rows (PROFILE=quick) against the reference's: which contradict it, intervals widened by 15%
	@$(HOTPATH) against-reference --case '$(CASE)' --profile '$(PROFILE)'

# Two builds, shown on released code: the same sources built against two upstream releases from
# Maven Central (only the release inside each jar differs), measured against each other by the
# `upstream` variant into data/reference/ab/<name>/ (committed; make report PROFILE=reference
# renders them). DEMO=ignite|rocketmq|all; each about half an hour on a quiet machine.
BUILDS := target/builds
$(BUILDS)/ignite-%/benchmarks.jar: $(JAVA_SOURCES)
	$(MVN) -q package -DskipTests -Dignite.version=$* -Dhotpath.build.directory=$(BUILDS)/ignite-$* 2>&1 | $(PLAIN)
$(BUILDS)/rocketmq-%/benchmarks.jar: $(JAVA_SOURCES)
	$(MVN) -q package -DskipTests -Drocketmq.version=$* -Dhotpath.build.directory=$(BUILDS)/rocketmq-$* 2>&1 | $(PLAIN)
IGNITE_DEMO := 2.16.0 2.17.0
ROCKETMQ_DEMO := 5.3.3 5.5.1
DEMO ?= all
demo-ignite: $(SETUP) $(STAMP) $(IGNITE_DEMO:%=$(BUILDS)/ignite-%/benchmarks.jar)
	$(HOTPATH) compare $(foreach v,$(IGNITE_DEMO),$(BUILDS)/ignite-$(v)/benchmarks.jar) \
	  --baseline-name ignite-$(word 1,$(IGNITE_DEMO)) --candidate-name ignite-$(word 2,$(IGNITE_DEMO)) \
	  --bench '^hotpath\.encoder\.EncoderPayload(Size)?Benchmark\.encode$$' -p variant=upstream \
	  --budget $(or $(BUDGET),25m) --name ignite-encoder --results-dir $(or $(OUT),data/reference/ab) $(REPLACE_ARG) --out reports/ab/ignite-encoder
demo-rocketmq: $(SETUP) $(STAMP) $(ROCKETMQ_DEMO:%=$(BUILDS)/rocketmq-%/benchmarks.jar)
	$(HOTPATH) compare $(foreach v,$(ROCKETMQ_DEMO),$(BUILDS)/rocketmq-$(v)/benchmarks.jar) \
	  --baseline-name rocketmq-$(word 1,$(ROCKETMQ_DEMO)) --candidate-name rocketmq-$(word 2,$(ROCKETMQ_DEMO)) \
	  --bench '^hotpath\.store\.Store(Append|ConsumeQueue|DispatchRequest|GetMessageResult|PullPath|SelectMappedBuffer|SmallOffsets)Benchmark\.' \
	  -p variant=upstream --budget $(or $(BUDGET),30m) --name rocketmq-store --results-dir $(or $(OUT),data/reference/ab) $(REPLACE_ARG) --out reports/ab/rocketmq-store
demos: ## two builds on released code: Ignite 2.16.0 vs 2.17.0, RocketMQ 5.3.3 vs 5.5.1 (DEMO=ignite|rocketmq|all) into data/reference/ab/ (committed: OUT=<folder> or REPLACE=demos)
	@# said before the releases are fetched and built; hotpath compare refuses alike
	@$(if $(or $(OUT),$(filter demos,$(REPLACE))),true,echo "hotpath: this run would write over committed data in data/reference/ab/ (the runs of two builds on released code): OUT=<folder> writes it elsewhere (data/results/... or outside data/), REPLACE=demos replaces it" >&2; exit 2)
	@for d in $(if $(filter all,$(DEMO)),ignite rocketmq,$(DEMO)); do $(MAKE) --no-print-directory demo-$$d || exit $$?; done

# The false-alarm rate on real forks: the reference's 54 write-up rows, old against old as two sides
# (the two-builds machinery, the same jar), the aa profile (full's cap, the matrix's 4 s scout, about
# 90 minutes on a quiet machine) into data/reference/aa/ (committed), then reports/aa/.
# A fork design tried on recorded forks before a long run is spent on it: the 2026-11-26 A/A's
# by default (the designs' calibration; its sides are the same code), or any two-builds run's
# folder (REPLAY_FROM=data/results/ab/<name>).
REPLAY_FROM ?= data/aa-runs/2026-11-26
replay: $(SETUP) ## a profile's plan replayed on a run's recorded forks, in seconds (PROFILE=aa, SET='forks=48 ...', REPLAY_FROM=)
	@$(HOTPATH) replay '$(REPLAY_FROM)' --profile '$(if $(filter command line,$(origin PROFILE)),$(PROFILE),aa)' \
	  $(foreach s,$(SET),--set '$(s)') $(if $(filter data/reference/aa% data/aa-runs/%,$(REPLAY_FROM)),--same-code)

WAIT ?=
host-check: $(SETUP) $(STAMP) ## how the host runs a row of the 2026-11-26 A/A today (40 s): fork spread and time against the A/A's (WAIT=3h: check every 10 min until quiet)
	@$(HOTPATH) host-check $(if $(WAIT),--wait $(WAIT))

promote: $(SETUP) ## make a reference run (RUN=<folder> of make bench PROFILE=reference OUT=) the reference if it is whole and fit; the one it replaces goes to data/reference-runs/<its day>/
	@$(HOTPATH) promote '$(RUN)'

aa: check $(STAMP) ## the A/A run: identical code as two sides, how often it is called faster or slower (BUDGET=1h30m), into data/reference/aa/ (committed: OUT=<folder> or REPLACE=aa)
	@$(HOTPATH) aa $(if $(BUDGET),--budget '$(BUDGET)') $(if $(OUT),--results '$(OUT)') $(REPLACE_ARG)

# The matrix has a profile of its own unless one is named on the command line.
MATRIX_PROFILE := $(if $(filter command line,$(origin PROFILE)),$(PROFILE),matrix)
CELLS ?= all
matrix: check $(STAMP) ## the JDK x GC matrix (CELLS=all|pressure|jdk25-zgc,...): each cell into data/matrix/<cell>/ (committed: OUT=<folder> or REPLACE=matrix), then reports/reference/<case>/matrix/ (SHARD=k/N: one shard; RENDER_ONLY=1: the reports only)
ifdef SHARD
	@$(HOTPATH) matrix --case '$(CASE)' --profile $(MATRIX_PROFILE) --cells '$(CELLS)' --budget '$(BUDGET)' --shard '$(SHARD)' $(if $(OUT),--out '$(OUT)')
else
	@for c in $(CASES); do $(HOTPATH) matrix --case $$c --profile $(MATRIX_PROFILE) --cells '$(CELLS)' --budget '$(BUDGET)' $(if $(RENDER_ONLY),--render-only) $(if $(OUT),--out '$(OUT)') $(REPLACE_ARG) || exit $$?; done
endif

sites: check $(STAMP) ## the allocation-site pass alone for a finished run (PROFILE=reference: the committed reference's): <case>.sites.json beside its results
	@$(HOTPATH) sites --case '$(CASE)' --profile $(PROFILE)

cpu: check $(STAMP) ## CPU samples alone, in forks of their own, for a finished run (PROFILE=reference: the committed reference's): <case>.cpu.json beside its results
	@$(HOTPATH) cpu --case '$(CASE)' --profile $(PROFILE)

mechanisms: check $(STAMP) ## which part of the patch pays: each of a patch's mechanisms alone and in combination against old (BUDGET=45m unless given), into data/results/mechanisms/<case>.json (committed: REPLACE=mechanisms, data/reference/mechanisms/); the case reports then split the change among them
	@$(HOTPATH) bench --case '$(CASE)' --profile mechanisms --budget '$(BUDGET)' $(if $(OUT),--out '$(OUT)') $(REPLACE_ARG)

profile: check $(STAMP) ## allocation flame graphs (async-profiler, one fork) into reports/<case>/flames/, then the reports again
	@for c in $(CASES); do $(HOTPATH) profile --case $$c --profile $(PROFILE) || exit $$?; done

# The set-up's three downloads (the venv's packages, Maven's with the JUnit build, Debian's
# Chromium) wait on the network more than on the cores: they run side by side. The tests then run
# two at a time, one on each core: JMH's forks in one lane (JMH runs one at a time on a machine:
# it takes /tmp/jmh.lock), pytest, the notebooks and Chromium in the other. No test asserts a
# timing the host can undo (tests/measure/test_ab.py says how), so none needs the machine to
# itself. Each stage's output is kept together; the last line gives each stage's time.
# In make's order of preference when a core frees: the JMH lane first (the longest chain: the
# smoke pass, its shards, the tests that start forks), then pytest's two halves, then what reads
# the smoke pass's results (its reports before the notebooks, for the browser tests).
TEST_STAGES := test-smoke-bench test-render test-shards test-forks test-python test-smoke-reports test-browser test-notebooks
TEST_TIMES := target/test-times
test: ## JUnit, pytest, every benchmark in the smoke profile with its report, every Java notebook, the reports and the lab in Chromium
	@$(MAKE) --no-print-directory prerequisites PREREQ_FOR=test || exit $$?; \
	  t0=$$(date +%s); $(MAKE) --no-print-directory -j3 --output-sync=target $(SETUP) $(JUNIT) $(CHROMIUM) || exit $$?; \
	  rm -rf $(TEST_TIMES); mkdir -p $(TEST_TIMES); \
	  echo "set-up, build and JUnit $$(( $$(date +%s) - t0 )) s" > $(TEST_TIMES)/set-up; \
	  $(MAKE) --no-print-directory compiled test-java || exit $$?; \
	  $(MAKE) --no-print-directory -j2 --output-sync=recurse $(TEST_STAGES:%=timed-%) REFERENCE_RENDERED=1 || exit $$?; \
	  took=$$(for s in set-up $(TEST_STAGES); do cat $(TEST_TIMES)/$$s; done | paste -sd ';' | sed 's/;/, /g'); \
	  echo "make test: $$(( $$(date +%s) - t0 )) s ($$took; all but the set-up two at a time)"

# A stage run and timed for make test's last line.
TIMED_STAGES := $(addprefix timed-,$(TEST_STAGES))
.PHONY: $(TIMED_STAGES)
$(TIMED_STAGES): timed-%:
	@t=$$(date +%s); $(MAKE) --no-print-directory $* && echo "$* $$(( $$(date +%s) - t )) s" > $(TEST_TIMES)/$*
# JMH's lane, one run after the other; what reads the smoke pass's results or reports waits for them
timed-test-shards: timed-test-smoke-bench
timed-test-forks: timed-test-shards
timed-test-smoke-reports: timed-test-smoke-bench
timed-test-browser: timed-test-smoke-reports
# The other lane in its own order: make, given a free core, may start any stage that is ready,
# and pytest's second half or the smoke pass's reports taken before test-forks left test-forks
# to run last, alone (a fresh clone's make test 947 s against about 830)
timed-test-python: timed-test-render
timed-test-smoke-reports: timed-test-python

# JUnit over the sources as they are: `mvn package` with its tests, which also builds the jar.
JUNIT := target/junit.passed
$(JUNIT): $(JAVA_SOURCES)
	$(MVN) package 2>&1 | $(PLAIN)
	@touch $(JAR) $@

test-java: $(SETUP) $(JUNIT)
	@$(VENV_PY) -m hotpath.measure.stamp $(JAR) $(STAMP)

# lint-imports: the stages' direction (pyproject.toml's import-linter contracts); ruff: the lint
# pyproject.toml selects. pytest's tests fall in two (pyproject.toml's markers): those that start no
# JMH fork, in two halves that run side by side (tests/render, whose reports are most of the time,
# and the rest), and those that do (test-forks: in make test's JMH lane, after the smoke pass and
# the shards). Among the latter, the ones that hold timed forks' verdicts to known answers also run
# as a group of their own (test-verdicts: over and over, beside a spinning CPU, to show no host can
# turn them red).
test-python: $(SETUP)
	$(VENV)/bin/lint-imports --no-cache
	$(VENV)/bin/ruff check --no-cache --quiet .
	$(VENV)/bin/mypy --cache-dir target/mypy-cache
	$(VENV)/bin/pytest -q --durations=5 -m "not forks and not verdicts" --ignore=tests/render

test-render: $(SETUP)
	$(VENV)/bin/pytest -q --durations=5 -m "not forks and not verdicts" tests/render

# JUnit first: test_new_case builds a tree offline, with the test plugins that its run fetched.
test-forks: $(SETUP) $(STAMP) $(JUNIT)
	$(VENV)/bin/pytest -q --durations=5 -m "forks or verdicts"

test-verdicts: $(SETUP) $(STAMP)
	$(VENV)/bin/pytest -q -m verdicts

# The smoke pass: every case's benchmarks in the smoke profile, then their reports.
test-smoke: test-smoke-bench
	@$(MAKE) --no-print-directory test-smoke-reports

test-smoke-bench: check $(STAMP)
	@for c in $(CASES); do $(HOTPATH) bench --case $$c --profile smoke || exit $$?; done

# The smoke pass renders into target/smoke-reports/, never over reports/; the committed runs of
# two builds and the A/A run go beside the cases, and encoder's committed reference with its
# allocation sites (which the smoke pass does not record), for the browser tests to open. They
# are copied from the reference's reports in target/reference-reports/: under make test
# (REFERENCE_RENDERED=1) as its render tests rendered them minutes before
# (tests/render/conftest.py), else rendered there first (`hotpath report` keeps what is current).
REFERENCE_REPORTS := target/reference-reports
test-smoke-reports: $(SETUP)
	@$(HOTPATH) report --case '$(CASE)' --profile smoke --out $(SMOKE_REPORTS) || exit $$?; \
	if [ -z "$(REFERENCE_RENDERED)" ]; then \
	  $(HOTPATH) report --profile reference --overview --out $(REFERENCE_REPORTS) > /dev/null || exit $$?; \
	fi; \
	rm -rf $(SMOKE_REPORTS)/ab $(SMOKE_REPORTS)/aa $(SMOKE_REPORTS)/reference; mkdir -p $(SMOKE_REPORTS)/reference; \
	cp -r $(REFERENCE_REPORTS)/ab $(REFERENCE_REPORTS)/aa $(SMOKE_REPORTS)/ && \
	  cp -r $(REFERENCE_REPORTS)/encoder $(SMOKE_REPORTS)/reference/encoder || exit $$?; \
	$(HOTPATH) overview --profile smoke --out $(SMOKE_REPORTS) && echo "smoke: $(words $(CASES)) passed, 0 failed"

# The sharded workflow's lint and its own commands on this machine: the smoke run of two cases
# cut into two shards, each into a folder of its own, merged and rendered, held against the
# smoke pass's unsharded rows; wrong shards refused (tests/shards).
test-shards: check $(STAMP)
	$(VENV)/bin/pytest -q tests/shards

# Every Java notebook runs headless with an injected parameter (each declares `int calls`), side
# by side as the cores allow, from one process: each is mostly a Java kernel's start.
test-notebooks: $(SETUP) $(STAMP)
	@$(HOTPATH) notebook notebooks/java/*.ipynb -p calls 200 --out $(SMOKE_REPORTS)/notebooks > /dev/null
	@n=0; for nb in notebooks/java/*.ipynb; do \
	  grep -q '"int calls = 200;' $(SMOKE_REPORTS)/notebooks/$$(basename $$nb) || \
	    { echo "$$nb: the injected parameter is missing from the executed copy"; exit 1; }; \
	  n=$$((n + 1)); \
	done; echo "java notebooks: $$n passed, 0 failed"

# Every rendered report and the overview in headless Chromium: charts decode, nothing is
# fetched, the headline is on the first screen, every table fits the page; jira.txt through a
# Jira markup parser; the lab starts and lists both kernels. Screenshots go to <reports>/screenshots/.
test-browser: $(SETUP) $(CHROMIUM) $(STAMP)
	$(VENV)/bin/pytest -q tests/browser --reports $(SMOKE_REPORTS)

check-reports: $(SETUP) $(CHROMIUM) ## open reports/ in headless Chromium as test-browser does; screenshots in reports/screenshots/
	$(VENV)/bin/pytest -q tests/browser --reports reports

$(CHROMIUM):
	@echo "installing Debian's chromium for the browser tests"
	@if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	elif command -v sudo >/dev/null; then sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	else echo "the browser tests need Debian's chromium: apt-get install chromium (as root)" >&2; exit 2; fi

# JupyterLab refuses to run as root without --allow-root (containers run as root).
LAB_ROOT := $(shell [ "$$(id -u)" = 0 ] && echo --allow-root)

new-case: $(SETUP) ## write a new case (NAME=<id>) with every piece in place, and list the files to fill in
	@$(HOTPATH) new-case '$(NAME)'

lab: compiled $(STAMP) ## JupyterLab with the Python and Java kernels, classes built (LAB_ARGS= for more options)
	$(VENV)/bin/jupyter lab --notebook-dir=. $(LAB_ROOT) $(LAB_ARGS) notebooks

clean: ## remove generated files: target/, reports/, caches (keeps .venv and data/results)
	rm -rf target reports .pytest_cache
	find . -name __pycache__ -type d -prune -not -path './$(VENV)/*' -exec rm -rf {} +

distclean: clean ## also remove .venv and the local benchmark results
	rm -rf $(VENV) data/results
