# Thin wrappers around the commands in the README. Every target creates $(VENV) when it is missing.
# Another Python gets its own venv, so runs side by side don't clobber each other:
#   make test PYTHON=$(PYENV_VERSION=3.10.13 pyenv which python) VENV=.venv-3.10
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-dev
NBVAL  := --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg --nbval-cell-timeout=600  # offline cells take seconds; a lost kernel message must not hang CI
PORT   ?= 8765
# JupyterLab refuses to start as root (e.g. in a container) unless told to
LAB_ARGS ?= $(if $(filter 0,$(shell id -u 2>/dev/null)),--allow-root)

.PHONY: install venv-python lab lint test test-fast bench eval notebooks exercises check-exercises serve live live-quick live-notebooks local local-rebuild clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	$(BIN)/python -m handwritten_agent.course.lab
	@touch $(STAMP)

install: venv-python $(STAMP)

# PYTHON given on the command line must be the one $(VENV) runs, or make test would test another version
venv-python:
ifeq ($(origin PYTHON),command line)
	@want=$$($(PYTHON) -c 'import platform; print(platform.python_version())') || exit 1; \
	have=$$(test -x $(BIN)/python && $(BIN)/python -c 'import platform; print(platform.python_version())'); \
	test -z "$$have" || test "$$want" = "$$have" || { \
	  echo "$(VENV) runs Python $$have, not $$want: add VENV=.venv-$${want%.*} (or make clean VENV=$(VENV))" >&2; exit 1; }
endif

## JupyterLab on notebooks/ (offline simulator unless .env names a provider)
lab: install
	$(BIN)/jupyter lab $(LAB_ARGS) --ServerApp.root_dir=. --LabApp.default_url=/lab/tree/notebooks

## pytest for the package + nbval for notebooks/ and solutions/, always on the offline simulator
test: install lint
	LLM_PROVIDER=offline $(BIN)/python -m pytest tests notebooks solutions $(NBVAL)

## ruff: lint and format check of the package and its tests (notebooks are nbval's)
lint: install
	$(BIN)/ruff check handwritten_agent tests
	$(BIN)/ruff format --check handwritten_agent tests

## only the package tests
test-fast: install lint
	LLM_PROVIDER=offline $(BIN)/python -m pytest tests

## benchmarks, each figure next to its floor: a table, and bench.json (not in make test: timings are noisy)
##   make bench BENCH_ARGS="--only roundtrip --n 500"
bench: install
	LLM_PROVIDER=offline $(BIN)/python -m handwritten_agent bench $(BENCH_ARGS)

## the evaluation: 10 office requests on the backend .env names (the simulator by default), a table and eval.json
##   make eval EVAL_ARGS="--repeat 3"
eval: install
	$(BIN)/python -m handwritten_agent eval $(EVAL_ARGS)

## re-run every notebook and solution on the offline simulator and save the outputs, then regenerate exercises/
notebooks: install
	LLM_PROVIDER=offline $(BIN)/jupyter nbconvert --to notebook --inplace --execute --ExecutePreprocessor.record_timing=False --ExecutePreprocessor.store_widget_state=True --ExecutePreprocessor.timeout=600 notebooks/*.ipynb solutions/*.ipynb
	$(BIN)/jupyter nbconvert --coalesce-streams notebooks/*.ipynb solutions/*.ipynb  # one stdout block per cell, as JupyterLab saves it
	$(MAKE) exercises

## exercises/ generated from solutions/
exercises: install
	$(BIN)/python -m handwritten_agent.course.exercises build

## check your own answers in exercises/ (each check cell must pass)
check-exercises: install
	LLM_PROVIDER=offline $(BIN)/python -m pytest --nbval-lax --nbval-current-env exercises

## the OpenAI-compatible offline server in the foreground
serve: install
	$(BIN)/python -m handwritten_agent serve --port $(PORT)

## the local llama.cpp model: compile llama-cpp-python for this CPU's instruction sets (AMX off: it crashes on recent
## Xeons), assemble the model file, then check in a child process that a prompt of several tokens runs
##   CMAKE_ARGS="-DGGML_CUDA=on" make local     builds with your own options instead
## pip runs again only when pyproject.toml changed since (other build options: make local-rebuild, or delete the stamp)
LOCAL_STAMP := $(VENV)/.installed-local
$(LOCAL_STAMP): pyproject.toml $(STAMP)
	CMAKE_ARGS="$${CMAKE_ARGS:-$$($(BIN)/python -m handwritten_agent model cmake-args)}" $(BIN)/python -m pip install --quiet -e ".[dev,local]"
	@touch $(LOCAL_STAMP)

local: install $(LOCAL_STAMP)
	$(BIN)/python -m handwritten_agent model fetch
	$(BIN)/python -m handwritten_agent model check

## recompile llama-cpp-python with the options above (what `model check` says to run when the model crashed), then check again
##   make local-rebuild REBUILD_LEVEL=portable   also without AVX-512
REBUILD_LEVEL ?= cpu
local-rebuild: install
	$(BIN)/python -m handwritten_agent model rebuild --level $(REBUILD_LEVEL)

## every notebook and solution against the local model (outputs not compared), plus the slow tests; the slowest
## target (825 s on two cores, 2026-12-07; the README has each notebook's time): every step prints its per-test /
## per-notebook times (--durations). The evaluation runs once, in Day 6's notebook (the same ten cases, agent and
## claim check as `eval`); `make live-quick` runs `eval` itself and writes eval-local.json.
## The steps share one folder of kept prompt prefixes, emptied first, so the time is that of a first run.
LIVE_PREFIXES = $(CURDIR)/.cache/live-prefixes
live: local
	rm -rf $(LIVE_PREFIXES)
	HANDWRITTEN_AGENT_PREFIX_CACHE=$(LIVE_PREFIXES) LLM_PROVIDER=local $(BIN)/python -m pytest -m slow --durations=0 tests
	HANDWRITTEN_AGENT_PREFIX_CACHE=$(LIVE_PREFIXES) LLM_PROVIDER=local $(BIN)/python -m pytest --nbval-lax --nbval-current-env --durations=0 notebooks solutions

## a subset of live to run before a change: the local model's smoke test, the notebooks of LIVE_NOTEBOOKS (Days 1-3 by
## default: the raw API, prompt-JSON and native tool calls) without their solutions, the doctor's checks of the served
## model, and the ten-case evaluation. Not in it: the other slow tests, Days 4-7, the appendix, the solutions (run
## them with `make live-notebooks LIVE_NOTEBOOKS="notebooks/day4_memory.ipynb solutions/day4_solutions.ipynb"`).
## Budget 15 minutes on two cores; the split was chosen from earlier whole-run figures and is not yet timed as a target.
LIVE_NOTEBOOKS ?= notebooks/day1_*.ipynb notebooks/day2_*.ipynb notebooks/day3_*.ipynb
live-quick: local
	LLM_PROVIDER=local $(BIN)/python -m pytest -m slow --durations=0 tests/test_local.py
	LLM_PROVIDER=local $(BIN)/python -m pytest --nbval-lax --nbval-current-env --durations=0 $(LIVE_NOTEBOOKS)
	LLM_PROVIDER=local $(BIN)/python -m handwritten_agent doctor
	LLM_PROVIDER=local $(BIN)/python -m handwritten_agent eval --json eval-local.json

## only the notebooks (and solutions) named in LIVE_NOTEBOOKS, against the local model, with their times
live-notebooks: local
	LLM_PROVIDER=local $(BIN)/python -m pytest --nbval-lax --nbval-current-env --durations=0 $(LIVE_NOTEBOOKS)

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
