#!/usr/bin/env python3
"""4 writers recording into one PostgreSQL history while its server restarts (docs/reliability.md).

    postgres_restart.py BUILD_DIR

A throwaway server of its own (tests/store/postgres_server.sh: the shared one of the other tests
must not restart under them). 4 processes of `benchkit history add --store URL` each record
BENCHKIT_RELIABILITY_RUNS small result files (default 100; the two free writers three times
as many). Writers 0 and 1 are paused (SIGSTOP) once each has recorded a few runs; the server
restarts (pg_ctl restart -m fast: every session is cut) while they are paused and the free
writers 2 and 3 go on recording through it; then the paused writers resume. Pausing makes the
cut certain: on a fast machine the writers would otherwise all end before pg_ctl cuts them.
Promises:
- every writer exits 0 (it connected again and went on) or 2 (it gave up, saying why);
- a writer whose connection was cut says so: a message naming the history (its URL, password
  hidden) and that the connection was lost; both paused writers were cut and said so;
- the runs reported recorded are exactly the runs in the store afterwards: none lost, none
  invented; with every writer at 0, all of them;
- the password is in no output;
- then a fifth writer, whose server stops for good while it records: it gives up with exit
  status 2 and a message naming the history, after its reconnection waits (seconds, not hours).
Exit status 1 naming the first broken promise, 77 (skipped) without a PostgreSQL server.
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

BUILD = os.path.abspath(sys.argv[1])
BENCHKIT = os.path.join(BUILD, "benchkit")
SERVER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "store",
                      "postgres_server.sh")
WRITERS = 4
PAUSED = (0, 1)  # paused across the restart: their sessions are certainly cut
RUNS = int(os.environ.get("BENCHKIT_RELIABILITY_RUNS", "100"))
RECORDED = re.compile(r"^(?:recorded|already recorded:) ([0-9a-f]+) \((.*)\)$")
failures = []


def check(what, ok, detail=""):
    print(f"{'ok  ' if ok else 'FAIL'}  {what}{': ' + detail if detail and not ok else ''}",
          flush=True)
    if not ok:
        failures.append(what)


def result_files(work):
    """Result files of distinct identities (their dates differ), one list per writer."""
    template = os.path.join(work, "template.json")
    done = subprocess.run([BENCHKIT, "run", "--runs", "2", "--warmup", "0", "--quiet", "--cmd",
                           "true", "--export-json", template], cwd=work, capture_output=True)
    if done.returncode != 0:
        raise SystemExit(f"benchkit run for the template failed: {done.stderr.decode()}")
    document = json.load(open(template, encoding="utf-8"))
    files = []
    for writer in range(WRITERS):
        mine = []
        for run in range(RUNS if writer in PAUSED else 3 * RUNS):
            document["context"]["date"] = (f"2026-01-{1 + writer:02d}T"
                                           f"{run // 3600:02d}:{run // 60 % 60:02d}:"
                                           f"{run % 60:02d}Z")
            path = os.path.join(work, f"w{writer}-{run}.json")
            with open(path, "w", encoding="utf-8") as out:
                json.dump(document, out)
            mine.append(path)
        files.append(mine)
    return files


class Writer:
    def __init__(self, url, files):
        self.process = subprocess.Popen([BENCHKIT, "history", "add", "--store", url] + files,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.recorded = []
        self.stdout = []
        self.stderr = ""
        self.reader = threading.Thread(target=self._read)
        self.reader.start()

    def _read(self):
        for line in self.process.stdout:
            self.stdout.append(line)
            match = RECORDED.match(line.rstrip("\n"))
            if match:
                self.recorded.append(match.group(1))

    def wait(self):
        self.stderr = self.process.stderr.read()
        status = self.process.wait()
        self.reader.join()
        return status


def give_up(work, url, shown, password, server):
    """A writer whose server stops for good in the middle: exit 2, naming the history."""
    template = json.load(open(os.path.join(work, "template.json"), encoding="utf-8"))
    files = []
    for run in range(2000):  # far more than it records before the stop
        template["context"]["date"] = f"2026-02-01T{run // 3600:02d}:{run // 60 % 60:02d}:" \
                                      f"{run % 60:02d}Z"
        path = os.path.join(work, f"late-{run}.json")
        with open(path, "w", encoding="utf-8") as out:
            json.dump(template, out)
        files.append(path)
    writer = Writer(url, files)
    while len(writer.recorded) < 5 and writer.process.poll() is None:
        time.sleep(0.01)
    stopped_at = time.monotonic()
    subprocess.run([SERVER, "stop", server], capture_output=True)
    status = writer.wait()
    waited = time.monotonic() - stopped_at
    check("a writer whose server stopped for good exits 2", status == 2,
          f"status {status}, {len(writer.recorded)} of {len(files)} recorded")
    check("it says it cannot record into the history, naming it",
          shown in writer.stderr and "cannot record" in writer.stderr, writer.stderr)
    check("it gives up within a minute", waited < 60, f"{waited:.1f} s")
    check("the password is in none of its output",
          password not in writer.stderr + "".join(writer.stdout))
    print(f"server stopped for good after {len(writer.recorded)} runs reported: exit {status} "
          f"after {waited:.1f} s; " + writer.stderr.strip().splitlines()[-1])


def main():
    work = tempfile.mkdtemp(prefix="benchkit-pg-restart-")
    server = os.path.join(work, "server")
    writers = []
    try:
        files = result_files(work)
        started = subprocess.run([SERVER, "start", server], capture_output=True, text=True)
        if "no PostgreSQL server found" in started.stderr:
            print(started.stderr.strip() + ": skipped")
            return 77
        if started.returncode != 0:
            check("the throwaway server starts", False, started.stderr)
            return 1
        url = open(os.path.join(server, "url")).read().strip()
        password = re.match(r"postgresql://[^:]+:([^@]+)@", url).group(1)
        shown = re.sub(r":[^:@/]+@", ":***@", url)
        # The schema made once before the writers start (each writer would otherwise migrate
        # under the advisory lock; that is tested by the store tests).
        subprocess.run([BENCHKIT, "history", "list", "--store", url], capture_output=True)
        began = time.monotonic()
        writers = [Writer(url, mine) for mine in files]
        # Each paused writer is stopped as soon as it has recorded a few runs (it records a run
        # in a few milliseconds, so it is nowhere near its last one). Both are watched at once:
        # waiting for one first let the other, on a loaded machine, record all its runs.
        waiting = set(PAUSED)
        while waiting:
            for i in sorted(waiting):
                if writers[i].process.poll() is not None:
                    waiting.discard(i)
                elif len(writers[i].recorded) >= 5:
                    writers[i].process.send_signal(signal.SIGSTOP)
                    waiting.discard(i)
            time.sleep(0.002)
        ended_early = [i for i in PAUSED if writers[i].process.poll() is not None]
        check("the paused writers were still running when paused", not ended_early,
              f"writers {ended_early} had ended")
        before = sum(len(w.recorded) for w in writers)
        restart_began = time.monotonic()
        restarted = subprocess.run([SERVER, "restart", server], capture_output=True, text=True)
        restart_seconds = time.monotonic() - restart_began
        for i in PAUSED:
            if writers[i].process.poll() is None:
                writers[i].process.send_signal(signal.SIGCONT)
        check("the server restarts", restarted.returncode == 0, restarted.stderr)
        statuses = [w.wait() for w in writers]
        seconds = time.monotonic() - began

        check("every writer exits 0 (went on) or 2 (gave up, saying why)",
              all(s in (0, 2) for s in statuses), f"{statuses}")
        lost = f"the connection to history {shown} was lost"
        cut = [i for i, w in enumerate(writers) if lost in w.stderr]
        check("both paused writers were cut by the restart and said so, naming the history",
              all(i in cut for i in PAUSED), " | ".join(writers[i].stderr for i in PAUSED))
        for i, (w, status) in enumerate(zip(writers, statuses)):
            if status == 2:
                # "cannot record" after a lost connection; "cannot connect" when the writer's
                # first connection met the restart (on a loaded machine a writer can start that
                # late): a first connection is not retried, as a wrong URL should fail at once.
                check(f"writer {i} gave up with a message naming the history",
                      shown in w.stderr and ("cannot record" in w.stderr or
                                             "cannot connect" in w.stderr), w.stderr)
        reported = {run for w in writers for run in w.recorded}
        listed = subprocess.run([BENCHKIT, "history", "list", "--store", url, "--format", "json"],
                                capture_output=True, text=True)
        check("history list after the restart", listed.returncode == 0, listed.stderr)
        stored = json.loads(listed.stdout) if listed.returncode == 0 else []
        if isinstance(stored, dict):
            stored = stored.get("runs", [])
        stored_ids = [run["id"] for run in stored]
        matched = {r for r in reported if any(s.startswith(r) for s in stored_ids)}
        check("every run reported recorded is in the store", matched == reported,
              f"{len(reported - matched)} of {len(reported)} missing")
        check("the store holds only the runs reported recorded",
              len(stored_ids) == len(reported), f"{len(stored_ids)} stored, {len(reported)} "
              f"reported")
        total = sum(len(mine) for mine in files)
        if all(s == 0 for s in statuses):
            check("with every writer at 0, all the runs", len(reported) == total,
                  f"{len(reported)} of {total}")
        outputs = "".join(w.stderr + "".join(w.stdout) for w in writers)
        check("the password is in no output", password not in outputs)
        retries = outputs.count("connecting again in")
        print(f"{WRITERS} writers, {total} runs in {seconds:.1f} s; restart after {before} runs "
              f"reported, took {restart_seconds:.1f} s; {len(cut)} writers cut, {retries} "
              f"reconnection waits in all; exit statuses {statuses}; {len(reported)} runs "
              f"reported recorded, {len(stored_ids)} in the store")
        for i in cut:
            print(f"  writer {i}: " + writers[i].stderr.strip().replace("\n", "\n    "))
        give_up(work, url, shown, password, server)
    finally:
        for w in writers:
            if w.process.poll() is None:
                w.process.kill()
                w.process.wait()
        subprocess.run([SERVER, "stop", server], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        print(f"{len(failures)} promise(s) broken: {failures[0]}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
