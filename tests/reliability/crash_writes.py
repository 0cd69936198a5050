#!/usr/bin/env python3
"""Crash-safe writes, proven with real processes (docs/reliability.md).

    crash_writes.py BUILD_DIR kill [TRIALS]   kill -9 writers at random points
    crash_writes.py BUILD_DIR read-only       every writer against a read-only folder
    crash_writes.py BUILD_DIR disk-full       every writer against a full disk (a small tmpfs)

TRIALS (or $BENCHKIT_RELIABILITY_TRIALS) is the number of kills per writer: 10 by default, so
that `make test` stays cheap; docs/reliability.md quotes a run of 100.

kill: three writers, each started TRIALS times and sent SIGKILL at a random moment of its run
(uniform between its start and the time an uninterrupted run takes):
  run      `benchkit run` writing --export-json/--export-markdown/--export-csv/--export-junit,
           --html, --save-baseline and --record (SQLite) in one run;
  bench    a bench binary writing --out, --html, --save-baseline and --record;
  history  `benchkit history add` of a large result (the SQLite transaction takes most of it).
After every kill each file the writer writes is either the previous version, byte for byte, or a
complete new one (it parses, and benchkit reads it back), never torn or missing; the history
passes SQLite's integrity check and holds every run recorded before, each one whole (history
export reads them all); no process of the killed writer is left running. The checks are shown
to catch damage: each is run on truncated copies of real files first and must refuse every one.

read-only and disk-full: each writer aims at a folder on a tmpfs mounted for the test, holding
the previous versions; the folder is then remounted read-only, or the disk filled. The writer
must fail with exit status 2 and a message naming the file and the cause, leave every previous
version as it was and no temporary file behind. Mounting needs root (CAP_SYS_ADMIN): without it
these exit 77, which CTest reports as skipped.

Prints one line of figures per writer (what docs/reliability.md quotes) and exits 1 on the first
broken promise, naming the trial, the file and what was wrong.
"""
import csv
import io
import json
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree

BUILD = os.path.abspath(sys.argv[1])
MODE = sys.argv[2] if len(sys.argv) > 2 else "kill"
TRIALS = int(sys.argv[3] if len(sys.argv) > 3 else os.environ.get("BENCHKIT_RELIABILITY_TRIALS", 10))
BENCHKIT = os.path.join(BUILD, "benchkit")
SAMPLE_BENCH = os.path.join(BUILD, "tests", "sample_bench")
SKIPPED = 77
# A fixed seed: a failing trial can be run again as it was.
RANDOM = random.Random(int(os.environ.get("BENCHKIT_RELIABILITY_SEED", "22")))
COMMANDS = ["true", "true a", "true b", "true c", "true d", "true e"]


class Broken(Exception):
    pass


def run(argv, cwd, env=None, check=True):
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    if check and done.returncode != 0:
        raise Broken(f"{' '.join(argv)} exited {done.returncode}: {done.stderr.strip()}")
    return done


# --- what a complete file looks like --------------------------------------------------------


