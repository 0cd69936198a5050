#!/usr/bin/env python3
"""Writes the result files the browser test (report_test.mjs) turns into reports, seeded so that
every run writes the same files:

  results.json   micro benchmarks (a sweep of two parameters, one with slow-machine samples and
                 outliers, one named </script><img src=x onerror=alert(1)>), a crashed one, and a
                 scenario of three phases with CPU time and peak RSS
  base.json, new.json
                 the same benchmarks measured side by side in 12 interleaved rounds: one 30%
                 slower, one 25% faster, the rest unchanged (a paired comparison)
  order_base.json, order_new.json
                 one benchmark of two identical builds in 16 rounds of two processes each, the
                 order alternating and the second process of a round 20% faster (compared as
                 an AB/BA crossover)
  noise.json     three benchmarks, each in 6 fresh processes (an A/A run)
  expected.json  what the report must draw: sample counts per benchmark, sweep points, rounds

Usage: make_fixtures.py FOLDER [--benchmarks N --samples M]  (N x M: the size benchmark's report)
"""
import argparse
import json
import math
import os
import random

HOSTILE = "</script><img src=x onerror=alert(1)>"


def context(commit):
    return {
        "date": "2026-12-01T12:00:00Z",
        "tool_version": "0.1.0",
        "hostname": "report-host",
        "os": "Debian GNU/Linux 12 (bookworm)",
        "kernel": "Linux 6.1.0 x86_64",
        "cpu_model": "Example CPU @ 3.00GHz",
        "logical_cpus": 2,
        "build_type": "Release",
        "compiler": "12.2.0",
        "git": {"commit": commit, "branch": "main", "dirty": False},
        "notes": [],
    }


def micro(name, rng, median, count, iters=1000, spread=0.01, slow=(), outliers=(), rounds=None,
          process=None, bytes_per_iteration=None):
    samples = []
    for i in range(count):
        per = median * (1 + rng.gauss(0, spread))
        if i in outliers:
            per *= 1.35
        probe = 1000.0 * (1 + abs(rng.gauss(0, 0.01)))
        if i in slow:
            probe *= 1.5
            per *= 1.4
        sample = {"iters": iters, "ns": per * iters, "probe_ns": probe}
        if rounds is not None:
            sample["round"] = i % rounds
        if process is not None:
            sample["process"] = process(i)
        samples.append(sample)
    result = {"name": name, "kind": "micro", "samples": samples}
    if bytes_per_iteration:
        result["bytes_per_iteration"] = bytes_per_iteration
    return result


def phase(name, rng, wall_ns, cpu_share, peak, runs=3):
    samples = []
    for _ in range(runs):
        ns = wall_ns * (1 + rng.gauss(0, 0.02))
        samples.append({
            "iters": 1,
            "ns": ns,
            "resources": {"user_ns": ns * cpu_share, "system_ns": ns * 0.02, "peak_rss_bytes": peak},
        })
    return {"name": name, "kind": "scenario", "samples": samples, "items_per_iteration": 100000,
            "memory": {"peak_rss_bytes": peak}}


def results(rng):
    benchmarks = []
    sweep = []
    for kind in ("text", "random"):
        for size in (64, 512, 4096, 32768):
            name = f"hash/kind={kind}/size={size}"
            base = 20 + size * (0.25 if kind == "text" else 0.4)
            benchmarks.append(micro(name, rng, base, 40, bytes_per_iteration=size))
            sweep.append(name)
    benchmarks.append(micro("parse_json", rng, 5200.0, 120, spread=0.015, slow=range(40, 55),
                            outliers=(5, 90, 100)))
    benchmarks.append(micro(HOSTILE, rng, 300.0, 50))
    benchmarks.append({
        "name": "crashes",
        "kind": "micro",
        "samples": [],
        "failures": ["crashed: SIGSEGV (Segmentation fault)"],
        "failure": {"cause": "crashed", "signal": 11, "stderr_tail": "about to dereference null"},
    })
    benchmarks.append(phase("pipeline/items=100000/load", rng, 4.0e7, 0.95, 64 << 20))
    benchmarks.append(phase("pipeline/items=100000/transform", rng, 9.0e7, 1.7, 96 << 20))
    benchmarks.append(phase("pipeline/items=100000/drain", rng, 2.5e7, 0.6, 48 << 20))
    run = {"schema": "benchkit/result", "version": 1, "context": context("a" * 40),
           "benchmarks": benchmarks}
    return run, sweep


