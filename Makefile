# The two Quick start commands are `make serve` and `make test`; each installs everything it needs first.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
export NO_MKDOCS_2_WARNING := 1
HOST ?= 127.0.0.1:8000

.PHONY: setup serve build test check pdf offline bench clean

# Python packages (pinned), the codex package, the npm packages, and Debian's Chromium (browser tests), poppler
# (reading PDFs in tests) and DejaVu fonts (the PDFs' typeface). Re-runs are cheap: each step is skipped when its
# inputs have not changed.
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
	@if [ -n "$$NETLIFY" ]; then \
	  echo "Netlify: no system packages needed to build (Typst prints the PDFs with its own fonts if DejaVu is missing)"; exit 0; \
	fi; \
	missing=""; \
	command -v chromium >/dev/null || missing="$$missing chromium"; \
	command -v pdftotext >/dev/null || missing="$$missing poppler-utils"; \
	[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing="$$missing fonts-dejavu-core"; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	fi

# site_url must match the served address for Material's instant navigation (mkdocs.yml reads SITE_URL).
serve: setup
	SITE_URL=$${SITE_URL:-http://$(HOST)/} $(BIN)/python -m mkdocs serve --dev-addr $(HOST)

build: setup
	$(BIN)/python -m mkdocs build --strict

check: setup
	$(BIN)/python -m codex check

# The browser protocol's TypeScript types (types/protocol.d.ts, gitignored), from hooks/codex/protocol.py: what tsc
# checks the linker's JavaScript against (tests/test_js_lint.py writes the same file before it runs tsc).
.PHONY: types
types: setup
	$(BIN)/python -m codex.typedefs

test: setup
	$(BIN)/python -m pytest

pdf: setup
	$(BIN)/python -m codex pdf --out pdf

# A copy of the site that works from the local disk (file://), search included, as one zip.
offline: setup
	rm -rf offline && OFFLINE=true DIRECTORY_URLS=false $(BIN)/python -m mkdocs build --strict -d offline/site
	cd offline && ../$(BIN)/python -m zipfile -c rules-codex-offline.zip site
	@echo "offline/rules-codex-offline.zip: unzip it and open site/index.html"

bench: setup
	$(BIN)/python benchmarks/run.py --browser

# Regenerates hooks/codex/learned_data.py (detection's learned word evidence) from the annotated corpora.
learn: setup
	$(BIN)/python -m benchmarks.learn

clean:
	rm -rf site pdf offline .pytest_cache
