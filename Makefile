# One persistent target dir and one profile (release) for binaries, tests and benches.
export CARGO_TARGET_DIR ?= $(HOME)/.cache/sslab-target
CARGO ?= cargo
SSLAB := $(CARGO_TARGET_DIR)/release/sslab

.PHONY: build test quickstart bench validate-theory bench-selection figures reproduce-tables

build:
	$(CARGO) build --release --locked

test:
	$(CARGO) test --release --locked

quickstart: build
	$(SSLAB) run configs/quickstart.toml --out results
	$(SSLAB) plot-scores configs/quickstart.toml --method GB-SSL --out figures/quickstart_scores.png

bench:
	$(CARGO) bench --profile release --locked --bench qlds

# Monte-Carlo check of the QLDS theory on spec §5's grid (120 settings, 20 draws each).
validate-theory: build
	$(SSLAB) theory-check --draws 20 --out results/theory_check.csv --figure figures/theory_check.png

# Selection cost per split (d = 400, n = 2000, 20×20 grid): th + fit, fast and naive 10-fold cv.
bench-selection:
	$(CARGO) bench --profile release --locked --bench selection

# QLDS figures: Fig. 1 left (scores with theoretical Gaussians), Fig. 5 (phase diagram),
# Fig. 4 (class-proportion mismatch).
figures: build
	$(SSLAB) plot-scores configs/qlds_fig1_synthetic.toml --theory --bins 50 --out figures/qlds_fig1_synthetic_th.png
	$(SSLAB) plot-scores configs/qlds_fig1_synthetic.toml --method "QLDS(1,0)" --theory --bins 50 --out figures/qlds_fig1_synthetic_ls.png

# QLDS Table 1: running time of QLDS(th) against 10-fold QLDS(cv), n_j = n_uj = d (one thread).
reproduce-tables: build
	$(SSLAB) run configs/qlds_table1.toml --threads 1 --quiet --out results
	$(SSLAB) times results/qlds_table1/results.csv --out results/qlds_table1/times.md
