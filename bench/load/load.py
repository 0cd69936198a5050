#!/usr/bin/env python3
"""Load: a suite of 1,000 and of 10,000 benchmarks through every step, each step timed, and the
ratio of the two times per step (docs/reliability.md quotes what it prints). n log n from 1k to
10k is about 13x, linear 10x; a quadratic step would be about 100x.

    bench/load/load.py BUILD_DIR [SIZES...]     (default sizes: 1000 10000)

Steps, for N benchmarks:
  run       benchkit run --parameter-list of N values of a trivial command (true), 2 runs each
  compare   benchkit compare of two generated result files of N benchmarks x 20 samples
            (json, and the console table)
  report    benchkit report of one of them: console, markdown, csv, html
  history   benchkit history add of both into a new SQLite history, then history trend (json)
Each time is the wall time of one invocation, with its peak memory (GNU time's %M); the files
are written under a temporary folder, removed at the end.
"""
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

BUILD = os.path.abspath(sys.argv[1])
BENCHKIT = os.path.join(BUILD, "benchkit")
SIZES = [int(s) for s in sys.argv[2:]] or [1000, 10000]
SAMPLES = 20


def timed(argv, cwd, env=None):
    """(wall seconds, peak KiB) of one command; exits when it fails."""
    started = time.monotonic()
    done = subprocess.run(["/usr/bin/time", "-f", "%M"] + argv, cwd=cwd, env=env,
                          capture_output=True, text=True)
    seconds = time.monotonic() - started
    if done.returncode != 0:
        sys.exit(f"failed ({done.returncode}): {' '.join(argv[:6])}...\n{done.stderr[-3000:]}")
    peak = int(done.stderr.strip().splitlines()[-1])
    return seconds, peak


def result_file(path, count, factor, seed, date):
    rng = random.Random(seed)
    benchmarks = []
    for i in range(count):
        base = 100.0 + 10 * (i % 97)
        shift = factor if i % 10 == 0 else 1.0
        samples = [{"ns": base * shift * (1 + rng.gauss(0, 0.02)), "iters": 1000}
                   for _ in range(SAMPLES)]
        benchmarks.append({"name": f"group{i // 100}/bench/size={64 << (i % 8)}/variant={i}",
                           "kind": "micro", "samples": samples})
    document = {"schema": "benchkit/result", "version": 1,
                "context": {"date": date, "tool_version": "0.1.0", "hostname": "load-host",
                            "os": "Linux", "kernel": "Linux", "cpu_model": "cpu",
                            "logical_cpus": 2, "build_type": "Release", "compiler": "gcc",
                            "git": {"commit": "%040x" % seed, "branch": "main", "dirty": False},
                            "notes": []},
                "benchmarks": benchmarks}
    with open(path, "w", encoding="utf-8") as out:
        json.dump(document, out)


def steps(work, count):
    folder = os.path.join(work, str(count))
    os.makedirs(folder)
    env = dict(os.environ, BENCHKIT_DIR=os.path.join(folder, ".benchkit"))
    base = os.path.join(folder, "base.json")
    new = os.path.join(folder, "new.json")
    result_file(base, count, 1.0, 1, "2026-12-01T10:00:00Z")
    result_file(new, count, 1.3, 2, "2026-12-01T11:00:00Z")
    values = ",".join(str(i) for i in range(count))
    times = {}
    times["run"] = timed([BENCHKIT, "run", "--runs", "2", "--warmup", "0", "--quiet",
                          "--parameter-list", "n", values, "--cmd", "true {n}",
                          "--export-json", os.path.join(folder, "run.json")], folder, env)
    times["compare json"] = timed([BENCHKIT, "compare", base, new, "--format", "json", "--out",
                                   os.path.join(folder, "c.json")], folder, env)
    times["compare console"] = timed([BENCHKIT, "compare", base, new, "--out",
                                      os.path.join(folder, "c.txt")], folder, env)
    for fmt in ("console", "markdown", "csv", "html"):
        times[f"report {fmt}"] = timed([BENCHKIT, "report", base, "--format", fmt, "--out",
                                        os.path.join(folder, f"r.{fmt}")], folder, env)
    store = os.path.join(folder, "history.db")
    times["history add"] = timed([BENCHKIT, "history", "add", "--store", store, base, new],
                                 folder, env)
    times["history trend"] = timed([BENCHKIT, "history", "trend", ".", "--store", store, "--format",
                                    "json", "--out", os.path.join(folder, "t.json")], folder, env)
    return times


def main():
    work = tempfile.mkdtemp(prefix="benchkit-load-")
    try:
        results = {}
        for count in SIZES:
            results[count] = steps(work, count)
            for step, (seconds, peak) in results[count].items():
                print(f"{count:>6} benchmarks  {step:<16} {seconds:8.2f} s  {peak / 1024:8.1f} MiB",
                      flush=True)
        if len(SIZES) >= 2:
            small, large = SIZES[0], SIZES[-1]
            n_log_n = large * math.log(large) / (small * math.log(small))
            print(f"\nratio {large}/{small} per step (n log n: about {n_log_n:.0f}x, linear "
                  f"{large / small:.0f}x):")
            for step in results[small]:
                a, b = results[small][step][0], results[large][step][0]
                print(f"  {step:<16} {a:7.2f} s -> {b:7.2f} s   {b / a:6.1f}x")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
