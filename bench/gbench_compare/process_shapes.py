#!/usr/bin/env python3
"""What a Google Benchmark process of a side-by-side round costs, and how its rounds scatter, for
several ways of splitting it into repetitions.

    bench/gbench_compare/process_shapes.py BINARY FILTER [ROUNDS] [--costs]

For each benchmark that FILTER selects (a Google Benchmark regular expression), ROUNDS rounds
(default 30): in each round, for each shape (repetitions x --benchmark_min_time), two processes
of BINARY, one after the other, both on CPU (round mod 2) through taskset, as `benchkit compare
BINARY BINARY` runs them (an A/A pair, so every ratio is noise). A round's ratio is the median of
the repetitions' ratios, as benchkit takes it. Prints, per benchmark and shape, the wall time of
a round (both processes), the standard deviation of the rounds' log ratios and its robust form
(1.4826 x the median absolute deviation), and the robust variance times the round's cost: the
time a verdict needs is proportional to it, so the smallest is the best shape.

With --costs, only one process of each shape per benchmark (the median of three): where a
benchmark's time goes when its function does work outside its timed loop, once per repetition.
Run it from the folder the suite expects (json's benchmarks read their files from it), on an
idle machine (docs/interop.md, "Fewer calls of a benchmark's function").
"""
import json
import math
import re
import statistics
import subprocess
import sys
import time

SHAPES = [(5, 0.005), (3, 0.008), (2, 0.0125), (1, 0.025), (20, 0.001)]


def exact(name):
    return "^" + re.sub(r"([.^$|()\[\]{}*+?\\])", r"\\\1", name) + "$"


def one_process(binary, name, shape, cpu):
    repetitions, min_time = shape
    argv = ["taskset", "-c", str(cpu), binary, "--benchmark_filter=" + exact(name),
            f"--benchmark_repetitions={repetitions}", f"--benchmark_min_time={min_time:g}",
            "--benchmark_format=json"]
    start = time.perf_counter()
    out = subprocess.run(argv, check=True, capture_output=True, text=True).stdout
    wall = time.perf_counter() - start
    runs = [b for b in json.loads(out)["benchmarks"] if b.get("run_type") == "iteration"]
    if not runs:
        sys.exit(f"{binary}: no result for {name}")
    return [b["real_time"] for b in runs], wall


def robust_sd(values):
    centre = statistics.median(values)
    return 1.4826 * statistics.median(abs(v - centre) for v in values)


def rounds_study(binary, names, rounds):
    for name in names:
        logs = {shape: [] for shape in SHAPES}
        cost = {shape: 0.0 for shape in SHAPES}
        for r in range(rounds):
            for shape in SHAPES:
                a, wall_a = one_process(binary, name, shape, r % 2)
                b, wall_b = one_process(binary, name, shape, r % 2)
                cost[shape] += wall_a + wall_b
                logs[shape].append(statistics.median(math.log(y / x) for x, y in zip(a, b)))
        for shape in SHAPES:
            per_round = cost[shape] / rounds
            sd, rsd = statistics.stdev(logs[shape]), robust_sd(logs[shape])
            print(f"{name:34} {shape[0]:2d} x {shape[1]:<6g} round {per_round:.3f} s  "
                  f"sd {sd:.4f}  robust sd {rsd:.4f}  robust variance x cost "
                  f"{rsd * rsd * per_round:.2e}", flush=True)


def costs_study(binary, names):
    totals = {shape: 0.0 for shape in SHAPES}
    for name in names:
        line = f"{name:34}"
        for shape in SHAPES:
            wall = statistics.median(one_process(binary, name, shape, 1)[1] for _ in range(3))
            totals[shape] += wall
            line += f"  {shape[0]}x{shape[1]:g} {wall:.3f} s"
        print(line, flush=True)
    print("all, one process each:" + "".join(
        f"  {s[0]}x{s[1]:g} {t:.2f} s" for s, t in totals.items()))


def main():
    args = [a for a in sys.argv[1:] if a != "--costs"]
    if len(args) not in (2, 3):
        sys.exit(__doc__)
    binary, filter_text = args[0], args[1]
    listed = subprocess.run([binary, "--benchmark_list_tests", "--benchmark_filter=" + filter_text],
                            check=True, capture_output=True, text=True).stdout
    names = [line for line in listed.splitlines() if line]
    if "--costs" in sys.argv:
        costs_study(binary, names)
    else:
        rounds_study(binary, names, int(args[2]) if len(args) == 3 else 30)


if __name__ == "__main__":
    main()
