#!/bin/sh
# The long runs of docs/reliability.md: runs fuzzer NAME of build-fuzz for SECONDS at nice 10 on
# a scratch copy of its seed corpus (what it finds stays out of the source tree) and prints its
# last status line (executions, "cov:" edges, "ft:" features) and any finding.
#   tests/fuzz/long_run.sh result_json_fuzzer 600 [BUILD_FOLDER]
set -eu
name=$1
seconds=$2
build=${3:-build-fuzz}
source_dir=$(cd "$(dirname "$0")" && pwd)
binary=$(cd "$build" && pwd)/tests/fuzz/$name
scratch=$(mktemp -d "/tmp/benchkit-fuzz-$name-XXXXXX")
trap 'rm -rf "$scratch"' EXIT
cp -r "$source_dir/corpus/$name" "$scratch/corpus"
cd "$scratch"
status=0
nice -n 10 "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=1024 \
  -print_final_stats=1 corpus >log 2>&1 || status=$?
grep -E '^#[0-9]+' log | tail -1
grep -E '^Done [0-9]+ runs' log || true
grep -E '^stat::number_of_executed_units' log || true
if [ "$status" -ne 0 ]; then
  grep -E 'ERROR|runtime error|SUMMARY|Test unit written' log || tail -20 log
  for finding in crash-* leak-* timeout-* oom-*; do
    [ -e "$finding" ] && cp "$finding" "/tmp/$name-$finding" && echo "kept /tmp/$name-$finding"
  done
fi
exit "$status"
