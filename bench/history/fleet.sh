#!/usr/bin/env bash
# History at fleet scale on PostgreSQL (docs/history.md, "Fleet scale"): starts a throwaway
# server (tests/store/postgres_server.sh: a new folder under /tmp, 127.0.0.1, a free port, fsync
# off), then
#   1. 16 writers x 1,000 runs x 100 benchmarks at once into database `writers`, nothing lost;
#   2. a history of 10,000 benchmarks x 1,000 commits into database `fleet`;
#   3. the real `benchkit history trend` (all benchmarks, and one) and `history check` of a new
#      10,000-benchmark run against that history, each timed 3 times (wall), median printed;
# and stops the server (its folder removed) unless --keep.
#   bench/history/fleet.sh BUILD_DIR [--keep]
# Sizes: WRITERS RUNS BENCHMARKS (step 1), FILL_BENCHMARKS COMMITS (steps 2-3); SKIP_WRITERS=1
# skips step 1. The server gets shared_buffers=SHARED_BUFFERS (1GB; PostgreSQL's default is
# 128MB, its manual advises a quarter of the memory of a dedicated server), and step 3 waits (at
# most 3 minutes) for the fill's load to settle: docs/history.md, "Fleet scale", has the figures
# either way.
set -euo pipefail
build=$(cd "${1:?usage: fleet.sh BUILD_DIR [--keep]}" && pwd)
keep=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
server=${FLEET_SERVER_DIR:-/tmp/benchkit-fleet}
load=$build/bench/history/benchkit_fleet_load
benchkit=$build/benchkit

BENCHKIT_POSTGRES_SETTINGS="-c shared_buffers=${SHARED_BUFFERS:-1GB}" \
  "$here/../../tests/store/postgres_server.sh" start "$server"
stop() { [ "$keep" = --keep ] || "$here/../../tests/store/postgres_server.sh" stop "$server"; }
trap stop EXIT
url=$(cat "$server/url")
base=${url%/postgres}
psql -q "$url" -c "CREATE DATABASE writers" -c "CREATE DATABASE fleet"
echo "server: $(cat "$server/server") (fsync off, as the tests' server;" \
  "shared_buffers $(psql -Atq "$url" -c "SHOW shared_buffers"))"

if [ "${SKIP_WRITERS:-0}" != 1 ]; then
  echo "== 1. concurrent writers ($(uptime))"
  "$load" writers "$base/writers" "${WRITERS:-16}" "${RUNS:-1000}" "${BENCHMARKS:-100}"
fi

echo "== 2. fill ($(uptime))"
"$load" fill "$base/fleet" "${FILL_BENCHMARKS:-10000}" "${COMMITS:-1000}"
"$load" candidate /tmp/benchkit-fleet-candidate.json "${FILL_BENCHMARKS:-10000}"
"$benchkit" history add /tmp/benchkit-fleet-candidate.json --store "$base/fleet"
psql -q "$base/fleet" -c "VACUUM ANALYZE"
# The fill leaves gigabytes of the database in the page cache to be written (the server runs
# with fsync off): written out now, and the kernel's writeback is not timed with the commands.
psql -q "$base/fleet" -c "CHECKPOINT"
sync

# `what` 3 times, the wall time of each and the median. The previous run's output is removed
# before the clock starts: the shell's truncation of a 755 MB file whose pages are still being
# written back waits for the disk (about 0.8 s a run on this VM), which is not the command's time.
timed() {
  local what=$1
  shift
  local times=()
  for _ in 1 2 3; do
    local start end
    rm -f /tmp/benchkit-fleet-out.txt
    start=$(date +%s.%N)
    "$@" >/tmp/benchkit-fleet-out.txt 2>&1 || true
    end=$(date +%s.%N)
    times+=("$(echo "$end - $start" | bc)")
  done
  local sorted
  sorted=$(printf '%s\n' "${times[@]}" | sort -n | tr '\n' ' ')
  echo "$what: median $(printf '%s\n' "${times[@]}" | sort -n | sed -n 2p) s (runs: $sorted)" \
    "[$(wc -l </tmp/benchkit-fleet-out.txt) lines out; load: $(cut -d' ' -f1-3 /proc/loadavg)]"
}

# The fill kept both cores busy for ten minutes: the commands are timed once the machine is idle
# again (a 1-minute load average below 0.5), or after 3 minutes.
for _ in $(seq 36); do
  awk '{ exit !($1 < 0.5) }' /proc/loadavg && break
  sleep 5
done
echo "== 3. the commands ($(uptime))"
timed "history trend . (all benchmarks)" "$benchkit" history trend . --store "$base/fleet"
timed "history trend '^bench_0042\$' (one benchmark)" \
  "$benchkit" history trend '^bench_0042$' --store "$base/fleet"
timed "history check (newest run, 10,000 benchmarks)" \
  "$benchkit" history check --store "$base/fleet"
tail -n 5 /tmp/benchkit-fleet-out.txt
echo "done ($(uptime))"
