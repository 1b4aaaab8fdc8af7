# hotpath: models -> JMH JSON (data/results/<profile>/) -> papermill notebooks -> reports/<case>/
#
#   make report                 set up, build, benchmark (if stale) and render every case
#   make test                   set up and run every test (JUnit, pytest, smoke pass)
#   make report CASE=writer PROFILE=smoke

.DEFAULT_GOAL := help
SHELL := /bin/bash

CASE ?= all
PROFILE ?= quick

VENV := .venv
HOTPATH := $(VENV)/bin/hotpath
PYTHON := $(VENV)/bin/python
JAR := target/benchmarks.jar
SETUP := $(VENV)/.installed
JAVA_SOURCES := pom.xml $(shell find java-src -name '*.java' 2>/dev/null)
KNOWN_CASES := writer encoder marshaller zip store
# A case exists once its models and its report notebook are in the tree.
EXISTING_CASES := $(foreach c,$(KNOWN_CASES),$(if $(and $(wildcard notebooks/$(c).ipynb),$(wildcard java-src/main/java/hotpath/$(c))),$(c)))
comma := ,
CASES := $(if $(filter all,$(CASE)),$(EXISTING_CASES),$(subst $(comma), ,$(CASE)))
SMOKE_REPORTS := target/smoke-reports

.PHONY: help setup build bench report profile test test-java test-python test-smoke test-notebooks lab clean distclean check

help: ## list the targets
	@echo "hotpath: JMH studies of allocation and copy reductions on JVM hot paths"
	@echo "usage: make <target> [CASE=$(subst $() ,|,$(KNOWN_CASES))|all] [PROFILE=smoke|quick|full|reference]"
	@echo
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-12s %s\n", $$1, $$2}'
	@echo
	@echo "cases in this tree: $(EXISTING_CASES)"

$(SETUP): pyproject.toml
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -e '.[test]'
	@# ipykernel and jjava put their kernelspecs under the venv's share/jupyter, not the user's
	$(VENV)/bin/jupyter kernelspec list
	touch $@

setup: $(SETUP) ## create .venv with the package, Jupyter and the Python and Java kernels

$(JAR): $(JAVA_SOURCES)
	mvn -q -B package -DskipTests
	@touch $@

build: $(JAR) ## compile the models and build target/benchmarks.jar

check: $(SETUP)
	@$(HOTPATH) check --case '$(CASE)' --profile '$(PROFILE)'

bench: check $(JAR) ## run the JMH matrices now: data/results/<profile>/<case>.json
	@for c in $(CASES); do $(HOTPATH) bench --case $$c --profile $(PROFILE) || exit $$?; done

# Results are files: `make report` benchmarks only what is missing or older than the jar.
data/results/$(PROFILE)/%.json: $(JAR) | $(SETUP)
	$(HOTPATH) bench --case $* --profile $(PROFILE)

# The committed reference data set is rendered as it is: `make report` never re-runs it.
ifeq ($(PROFILE),reference)
RESULT_FILES := $(CASES:%=data/reference/%.json)
REPORT_NEEDS :=
data/reference/%.json:
	@echo "data/reference/$*.json is missing; the reference run is 'make bench PROFILE=reference'" >&2; exit 2
else
RESULT_FILES := $(CASES:%=data/results/$(PROFILE)/%.json)
REPORT_NEEDS := $(JAR)
endif

ifdef BASELINE
# Any two JMH files: make report BASELINE=master.json CANDIDATE=patch.json -> reports/compare/
report: $(SETUP)
	@$(HOTPATH) compare '$(BASELINE)' $(if $(CANDIDATE),'$(CANDIDATE)') $(if $(PARAM),--param '$(PARAM)' --baseline-value '$(BASELINE_VALUE)')
else
report: check $(REPORT_NEEDS) ## render reports/<case>/ (benchmarks first where stale); or BASELINE=a.json CANDIDATE=b.json
	@$(MAKE) --no-print-directory $(RESULT_FILES)
	@for c in $(CASES); do $(HOTPATH) report --case $$c --profile $(PROFILE) || exit $$?; done
	@$(HOTPATH) overview --profile $(PROFILE)
endif

profile: check $(JAR) ## allocation flame graphs (async-profiler, one fork) into reports/<case>/flames/
	@for c in $(CASES); do $(HOTPATH) profile --case $$c --profile $(PROFILE) || exit $$?; done

test: test-java test-python test-smoke test-notebooks ## JUnit, pytest, every benchmark in the smoke profile with its report, every Java notebook

test-java: $(SETUP)
	mvn -B -ntp package

test-python: $(SETUP)
	$(VENV)/bin/pytest -q

test-smoke: check $(JAR)
	@n=0; for c in $(CASES); do \
	  $(HOTPATH) bench --case $$c --profile smoke && \
	  $(HOTPATH) report --case $$c --profile smoke --out $(SMOKE_REPORTS) || exit $$?; \
	  n=$$((n + 1)); \
	done; echo "smoke: $$n passed, 0 failed"

# Every Java notebook runs headless with an injected parameter (each declares `int calls`).
test-notebooks: $(SETUP) $(JAR)
	@n=0; for nb in notebooks/java/*.ipynb; do \
	  $(HOTPATH) notebook $$nb -p calls 200 --out $(SMOKE_REPORTS)/notebooks || exit $$?; \
	  grep -q '"int calls = 200;' $(SMOKE_REPORTS)/notebooks/$$(basename $$nb) || \
	    { echo "$$nb: the injected parameter is missing from the executed copy"; exit 1; }; \
	  n=$$((n + 1)); \
	done; echo "java notebooks: $$n passed, 0 failed"

lab: $(SETUP) $(JAR) ## JupyterLab with the Python and Java kernels, classes built
	$(VENV)/bin/jupyter lab --notebook-dir=. notebooks

clean: ## remove generated files: target/, reports/, caches (keeps .venv and data/results)
	rm -rf target reports .pytest_cache
	find . -name __pycache__ -type d -prune -not -path './$(VENV)/*' -exec rm -rf {} +

distclean: clean ## also remove .venv and the local benchmark results
	rm -rf $(VENV) data/results
