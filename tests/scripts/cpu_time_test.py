#!/usr/bin/env python3
"""bench/build/cpu-time, the launcher of bench/build/measure, on commands whose CPU time is known.

    cpu_time_test.py PATH/TO/cpu-time

A compile-like command (-c, -o) that spins for about 0.3 s of CPU is logged as a compile of its
output with at least 0.25 s of CPU time (user and system); a link-like one that fails keeps its exit status and is
logged as a link; without BENCHKIT_CPU_LOG the launcher refuses and says what to set.
"""
import os
import subprocess
import sys
import tempfile

SPIN = "import time, sys\nend = time.process_time() + 0.3\nwhile time.process_time() < end: pass\n"


def run(launcher, log, args):
    env = dict(os.environ)
    if log is None:
        env.pop("BENCHKIT_CPU_LOG", None)
    else:
        env["BENCHKIT_CPU_LOG"] = log
    return subprocess.run([launcher] + args, env=env, capture_output=True, text=True)


def main():
    launcher = sys.argv[1]
    failures = []
    with tempfile.TemporaryDirectory() as folder:
        log = os.path.join(folder, "cpu.log")
        # python3 ignores arguments after the script: -c SPIN stands for the compiler's -c.
        compiled = run(launcher, log, [sys.executable, "-c", SPIN, "-o", "spin.o"])
        if compiled.returncode != 0:
            failures.append(f"the spinning command failed: {compiled.stderr}")
        script = os.path.join(folder, "link.sh")
        with open(script, "w") as out:
            out.write("exit 3\n")
        failed = run(launcher, log, ["sh", script, "-o", "program"])
        if failed.returncode != 3:
            failures.append(f"exit status {failed.returncode} instead of the command's 3")
        lines = [line.split() for line in open(log).read().splitlines()]
        if len(lines) != 2 or any(len(fields) != 5 for fields in lines):
            failures.append(f"expected two lines of five fields, got {lines}")
        else:
            user, system, wall, kind, output = lines[0]
            # The spin counts user and system time together (process_time): on a busy machine
            # half of it can be system time (0.17 s user, 0.19 s system seen at load 8).
            if kind != "compile" or output != "spin.o" or float(user) + float(system) < 0.25:
                failures.append(f"the spinning compile logged as {lines[0]}")
            if float(wall) < (float(user) + float(system)) * 0.5:
                failures.append(f"wall {wall} s below the CPU time {user} + {system} s")
            if lines[1][3:] != ["link", "program"]:
                failures.append(f"the failing link logged as {lines[1]}")
        refused = run(launcher, None, ["true"])
        if refused.returncode == 0 or "BENCHKIT_CPU_LOG" not in refused.stderr:
            failures.append(f"without BENCHKIT_CPU_LOG: status {refused.returncode}, "
                            f"stderr {refused.stderr!r}")
    for failure in failures:
        print("FAIL:", failure)
    if failures:
        sys.exit(1)
    print("cpu-time: 3 checks passed")


if __name__ == "__main__":
    main()
