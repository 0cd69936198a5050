#!/usr/bin/env python3
"""benchkit's --format gbench read back by Google Benchmark's own tools/compare.py (Debian's
libbenchmark-tools, with python3-numpy and python3-scipy), and by benchkit's reader.

Usage: gbench_compare_py.py BUILD_DIR [COMPARE_PY]

Two runs of the test suite's sample_bench are written as Google Benchmark JSON by
`benchkit report --format gbench`; compare.py must read both and compare them benchmark by
benchmark: every benchmark of the runs is in its output, its U test counts as many repetitions
as benchkit has samples, and the times it compares are the samples benchkit wrote."""
import json
import os
import subprocess
import sys
import tempfile

# compare.py needs numpy and scipy, which Debian installs for its own interpreter.
DEBIAN_PYTHON = "/usr/bin/python3"


def run(argv, **kwargs):
    done = subprocess.run(argv, capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        sys.exit(f"{' '.join(argv)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def main():
    build = sys.argv[1]
    compare_py = sys.argv[2] if len(sys.argv) > 2 else "/usr/share/benchmark/compare.py"
    if not os.path.exists(compare_py):
        sys.exit(f"{compare_py} is missing: scripts/install-deps installs libbenchmark-tools")
    tool = os.path.join(build, "benchkit")
    bench = os.path.join(build, "tests", "sample_bench")
    with tempfile.TemporaryDirectory(prefix="benchkit-gbench-compare-py-") as work:
        files = []
        for name in ("old", "new"):
            result = os.path.join(work, f"{name}.json")
            run([bench, "--filter", "add|copy", "--time-budget", "40ms", "--quiet", "--out", result])
            gbench = os.path.join(work, f"{name}.gbench.json")
            with open(gbench, "w") as out:
                out.write(run([tool, "report", result, "--format", "gbench"]))
            files.append((result, gbench))
        diff = os.path.join(work, "diff.json")
        printed = run([DEBIAN_PYTHON, compare_py, "-d", diff, "benchmarks", files[0][1], files[1][1]])
        with open(files[0][0]) as f:
            ours = json.load(f)["benchmarks"]
        with open(files[0][1]) as f:
            written = [row for row in json.load(f)["benchmarks"] if row["run_type"] == "iteration"]
        with open(files[1][1]) as f:
            written_new = [row for row in json.load(f)["benchmarks"]
                           if row["run_type"] == "iteration"]
        with open(diff) as f:
            rows = json.load(f)
        problems = []
        for benchmark in ours:
            name = benchmark["name"]
            if name not in printed:
                problems.append(f"compare.py's table does not name {name}")
            theirs = [row for row in rows if row["name"] == name]
            if not theirs:
                problems.append(f"compare.py's diff has no row for {name}")
                continue
            tested = [row for row in theirs if row.get("utest")]
            samples = sum(1 for row in written if row["name"] == name)
            other = sum(1 for row in written_new if row["name"] == name)
            if not tested or tested[0]["utest"]["nr_of_repetitions"] != samples:
                counted = (f"{tested[0]['utest']['nr_of_repetitions']} against "
                           f"{tested[0]['utest']['nr_of_repetitions_other']}" if tested
                           else "no U test")
                problems.append(f"{name}: compare.py's U test did not count the {samples} samples "
                                f"(against {other} in the new file): {counted}")
            first = next(row for row in written if row["name"] == name)
            if abs(theirs[0]["measurements"][0]["real_time"] - first["real_time"]) > 1e-12:
                problems.append(f"{name}: compare.py read {theirs[0]['measurements'][0]['real_time']}"
                                f" where benchkit wrote {first['real_time']}")
        # benchkit's own reader takes the file back, and compares the two.
        run([tool, "compare", files[0][1], files[1][1], "--format", "json"])
        if problems:
            sys.exit("\n".join(problems))
        print(f"compare.py read {len(ours)} benchmarks from benchkit's --format gbench; "
              f"{len(rows)} rows in its diff")


if __name__ == "__main__":
    main()
