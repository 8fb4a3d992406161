# Front door: deps -> configure -> build. `make run` runs the demo sweep, `make test` the suite.
BUILD ?= build
GRANULAR_CUDA ?= AUTO
GRANULAR_NATIVE ?= ON
JOBS ?= $(shell nproc)
DEMO_OUT ?= out/demo

.PHONY: all deps deps-run deps-bench configure build test run bench clean

all: build

deps:
	@scripts/install_deps.sh

deps-run:
	@scripts/install_deps.sh --run

deps-bench:
	@scripts/install_deps.sh --bench

configure: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DGRANULAR_CUDA=$(GRANULAR_CUDA) \
		-DGRANULAR_NATIVE=$(GRANULAR_NATIVE) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

run: deps-run build
	@$(BUILD)/granular run cases/demo_sweep.json --out $(DEMO_OUT)
	@/usr/bin/python3 tools/plot_sweep.py $(DEMO_OUT)

bench: deps-bench build
	@python3 bench/run_bench.py --build $(BUILD)

clean:
	@rm -rf $(BUILD)
