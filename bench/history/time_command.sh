#!/usr/bin/env bash
# One history command timed as docs/history.md ("Fleet scale") quotes it: the wall time, the
# time to the first byte of output (what reading the history took), the client's CPU and memory,
# and the server's CPU (its postmaster and the backends it reaped), the output kept for `cmp`.
#   bench/history/time_command.sh LABEL SERVER_DIR BENCHKIT ARGS...
# SERVER_DIR is the folder fleet.sh's server runs from (tests/store/postgres_server.sh); the
# output goes to /tmp/fleet-out-LABEL.txt.
set -euo pipefail
label=$1
server=$2
shift 2
out=/tmp/fleet-out-$label.txt
server_cpu() {
  local postmaster
  postmaster=$(head -1 "$server/data/postmaster.pid")
  awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f\n", ($14 + $15 + $16 + $17) / hz}' \
    "/proc/$postmaster/stat"
}
before=$(server_cpu)
start=$(date +%s.%N)
/usr/bin/time -f "%U %S %M" -o "/tmp/fleet-time-$label" "$@" |
  (head -c1 >"$out" && date +%s.%N >"/tmp/fleet-first-$label" && cat >>"$out")
end=$(date +%s.%N)
sleep 0.5  # the backend reaped by the postmaster after the client closed its connection
after=$(server_cpu)
read -r user sys rss <"/tmp/fleet-time-$label"
first=$(cat "/tmp/fleet-first-$label")
echo "$label: wall $(echo "$end - $start" | bc) s, first byte $(echo "$first - $start" | bc) s," \
  "client ${user} user + ${sys} sys s, ${rss} KB resident, server $(echo "$after - $before" | bc)" \
  "s; $(wc -l <"$out") lines; load $(cut -d' ' -f1 /proc/loadavg)"
