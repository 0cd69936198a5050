#!/usr/bin/env python3
"""How much two Google Benchmark processes run one after the other differ, on one CPU or not.

    bench/gbench_compare/one_cpu_pairs.py OLD NEW FILTER [ROUNDS]

Each round runs OLD then NEW with --benchmark_filter=FILTER, five repetitions of 5 ms (the flags
`benchkit compare` gives a Google Benchmark process), twice: once where the scheduler puts them,
once both on CPU (round mod the CPUs this process may use) through taskset. A round's ratio is
NEW's median over OLD's. Prints each way's ratios and the standard deviation of their logs
(docs/interop.md, "One CPU a round"). Run it on an idle machine; ROUNDS defaults to 30.
"""
import math
import os
import statistics
import subprocess
import sys

FLAGS = ["--benchmark_repetitions=5", "--benchmark_min_time=0.005",
         "--benchmark_report_aggregates_only=true", "--benchmark_format=csv"]


def median_ns(binary, filter_text, cpu=None):
    argv = ([] if cpu is None else ["taskset", "-c", str(cpu)]) + [
        binary, "--benchmark_filter=" + filter_text] + FLAGS
    out = subprocess.run(argv, check=True, capture_output=True, text=True).stdout
    rows = [line.split(",") for line in out.splitlines() if '_median"' in line]
    if len(rows) != 1:
        sys.exit(f"{binary}: the filter {filter_text!r} must select exactly one benchmark")
    return float(rows[0][2])


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    old, new, filter_text = sys.argv[1:4]
    rounds = int(sys.argv[4]) if len(sys.argv) == 5 else 30
    cpus = sorted(os.sched_getaffinity(0))
    ratios = {"as scheduled": [], "one CPU a round": []}
    for r in range(rounds):
        ratios["as scheduled"].append(median_ns(new, filter_text) / median_ns(old, filter_text))
        cpu = cpus[r % len(cpus)]
        ratios["one CPU a round"].append(
            median_ns(new, filter_text, cpu) / median_ns(old, filter_text, cpu))
    for way, values in ratios.items():
        logs = [math.log(v) for v in values]
        print(f"{way}: sd of the log ratios {statistics.pstdev(logs):.3f}, "
              f"ratios {min(values):.3f}-{max(values):.3f}")
        print("  " + " ".join(f"{v:.3f}" for v in values))


if __name__ == "__main__":
    main()
