# One persistent target dir and one profile (release) for binaries, tests and benches.
export CARGO_TARGET_DIR ?= $(HOME)/.cache/sslab-target
CARGO ?= cargo
SSLAB := $(CARGO_TARGET_DIR)/release/sslab

.PHONY: build test quickstart bench data bench-data bench-svmlin bench-svmlin-scaling svmlin-tables svmlin-figures

build:
	$(CARGO) build --release --locked

test:
	$(CARGO) test --release --locked

quickstart: build
	$(SSLAB) run configs/quickstart.toml --out results
	$(SSLAB) plot-scores configs/quickstart.toml --method GB-SSL --out figures/quickstart_scores.png

bench:
	$(CARGO) bench --profile release --locked --bench qlds

# SVMlin: MFN time and single vs multiple switching (a few minutes on 2 cores).
bench-svmlin:
	$(CARGO) bench --profile release --locked --bench svmlin -- mfn
	$(CARGO) bench --profile release --locked --bench svmlin -- switch

# SVMlin: training time from 10^4 to 10^6 documents (long: run once); writes
# results/svmlin_scaling.csv and figures/svmlin_scaling.png.
bench-svmlin-scaling:
	$(CARGO) bench --profile release --locked --bench svmlin -- scaling

# SVMlin tables: synthetic text, and SSL-book text (needs `make data DATASETS=ssl_text`).
svmlin-tables: build
	$(SSLAB) run configs/svmlin_synthetic.toml --out results
	$(SSLAB) run configs/svmlin_text.toml --out results

svmlin-figures:
	$(CARGO) bench --profile release --locked --bench svmlin -- da-path

# Registered datasets into data/ (DATASETS="adult usps" for a subset; MIRROR=dir to copy from).
data: build
	$(SSLAB) data fetch $(DATASETS) $(if $(MIRROR),--mirror $(MIRROR))

# SVMlight parsing speed (MB/s) and a9a peak memory vs its CSR size; needs the data mirror.
bench-data:
	$(CARGO) bench --profile release --locked --bench data
