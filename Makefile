# Folio: `make run` starts the appliance, `make test` runs the whole suite.
# Both install what is missing first (Debian packages through apt, npm packages through npm ci).

SHELL := /bin/bash
export ONNXRUNTIME_NODE_INSTALL := skip
export npm_config_fund := false
export npm_config_audit := false

# command:debian-package pairs the appliance needs at run time, and those only the tests need.
RUN_PACKAGES := redis-server:redis-server pdftoppm:poppler-utils pandoc:pandoc zip:zip \
  soffice:libreoffice-writer-nogui soffice:libreoffice-impress-nogui
TEST_PACKAGES := promtool:prometheus unzip:unzip openssl:openssl
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test test-unit test-integration deps test-deps bench lint clean

run: deps
	node --import tsx appliance/main.ts

test: deps test-deps
	npx vitest run --config vitest.unit.config.ts
	npx vitest run --config vitest.integration.config.ts

test-unit: deps
	npx vitest run --config vitest.unit.config.ts

test-integration: deps test-deps
	npx vitest run --config vitest.integration.config.ts

bench: deps test-deps
	npx tsx bench/run.ts

lint: deps
	npx tsc --noEmit -p .

deps: node_modules/.folio-installed
	@$(MAKE) --no-print-directory apt-install PAIRS="$(RUN_PACKAGES)"

test-deps:
	@$(MAKE) --no-print-directory apt-install PAIRS="$(TEST_PACKAGES)"

# Installs the Debian package of each command that is not on PATH (idempotent).
apt-install:
	@missing=""; for pair in $(PAIRS); do cmd=$${pair%%:*}; pkg=$${pair##*:}; \
	  command -v $$cmd >/dev/null 2>&1 || missing="$$missing $$pkg"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

node_modules/.folio-installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

clean:
	rm -rf node_modules data

# Installer bundle for hosts without npm registry access (installer/bundle/, git-ignored):
# `make bundle` or `make bundle AIRGAPPED=1` (licence checks and usage reports off).
AIRGAPPED ?= 0
.PHONY: bundle
bundle:
	AIRGAPPED=$(AIRGAPPED) installer/build-bundle.sh
