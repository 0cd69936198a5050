#!/usr/bin/env python3
"""The CI recipes of docs/ci.md, run as the CI would run them, on a small git repository.

    ci_recipes.py BENCHKIT_BUILD_DIR DOCS_CI_MD

Every fenced block of docs/ci.md whose info string says `ci-recipe NAME` is taken from the page
(so the page cannot drift from what is tested): the GitHub Actions workflows (`github-pr`,
`github-main`), the GitLab CI file (`gitlab`) and the instruction-count commands
(`instructions-pr`). Their YAML is read by the small reader below (the subset the recipes use:
mappings, lists, block scalars; anything else fails the test), and their steps run with bash in a
clone of a repository made by scripts/ab-demo-repo (one benchmark, `walk_chain`):

- a pull request that only edits the README: the job passes (exit 0), the comment is posted;
- a pull request that walks 3 times further: the job fails with status 1, the comment still is
  posted and says `regressed`; GitHub's workflow and GitLab's merge request job alike;
- main: two pushes recorded into one history file, `history check` passes on a commit that
  changes no code, and GitLab's detached checkout records its run on the branch too;
- the instruction counts (real valgrind): `unchanged` and exit 0 for the README change,
  `regressed` and exit 1 for the slow one.

What the CI has and this machine has not is stood in for, and only that: `gh` and `curl` are
fakes on PATH that keep what they were asked to post; /opt/benchkit is a folder whose bin/benchkit
and lib/cmake/benchkit are this build's; the project's `my_bench` is the demo's `walk_bench`;
`uses:` steps (checkout, cache, upload-artifact) are done by the test (a clone; nothing cached;
the artifact's files must exist). Labelled integration (it builds a CMake project against this
build folder, which the sanitizer build does not export, and runs valgrind).
"""
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import time

BUILD = os.path.abspath(sys.argv[1])
DOC = os.path.abspath(sys.argv[2])
SCRIPTS = os.path.join(os.path.dirname(DOC), "..", "scripts")
GIT_ENV = {
    "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
    "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
}
# What the recipes name that this test replaces, and nothing else.
PROJECT_NAMES = {"my_bench": "walk_bench"}

failures = []


def expect(condition, what, detail=""):
    if condition:
        print("ok: " + what)
    else:
        failures.append(what)
        print("FAIL: " + what + ("\n" + detail if detail else ""), file=sys.stderr)


# --- the recipes, from the page ----------------------------------------------------------------

def recipes(path):
    """{name: text} of the ```LANG ci-recipe NAME blocks."""
    found = {}
    lines = open(path).read().split("\n")
    index = 0
    while index < len(lines):
        opening = re.match(r"^```(\w+) ci-recipe ([\w-]+)\s*$", lines[index])
        index += 1
        if not opening:
            continue
        body = []
        while index < len(lines) and lines[index] != "```":
            body.append(lines[index])
            index += 1
        if opening.group(2) in found:
            sys.exit("%s: two blocks are named ci-recipe %s" % (path, opening.group(2)))
        found[opening.group(2)] = "\n".join(body) + "\n"
    return found


class YamlError(Exception):
    pass


KEY = re.compile(r"^([A-Za-z_.$][\w.\-$]*):(?: +(.*))?$")


def scalar(text):
    text = text.strip()
    if text[:1] in "\"'":
        if len(text) < 2 or text[-1] != text[0]:
            raise YamlError("unterminated quoted scalar: " + text)
        return text[1:-1]
    text = re.sub(r"\s+#.*$", "", text)
    if text.startswith("[") and text.endswith("]"):
        return [scalar(part) for part in text[1:-1].split(",") if part.strip()]
    if text.startswith(("{", "&", "*", "!")):
        raise YamlError("not in the subset this test reads: " + text)
    return text


