# The two Quick start commands are `make serve` and `make test`; each installs everything it needs first.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
export NO_MKDOCS_2_WARNING := 1
HOST ?= 127.0.0.1:8000

.PHONY: setup serve build test check pdf offline bench clean

# Python packages (pinned), the codex package, the npm runtime, and Debian's Chromium + fonts + poppler for
# browser tests and PDFs. Re-runs are cheap: each step is skipped when its inputs have not changed.
setup: $(VENV)/.installed node_modules/.installed system-packages

$(VENV)/.installed: requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements.txt
	$(BIN)/pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

system-packages:
	@missing=""; \
	command -v chromium >/dev/null || missing="$$missing chromium"; \
	command -v pdftotext >/dev/null || missing="$$missing poppler-utils"; \
	[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing="$$missing fonts-dejavu-core"; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	fi

serve: setup
	$(BIN)/mkdocs serve --dev-addr $(HOST)

build: setup
	$(BIN)/mkdocs build --strict

check: setup
	$(BIN)/python -m codex check

test: setup
	$(BIN)/python -m pytest

pdf: setup
	$(BIN)/python -m codex pdf --out pdf

offline: setup
	$(BIN)/python -m codex offline --out offline/rules-codex-offline.zip

bench: setup
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf site pdf offline .pytest_cache
