# Folio: `make run` starts the appliance, `make test` runs the whole suite.
# Both install what is missing first (Debian packages through apt, npm packages through npm ci).

SHELL := /bin/bash
export ONNXRUNTIME_NODE_INSTALL := skip
export npm_config_fund := false
export npm_config_audit := false

# command:debian-package pairs the appliance needs at run time, and those only the tests need.
# A pair whose first half starts with / names a file instead of a command.
RUN_PACKAGES := redis-server:redis-server pdftoppm:poppler-utils pandoc:pandoc zip:zip \
  soffice:libreoffice-writer-nogui soffice:libreoffice-impress-nogui chromium:chromium ddjvu:djvulibre-bin \
  pdflatex:texlive-latex-base /usr/share/texlive/texmf-dist/tex/latex/booktabs/booktabs.sty:texlive-latex-recommended \
  /usr/share/texlive/texmf-dist/tex/latex/txfonts/txfonts.sty:texlive-fonts-recommended \
  /usr/share/texmf/tex/latex/lm/lmodern.sty:lmodern osra:osra obabel:openbabel prlimit:util-linux
TEST_PACKAGES := promtool:prometheus unzip:unzip openssl:openssl dvipng:dvipng \
  tesseract:tesseract-ocr /usr/share/tesseract-ocr/5/tessdata/eng.traineddata:tesseract-ocr-eng
# Offline model training only (make models): Debian's torch, with the threaded OpenBLAS it is ~5x faster on.
MODEL_PACKAGES := /usr/lib/python3/dist-packages/torch/__init__.py:python3-torch \
  /usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3:libopenblas0-pthread \
  /usr/share/fonts/opentype/stix/STIXGeneral-Regular.otf:fonts-stix \
  /usr/bin/fc-scan:fontconfig \
  /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf:fonts-dejavu-core \
  /usr/share/fonts/truetype/freefont/FreeSerif.ttf:fonts-freefont-ttf \
  /usr/share/fonts/opentype/urw-base35/C059-Roman.otf:fonts-urw-base35
# The official Python client's suite (make client-compat, docs/client-compat.md): Debian's packages of what mpxpy imports.
CLIENT_COMPAT_PACKAGES := /usr/lib/python3/dist-packages/pytest/__init__.py:python3-pytest \
  /usr/lib/python3/dist-packages/requests/__init__.py:python3-requests \
  /usr/lib/python3/dist-packages/pydantic/__init__.py:python3-pydantic \
  /usr/lib/python3/dist-packages/dotenv/__init__.py:python3-dotenv \
  /usr/lib/python3/dist-packages/typing_extensions.py:python3-typing-extensions
# make bench: TeX Live manuals rasterised as scanned pages (bench/scanned-renders.ts), cores pinned with taskset.
BENCH_PACKAGES := /usr/share/doc/texlive-doc/fonts/txfonts/txfontsdoc.pdf:texlive-fonts-recommended-doc \
  /usr/share/doc/texlive-doc/latex/koma-script/scrguide-en.pdf:texlive-latex-recommended \
  /usr/share/doc/texlive-doc/bibtex/base/btxdoc.pdf:texlive-base pdftotext:poppler-utils taskset:util-linux
EVAL_PACKAGES := pdflatex:texlive-latex-base pdftoppm:poppler-utils taskset:util-linux pdfinfo:poppler-utils \
  /usr/share/doc/texlive-doc/latex/lineno:texlive-latex-recommended-doc /usr/share/doc/texlive-doc/latex/mhchem:texlive-science-doc \
  /usr/share/doc/texlive-doc/latex/lazylist:texlive-latex-extra-doc /usr/share/doc/texlive-doc/latex/aomart:texlive-publishers-doc
# make eval-chem: RDKit draws the held-out molecules (and ships the NCI sample they come from);
# gnuplot and Graphviz draw the held-out distractors.
CHEM_EVAL_PACKAGES := /usr/lib/python3/dist-packages/rdkit/__init__.py:python3-rdkit /usr/share/RDKit/Data/NCI/first_5K.smi:rdkit-data \
  gnuplot:gnuplot-nox dot:graphviz
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test test-unit test-integration test-reliability test-e2e deps test-deps bench lint clean console eval-math eval-chem

CONSOLE_SOURCES := $(shell find console/web -path console/web/dist -prune -o -type f -print)

run: deps console
	MALLOC_ARENA_MAX=$${MALLOC_ARENA_MAX:-2} node --import tsx --import ./core/no-source-maps.ts appliance/main.ts

test: deps test-deps console
	npx vitest run --config vitest.unit.config.ts
	npx vitest run --config vitest.integration.config.ts
	npx vitest run --config vitest.reliability.config.ts
	npx vitest run --config vitest.e2e.config.ts

test-reliability: deps test-deps
	npx vitest run --config vitest.reliability.config.ts

test-e2e: deps test-deps console
	npx vitest run --config vitest.e2e.config.ts

test-unit: deps
	npx vitest run --config vitest.unit.config.ts

test-integration: deps test-deps
	npx vitest run --config vitest.integration.config.ts

