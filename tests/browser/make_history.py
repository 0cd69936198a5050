#!/usr/bin/env python3
"""Writes the result files of a history for the browser test of the history pages
(history_test.mjs), seeded so that every run writes the same files:

  run-NN.json    40 runs, one per commit, a day apart, on one machine and branch main, each of
                 three benchmarks with 20 samples: "parse" 10% slower from run 20 on (a change
                 point there), "hash" and a benchmark named </script><img src=x onerror=alert(1)>
                 without a step
  expected.json  what the pages must show: the commits in order, the change point's index

Usage: make_history.py FOLDER
"""
import json
import os
import random
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from make_fixtures import HOSTILE, context  # noqa: E402 (after the line above)
RUNS = 40
STEP_AT = 20


def commit_of(i):
    return f"{i:02x}" + "ab" * 19


def benchmark(name, rng, median):
    samples = [{"iters": 1000, "ns": median * (1 + rng.gauss(0, 0.005)) * 1000} for _ in range(20)]
    return {"name": name, "kind": "micro", "samples": samples}


def run(i, rng):
    document_context = context(commit_of(i))
    document_context["date"] = f"2026-11-{1 + i // 2:02}T{(i % 2) * 12:02}:00:00Z"
    document_context["hostname"] = "history-host"
    return {
        "schema": "benchkit/result",
        "version": 1,
        "context": document_context,
        "benchmarks": [
            benchmark("parse", rng, 1000.0 * (1.10 if i >= STEP_AT else 1.0)),
            benchmark("hash", rng, 250.0),
            benchmark(HOSTILE, rng, 50.0),
        ],
    }


def main():
    folder = sys.argv[1]
    os.makedirs(folder, exist_ok=True)
    rng = random.Random(17)
    files = []
    for i in range(RUNS):
        path = os.path.join(folder, f"run-{i:02}.json")
        with open(path, "w", encoding="utf-8") as out:
            json.dump(run(i, rng), out)
        files.append(path)
    expected = {
        "files": files,
        "commits": [commit_of(i) for i in range(RUNS)],
        "dates": [run(i, random.Random(0))["context"]["date"] for i in range(RUNS)],
        "step_at": STEP_AT,
        "hostile": HOSTILE,
        "benchmarks": 3,
    }
    with open(os.path.join(folder, "expected.json"), "w", encoding="utf-8") as out:
        json.dump(expected, out)


if __name__ == "__main__":
    main()
