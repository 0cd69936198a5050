#!/usr/bin/env python3
"""Big inputs: result files of 1 GiB and of 10 million samples read by compare, report and
history add, with the peak memory of each (GNU time's %M) against the file's size
(docs/reliability.md, "Big inputs", quotes what it prints).

    bench/load/big_inputs.py BUILD_DIR [--raise-limit MiB] [--only NAME]

Files (written under a temporary folder in /tmp, removed at the end):
  samples-1m   1 benchmark of 1 million samples (about 36 MB): under the default limit, to
               measure the memory factor
  samples-10m  1 benchmark of 10 million samples (about 360 MB)
  gib          1,000 benchmarks of 30,000 samples each, padded to 1 GiB
Each is read by `benchkit report --format console`, `benchkit compare FILE FILE` and
`benchkit history add` into a new SQLite history. By default a file over benchkit's limit must
be refused up front (exit 2, a message naming the file, its size and the limit) in a fraction
of a second; with --raise-limit, BENCHKIT_MAX_RESULT_MB is set and the file is read for real.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time


def write_result(path, benchmarks, samples, pad_to=0):
    with open(path, "w", encoding="utf-8") as out:
        out.write('{"schema": "benchkit/result", "version": 1, "context": {"date": '
                  '"2026-12-01T10:00:00Z", "git": {"commit": "' + "a" * 40 + '"}}, '
                  '"benchmarks": [')
        line = ", ".join('{"ns": %d.%03d, "iters": 1000}' % (100 + i % 37, i % 1000)
                         for i in range(1000))
        for b in range(benchmarks):
            out.write(("" if b == 0 else ", ") + '{"name": "big/%d", "kind": "micro", '
                      '"samples": [' % b)
            whole, rest = divmod(samples, 1000)
            for chunk in range(whole):
                out.write(("" if chunk == 0 else ", ") + line)
            if rest:
                out.write((", " if whole else "") + ", ".join(line.split(", ")[:rest]))
            out.write("]}")
        out.write("]}")
        if pad_to:
            size = out.tell()
            while size < pad_to:
                block = min(pad_to - size, 1 << 24)
                out.write(" " * block)
                size += block
    return os.path.getsize(path)


def timed(argv, env):
    started = time.monotonic()
    done = subprocess.run(["/usr/bin/time", "-f", "%M"] + argv, env=env, capture_output=True,
                          text=True)
    seconds = time.monotonic() - started
    lines = done.stderr.strip().splitlines()
    peak_kib = int(lines[-1]) if lines and lines[-1].isdigit() else -1
    message = next((l for l in lines if "MiB" in l or "error" in l.lower()), "")
    return done.returncode, seconds, peak_kib, message


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("--raise-limit", type=int, default=0)
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    benchkit = os.path.join(os.path.abspath(args.build), "benchkit")
    work = tempfile.mkdtemp(prefix="benchkit-big-", dir="/tmp")
    env = dict(os.environ, BENCHKIT_DIR=os.path.join(work, ".benchkit"))
    if args.raise_limit:
        env["BENCHKIT_MAX_RESULT_MB"] = str(args.raise_limit)
    files = {"samples-1m": (1, 1_000_000, 0), "samples-10m": (1, 10_000_000, 0),
             "gib": (1000, 30_000, 1 << 30)}
    try:
        for name, (benchmarks, samples, pad) in files.items():
            if args.only and name != args.only:
                continue
            path = os.path.join(work, name + ".json")
            size = write_result(path, benchmarks, samples, pad)
            print(f"{name}: {size / 2**20:.0f} MiB, {benchmarks * samples:,} samples", flush=True)
            store = os.path.join(work, "history.db")
            for step, argv in (("report", [benchkit, "report", path, "--format", "console"]),
                               ("compare", [benchkit, "compare", path, path, "--format", "json"]),
                               ("history add", [benchkit, "history", "add", "--store", store,
                                                path])):
                status, seconds, peak, message = timed(argv, env)
                print(f"  {step:<12} exit {status}  {seconds:7.2f} s  peak {peak / 1024:8.1f} MiB"
                      f"  ({peak * 1024 / size:5.2f} x the file)"
                      + (f"\n    {message}" if status != 0 else ""), flush=True)
            os.remove(path)
            if os.path.exists(store):
                os.remove(store)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
