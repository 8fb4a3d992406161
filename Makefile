# Front door: deps -> configure -> build. `make run` runs the demo sweep, `make test` the suite.
BUILD ?= build
GRANULAR_CUDA ?= AUTO
GRANULAR_NATIVE ?= ON
GRANULAR_MPI ?= AUTO
# the Python module (docs/python.md), built with the CLI and tested by `make test`
GRANULAR_PYTHON ?= ON
VENV ?= .venv
DOCS_VENV ?= .venv-docs
JOBS ?= $(shell nproc)
DEMO_OUT ?= out/demo
DIST ?= dist

SANITIZE_BUILD ?= build-sanitize
FUZZ_SECONDS ?= 120

.PHONY: all deps deps-run deps-bench deps-sanitize configure build test run bench sanitize-build \
	sanitize fuzz wheel wheel-test docs clean

all: build

# the virtual environment always: the snapshot tests read files back with its gsd and ovito
deps:
	@scripts/install_deps.sh
	@scripts/python_env.sh $(VENV)

deps-run:
	@scripts/install_deps.sh --run

deps-bench:
	@scripts/install_deps.sh --bench

# the sanitized suite reads the snapshots back with .venv's gsd and ovito too
deps-sanitize:
	@scripts/install_deps.sh --sanitize
	@scripts/python_env.sh $(VENV)

configure: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DGRANULAR_CUDA=$(GRANULAR_CUDA) \
		-DGRANULAR_NATIVE=$(GRANULAR_NATIVE) -DGRANULAR_MPI=$(GRANULAR_MPI) \
		-DGRANULAR_PYTHON=$(GRANULAR_PYTHON) -DPython_EXECUTABLE=$(abspath $(VENV))/bin/python \
		>/dev/null

# the venv finds the module in the build tree (a .pth file): `.venv/bin/python -c 'import granular'`
build: configure
	@cmake --build $(BUILD) -j $(JOBS)
ifeq ($(GRANULAR_PYTHON),ON)
	@$(VENV)/bin/python -c 'import site, sys; open(site.getsitepackages()[0] + "/granular-build.pth", "w").write(sys.argv[1] + "\n")' $(abspath $(BUILD))/python
endif

test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The documentation site (docs/documentation-site.md) into $(BUILD)/site: MkDocs in .venv-docs,
# strict (a warning fails it; not --quiet, which hides the warnings from --strict too); its
# reference pages come from the build's CLI and Python stub
docs: build
	@scripts/docs_env.sh $(DOCS_VENV)
	@GRANULAR_CLI=$(abspath $(BUILD))/granular GRANULAR_PYTHON_DIR=$(abspath $(BUILD))/python \
		$(DOCS_VENV)/bin/mkdocs build --strict -d $(abspath $(BUILD))/site

# the demo needs the CLI only: not the tests, the bench or the Python module
run: deps-run configure
	@cmake --build $(BUILD) -j $(JOBS) --target granular
	@$(BUILD)/granular run cases/demo_sweep.json --out $(DEMO_OUT) --force
	@/usr/bin/python3 tools/plot_sweep.py $(DEMO_OUT)
	@/usr/bin/python3 tools/render_packing.py $(DEMO_OUT)/snapshots/packing_0.pvd $(DEMO_OUT)/packing.png

bench: deps-bench build
	@python3 bench/run_bench.py --build $(BUILD)

# The suite again, built by clang with AddressSanitizer and UndefinedBehaviorSanitizer (CPU
# backend, no MPI; the interrupt test's latency bound is for optimized builds, so it is left
# out, and so are the hostile campaign, whose address-space cap AddressSanitizer's shadow memory
# does not fit, and the stated results' quick-scale and chapter-3 runs, which take longer than
# ctest's 25 minutes at -O1 under the sanitizers), and the fuzz targets (the case loader, a registry, a
# shard's summary) in the same build (docs/testing.md).
sanitize-build: deps-sanitize
	@CC=clang CXX=clang++ cmake -S . -B $(SANITIZE_BUILD) -DCMAKE_BUILD_TYPE=Debug \
		-DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" -DGRANULAR_CUDA=OFF -DGRANULAR_NATIVE=OFF \
		-DGRANULAR_MPI=OFF -DGRANULAR_SANITIZE=ON -DGRANULAR_FUZZ=ON >/dev/null
	@cmake --build $(SANITIZE_BUILD) -j $(JOBS) --target granular granular_tests case_loader_fuzz \
		registry_fuzz summary_records_fuzz

sanitize: sanitize-build
	@cd $(SANITIZE_BUILD) && ctest --output-on-failure -j $(JOBS) -E '^(Interrupt|PinnedResults|StatedResultsQuick|StatedResultsChapter3|Hostile\.ACampaign|BuildCheck)'

# FUZZ_SECONDS of libFuzzer for each target (scripts/run_fuzz.sh: the case loader over cases/ and
# tests/data/, a registry over the papers' entries, a shard's summary over a real one); findings
# are written to $(SANITIZE_BUILD)/fuzz-findings/ and fail the target.
fuzz: sanitize-build
	@scripts/run_fuzz.sh $(SANITIZE_BUILD) $(FUZZ_SECONDS)

# a manylinux wheel of the portable CLI and module with the shipped cases, the registry, the
# figure tools and the examples (scripts/build_wheel.sh, docs/python.md "Installing"), and its
# test: installed with pip --no-index into a fresh environment where no compiler is on PATH
wheel: deps-run
	@scripts/build_wheel.sh $(DIST)

wheel-test: wheel
	@scripts/test_wheel.sh $(DIST)

clean:
	@rm -rf $(BUILD) $(SANITIZE_BUILD)