def read_yaml(text):
    """The YAML subset of the recipes: block mappings and lists, | and > scalars, plain and
    quoted scalars, [a, b] lists, comments. Returns dicts, lists and strings."""
    lines = []
    for raw in text.split("\n"):
        if "\t" in raw[: len(raw) - len(raw.lstrip())]:
            raise YamlError("a tab in the indentation: " + raw)
        lines.append(raw.rstrip())

    def indent(line):
        return len(line) - len(line.lstrip(" "))

    def skip(i):
        while i < len(lines) and (not lines[i].strip() or lines[i].lstrip().startswith("#")):
            i += 1
        return i

    def block_scalar(i, parent, style):
        body = []
        while i < len(lines) and (not lines[i].strip() or indent(lines[i]) > parent):
            body.append(lines[i])
            i += 1
        while body and not body[-1].strip():
            body.pop()
        if not body:
            return "", i
        margin = min(indent(line) for line in body if line.strip())
        body = [line[margin:] for line in body]
        if style == ">":
            return " ".join(line.strip() for line in body) + "\n", i
        return "\n".join(body) + "\n", i

    def value_after(i, rest, parent):
        """The value of a key (or list item) whose text after ':' (or '- ') is rest."""
        if rest in ("|", "|-", ">", ">-"):
            return block_scalar(i, parent, rest[0])
        if rest:
            return scalar(rest), i
        i = skip(i)
        if i < len(lines) and (indent(lines[i]) > parent or
                               (indent(lines[i]) == parent and lines[i].lstrip().startswith("- "))):
            return node(i, indent(lines[i]))
        return "", i

    def node(i, level):
        i = skip(i)
        if lines[i].lstrip().startswith("- ") or lines[i].strip() == "-":
            return sequence(i, level)
        return mapping(i, level)

    def mapping(i, level, first=None):
        out = {}
        while True:
            i = skip(i)
            if first is None:
                if i >= len(lines) or indent(lines[i]) < level:
                    return out, i
                if indent(lines[i]) > level:
                    raise YamlError("unexpected indentation: " + lines[i])
                text = lines[i].strip()
                if text.startswith("- "):
                    return out, i
            else:
                text, first = first, None
                i -= 1  # the first key is on the list item's line, before i
            found = KEY.match(text)
            if not found:
                raise YamlError("not a 'key: value' line: " + text)
            if found.group(1) in out:
                raise YamlError("key given twice: " + found.group(1))
            out[found.group(1)], i = value_after(i + 1, (found.group(2) or "").strip(), level)

    def sequence(i, level):
        out = []
        while True:
            i = skip(i)
            if i >= len(lines) or indent(lines[i]) != level or not lines[i].lstrip().startswith("-"):
                return out, i
            item = lines[i].strip()[1:].strip()
            if KEY.match(item):
                value, i = mapping(i + 1, level + 2, first=item)
            else:
                value, i = value_after(i + 1, item, level)
            out.append(value)

    value, end = node(0, 0)
    end = skip(end)
    if end < len(lines):
        raise YamlError("left unread: " + lines[end])
    return value


# --- the repository, the fakes, the stand-in prefix ---------------------------------------------

def run(argv, cwd, env=None, check=True):
    done = subprocess.run(argv, cwd=cwd, env=env or environment(), capture_output=True, text=True)
    if check and done.returncode != 0:
        sys.exit("failed: %s\n%s\n%s" % (" ".join(argv), done.stdout, done.stderr))
    return done


def environment(extra=None):
    env = dict(os.environ)
    env.update(GIT_ENV)
    env["PATH"] = FAKES + os.pathsep + env["PATH"]
    env.update(extra or {})
    return env


def git(repo, *args):
    return run(["git", "-C", repo] + list(args), repo).stdout.strip()


FAKE = """#!/bin/sh
# A stand-in for {name}: keeps its arguments, and the comment body it would post, in the log.
log="$CI_RECIPES_LOG"
printf '%s\\n' "{name} $*" >> "$log"
previous=""
for argument in "$@"; do
  case "$previous|$argument" in
    --body-file\\|*) printf -- '--- body\\n' >> "$log"; cat "$argument" >> "$log" ;;
  esac
  case "$argument" in
    body@*) printf -- '--- body\\n' >> "$log"; cat "${{argument#body@}}" >> "$log" ;;
  esac
  previous=$argument
done
exit 0
"""