bench: deps test-deps
	@$(MAKE) --no-print-directory apt-install PAIRS="$(BENCH_PACKAGES)"
	npx tsx bench/run.ts

# The maths symbol classifier (models/math-symbols.onnx), trained here from MathJax renders, and its
# fine-tune on scanned renders that reads scans (models/math-symbols-scan.onnx), and the
# pen-strokes classifier (models/math-strokes.onnx), the handwritten-or-printed classifier (models/ink-kind.onnx)
# and the handwriting image classifier (models/math-handwriting.onnx) from the real strokes in FOLIO_DATASETS,
# the pen-strokes confidence model (models/strokes-confidence.json) from training writers' composed expressions,
# the regular stem widths bold letters are read against (models/math-stems.json) and the
# formula-image confidence model (models/formula-confidence.json) from generated formulas,
# and the handwriting-picture confidence model (models/handwriting-confidence.json) from training
# writers' composed expressions drawn as ink; see models/training/README.md.
.PHONY: models
models: deps
	@$(MAKE) --no-print-directory apt-install PAIRS="$(MODEL_PACKAGES)"
	npx tsx models/training/generate-symbols.ts
	npx tsx models/training/generate-latex-heldout.ts
	/usr/bin/python3 models/training/train_symbols.py --skip-holdout
	/usr/bin/python3 models/training/train_symbols.py --holdout-only --epochs 3
	npx tsx models/training/update-manifest.ts
	SCAN_SHARE=1 SAMPLES=16 npx tsx models/training/generate-symbols.ts models/training/data/symbols-scan
	THREADS=1 /usr/bin/python3 models/training/train_symbols.py --skip-holdout --scanned --init models/math-symbols.onnx --lr 3e-4 --epochs 2 --name math-symbols-scan
	npx tsx models/training/update-scan-manifest.ts
	@echo "models: the pen-strokes classifier (models/math-strokes.onnx, a BiGRU) is trained on a GPU: models/training/README.md, 'Fourth round'; kept as shipped ('make models-strokes-cpu' retrains a weaker 1-D CNN on the CPU)"
	@$(MAKE) --no-print-directory strokes-confidence
	nice -n 10 npx tsx models/training/ink-kind-generate.ts
	nice -n 10 /usr/bin/python3 models/training/ink-kind-train.py
	npx tsx models/training/update-ink-kind-manifest.ts
	@echo "models: the handwriting image classifier (models/math-handwriting.onnx) is trained on a GPU: models/training/README.md, 'Training the handwriting image classifier'; kept as shipped"
	nice -n 10 npx tsx models/training/fit-stem-widths.ts
	nice -n 10 npx tsx models/training/formula-confidence-reads.ts --set calibration
	nice -n 10 npx tsx models/training/formula-confidence-reads.ts --set heldout
	npx tsx models/training/fit-formula-confidence.ts
	nice -n 10 npx tsx models/training/handwriting-confidence-reads.ts --set calibration --count 800
	nice -n 10 npx tsx models/training/handwriting-confidence-reads.ts --set heldout --count 300
	npx tsx models/training/fit-handwriting-confidence.ts
	npx tsx models/training/evaluate-onnx.ts

# The pen-strokes classifier retrained on the CPU from the shared data (models/training/README.md, "Seventh round"):
# samples, two 1-D CNNs shipped as one (one torch thread, about 25 CPU minutes), its manifest entry, then the strokes
# confidence refitted on it. It beats the shipped GPU-trained BiGRU on held-out writers' expressions and holds every
# floor of v3-strokes-heldout-writers, and since scripts are read at script size it reads a hand-drawn a^2+1, but
# v3-strokes-handwriting's hand-drawn 2+1 is refused ("Tenth round"), so `make models` keeps the BiGRU.
.PHONY: models-strokes-cpu
models-strokes-cpu: deps
	@$(MAKE) --no-print-directory apt-install PAIRS="$(MODEL_PACKAGES)"
	VALIDATION_FOLD=1 PER_CLASS=1000 MAX_COPIES=30 nice -n 10 npx tsx models/training/strokes-real-generate.ts
	nice -n 10 /usr/bin/python3 models/training/strokes-real-train.py
	npx tsx models/training/update-strokes-manifest.ts
	@$(MAKE) --no-print-directory strokes-confidence

# The pen-strokes confidence (models/strokes-confidence.json) fitted on the shipped strokes classifier's reads.
.PHONY: strokes-confidence
strokes-confidence:
	nice -n 10 npx tsx models/training/strokes-confidence-reads.ts --set calibration
	nice -n 10 npx tsx models/training/strokes-confidence-reads.ts --set heldout
	npx tsx models/training/fit-strokes-confidence.ts

# 2,000 mixed documents under random worker kills (gives up after 40 minutes); prints memory at start and end.
# make bench-large: PDFs of 0.3, 1 and 2 GB through /v3/pdf and the Files API, and one of 4.3 GB
# (over pdf.js's 2^32-1 bytes) through the Files API, the document worker's peak RSS for each
# (bench/large-documents.bench.ts, table in bench/LARGE-DOCUMENTS.md); needs about 13 GB free in
# /tmp (the file, its stored upload and the worker's copy) and about an hour on an idle machine.
.PHONY: bench-large
bench-large: deps test-deps
	npx tsx bench/large-documents.bench.ts

