# One persistent target dir and one profile (release) for binaries, tests and benches.
export CARGO_TARGET_DIR ?= $(HOME)/.cache/sslab-target
CARGO ?= cargo
SSLAB := $(CARGO_TARGET_DIR)/release/sslab

.PHONY: build test quickstart bench data bench-data bench-graph tv-usps

build:
	$(CARGO) build --release --locked

test:
	$(CARGO) test --release --locked

quickstart: build
	$(SSLAB) run configs/quickstart.toml --out results
	$(SSLAB) plot-scores configs/quickstart.toml --method GB-SSL --out figures/quickstart_scores.png

bench:
	$(CARGO) bench --profile release --locked --bench qlds

# Registered datasets into data/ (DATASETS="adult usps" for a subset; MIRROR=dir to copy from).
data: build
	$(SSLAB) data fetch $(DATASETS) $(if $(MIRROR),--mirror $(MIRROR))

# SVMlight parsing speed (MB/s) and a9a peak memory vs its CSR size; needs the data mirror.
bench-data:
	$(CARGO) bench --profile release --locked --bench data

# TV paper: exact kNN graph on all 9,298 USPS digits (target < 3 s).
bench-graph:
	$(CARGO) bench --profile release --locked --bench knn_usps

# TV paper, Tables 1 and 2 on USPS (configs/tv_usps.toml) → results/tv_usps/; prints wall
# time and peak memory of the whole experiment.
tv-usps:
	$(CARGO) bench --profile release --locked --bench tv_usps