def make_fakes(folder):
    os.makedirs(folder)
    for name in ("gh", "curl"):
        path = os.path.join(folder, name)
        with open(path, "w") as out:
            out.write(FAKE.format(name=name))
        os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)


def make_prefix(folder):
    """/opt/benchkit as the recipes expect it: bin/benchkit and lib/cmake/benchkit, this build's."""
    os.makedirs(os.path.join(folder, "bin"))
    os.makedirs(os.path.join(folder, "lib", "cmake"))
    for name in ("benchkit", "benchkit-spawner"):
        os.symlink(os.path.join(BUILD, name), os.path.join(folder, "bin", name))
    os.symlink(BUILD, os.path.join(folder, "lib", "cmake", "benchkit"))


def make_origin(work):
    """A bare 'origin': main (three commits of the demo) and two pull request branches."""
    source = os.path.join(work, "source")
    run([os.path.join(SCRIPTS, "ab-demo-repo"), BUILD, source], work)
    shutil.rmtree(os.path.join(source, "build"))
    git(source, "checkout", "--quiet", "-b", "pr-docs", "main")
    with open(os.path.join(source, "README.md"), "a") as out:
        out.write("\nHow to run it: build, then ./build/walk_bench.\n")
    git(source, "commit", "--quiet", "-am", "README: how to run it")
    git(source, "checkout", "--quiet", "-b", "pr-slow", "main")
    steps = open(os.path.join(source, "steps.hpp")).read()
    with open(os.path.join(source, "steps.hpp"), "w") as out:
        out.write(steps.replace("460000", "1380000"))
    git(source, "commit", "--quiet", "-am", "walk 3 times further")
    git(source, "checkout", "--quiet", "main")
    origin = os.path.join(work, "origin.git")
    run(["git", "clone", "--quiet", "--bare", source, origin], work)
    return origin


def start_job(workspace, revision):
    """What a runner does before a job in a workspace it keeps: a forced, detached checkout and
    `git clean -ffd` (ignored files stay: build/, .benchkit/worktrees); the cached folders stay
    too, where the cache steps would restore them (.ccache, .benchkit/history.db)."""
    git(workspace, "fetch", "--quiet", "origin")
    git(workspace, "checkout", "--quiet", "--force", "--detach", revision)
    git(workspace, "clean", "-ffdq", "-e", ".ccache", "-e", ".benchkit")
    git(workspace, "worktree", "prune")


def clone(origin, folder):
    run(["git", "clone", "--quiet", origin, folder], os.path.dirname(folder))
    return folder


# --- the CI, in small -------------------------------------------------------------------------

def project(text, prefix):
    text = text.replace("/opt/benchkit", prefix)
    for name, replacement in PROJECT_NAMES.items():
        text = re.sub(r"\b%s\b" % name, replacement, text)
    return text


def github_expressions(text, values):
    def one(found):
        name = found.group(1).strip()
        if name not in values:
            raise YamlError("the test does not know the expression ${{ %s }}" % name)
        return values[name]
    return re.sub(r"\$\{\{(.*?)\}\}", one, text)


def bash(script, cwd, env, log_name, shell_flags=("-eo", "pipefail")):
    started = time.monotonic()
    done = subprocess.run(["bash", "--noprofile", "--norc"] + list(shell_flags) + ["-c", script],
                          cwd=cwd, env=env, capture_output=True, text=True)
    print("  %s: exit %d in %.1f s" % (log_name, done.returncode, time.monotonic() - started))
    return done


