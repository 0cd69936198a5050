"""Wall time and peak RSS of a command, for the scripts of bench/peers."""
import subprocess
import sys
import tempfile
import time


def run(argv, cwd=None):
    """Runs argv (in cwd, if given), returns (wall seconds, peak RSS in MiB, stdout); exits
    naming it if it fails.

    The peak RSS comes from GNU time, a small C program: a child forked from this Python
    process would count Python's own pages in its ru_maxrss (the kernel keeps the pre-exec
    high-water mark), overstating a 8 MiB program as 14 MiB. It is the largest of the process
    and every child it waited for: a bench binary started inside a git repository runs `git
    status` to record the commit, and git's own 5.2 MiB (on this repository) would then be the
    figure. The scripts run the binaries in a temporary folder, outside any repository, so that
    the figure is the bench binary's processes' (argv[0] must then be an absolute path)."""
    with tempfile.NamedTemporaryFile(mode="r") as rss_file:
        start = time.monotonic()
        completed = subprocess.run(["/usr/bin/time", "-o", rss_file.name, "-f", "%M"] + argv,
                                   capture_output=True, cwd=cwd)
        wall = time.monotonic() - start
        if completed.returncode != 0:
            sys.exit(f"{argv[0]} failed with status {completed.returncode}: "
                     f"{completed.stderr.decode(errors='replace')}")
        peak_kib = int(rss_file.read().split()[-1])
    return wall, peak_kib / 1024.0, completed.stdout


def benchkit_peak_mib(measured_mib, result):
    """The peak RSS of a benchkit bench process: benchkit resets the kernel's high-water mark
    before each benchmark (to give each its own peak), so GNU time sees only the last stretch;
    the result records the peak over the whole run, and the larger of the two is the true one."""
    recorded = result["context"].get("process_peak_rss_bytes", 0) / 1024.0 / 1024.0
    return max(measured_mib, recorded)
