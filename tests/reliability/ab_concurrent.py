#!/usr/bin/env python3
"""Two `benchkit ab` at once on one repository (docs/reliability.md).

    ab_concurrent.py BUILD_DIR

A real git repository in a temporary folder holding a tiny project: a shell script "built" by
copying it into the build folder (with a one-second sleep, so that two builds overlap). Revision
A and B sleep 2 ms per run, C 30 ms. Each measured run appends its revision's letter to the log
file of its `benchkit ab` ($AB_LOG), so each ab's log says which builds it ran.

1. the same pair twice at once on a fresh repository: `ab A C` and `ab A C`;
2. different pairs sharing a revision at once on another fresh one: `ab A B` and `ab A C`.

Promises: both exit 0; each ran the builds of its own two revisions and no other; the verdicts
are right (C regressed against A; B, the same script, did not); a run that needed a worktree
another was preparing waited for it and said so; afterwards git lists exactly one complete
worktree per revision used (each with its .ready marker, none prunable), no half-made folder or
pending diff is left, and the user's checkout is as it was.
Exit status 1 naming the first broken promise.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

BUILD = os.path.abspath(sys.argv[1])
BENCHKIT = os.path.join(BUILD, "benchkit")
# Few, short rounds: 2 ms against 30 ms is decided in the first batch even on a loaded machine.
FAST = ["--rounds", "5", "--time-budget", "200ms", "--noise-threshold", "0.10", "--quiet"]
ENV = dict(os.environ)
ENV.update({
    "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
    "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
})
BUILD_COMMAND = "cp prog.sh {build}/prog && chmod +x {build}/prog && sleep 1"
failures = []


def check(what, ok, detail=""):
    print(f"{'ok  ' if ok else 'FAIL'}  {what}{': ' + detail if detail and not ok else ''}",
          flush=True)
    if not ok:
        failures.append(what)


def git(repo, *argv):
    return subprocess.run(["git", *argv], cwd=repo, env=ENV, capture_output=True, text=True,
                          check=True).stdout


def make_repo(folder):
    """A repository with commits A, B (a README only) and C (slower); returns their hashes."""
    os.makedirs(folder)
    git(folder, "init", "-q", "-b", "main")
    commits = {}
    for letter, delay, readme in (("A", "0.002", "a"), ("B", "0.002", "b"), ("C", "0.03", "b")):
        with open(os.path.join(folder, "prog.sh"), "w") as out:
            out.write(f'#!/bin/sh\necho {letter} >> "$AB_LOG"\nsleep {delay}\n')
        with open(os.path.join(folder, "README"), "w") as out:
            out.write(readme + "\n")
        git(folder, "add", "-A")
        git(folder, "commit", "-q", "-m", letter)
        commits[letter] = git(folder, "rev-parse", "HEAD").strip()
    return commits


def start_ab(repo, work, tag, base, new, commits):
    log = os.path.join(work, f"{tag}.log")
    out = os.path.join(work, f"{tag}.json")
    env = dict(ENV, AB_LOG=log)
    # Progress lines (waiting, built, kept) go to stderr without --quiet: the test reads them.
    argv = [BENCHKIT, "ab", commits[base], commits[new], "--build", BUILD_COMMAND, "--cmd",
            "{build}/prog", "--format", "json", "--out", out] + [f for f in FAST if f != "--quiet"]
    process = subprocess.Popen(argv, cwd=repo, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    return {"tag": tag, "pair": (base, new), "process": process, "log": log, "out": out}


def finish(run):
    stdout, stderr = run["process"].communicate(timeout=600)
    run["status"] = run["process"].returncode
    run["stderr"] = stderr
    run["ran"] = sorted(set(open(run["log"]).read().split())) if os.path.exists(run["log"]) else []
    try:
        document = json.load(open(run["out"], encoding="utf-8"))
        run["verdicts"] = [b.get("verdict") for b in document.get("benchmarks", [])]
        # What a wrong verdict rested on, for its failure message.
        run["figures"] = [{key: b.get(key) for key in ("ratio", "ratio_lower", "ratio_upper",
                                                       "p_value", "p_adjusted", "rounds", "design")}
                          for b in document.get("benchmarks", [])]
    except (OSError, ValueError) as error:
        run["verdicts"] = [f"unreadable: {error}"]
        run["figures"] = []
    return run


def check_pair(run):
    base, new = run["pair"]
    what = f"{run['tag']} (ab {base} {new})"
    check(f"{what}: exit 0", run["status"] == 0, run["stderr"][-2000:])
    check(f"{what}: ran the builds of {base} and {new} and no other",
          run["ran"] == sorted({base, new}), f"{run['ran']}")
    wanted = "regressed" if new == "C" else None
    verdicts = run["verdicts"]
    if wanted:
        check(f"{what}: C regressed", verdicts == [wanted], f"{verdicts}")
    else:
        check(f"{what}: B (the same script) did not regress or improve",
              len(verdicts) == 1 and verdicts[0] not in ("regressed", "improved"),
              f"{verdicts} {run['figures']}")


def check_worktrees(repo, commits, used, before):
    listed = git(repo, "worktree", "list", "--porcelain")
    entries = [block for block in listed.strip().split("\n\n") if block]
    paths = [line.split(" ", 1)[1] for block in entries for line in block.splitlines()
             if line.startswith("worktree ")]
    others = [p for p in paths if os.path.realpath(p) != os.path.realpath(repo)]
    folder = os.path.join(repo, ".benchkit", "worktrees")
    expected = sorted(os.path.realpath(os.path.join(folder, commits[c][:12])) for c in used)
    check("git lists exactly one worktree per revision used",
          sorted(os.path.realpath(p) for p in others) == expected, f"{others}")
    check("no worktree is prunable or locked",
          "prunable" not in listed and "\nlocked" not in listed, listed)
    check("each worktree is complete (its .ready marker)",
          all(os.path.exists(p + ".ready") for p in others))
    made = sorted(name for name in os.listdir(folder)
                  if not name.endswith((".ready", ".lock")) and name != ".gitignore")
    check("no other folder under .benchkit/worktrees",
          made == sorted(commits[c][:12] for c in used), f"{made}")
    diffs = os.path.join(repo, ".benchkit", "diffs")
    pending = [n for n in os.listdir(diffs) if n.startswith("pending")] if os.path.isdir(
        diffs) else []
    check("no pending diff left", pending == [], f"{pending}")
    check("the user's checkout is as it was", git(repo, "status", "--porcelain") == before and
          git(repo, "rev-parse", "HEAD").strip() == commits["C"])


def case(work, name, pairs):
    repo = os.path.join(work, name)
    commits = make_repo(repo)
    before = git(repo, "status", "--porcelain")
    runs = [start_ab(repo, work, f"{name}-{i}", base, new, commits)
            for i, (base, new) in enumerate(pairs)]
    runs = [finish(run) for run in runs]
    for run in runs:
        check_pair(run)
    waited = [r["tag"] for r in runs if "waiting for another benchkit" in r["stderr"]]
    check(f"{name}: a run that needed a worktree being prepared waited and said so",
          len(waited) >= 1, " | ".join(r["stderr"][-500:] for r in runs))
    check_worktrees(repo, commits, sorted({c for pair in pairs for c in pair}), before)
    for run in runs:
        lines = [line for line in run["stderr"].splitlines() if "waiting for" in line]
        if lines:
            print(f"  {run['tag']}: {lines[0]}")


def main():
    work = tempfile.mkdtemp(prefix="benchkit-ab-concurrent-")
    try:
        case(work, "same-pair", [("A", "C"), ("A", "C")])
        case(work, "shared-revision", [("A", "B"), ("A", "C")])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        print(f"{len(failures)} promise(s) broken: {failures[0]}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
