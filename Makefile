# One persistent target dir and one profile (release) for binaries, tests and benches.
export CARGO_TARGET_DIR ?= $(HOME)/.cache/sslab-target
CARGO ?= cargo
SSLAB := $(CARGO_TARGET_DIR)/release/sslab

.PHONY: build test quickstart bench reproduce-tables qlds-tables validate-theory bench-selection data bench-data bench-svmlin bench-svmlin-scaling svmlin-tables svmlin-figures

build:
	$(CARGO) build --release --locked

test:
	$(CARGO) test --release --locked

quickstart: build
	$(SSLAB) run configs/quickstart.toml --out results
	$(SSLAB) plot-scores configs/quickstart.toml --method GB-SSL --out figures/quickstart_scores.png

bench:
	$(CARGO) bench --profile release --locked --bench qlds

# Every table of the papers, regenerated from configs (run `make data` first).
reproduce-tables: qlds-tables

# QLDS paper Tables 2 and 5 (7 datasets × 20 splits) and their comparisons with the paper.
QLDS_TABLE2 := LS-SVM,GB-SSL,Spectral,ST(LS-SVM),QLDS(cv),QLDS(th),QLDS(or)
QLDS_TABLE5 := LS-SVM,LS-SVM(cv λ),GB-SSL,GB-SSL(cv λ)
qlds-tables: build
	$(SSLAB) run configs/qlds_table2.toml --out results --quiet
	$(SSLAB) table results/qlds_table2/results.csv --name qlds_table2 --methods '$(QLDS_TABLE2)' --published configs/published/qlds_table2.csv
	$(SSLAB) table results/qlds_table2/results.csv --name qlds_table5 --methods '$(QLDS_TABLE5)' --published configs/published/qlds_table5.csv

# Monte-Carlo check of the QLDS theory on spec §5's grid (120 settings, 20 draws each).
validate-theory: build
	$(SSLAB) theory-check --draws 20 --out results/theory_check.csv --figure figures/theory_check.png

# Selection cost per split (d = 400, n = 2000, 20×20 grid): th + fit, fast and naive 10-fold cv.
bench-selection:
	$(CARGO) bench --profile release --locked --bench selection

# SVMlin: MFN time and single vs multiple switching (a few minutes on 2 cores).
bench-svmlin:
	$(CARGO) bench --profile release --locked --bench svmlin -- mfn
	$(CARGO) bench --profile release --locked --bench svmlin -- switch

# SVMlin: training time from 10^4 to 10^6 documents (long: run once); writes
# results/svmlin_scaling.csv and figures/svmlin_scaling.png.
bench-svmlin-scaling:
	$(CARGO) bench --profile release --locked --bench svmlin -- scaling

svmlin-tables: build
	$(SSLAB) run configs/svmlin_synthetic.toml --out results

svmlin-figures:
	$(CARGO) bench --profile release --locked --bench svmlin -- da-path

# Registered datasets into data/ (DATASETS="adult usps" for a subset; MIRROR=dir to copy from).
data: build
	$(SSLAB) data fetch $(DATASETS) $(if $(MIRROR),--mirror $(MIRROR))

# SVMlight parsing speed (MB/s) and a9a peak memory vs its CSR size; needs the data mirror.
bench-data:
	$(CARGO) bench --profile release --locked --bench data