def run_github_job(workflow_text, workspace, prefix, values):
    """Runs the one job of a workflow: `run` steps in order with bash -eo pipefail (GitHub's
    default shell), a later step only while all passed unless its `if` says always();
    GITHUB_PATH and GITHUB_STEP_SUMMARY as GitHub keeps them. Returns (status, outputs,
    artifact paths)."""
    workflow = read_yaml(workflow_text)
    jobs = workflow["jobs"]
    if len(jobs) != 1:
        raise YamlError("one job per workflow expected, found %d" % len(jobs))
    job = next(iter(jobs.values()))
    values = dict(values, **{"github.workspace": workspace})
    github_path = os.path.join(workspace, "..", os.path.basename(workspace) + ".path")
    summary = os.path.join(workspace, "..", os.path.basename(workspace) + ".summary")
    open(github_path, "w").close()
    open(summary, "w").close()
    env = environment({"GITHUB_PATH": github_path, "GITHUB_STEP_SUMMARY": summary,
                       "GITHUB_WORKSPACE": workspace, "CI": "true"})
    for key, value in job.get("env", {}).items():
        env[key] = github_expressions(project(value, prefix), values)
    status = 0
    outputs = []
    artifacts = []
    for step in job["steps"]:
        condition = step.get("if", "")
        if status != 0 and "always()" not in condition:
            continue
        if "uses" in step:
            if step["uses"].startswith("actions/upload-artifact"):
                artifacts += step["with"]["path"].split()
            continue
        script = github_expressions(project(step["run"], prefix), values)
        step_env = dict(env)
        for key, value in step.get("env", {}).items():
            step_env[key] = github_expressions(project(value, prefix), values)
        added = [line for line in open(github_path).read().split("\n") if line]
        step_env["PATH"] = os.pathsep.join(list(reversed(added)) + [env["PATH"]]) if added else env["PATH"]
        done = bash(script, workspace, step_env, step.get("name", script.split("\n")[0][:60]))
        outputs.append(done)
        if done.returncode != 0 and status == 0:
            status = done.returncode
    return status, outputs, artifacts, open(summary).read()


def gitlab_variables(mapping, values):
    def one(found):
        return values.get(found.group(1) or found.group(2), "")
    return {key: re.sub(r"\$\{(\w+)\}|\$(\w+)", one, str(value)) for key, value in mapping.items()}


def run_gitlab_job(pipeline, name, workspace, prefix, predefined):
    """Runs one job of a GitLab CI file as the shell executor does: before_script and script in
    one bash (stopping at the first failure), then after_script in another, whatever happened.
    `extends` and `variables` (global, template, job) are merged. Returns (status, outputs,
    artifact paths)."""
    job = dict(pipeline[name])
    if "extends" in job:
        template = pipeline[job.pop("extends")]
        merged = dict(template)
        merged.update(job)
        merged["variables"] = dict(template.get("variables", {}), **job.get("variables", {}))
        job = merged
    values = dict(predefined, CI_PROJECT_DIR=workspace)
    values.update(gitlab_variables(pipeline.get("variables", {}), values))
    values.update(gitlab_variables(job.get("variables", {}), values))
    env = environment(values)

    def lines(key):
        return "\n".join(project(line, prefix) for line in job.get(key, []))

    main = bash(lines("before_script") + "\n" + lines("script"), workspace, env, name + " script")
    after = bash(lines("after_script"), workspace, env, name + " after_script") \
        if job.get("after_script") else None
    artifacts = job.get("artifacts", {})
    paths = artifacts.get("paths", []) if artifacts.get("when") == "always" or main.returncode == 0 else []
    return main.returncode, [o for o in (main, after) if o], paths


# --- the checks ---------------------------------------------------------------------------------

def posted(log):
    """The bodies posted through the fakes since the log was last cleared, and their commands."""
    text = open(log).read() if os.path.exists(log) else ""
    open(log, "w").close()
    return text


def all_output(outputs):
    return "\n".join("--- stdout\n%s\n--- stderr\n%s" % (o.stdout, o.stderr) for o in outputs)