def paired(rng, commit, factors):
    benchmarks = []
    for name, median in (("encode", 800.0), ("decode", 1200.0), ("checksum", 150.0),
                         ("compress/level=1", 9000.0), (HOSTILE, 300.0)):
        factor = factors.get(name, 1.0)
        benchmarks.append(micro(name, rng, median * factor, 48, spread=0.01, rounds=12))
    return {"schema": "benchkit/result", "version": 1, "context": context(commit),
            "benchmarks": benchmarks}


def in_both_orders(rng, commit, side):
    """One benchmark in 16 rounds, 3 samples a process; `side` 0 (baseline) ran first in the
    even rounds; the second process of a round is 20% faster."""
    samples = []
    for round_ in range(16):
        turn = round_ % 2 if side == 0 else 1 - round_ % 2
        for _ in range(3):
            per = 1000.0 * (0.8 if turn == 1 else 1.0) * (1 + rng.gauss(0, 0.003))
            samples.append({"iters": 100, "ns": per * 100, "process": round_, "round": round_,
                            "turn": turn})
    return {"schema": "benchkit/result", "version": 1, "context": context(commit),
            "benchmarks": [{"name": "crc32c/1048576", "kind": "micro", "samples": samples}]}


def noise(rng):
    benchmarks = []
    for name, median in (("encode", 800.0), ("decode", 1200.0), (HOSTILE, 300.0)):
        shifts = [1 + rng.gauss(0, 0.01) for _ in range(6)]
        b = micro(name, rng, median, 60, process=lambda i: i % 6)
        for i, sample in enumerate(b["samples"]):
            sample["ns"] *= shifts[i % 6]
        benchmarks.append(b)
    return {"schema": "benchkit/result", "version": 1, "context": context("c" * 40),
            "benchmarks": benchmarks}


def large(rng, count, samples):
    benchmarks = [micro(f"group{i // 50}/bench/size={64 << (i % 8)}/variant={i % 50}", rng,
                        100.0 + 10 * (i % 97), samples, spread=0.02) for i in range(count)]
    return {"schema": "benchkit/result", "version": 1, "context": context("d" * 40),
            "benchmarks": benchmarks}


def write(folder, name, document):
    with open(os.path.join(folder, name), "w", encoding="utf-8") as out:
        json.dump(document, out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("folder")
    parser.add_argument("--benchmarks", type=int, default=0)
    parser.add_argument("--samples", type=int, default=1000)
    args = parser.parse_args()
    os.makedirs(args.folder, exist_ok=True)
    rng = random.Random(18)
    if args.benchmarks:
        write(args.folder, "large.json", large(rng, args.benchmarks, args.samples))
        return
    run, sweep = results(rng)
    write(args.folder, "results.json", run)
    write(args.folder, "base.json", paired(rng, "b" * 40, {}))
    write(args.folder, "new.json",
          paired(rng, "e" * 40, {"encode": 1.3, "decode": 0.75}))
    write(args.folder, "noise.json", noise(rng))
    write(args.folder, "order_base.json", in_both_orders(rng, "b" * 40, 0))
    write(args.folder, "order_new.json", in_both_orders(rng, "e" * 40, 1))
    expected = {
        "hostile": HOSTILE,
        "samples": {b["name"]: len(b["samples"]) for b in run["benchmarks"]},
        "sweep_points": len(sweep),
        "phases": 3,
        "compared": 5,
        "rounds": 12,
        "order_rounds": 16,
        "noise_processes": 3 * 6,
        "slow": {"parse_json": 15},
    }
    write(args.folder, "expected.json", expected)


if __name__ == "__main__":
    main()
