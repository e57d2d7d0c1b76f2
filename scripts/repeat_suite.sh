#!/usr/bin/env bash
# The whole suite N times in a row as `make test` runs it (JOBS test processes, 2 by default), in
# CI's environment (.ci/env.sh: rulebooks, digests, PostgreSQL and Chromium required, so nothing
# skips). It stops at the first run that fails. One line per run (its number, passed count and
# duration), then one summary line; each run's whole output is kept in a folder it names first.
#
#   scripts/repeat_suite.sh 20               # or: make test-repeat N=20
#   scripts/repeat_suite.sh 3 tests/core     # further arguments go to pytest
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-}"
case "$runs" in
  '' | *[!0-9]* | 0) echo "usage: scripts/repeat_suite.sh N [pytest arguments...] (N >= 1)" >&2; exit 2 ;;
esac
shift
# shellcheck source=.ci/env.sh
source .ci/env.sh
# Bytecode caches on, as `make test` has them (see the Makefile).
unset PYTHONDONTWRITEBYTECODE
make --quiet .venv/.installed
jobs="${JOBS:-2}"
logs="$(mktemp -d "${TMPDIR:-/tmp}/repeat-suite.XXXXXX")"
echo "suite x $runs at $(git rev-parse --short HEAD), -n $jobs, load $(cut -d' ' -f1-3 /proc/loadavg); logs in $logs"
started=$SECONDS
counts=""
for ((run = 1; run <= runs; run++)); do
  log="$logs/run-$run.log"
  begin=$SECONDS
  status=0
  .venv/bin/python -m pytest -n "$jobs" -p no:cacheprovider "$@" >"$log" 2>&1 || status=$?
  took=$((SECONDS - begin))
  # pytest's last line, e.g. "2589 passed, 18 warnings in 180.20s (0:03:00)".
  summary="$(grep -E '^=* ?[0-9]+ (passed|failed|errors?|skipped)' "$log" | tail -1 | sed -E 's/^=+ //; s/ =+$//' || true)"
  passed="$(grep -oE '[0-9]+ passed' <<<"$summary" | cut -d' ' -f1 || true)"
  passed="${passed:-0}"
  counts="$counts $passed"
  printf 'run %d/%d: %s passed in %d s, exit %d (%s)\n' "$run" "$runs" "$passed" "$took" "$status" "$summary"
  if [ "$status" -ne 0 ]; then
    echo "FAILED: run $run of $runs failed after $((run - 1)) green runs ($((SECONDS - started)) s); $log:"
    grep -E '^(FAILED|ERROR) ' "$log" | head -20 || true
    exit 1
  fi
done
distinct="$(tr ' ' '\n' <<<"$counts" | sed '/^$/d' | sort -u | paste -sd/ -)"
echo "ALL GREEN: $runs of $runs runs passed ($distinct tests each), $((SECONDS - started)) s in all, load now $(cut -d' ' -f1-3 /proc/loadavg)"
