#!/usr/bin/env bash
# scripts/fuzz.sh (`npm run fuzz`; not part of `npm test`): runs every cargo-fuzz target of
# fuzz/ for a bounded time and prints, per target, the executions and the crashes.
#
#   FUZZ_SECONDS=60      seconds per target (default 60)
#   FUZZ_RUNS=N          stop a target after N executions instead (overrides FUZZ_SECONDS)
#   FUZZ_JOBS=2          targets run at once (default: the number of cores)
#   FUZZ_TARGETS="a b"   a subset of the targets (default: all of `cargo fuzz list`)
#
# Needs the nightly toolchain (rustup toolchain install nightly) and installs cargo-fuzz if it
# is missing. Seeds come from fuzz/seeds/<target>/ (committed, built from tests/fixtures by
# fuzz/make_seeds.mjs); what libFuzzer discovers goes to fuzz/corpus/<target>/ (git-ignored) and
# crashes to fuzz/artifacts/<target>/. Commit each crash input to fuzz/regressions/<target>/,
# where tests/fuzz_regressions.rs replays it in `cargo test`. Exit status 1 if any target
# crashed or did not run.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
export PATH="${CARGO_INSTALL_ROOT:-${CARGO_HOME:-$HOME/.cargo}}/bin:$HOME/.cargo/bin:$PATH"
export CARGO_TERM_COLOR=${CARGO_TERM_COLOR:-never}
SECONDS_PER=${FUZZ_SECONDS:-60}
RUNS=${FUZZ_RUNS:-}
JOBS=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)}

if ! rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
  echo "fuzz: the nightly toolchain is missing: rustup toolchain install nightly" >&2
  exit 1
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "=== installing cargo-fuzz"
  cargo install cargo-fuzz --locked || exit 1
fi
for t in $(cargo +nightly fuzz list); do
  [ -d "fuzz/seeds/$t" ] || { node fuzz/make_seeds.mjs || exit 1; break; }
done

TARGETS=${FUZZ_TARGETS:-$(cargo +nightly fuzz list)}
echo "=== building fuzz targets (debug assertions and overflow checks on)"
cargo +nightly fuzz build || exit 1

LOGS=fuzz/target/logs
mkdir -p "$LOGS"
if [ -n "$RUNS" ]; then limit="-runs=$RUNS"; else limit="-max_total_time=$SECONDS_PER"; fi

run_one() {
  local t=$1
  mkdir -p "fuzz/corpus/$t" "fuzz/artifacts/$t"
  # -rss_limit_mb / -timeout: a leak or a hang is a finding too.
  cargo +nightly fuzz run "$t" "fuzz/corpus/$t" "fuzz/seeds/$t" -- \
    "$limit" -print_final_stats=1 -rss_limit_mb=2048 -timeout=10 \
    >"$LOGS/$t.log" 2>&1
  echo $? >"$LOGS/$t.rc"
}

running=0
for t in $TARGETS; do
  if [ -n "$RUNS" ]; then echo "=== fuzzing $t ($RUNS runs)"; else echo "=== fuzzing $t (${SECONDS_PER}s)"; fi
  run_one "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$JOBS" ]; then
    wait -n
    running=$((running - 1))
  fi
done
wait

status=0
printf '\n%-24s %14s %10s %8s %s\n' target executions exec/s crashes result
for t in $TARGETS; do
  log="$LOGS/$t.log"
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$')
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$')
  crashes=$(grep -c 'Test unit written to' "$log")
  rc=$(cat "$LOGS/$t.rc" 2>/dev/null || echo 1)
  result=ok
  if [ "$crashes" -gt 0 ] || [ "$rc" != 0 ]; then
    result="FAILED (exit $rc; log $log)"
    status=1
  fi
  printf '%-24s %14s %10s %8s %s\n' "$t" "${execs:-?}" "${rate:-?}" "$crashes" "$result"
  grep -h 'Test unit written to' "$log" | sed 's/^/    /'
done
exit $status
