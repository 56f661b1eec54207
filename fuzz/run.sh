#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each, one after the other, and prints a table: target,
# executions, coverage (libFuzzer's final cov / ft), crashes. Needs a nightly toolchain and
# cargo-fuzz (`cargo install cargo-fuzz`).
#
# Usage: fuzz/run.sh SECONDS [TARGET...]      (default: every target of fuzz/Cargo.toml)
#
# Each target starts from its committed seeds, fuzz/corpus/<target>/, and grows a working
# corpus in fuzz/work/<target>/ (not committed; kept between runs). An input that crashes,
# hangs (> FUZZ_TIMEOUT s, default 10) or runs out of memory (> FUZZ_RSS_MB, default 2048)
# is copied to tests/fuzz_regressions/<target>/, which tests/fuzz_regressions.rs replays on
# stable Rust; the script then exits 1. FUZZ_SANITIZER picks the sanitizer (default none:
# the crate is safe Rust, so the overflow checks and panics are what matter; `address` is
# slower). FUZZ_BUILD_FLAGS adds cargo-fuzz build flags. Logs: fuzz/work/<target>.log.
#
# The targets are built with debug assertions and overflow checks (`--debug-assertions`),
# always: without them an overflow in arithmetic on a decoded integer wraps silently (a
# release build printed "γ = 0" for γ = u32::MAX, issue 25) and the fuzzer sees nothing.
set -uo pipefail
cd "$(dirname "$0")"
SECS=${1:?usage: fuzz/run.sh SECONDS [TARGET...]}
shift
SAN=${FUZZ_SANITIZER:-none}
# extra cargo-fuzz build flags, e.g. "--dev" (the development profile of fuzz/Cargo.toml: a
# faster build, slower runs; CI)
read -r -a FLAGS <<<"${FUZZ_BUILD_FLAGS:-}"
FLAGS=(--debug-assertions "${FLAGS[@]}")
if [ $# -gt 0 ]; then
  TARGETS=("$@")
else
  mapfile -t TARGETS < <(sed -n 's/^name = "\([a-z0-9_]*\)"$/\1/p' Cargo.toml | grep -v '^zkgames-fuzz$')
fi
mkdir -p work
cargo +nightly fuzz build -s "$SAN" "${FLAGS[@]}" >/dev/null 2>work/build.log || {
  cat work/build.log >&2
  echo "fuzz/run.sh: build failed" >&2
  exit 2
}
crashed=0
rows=()
for t in "${TARGETS[@]}"; do
  mkdir -p "work/$t" "artifacts/$t"
  before=$(ls "artifacts/$t" | wc -l)
  cargo +nightly fuzz run -s "$SAN" "${FLAGS[@]}" "$t" "work/$t" "corpus/$t" -- \
    -max_total_time="$SECS" -print_final_stats=1 -timeout="${FUZZ_TIMEOUT:-10}" \
    -rss_limit_mb="${FUZZ_RSS_MB:-2048}" -close_fd_mask=3 >"work/$t.log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "work/$t.log" | tail -1)
  last=$(grep -E '^#[0-9]+.*cov: ' "work/$t.log" | tail -1)
  cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  found=$(($(ls "artifacts/$t" | wc -l) - before))
  if [ "$rc" -ne 0 ] || [ "$found" -gt 0 ]; then
    crashed=1
    mkdir -p "../tests/fuzz_regressions/$t"
    for a in $(ls -t "artifacts/$t" | head -n "$((found > 0 ? found : 1))"); do
      cp "artifacts/$t/$a" "../tests/fuzz_regressions/$t/$a"
    done
    [ "$found" -gt 0 ] || found="rc=$rc"
    echo "== $t: see fuzz/work/$t.log" >&2
    grep -E 'panicked|ERROR|SUMMARY' "work/$t.log" | head -5 >&2
  fi
  rows+=("$(printf '%-20s %12s %7s %7s %8s' "$t" "${execs:-?}" "${cov:-?}" "${ft:-?}" "$found")")
done
printf '%-20s %12s %7s %7s %8s\n' target executions cov ft crashes
printf '%s\n' "${rows[@]}"
if [ "$crashed" -ne 0 ]; then
  echo "fuzz/run.sh: crashes found; inputs copied to tests/fuzz_regressions/" >&2
  exit 1
fi