def check_result(path, expected, work):
    """A benchkit result with `expected` benchmarks that benchkit itself reads back. Every file
    benchkit writes ends with a newline: a copy without it is cut short."""
    with open(path, "rb") as f:
        text = f.read().decode("utf-8")
    document = json.loads(text)
    if not text.endswith("\n") or document.get("schema") != "benchkit/result" or len(document["benchmarks"]) != expected:
        raise ValueError("not a whole benchkit result")
    done = subprocess.run([BENCHKIT, "report", path, "--format", "csv"], cwd=work,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise ValueError("benchkit report refused it: " + done.stderr.strip())


def check_progress_result(path, expected, work):
    """A bench binary's --out, which it rewrites after every benchmark (so that a crash keeps
    what finished): a whole benchkit result of the first 1 to `expected` benchmarks."""
    for count in range(expected, 0, -1):
        try:
            return check_result(path, count, work)
        except ValueError:
            if count == 1:
                raise


def check_markdown(path, expected, work):
    text = open(path, encoding="utf-8").read()
    rows = [line for line in text.splitlines() if line.startswith("|")]
    cells = {len(re.findall(r"(?<!\\)\|", row)) for row in rows}
    if not text.endswith("\n") or len(rows) != expected + 2 or len(cells) != 1:
        raise ValueError(f"{len(rows)} table lines (expected {expected + 2}), cells {cells}")


def check_csv(path, expected, work):
    text = open(path, encoding="utf-8", newline="").read()
    rows = list(csv.reader(io.StringIO(text)))
    if not text.endswith("\n") or len(rows) != expected + 1 or len({len(r) for r in rows}) != 1:
        raise ValueError(f"{len(rows)} rows (expected {expected + 1})")


def check_junit(path, expected, work):
    text = open(path, encoding="utf-8").read()
    root = ElementTree.fromstring(text)
    if not text.endswith("\n") or len(root.findall(".//testcase")) != expected:
        raise ValueError("wrong number of test cases")


def check_html(path, expected, work):
    text = open(path, encoding="utf-8").read()
    if not text.startswith("<!DOCTYPE html>") or not text.endswith("</html>\n"):
        raise ValueError("the page does not begin and end as benchkit writes it")


def history_ids(store, work):
    """The run identities a history lists, after SQLite's own integrity check; every run read
    whole (history export decompresses and parses each one)."""
    connection = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        verdict = connection.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        connection.close()
    if verdict != "ok":
        raise ValueError("integrity_check: " + verdict)
    listed = run([BENCHKIT, "history", "list", "--store", store], work, check=False)
    if listed.returncode != 0:
        raise ValueError("history list failed: " + listed.stderr.strip())
    ids = set(re.findall(r"^([0-9a-f]{12})\s", listed.stdout, re.MULTILINE))
    exported = run([BENCHKIT, "history", "export", "--store", store], work, check=False)
    if exported.returncode != 0 or len(json.loads(exported.stdout)["runs"]) != len(ids):
        raise ValueError("history export did not read every run: " + exported.stderr.strip())
    return ids


# --- the writers ----------------------------------------------------------------------------


class Writer:
    """One program that writes several files; `targets` maps each file (relative to the work
    folder) to its check and the number of benchmarks a complete version holds."""

    name = ""
    store = None  # an SQLite history it records into, relative to the work folder

    def __init__(self, work):
        self.work = work

    def argv(self, trial):
        raise NotImplementedError

    def env(self):
        environment = dict(os.environ)
        environment["BENCHKIT_DIR"] = os.path.join(self.work, ".benchkit")
        environment["BENCHKIT_NO_MACHINE_WARNINGS"] = "1"
        return environment


class RunWriter(Writer):
    name = "run"
    store = "history.db"
    targets = {"r.json": (check_result, len(COMMANDS)), "r.md": (check_markdown, len(COMMANDS)),
               "r.csv": (check_csv, len(COMMANDS)), "r.xml": (check_junit, len(COMMANDS)),
               "r.html": (check_html, len(COMMANDS)),
               ".benchkit/baselines/main.json": (check_result, len(COMMANDS))}

    def argv(self, trial):
        argv = [BENCHKIT, "run", "--quiet", "--runs", "3", "--warmup", "0"]
        for command in COMMANDS:
            argv += ["--cmd", command]
        return argv + ["--export-json", "r.json", "--export-markdown", "r.md", "--export-csv",
                       "r.csv", "--export-junit", "r.xml", "--html", "r.html", "--save-baseline",
                       "main", "--record", "--store", self.store]


class BenchWriter(Writer):
    name = "bench"
    store = "bench.db"
    targets = {"b.json": (check_progress_result, 2), "b.html": (check_html, 2),
               ".benchkit/baselines/bench.json": (check_result, 2)}

    def argv(self, trial):
        return [SAMPLE_BENCH, "--quiet", "--filter", "^add", "--time-budget", "20ms", "--warm-up",
                "1ms", "--processes", "1", "--seed", str(trial), "--out", "b.json", "--html",
                "b.html", "--save-baseline", "bench", "--record", "--store", self.store]


class HistoryWriter(Writer):
    """`benchkit history add` of a large result, a new one each trial (a run is recorded once)."""

    name = "history"
    store = "import.db"
    targets = {}

    def argv(self, trial):
        path = os.path.join(self.work, f"large-{trial}.json")
        if not os.path.exists(path):
            with open(path, "w") as f:
                json.dump(large_result(trial), f)
        return [BENCHKIT, "history", "add", "--store", self.store, path]


def large_result(seed):
    """100 benchmarks of 150 samples, different for every seed."""
    generator = random.Random(seed)
    benchmarks = [{"name": f"bench/{b}",
                   "samples": [{"iters": 100, "ns": 1000.0 + generator.random() * 50}
                               for _ in range(150)]} for b in range(100)]
    return {"schema": "benchkit/result", "version": 1,
            "context": {"date": f"2026-11-{1 + seed % 28:02d}T10:00:00Z", "seed": seed,
                        "git": {"commit": f"{seed:040x}", "branch": "main", "dirty": False}},
            "benchmarks": benchmarks}


WRITERS = [RunWriter, BenchWriter, HistoryWriter]


# --- kill -9 at random points ---------------------------------------------------------------


def temporaries(work):
    found = []
    for folder, _, files in os.walk(work):
        found += [os.path.join(folder, f) for f in files if re.search(r"\.tmp\.\d+$", f)]
    return found


def group_alive(pgid):
    try:
        os.killpg(pgid, 0)
        return True
    except ProcessLookupError:
        return False


def snapshot(writer):
    return {name: open(os.path.join(writer.work, name), "rb").read()
            for name in writer.targets if os.path.exists(os.path.join(writer.work, name))}


def check_after(writer, trial, before, ids_before):
    """Every target is its previous version or a complete new one; the history kept every run.
    Returns (files replaced, runs added)."""
    replaced = 0
    for name, (check, expected) in writer.targets.items():
        path = os.path.join(writer.work, name)
        if not os.path.exists(path):
            if name in before:
                raise Broken(f"{writer.name} trial {trial}: {name} is gone")
            continue
        content = open(path, "rb").read()
        if before.get(name) == content:
            continue
        try:
            check(path, expected, writer.work)
        except Exception as error:  # any failure to read it is a torn file
            kept = os.path.join(tempfile.gettempdir(), f"benchkit-torn-{os.path.basename(name)}")
            shutil.copy(path, kept)
            raise Broken(f"{writer.name} trial {trial}: {name} is torn ({error}); kept as {kept}")
        replaced += 1
    added = 0
    if writer.store and os.path.exists(os.path.join(writer.work, writer.store)):
        try:
            ids = history_ids(os.path.join(writer.work, writer.store), writer.work)
        except Exception as error:
            raise Broken(f"{writer.name} trial {trial}: the history is damaged: {error}")
        if not ids_before <= ids:
            raise Broken(f"{writer.name} trial {trial}: runs lost: {sorted(ids_before - ids)}")
        added = len(ids - ids_before)
        if added > 1:
            raise Broken(f"{writer.name} trial {trial}: {added} runs from one run")
        ids_before.clear()
        ids_before.update(ids)
    return replaced, added


def kill_trials(writer_class, trials):
    work = tempfile.mkdtemp(prefix=f"benchkit-crash-{writer_class.name}-")
    try:
        writer = writer_class(work)
        # Uninterrupted runs first: the previous versions, and how long a whole run takes.
        durations = []
        for trial in range(3):
            start = time.monotonic()
            run(writer.argv(10000 + trial), work, writer.env())
            durations.append(time.monotonic() - start)
        duration = sorted(durations)[1]
        ids = history_ids(os.path.join(work, writer.store), work) if writer.store else set()
        figures = {"killed": 0, "finished": 0, "replaced": 0, "temporary left": 0,
                   "runs recorded": 0, "stray processes": 0}
        for trial in range(trials):
            before = snapshot(writer)
            child = subprocess.Popen(writer.argv(trial), cwd=work, env=writer.env(),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     start_new_session=True)
            time.sleep(RANDOM.uniform(0, duration))
            if child.poll() is None:
                child.send_signal(signal.SIGKILL)
                figures["killed"] += 1
            else:
                figures["finished"] += 1
            child.wait()
            # A killed writer's children (its spawner helper, a command) must end by themselves.
            deadline = time.monotonic() + 5
            while group_alive(child.pid) and time.monotonic() < deadline:
                time.sleep(0.05)
            if group_alive(child.pid):
                figures["stray processes"] += 1
                os.killpg(child.pid, signal.SIGKILL)
            left = temporaries(work)
            figures["temporary left"] += bool(left)
            replaced, added = check_after(writer, trial, before, ids)
            figures["replaced"] += replaced
            figures["runs recorded"] += added
        # The next whole run removes what the killed ones left.
        run(writer.argv(trials), work, writer.env())
        check_after(writer, trials, {}, ids)
        if temporaries(work):
            raise Broken(f"{writer.name}: temporaries left after a whole run: {temporaries(work)}")
        if figures["stray processes"]:
            raise Broken(f"{writer.name}: {figures['stray processes']} killed runs left processes")
        shown = ", ".join(f"{key} {value}" for key, value in figures.items())
        print(f"{writer.name}: {trials} trials, run {duration * 1000:.0f} ms: {shown}; "
              f"torn 0, lost 0")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def checks_catch_damage():
    """The checks refuse truncated copies of real files (else a passing trial proves nothing)."""
    work = tempfile.mkdtemp(prefix="benchkit-crash-control-")
    try:
        refused = 0
        for writer_class in (RunWriter, BenchWriter):
            writer = writer_class(work)
            run(writer.argv(0), work, writer.env())
            for name, (check, expected) in writer.targets.items():
                path = os.path.join(work, name)
                whole = open(path, "rb").read()
                check(path, expected, work)
                for cut in sorted(RANDOM.sample(range(len(whole) - 1), 5)) + [len(whole) - 1]:
                    damaged = path + ".cut"
                    with open(damaged, "wb") as f:
                        f.write(whole[:cut])
                    try:
                        check(damaged, expected, work)
                    except Exception:
                        refused += 1
                        continue
                    raise Broken(f"the check of {name} accepted it cut at byte {cut}")
                os.remove(path + ".cut")
        store = os.path.join(work, "history.db")
        whole = open(store, "rb").read()
        damaged = os.path.join(work, "damaged.db")
        with open(damaged, "wb") as f:
            f.write(whole[: len(whole) // 2])
        try:
            history_ids(damaged, work)
        except Exception:
            refused += 1
        else:
            raise Broken("the history check accepted a database cut in half")
        print(f"control: the checks refused all {refused} damaged copies")
    finally:
        shutil.rmtree(work, ignore_errors=True)


# --- read-only folder and full disk ---------------------------------------------------------


def mount_tmpfs(folder, size):
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", folder],
                          capture_output=True, text=True)
    return done.returncode == 0


def fill(folder):
    """Writes a file until the disk is full."""
    fd = os.open(os.path.join(folder, "filler"), os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError:
        pass
    finally:
        os.close(fd)


def refused_cases():
    """Each writer with one output aimed at the folder under test; the other outputs go to a
    writable folder beside it: (what is tested, argv maker(folder under test, writable folder),
    the files it writes in the folder under test)."""
    return [
        ("run --export-json", lambda out, ok: [BENCHKIT, "run", "--quiet", "--runs", "2",
                                               "--warmup", "0", "--cmd", "true", "--export-json",
                                               f"{out}/r.json"], ["r.json"]),
        ("run --export-markdown", lambda out, ok: [BENCHKIT, "run", "--quiet", "--runs", "2",
                                                   "--warmup", "0", "--cmd", "true",
                                                   "--export-markdown", f"{out}/r.md"], ["r.md"]),
        ("run --html", lambda out, ok: [BENCHKIT, "run", "--quiet", "--runs", "2", "--warmup", "0",
                                        "--cmd", "true", "--html", f"{out}/r.html"], ["r.html"]),
        ("run --save-baseline", lambda out, ok: [BENCHKIT, "run", "--quiet", "--runs", "2",
                                                 "--warmup", "0", "--cmd", "true",
                                                 "--save-baseline", "main"],
         [".benchkit/baselines/main.json"]),
        ("run --record", lambda out, ok: [BENCHKIT, "run", "--quiet", "--runs", "2", "--warmup",
                                          "0", "--cmd", "true", "--record", "--store",
                                          f"{out}/history.db"], ["history.db"]),
        ("bench --out", lambda out, ok: [SAMPLE_BENCH, "--quiet", "--filter", "^add/amount=1$",
                                         "--time-budget", "5ms", "--warm-up", "1ms",
                                         "--processes", "1", "--out", f"{out}/b.json"],
         ["b.json"]),
        ("bench --save-baseline", lambda out, ok: [SAMPLE_BENCH, "--quiet", "--filter",
                                                   "^add/amount=1$", "--time-budget", "5ms",
                                                   "--warm-up", "1ms", "--processes", "1",
                                                   "--save-baseline", "bench"],
         [".benchkit/baselines/bench.json"]),
        ("bench --record", lambda out, ok: [SAMPLE_BENCH, "--quiet", "--filter", "^add/amount=1$",
                                            "--time-budget", "5ms", "--warm-up", "1ms",
                                            "--processes", "1", "--record", "--store",
                                            f"{out}/bench.db"], ["bench.db"]),
        ("report --out", lambda out, ok: [BENCHKIT, "report", f"{ok}/source.json", "--format",
                                          "html", "--out", f"{out}/report.html"], ["report.html"]),
    ]


def refusal_trials(mode):
    root = tempfile.mkdtemp(prefix=f"benchkit-{mode}-")
    mounted = os.path.join(root, "out")
    ok = os.path.join(root, "ok")
    os.makedirs(mounted)
    os.makedirs(ok)
    # Room for every writer's previous version, the bench binary a baseline keeps (8 MB, and
    # growing) included: at 8 MiB, whether the kept binary fitted decided which writer ran out
    # of space first.
    if not mount_tmpfs(mounted, "64m"):
        shutil.rmtree(root)
        print(f"{mode}: cannot mount a tmpfs here (needs root and CAP_SYS_ADMIN): skipped")
        return SKIPPED
    try:
        env = dict(os.environ)
        # Baselines go to the folder under test too.
        env["BENCHKIT_DIR"] = os.path.join(mounted, ".benchkit")
        env["BENCHKIT_NO_MACHINE_WARNINGS"] = "1"
        run([BENCHKIT, "run", "--quiet", "--runs", "2", "--warmup", "0", "--cmd", "true",
             "--export-json", f"{ok}/source.json"], ok, env)
        cases = refused_cases()
        # The previous versions: every writer once, while the folder is writable.
        for _, argv, _ in cases:
            run(argv(mounted, ok), ok, env)
        before = {}
        for folder, _, files in os.walk(mounted):
            for f in files:
                before[os.path.join(folder, f)] = open(os.path.join(folder, f), "rb").read()
        if mode == "read-only":
            subprocess.run(["mount", "-o", "remount,ro", mounted], check=True)
            cause = re.compile(r"read-only|Read-only|readonly", re.IGNORECASE)
        else:
            fill(mounted)
            cause = re.compile(r"No space left|disk is full|disk holding .* is full", re.IGNORECASE)
        failures = []
        for label, argv, kept in cases:
            done = run(argv(mounted, ok), ok, env, check=False)
            message = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""
            named = any(os.path.basename(k) in done.stderr or os.path.dirname(k) in done.stderr
                        for k in kept)
            if done.returncode != 2 or not cause.search(done.stderr) or not named:
                failures.append(f"{label}: exit {done.returncode}, said: {done.stderr.strip()!r}")
            else:
                print(f"{mode}: {label}: exit 2: {message}")
        for path, content in before.items():
            if not os.path.exists(path) or open(path, "rb").read() != content:
                failures.append(f"{path} changed")
        for path in temporaries(mounted):
            failures.append(f"temporary left: {path}")
        if failures:
            raise Broken(f"{mode}:\n  " + "\n  ".join(failures))
        print(f"{mode}: {len(cases)} writers refused with exit 2 and a message naming the file; "
              f"{len(before)} previous files unchanged, no temporary left")
        return 0
    finally:
        subprocess.run(["umount", "-l", mounted], capture_output=True)
        shutil.rmtree(root, ignore_errors=True)


def main():
    try:
        if MODE == "kill":
            checks_catch_damage()
            for writer_class in WRITERS:
                kill_trials(writer_class, TRIALS)
            return 0
        if MODE in ("read-only", "disk-full"):
            return refusal_trials(MODE)
        print(__doc__)
        return 2
    except Broken as error:
        print(f"FAILED: {error}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
