# Every target creates .venv and installs the project on first use, so a fresh clone needs nothing
# else. Versions come from the lock files (exact versions and hashes): requirements.lock for the
# bot (the Docker image), requirements-dev.lock for it plus the tools; `make lock` refreshes them.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
LOCK := CUSTOM_COMPILE_COMMAND="make lock" $(BIN)/pip-compile --quiet --generate-hashes \
	--allow-unsafe --strip-extras --all-build-deps --no-emit-index-url --no-emit-find-links

# Test processes (pytest-xdist): each has its own PostgreSQL server, worker pool and tmp folders.
JOBS ?= 2
N ?= 20
# Bytecode caches on for the tests even where the environment turns them off: without them
# every run re-compiles and re-rewrites (pytest's asserts) every test module in every process.
PYTEST := env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest

.PHONY: run test test-repeat lint bench clean lock lock-upgrade

$(STAMP): pyproject.toml requirements-dev.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements-dev.lock
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	@# A dependency in pyproject.toml that the lock lacks fails here: run `make lock`.
	$(BIN)/python -m pip check
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/wargame-bot run

test: $(STAMP)
	$(PYTEST) -n $(JOBS)

# The whole suite N times in a row in CI's environment, stopping at the first failure.
test-repeat: $(STAMP)
	JOBS=$(JOBS) scripts/repeat_suite.sh $(N)

lint: $(STAMP)
	$(BIN)/ruff check bot rules_core tests bench scripts
	$(BIN)/ruff format --check bot rules_core tests bench scripts
	$(BIN)/mypy
	$(BIN)/mypy scripts
	$(BIN)/lint-imports
	$(BIN)/hadolint Dockerfile

bench: $(STAMP)
	$(BIN)/python -m bench

# Re-resolve after editing pyproject.toml, keeping every pin that still fits;
# `make lock-upgrade` moves every pin to the newest allowed version instead.
lock:
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements-dev.lock
	$(LOCK) $(UPGRADE) -o requirements.lock pyproject.toml
	$(LOCK) $(UPGRADE) --extra dev -c requirements.lock -o requirements-dev.lock pyproject.toml

lock-upgrade:
	$(MAKE) lock UPGRADE=--upgrade

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
