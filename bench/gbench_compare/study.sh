#!/usr/bin/env bash
# benchkit compare OLD NEW on two Google Benchmark builds, beside Google Benchmark's own
# tools/compare.py (its Mann-Whitney U test), on the same binaries: A/A false alarms and how
# often a 5% slowdown of one benchmark is found (README.md beside this script has the figures).
#
#   bench/gbench_compare/study.sh BUILD_DIR TRIALS [COMPARE_PY]
#
# The suite is tests/cli/gbench_suite.cpp, built here three times with Debian's Google Benchmark:
# old, old again (the same source: an A/A pair of separate files) and new (BM_sum doing 5% more
# additions). COMPARE_PY is google/benchmark's tools/compare.py (it needs python3-numpy and
# python3-scipy); without it only benchkit is measured. Prints one line per trial and a summary.
set -euo pipefail
build=${1:?usage: study.sh BUILD_DIR TRIALS [COMPARE_PY]}
trials=${2:?usage: study.sh BUILD_DIR TRIALS [COMPARE_PY]}
compare_py=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source_file="$here/../../tests/cli/gbench_suite.cpp"
g++ -std=c++17 -O2 "$source_file" -lbenchmark -lpthread -o "$work/old"
g++ -std=c++17 -O2 "$source_file" -lbenchmark -lpthread -o "$work/old_again"
g++ -std=c++17 -O2 -DGBENCH_SUITE_SLOWER_PERCENT=5 "$source_file" -lbenchmark -lpthread -o "$work/new"
# The same measuring time for both tools: 10 rounds (benchkit) and 10 repetitions (compare.py),
# each 0.05 s per benchmark and build.
min_time=0.05
rounds=10
verdicts() {  # benchkit compare A B -> "BM_sum=<verdict> BM_accumulate/4096=<verdict>"
  "$build/benchkit" compare "$1" "$2" --rounds $rounds --format json -- \
    --benchmark_min_time=$min_time 2>/dev/null |
    /usr/bin/python3 -c 'import json,sys; d=json.load(sys.stdin); print(" ".join("%s=%s:%.3f" % (b["name"], b["verdict"], b.get("ratio", 0)) for b in d["benchmarks"]))'
}
utest() {  # compare.py benchmarks A B -> "BM_sum=<p-value>:<relative time change> ..."
  [ -n "$compare_py" ] || { echo "compare.py=absent"; return; }
  /usr/bin/python3 "$compare_py" -d "$work/diff.json" benchmarks "$1" "$2" \
    --benchmark_repetitions=$rounds --benchmark_min_time=$min_time >/dev/null 2>&1
  /usr/bin/python3 -c 'import json,sys
rows = json.load(open(sys.argv[1]))
out = []
for row in rows:
    if row.get("run_type") == "aggregate" or not row.get("utest"): continue
    changes = sorted(m["time"] for m in row["measurements"])
    out.append("%s=p%.4f:%+.3f" % (row["name"], row["utest"]["time_pvalue"], changes[len(changes)//2]))
print(" ".join(out))' "$work/diff.json"
}
for trial in $(seq 1 "$trials"); do
  echo "trial $trial A/A benchkit: $(verdicts "$work/old" "$work/old_again")"
  echo "trial $trial A/B benchkit: $(verdicts "$work/old" "$work/new")"
  echo "trial $trial A/A compare.py: $(utest "$work/old" "$work/old_again")"
  echo "trial $trial A/B compare.py: $(utest "$work/old" "$work/new")"
done
