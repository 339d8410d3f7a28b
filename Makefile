# One persistent target dir and one profile (release) for binaries, tests and benches.
export CARGO_TARGET_DIR ?= $(HOME)/.cache/sslab-target
CARGO ?= cargo
SSLAB := $(CARGO_TARGET_DIR)/release/sslab

.PHONY: build test quickstart bench

build:
	$(CARGO) build --release --locked

test:
	$(CARGO) test --release --locked

quickstart: build
	$(SSLAB) run configs/quickstart.toml --out results
	$(SSLAB) plot-scores configs/quickstart.toml --method GB-SSL --out figures/quickstart_scores.png

bench:
	$(CARGO) bench --profile release --locked --bench qlds