.PHONY: soak
soak: deps test-deps
	npx tsx test/reliability/soak.ts

# One document worker's memory over 2,000 documents in one process, no kills (docs/reliability.md, "Soak").
.PHONY: worker-leak
worker-leak: deps
	node --expose-gc --import tsx --import ./core/no-source-maps.ts test/reliability/worker-leak.ts

# mpxpy's own tests against a fresh appliance, when .client-compat/mpxpy holds the client (else it says how to get it).
.PHONY: client-compat
client-compat: deps test-deps
	@$(MAKE) --no-print-directory apt-install PAIRS="$(CLIENT_COMPAT_PACKAGES)"
	npx tsx test/client-compat/run.ts

# Maths recogniser evaluation on the held-out set (models/eval/README.md), pinned to one core.
eval-math: deps
	@$(MAKE) --no-print-directory apt-install PAIRS="$(EVAL_PACKAGES)"
	taskset -c 0 npx tsx models/eval/run.ts
	nice -n 10 npx tsx models/eval/texdoc/run.ts

# The real-document set on scans: its documents of up to 14 pages rasterised at 200 dpi (clean, then
# as a scanner takes them) through a running appliance's /v3/pdf (models/eval/texdoc/README.md;
# about 30 minutes each on 2 cores; after eval-math, whose born-digital rows it compares against).
.PHONY: eval-texdoc-scanned
eval-texdoc-scanned: deps
	@$(MAKE) --no-print-directory apt-install PAIRS="$(EVAL_PACKAGES)"
	nice -n 10 npx tsx models/eval/texdoc/scanned.ts
	nice -n 10 npx tsx models/eval/texdoc/scanned.ts --noisy

# The real-document set's displays as formula images: each typeset alone by pdflatex, cropped at
# 150 dpi and read through a running appliance's /v3/text at default options (about 15 minutes).
.PHONY: eval-texdoc-images
eval-texdoc-images: deps
	@$(MAKE) --no-print-directory apt-install PAIRS="$(EVAL_PACKAGES)"
	nice -n 10 npx tsx models/eval/texdoc/images.ts

# Chemical structure reading (OSRA + Open Babel) on RDKit and Open Babel drawings and mixed pages (models/eval/chem/README.md).
eval-chem: deps
	@$(MAKE) --no-print-directory apt-install PAIRS="$(EVAL_PACKAGES) $(CHEM_EVAL_PACKAGES)"
	nice -n 10 npx tsx models/eval/chem/run.ts

# One formatter (Prettier, .prettierrc.json) for every TypeScript and JavaScript source; `make format` applies it.
PRETTIER_FILES := "**/*.{ts,tsx,mts,cts,js,mjs,cjs}"
.PHONY: format
format: deps
	npx prettier --log-level warn --write $(PRETTIER_FILES)

lint: deps
	npx prettier --check --log-level warn $(PRETTIER_FILES)
	npx tsc --noEmit -p .
	npx vitest run --config vitest.unit.config.ts core/layers.test.ts
	npx tsc --noEmit -p console/web

deps: node_modules/.folio-installed
	@$(MAKE) --no-print-directory apt-install PAIRS="$(RUN_PACKAGES)"

test-deps:
	@$(MAKE) --no-print-directory apt-install PAIRS="$(TEST_PACKAGES)"

# Installs the Debian package of each command that is not on PATH (idempotent).
apt-install:
	@missing=""; for pair in $(PAIRS); do cmd=$${pair%%:*}; pkg=$${pair##*:}; \
	  case $$cmd in /*) [ -e $$cmd ] ;; *) command -v $$cmd >/dev/null 2>&1 ;; esac || missing="$$missing $$pkg"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

# npm 11.19 writes locks that its own `npm ci` refuses (platform optional packages missing,
# npm/cli#4828); `npm install` then installs exactly the locked versions without rewriting the lock.
node_modules/.folio-installed: package.json package-lock.json
	@npm ci --no-audit --no-fund --loglevel=error >/dev/null 2>&1 || { \
	  echo "npm ci refused the lock file (npm/cli#4828); installing the locked versions with npm install"; \
	  npm install --no-audit --no-fund --loglevel=error; }
	@touch $@

# The operator console served at /console: rebuilt when its sources or the installed packages change.
console: console/web/dist/index.html
console/web/dist/index.html: node_modules/.folio-installed $(CONSOLE_SOURCES)
	npx vite build --config console/web/vite.config.ts

clean:
	rm -rf node_modules data

# Installer bundle for hosts without npm registry access (installer/bundle/, git-ignored):
# `make bundle` or `make bundle AIRGAPPED=1` (licence checks and usage reports off).
AIRGAPPED ?= 0
.PHONY: bundle
bundle:
	AIRGAPPED=$(AIRGAPPED) installer/build-bundle.sh