def main():
    global FAKES
    work = tempfile.mkdtemp(prefix="benchkit-ci-recipes-")
    try:
        FAKES = os.path.join(work, "fakes")
        make_fakes(FAKES)
        prefix = os.path.join(work, "opt-benchkit")
        make_prefix(prefix)
        log = os.path.join(work, "posted.log")
        os.environ["CI_RECIPES_LOG"] = log
        os.environ["CCACHE_DIR"] = os.path.join(work, "ccache")
        found = recipes(DOC)
        for name in ("github-pr", "github-main", "gitlab", "instructions-pr"):
            if name not in found:
                sys.exit("%s has no block marked ci-recipe %s" % (DOC, name))
        origin = make_origin(work)
        github = {"github.base_ref": "main", "github.event.number": "7",
                  "github.token": "fake-token", "runner.os": "Linux", "runner.name": "runner-1",
                  "github.run_id": "4242"}

        # Every job runs in one kept workspace, one after another (a runner's: each job starts
        # from a forced checkout and `git clean -ffd`, start_job), so that a revision built by
        # one job is not built again by the next: that keeps the test to a few builds.
        workspace = clone(origin, os.path.join(work, "runner"))
        # GitHub: the checkout is the merge of the branch into main.
        for branch, want_status, want_verdict in (("pr-docs", 0, r"unchanged|inconclusive"),
                                                  ("pr-slow", 1, r"regressed")):
            start_job(workspace, "origin/main")
            git(workspace, "merge", "--quiet", "--no-ff", "--no-edit", "origin/" + branch)
            status, outputs, artifacts, _ = run_github_job(found["github-pr"], workspace, prefix, github)
            detail = all_output(outputs)
            expect(status == want_status, "GitHub pull request %s: the job exits %d (got %d)"
                   % (branch, want_status, status), detail)
            comment = posted(log)
            expect(comment.startswith("gh pr comment 7 --body-file bench.md")
                   and re.search(r"walk_chain.*(%s)" % want_verdict, comment),
                   "GitHub pull request %s: the comment is posted with the table (%s)"
                   % (branch, want_verdict), comment + detail)
            missing = [p for p in artifacts if not os.path.isfile(os.path.join(workspace, p))]
            expect(artifacts and not missing, "GitHub pull request %s: the artifact's files exist "
                   "(%s)" % (branch, " ".join(artifacts)), "missing: %s" % missing)
            html = open(os.path.join(workspace, "bench.html")).read() \
                if os.path.exists(os.path.join(workspace, "bench.html")) else ""
            expect(html.startswith("<!DOCTYPE html>") and "walk_chain" in html,
                   "GitHub pull request %s: bench.html is the comparison page" % branch)

        pipeline = read_yaml(found["gitlab"])
        gitlab = {"CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "main", "CI_API_V4_URL":
                  "https://gitlab.example/api/v4", "CI_PROJECT_ID": "12", "CI_MERGE_REQUEST_IID":
                  "3", "CI_COMMIT_BRANCH": "main", "CI_DEFAULT_BRANCH": "main", "CI_PIPELINE_ID":
                  "99", "CI_RUNNER_ID": "5", "BENCHKIT_GITLAB_TOKEN": "fake-token", "CI": "true"}
        # GitLab, a merge request: the checkout is the branch's head, detached.
        start_job(workspace, "origin/pr-slow")
        status, outputs, artifacts = run_gitlab_job(pipeline, "bench-mr", workspace, prefix, gitlab)
        detail = all_output(outputs)
        expect(status == 1, "GitLab merge request pr-slow: the job exits 1 (got %d)" % status, detail)
        note = posted(log)
        expect("/projects/12/merge_requests/3/notes" in note and "PRIVATE-TOKEN: fake-token" in note
               and re.search(r"walk_chain.*regressed", note),
               "GitLab merge request pr-slow: the note is posted through the API with the table",
               note + detail)
        missing = [p for p in artifacts if not os.path.isfile(os.path.join(workspace, p))]
        expect(artifacts and not missing, "GitLab merge request: the artifacts exist", str(missing))

        # Instruction counts, in place of the ab step: deterministic, one run a side.
        for branch, want_status, want_verdict in (("pr-docs", 0, "unchanged"),
                                                  ("pr-slow", 1, "regressed")):
            start_job(workspace, "origin/" + branch)
            env = environment({"BASE_REF": "main", "CCACHE_DIR": os.path.join(workspace, ".ccache")})
            env["PATH"] = os.path.join(prefix, "bin") + os.pathsep + env["PATH"]  # the job put it there
            done = bash(project(found["instructions-pr"], prefix), workspace, env,
                        "instructions " + branch)
            text = open(os.path.join(workspace, "bench.md")).read() \
                if os.path.exists(os.path.join(workspace, "bench.md")) else ""
            expect(done.returncode == want_status and re.search(r"walk_chain.*%s" % want_verdict, text),
                   "instruction counts, %s: %s, exit %d (got %d)" % (branch, want_verdict,
                                                                    want_status, done.returncode),
                   text + all_output([done]))

        # Main: three pushes, in the same workspace (the history file stays where the cache
        # would restore it); two by GitHub's workflow, the third by GitLab's job.
        commits = git(workspace, "rev-list", "--reverse", "origin/main").split()
        for index, commit in enumerate(commits[:2]):
            # Runs are ordered by their dates, to the second, and two runs of one second by their
            # identities: pushes are never that close, and this test's may be.
            time.sleep(1.1)
            start_job(workspace, commit)
            git(workspace, "checkout", "--quiet", "-B", "main")  # what actions/checkout does on a push
            status, outputs, artifacts, summary = run_github_job(found["github-main"], workspace,
                                                                 prefix, github)
            detail = all_output(outputs)
            expect(status == 0, "GitHub main, push %d: the job passes (got %d)" % (index + 1, status),
                   detail)
            expect("walk_chain" in summary and "(commit %s, branch main)" % commit[:12] in summary,
                   "GitHub main, push %d: the check of this push's run is in the step summary"
                   % (index + 1), summary + detail)
            missing = [p for p in artifacts if not os.path.isfile(os.path.join(workspace, p))]
            expect(artifacts and not missing, "GitHub main, push %d: the artifacts exist" % (index + 1),
                   str(missing))
        history = os.path.join(workspace, ".benchkit", "history.db")
        listed = run([os.path.join(BUILD, "benchkit"), "history", "list", "--store", history], work,
                     check=False)
        expect(listed.returncode == 0 and "2 runs in" in listed.stdout
               and all(c[:8] in listed.stdout for c in commits[:2]),
               "GitHub main: both pushes are recorded, with their commits", listed.stdout + listed.stderr)

        # GitLab, main: a detached checkout; the run must still be on the branch main.
        time.sleep(1.1)
        start_job(workspace, commits[2])
        status, outputs, artifacts = run_gitlab_job(pipeline, "bench-main", workspace, prefix, gitlab)
        detail = all_output(outputs)
        check = open(os.path.join(workspace, "check.md")).read() \
            if os.path.isfile(os.path.join(workspace, "check.md")) else ""
        # The third commit walks 15% further: regressed or, with two earlier points, undecided.
        expect(status in (0, 1) and "(commit %s, branch main)" % commits[2][:12] in check,
               "GitLab main: this push's run is recorded and checked (exit %d)" % status,
               check + detail)
        listed = run([os.path.join(BUILD, "benchkit"), "history", "list", "--branch", "main",
                      "--store", history], work, check=False)
        expect("3 runs in" in listed.stdout and commits[2][:8] in listed.stdout,
               "GitLab main: the detached checkout's run is recorded on main",
               listed.stdout + listed.stderr + detail)
    except YamlError as error:
        failures.append(str(error))
        print("FAIL: the recipes' YAML: %s" % error, file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        sys.exit("%d check(s) failed" % len(failures))


FAKES = ""
main()
