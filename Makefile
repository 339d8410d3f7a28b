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
	$(SSLAB) phase-diagram --dim 100 --unlabeled-per-class 1000 --labeled-per-class 2,5,10,20,50,100 \
		--distances 0.5,1,1.5,2,2.5,3,4 --grid 20 --spot-checks 2:2,10:1.5,10:3,50:2,100:1 --draws 10 \
		--csv results/qlds_fig5_phase.csv --out figures/qlds_fig5_phase.png
	$(SSLAB) proportions --dim 100 --labeled-per-class 50 --unlabeled 2000 --mean-norm 1 \
		--shares 0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9 --grid 20 --csv results/qlds_fig4_proportions.csv --out figures/qlds_fig4_proportions.png

# QLDS Table 1: running time of QLDS(th) against 10-fold QLDS(cv), n_j = n_uj = d (one thread).
reproduce-tables: build
	$(SSLAB) run configs/qlds_table1.toml --threads 1 --quiet --out results
	$(SSLAB) times results/qlds_table1/results.csv --out results/qlds_table1/times.md
