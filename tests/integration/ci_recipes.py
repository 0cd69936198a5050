#!/usr/bin/env python3
"""The CI recipes of docs/ci.md, run as the CI would run them, on a small git repository.

    ci_recipes.py BENCHKIT_BUILD_DIR DOCS_CI_MD [one-runner] [sharded]

Every fenced block of docs/ci.md whose info string says `ci-recipe NAME` is taken from the page
(so the page cannot drift from what is tested): the GitHub Actions workflows (`github-pr`,
`github-main`), the GitLab CI file (`gitlab`) and the instruction-count commands
(`instructions-pr`); and the sharded ones (`github-shards-pr`, `github-shards-main`,
`gitlab-shards`). Their YAML is read by the small reader below (the subset the recipes use:
mappings, lists, block scalars; anything else fails the test), and their steps run with bash in a
clone of a repository made by scripts/ab-demo-repo (one benchmark, `walk_chain`):

- a pull request that only edits the README: the job passes (exit 0), the comment is posted;
- a pull request that walks 3 times further: the job fails with status 1, the comment still is
  posted and says `regressed`; GitHub's workflow and GitLab's merge request job alike;
- main: two pushes recorded into one history file, `history check` passes on a commit that
  changes no code, and GitLab's detached checkout, left as it is, records its run on the
  branch too (the branch GitLab names for the commit: vcs/ci_checkout.hpp);
- the instruction counts (real valgrind): `unchanged` and exit 0 for the README change,
  `regressed` and exit 1 for the slow one.

The sharded recipes run on the demo grown to four benchmarks, each job on a fresh runner (class
Runners): GitHub's matrix expanded and GitLab's `parallel:` instances run one by one, each with
its own environment (matrix.shard; CI_NODE_INDEX and CI_NODE_TOTAL), jobs in the order of their
`needs:` (GitLab's chosen by their `rules:`), artifacts and caches handed over through folders,
the history a schema of its own in the tests' PostgreSQL server (BUILD/postgres/url, the CTest
fixture postgres_server; SQLite files without it, saying why):

- a pull request making walk_short 3 times slower: each shard's comparison names both builds'
  executables, the same in the three shards; one comment, every benchmark in it once,
  walk_short regressed, the job exits 1; GitHub's and GitLab's alike;
- main: the shards recorded as one run of 3/3 shards; a run whose shard 3 was lost is refused
  by `history check --expect-shards 3` (exit 2, the shard named), then passes once the shard's
  job is re-run (GitHub: attempt 2 of the same run id) or retried (GitLab).

What the CI has and this machine has not is stood in for, and only that: `gh` and `curl` are
fakes on PATH that keep what they were asked to post; /opt/benchkit is a folder whose bin/benchkit
and lib/cmake/benchkit are this build's; the project's `my_bench` is the demo's `walk_bench`;
`uses:` steps are done by the test (checkout: a clone made before the job; with several jobs,
cache and artifacts through folders; with one, nothing cached and the artifact's files must
exist). Labelled integration (it builds a CMake project against this build folder, which the
sanitizer build does not export, and runs valgrind).
"""
import fnmatch
import glob
import itertools
import json
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
# Which parts to run (all by default): the recipes of one job each in one kept workspace, and
# the sharded ones.
PARTS = sys.argv[3:] or ["one-runner", "sharded"]
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


def run_github_job(workflow, workspace, prefix, values, job=None, runners=None, extra_env=None):
    """Runs a job of a workflow (its text or its parsed mapping; the one job unless `job` is
    given): `run` steps in order with bash -eo pipefail (GitHub's default shell), a later step
    only while all passed unless its `if` says always(); the workflow's, the job's and the step's
    `env`; GITHUB_PATH and GITHUB_STEP_SUMMARY as GitHub keeps them. With `runners` (several
    jobs, class Runners), the cache and artifact actions act on its folders. Returns (status,
    outputs, artifact paths, step summary)."""
    if isinstance(workflow, str):
        workflow = read_yaml(workflow)
    if job is None:
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
                       "GITHUB_WORKSPACE": workspace, "CI": "true",
                       "GITHUB_RUN_ID": values.get("github.run_id", "")})
    env.update(extra_env or {})
    for key, value in list(workflow.get("env", {}).items()) + list(job.get("env", {}).items()):
        env[key] = github_expressions(project(str(value), prefix), values)
    status = 0
    outputs = []
    artifacts = []
    caches = []
    for step in job["steps"]:
        condition = step.get("if", "")
        if status != 0 and "always()" not in condition:
            continue
        if "uses" in step:
            github_uses(step, workspace, prefix, values, runners, caches, artifacts)
            continue
        script = github_expressions(project(step["run"], prefix), values)
        step_env = dict(env)
        for key, value in step.get("env", {}).items():
            step_env[key] = github_expressions(project(value, prefix), values)
        added = [line for line in open(github_path).read().split("\n") if line]
        step_env["PATH"] = os.pathsep.join(list(reversed(added)) + [env["PATH"]]) if added else env["PATH"]
        name = github_expressions(step.get("name", script.split("\n")[0][:60]), values)
        done = bash(script, workspace, step_env, name)
        outputs.append(done)
        if done.returncode != 0 and status == 0:
            status = done.returncode
    for path in caches:  # saved after the job, as actions/cache's post step does
        runners.save_cache(workspace, path)
    return status, outputs, artifacts, open(summary).read()


def gitlab_variables(mapping, values):
    def one(found):
        return values.get(found.group(1) or found.group(2), "")
    return {key: re.sub(r"\$\{(\w+)\}|\$(\w+)", one, str(value)) for key, value in mapping.items()}


def gitlab_job(pipeline, name):
    """A job with the template it `extends` merged in (its variables merged key by key)."""
    job = dict(pipeline[name])
    if "extends" in job:
        template = pipeline[job.pop("extends")]
        merged = dict(template)
        merged.update(job)
        merged["variables"] = dict(template.get("variables", {}), **job.get("variables", {}))
        job = merged
    return job


def run_gitlab_job(pipeline, name, workspace, prefix, predefined):
    """Runs one job of a GitLab CI file as the shell executor does: before_script and script in
    one bash (stopping at the first failure), then after_script in another, whatever happened.
    `extends` and `variables` (global, template, job) are merged. Returns (status, outputs,
    artifact paths)."""
    job = gitlab_job(pipeline, name)
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


# --- several jobs: matrices, parallel instances, needs, artifacts, caches ------------------------

class Runners:
    """Where the jobs of a sharded pipeline run, one after another: every job on a fresh runner,
    a new clone of `origin` (at one path, as hosted runners check out, unless a job asks for a
    path of its own), its caches restored from and saved to a folder standing for the CI's cache
    (the instances of one job all restore what the cache held when the job started), and
    artifacts handed from job to job through a folder per artifact."""

    def __init__(self, work, origin, name):
        self.origin = origin
        self.root = os.path.join(work, name)
        self.path = os.path.join(self.root, "runner", "repo")
        self.caches = os.path.join(self.root, "caches")
        # The caches as they were when the running job started: the instances of a matrix or a
        # parallel: job run at once, so none restores what a sibling saved.
        self.frozen = os.path.join(self.root, "caches-at-start")
        self.artifacts = os.path.join(self.root, "artifacts")
        self.statuses = {}  # job (and instance) name: exit status, kept across re-runs
        os.makedirs(self.caches)
        os.makedirs(self.artifacts)

    def start_job(self):
        """Before the instances of a job: the caches they all restore."""
        shutil.rmtree(self.frozen, ignore_errors=True)
        shutil.copytree(self.caches, self.frozen, symlinks=True)

    def new_pipeline(self):
        shutil.rmtree(self.artifacts)
        os.makedirs(self.artifacts)
        self.statuses = {}

    def fresh(self, checkout, path=None):
        """A fresh clone, checked out by checkout(folder)."""
        path = path or self.path
        shutil.rmtree(path, ignore_errors=True)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        clone(self.origin, path)
        checkout(path)
        return path

    def restore_cache(self, workspace, path):
        """A cache of a path inside the workspace (absolute ones, /opt/benchkit, are the
        stand-in prefix, always there)."""
        if os.path.isabs(path):
            return None
        kept = os.path.join(self.frozen, path)
        if os.path.isdir(kept):
            shutil.copytree(kept, os.path.join(workspace, path), dirs_exist_ok=True)
        return path

    def save_cache(self, workspace, path):
        if os.path.isdir(os.path.join(workspace, path)):
            shutil.rmtree(os.path.join(self.caches, path), ignore_errors=True)
            shutil.copytree(os.path.join(workspace, path), os.path.join(self.caches, path),
                            symlinks=True)

    def upload(self, name, workspace, patterns, from_common_folder=False):
        """Keeps the files the patterns match (relative to the workspace) as artifact `name`;
        what an earlier job uploaded under the name is replaced. Their paths are kept relative
        to the workspace (GitLab), or to the folder they all lie in (GitHub's upload-artifact:
        build/my_bench is downloaded as my_bench). Returns the files kept."""
        folder = os.path.join(self.artifacts, name)
        shutil.rmtree(folder, ignore_errors=True)
        matched = [found for pattern in patterns
                   for found in sorted(glob.glob(os.path.join(workspace, pattern)))]
        base = workspace
        if from_common_folder and matched:
            base = os.path.commonpath([os.path.dirname(found) for found in matched])
        kept = []
        for found in matched:
            relative = os.path.relpath(found, base)
            os.makedirs(os.path.dirname(os.path.join(folder, relative)), exist_ok=True)
            shutil.copy2(found, os.path.join(folder, relative))
            kept.append(relative)
        return kept

    def download(self, names, workspace):
        """Copies the artifacts named (with their relative paths) into the workspace."""
        for name in names:
            folder = os.path.join(self.artifacts, name)
            if os.path.isdir(folder):
                shutil.copytree(folder, workspace, dirs_exist_ok=True)

    def artifact_names(self, pattern):
        return sorted(n for n in os.listdir(self.artifacts) if fnmatch.fnmatch(n, pattern))


def github_uses(step, workspace, prefix, values, runners, caches, artifacts):
    """The `uses:` steps the sharded workflows take; the checkout was done before the job."""
    action = step["uses"].split("@")[0]
    given = {key: github_expressions(project(str(value), prefix), values)
             for key, value in step.get("with", {}).items()}
    if action == "actions/upload-artifact":
        paths = given["path"].split()
        artifacts += paths
        if runners:
            runners.upload(given["name"], workspace, paths, from_common_folder=True)
    elif action == "actions/download-artifact" and runners:
        if "name" in given:
            runners.download([given["name"]], workspace)
        else:
            if given.get("merge-multiple") != "true":
                raise YamlError("download-artifact by pattern without merge-multiple: true")
            runners.download(runners.artifact_names(given["pattern"]), workspace)
    elif action == "actions/cache" and runners:
        restored = runners.restore_cache(workspace, given["path"])
        if restored:
            caches.append(restored)
    elif action not in ("actions/checkout", "actions/cache", "actions/upload-artifact",
                        "actions/download-artifact"):
        raise YamlError("the test does not know the action " + action)


def matrix_instances(job):
    """[(suffix, {"matrix.KEY": value})]: one per combination of the job's matrix (one, with no
    matrix)."""
    matrix = job.get("strategy", {}).get("matrix", {})
    if not matrix:
        return [("", {})]
    keys = list(matrix)
    for key in keys:
        if not isinstance(matrix[key], list):
            raise YamlError("a matrix of lists expected: " + key)
    return [(" (%s)" % ", ".join(combination),
             {"matrix." + key: value for key, value in zip(keys, combination)})
            for combination in itertools.product(*(matrix[key] for key in keys))]


def needed(job):
    needs = job.get("needs", [])
    return [needs] if isinstance(needs, str) else list(needs)


def run_github_workflow(text, runners, prefix, values, checkout, only=None, attempt=1):
    """Runs a workflow's jobs in the order of their `needs`, every combination of a job's matrix
    a job of its own on a fresh runner, with GITHUB_RUN_ID and GITHUB_RUN_ATTEMPT set. A job
    runs when every job it needs succeeded, or when its `if` says always(). `only(job, matrix)`
    chooses the jobs of this pass (a re-run of failed jobs); those left out keep the status of
    an earlier pass, or count as failed (a lost runner). Returns {instance name: (status,
    outputs, summary)}."""
    workflow = read_yaml(text)
    jobs = workflow["jobs"]
    order = []
    while len(order) < len(jobs):
        ready = [n for n in jobs if n not in order and all(d in order for d in needed(jobs[n]))]
        if not ready:
            raise YamlError("the jobs' needs form a cycle or name no job")
        order += ready
    done = {}
    for name in order:
        job = jobs[name]
        condition = str(job.get("if", ""))
        if condition and "always()" not in condition:
            raise YamlError("the test reads only if: always() on a job: " + condition)
        runners.start_job()
        for suffix, matrix in matrix_instances(job):
            instance = name + suffix
            if only and not only(name, matrix):
                runners.statuses.setdefault(instance, 1)
                continue
            failed_need = any(status != 0 for n in needed(job)
                              for i, status in runners.statuses.items()
                              if i == n or i.startswith(n + " ("))
            if failed_need and "always()" not in condition:
                runners.statuses[instance] = 1
                continue
            job_values = dict(values, **matrix)
            workspace = runners.fresh(checkout)
            env = {"GITHUB_RUN_ATTEMPT": str(attempt), "GITHUB_JOB": name}
            status, outputs, _, summary = run_github_job(
                workflow, workspace, prefix, job_values, job=job, runners=runners, extra_env=env)
            runners.statuses[instance] = status
            done[instance] = (status, outputs, summary)
    return done


def gitlab_rule_matches(job, variables):
    """Whether one of the job's rules matches: `if: $A == "text"` or `$A == $B`, the only
    expressions the recipes use; a rule with `when: never` would keep the job out."""
    def side(text):
        text = text.strip()
        if text.startswith("$"):
            return variables.get(text[1:], "")
        if text[:1] == '"' and text[-1:] == '"':
            return text[1:-1]
        raise YamlError("the test reads only $VARIABLE or \"text\" in rules: " + text)
    for rule in job.get("rules", []):
        parts = rule["if"].split(" == ")
        if len(parts) != 2:
            raise YamlError("the test reads only A == B in rules: " + rule["if"])
        if side(parts[0]) == side(parts[1]):
            return rule.get("when", "on_success")
    return None


def gitlab_pipeline(pipeline, variables):
    """The jobs of a pipeline with these predefined variables, in the order of their stages
    ({job name: when})."""
    stages = pipeline.get("stages", ["build", "test", "deploy"])
    chosen = []
    for name, job in pipeline.items():
        if name.startswith(".") or name in ("stages", "variables") or not isinstance(job, dict):
            continue
        when = gitlab_rule_matches(gitlab_job(pipeline, name), variables)
        if when:
            stage = gitlab_job(pipeline, name).get("stage", "test")
            if stage not in stages:
                raise YamlError("job %s: stage %s is not in stages" % (name, stage))
            chosen.append((stages.index(stage), name, when))
    return [(name, when) for _, name, when in sorted(chosen, key=lambda c: c[0])]


def run_gitlab_pipeline(pipeline, runners, prefix, predefined, checkout, only=None,
                        path_of=None):
    """Runs the jobs the rules choose, stage by stage, each instance of a `parallel: N` job on a
    fresh runner with CI_NODE_INDEX and CI_NODE_TOTAL; the artifacts of the jobs it `needs`
    (artifacts: true) are put in its workspace first, and its own `artifacts: paths` kept after
    (when it passed, or always with `when: always`); its `cache:` paths restored and saved. A job
    runs when the jobs it needs passed, or when its rule says `when: always`. `only(name, index)`
    and statuses across passes as run_github_workflow; `path_of(name, index)` puts an instance's
    clone at a path of its own (runners of folders of their own) unless the job's GIT_CLONE_PATH
    says where, else all share one."""
    done = {}
    for name, when in gitlab_pipeline(pipeline, predefined):
        job = gitlab_job(pipeline, name)
        needs = job.get("needs", [])
        for need in needs:
            if need["job"] not in pipeline:
                raise YamlError("job %s needs %s, which is not in the file" % (name, need["job"]))
        total = int(job.get("parallel", 1))
        runners.start_job()
        for index in range(1, total + 1):
            instance = "%s %d/%d" % (name, index, total) if total > 1 else name
            if only and not only(name, index):
                runners.statuses.setdefault(instance, 1)
                continue
            failed_need = any(status != 0 for need in needs
                              for i, status in runners.statuses.items()
                              if i == need["job"] or i.startswith(need["job"] + " "))
            if failed_need and when != "always":
                runners.statuses[instance] = 1
                continue
            # GIT_CLONE_PATH (the job's or the file's variables) puts the clone there.
            values = dict(predefined)
            values.update(gitlab_variables(pipeline.get("variables", {}), values))
            values.update(gitlab_variables(job.get("variables", {}), values))
            path = values.get("GIT_CLONE_PATH") or (path_of(name, index) if path_of else None)
            workspace = runners.fresh(checkout, path)
            for need in needs:
                if str(need.get("artifacts", "true")) == "true":
                    runners.download(runners.artifact_names(need["job"] + "*"), workspace)
            caches = [runners.restore_cache(workspace, path)
                      for entry in job.get("cache", []) for path in entry.get("paths", [])]
            variables = dict(predefined, CI_NODE_TOTAL=str(total), CI_JOB_NAME=instance)
            if total > 1:
                variables["CI_NODE_INDEX"] = str(index)
            status, outputs, paths = run_gitlab_job(pipeline, name, workspace, prefix, variables)
            for path in caches:
                if path:
                    runners.save_cache(workspace, path)
            runners.upload(instance.replace("/", " of "), workspace,
                           [project(path, prefix) for path in paths])
            runners.statuses[instance] = status
            done[instance] = (status, outputs)
    return done


# --- the checks ---------------------------------------------------------------------------------

def posted(log):
    """The bodies posted through the fakes since the log was last cleared, and their commands."""
    text = open(log).read() if os.path.exists(log) else ""
    open(log, "w").close()
    return text


def all_output(outputs):
    return "\n".join("--- stdout\n%s\n--- stderr\n%s" % (o.stdout, o.stderr) for o in outputs)


# --- the sharded recipes -----------------------------------------------------------------------

# Three more benchmarks for the sharded recipes: four in all, split over three shards.
MORE_BENCHMARKS = """
// Shorter walks, so that the suite has four benchmarks to split across shards.
static constexpr std::uint64_t kShortSteps = 40000;
static constexpr std::uint64_t kMediumSteps = 100000;
static constexpr std::uint64_t kLongSteps = 200000;

static void walk_short(benchkit::Bencher& b) {
  b.iter([] { return walk(benchkit::black_box<std::uint64_t>(88172645463325252ull),
                          benchkit::black_box<std::uint64_t>(kShortSteps)); });
}
BENCHKIT(walk_short);

static void walk_medium(benchkit::Bencher& b) {
  b.iter([] { return walk(benchkit::black_box<std::uint64_t>(88172645463325252ull),
                          benchkit::black_box<std::uint64_t>(kMediumSteps)); });
}
BENCHKIT(walk_medium);

static void walk_long(benchkit::Bencher& b) {
  b.iter([] { return walk(benchkit::black_box<std::uint64_t>(88172645463325252ull),
                          benchkit::black_box<std::uint64_t>(kLongSteps)); });
}
BENCHKIT(walk_long);
"""
SUITE = ("walk_chain", "walk_long", "walk_medium", "walk_short")


def make_suite_origin(work):
    """A mirror 'origin' of the demo grown to four benchmarks: main (the demo's three commits,
    the three benchmarks, a README edit), a pull request branch that walks walk_short 3 times
    further, and the pull request's merge into main as GitHub makes it (refs/pull/7/merge: one
    commit every job of the workflow checks out)."""
    os.makedirs(work)
    source = os.path.join(work, "suite-source")
    run([os.path.join(SCRIPTS, "ab-demo-repo"), BUILD, source], work)
    shutil.rmtree(os.path.join(source, "build"))
    with open(os.path.join(source, "bench.cpp"), "a") as out:
        out.write(MORE_BENCHMARKS)
    git(source, "commit", "--quiet", "-am", "walk_short, walk_medium, walk_long")
    with open(os.path.join(source, "README.md"), "a") as out:
        out.write("\nFour benchmarks, split over three CI runners.\n")
    git(source, "commit", "--quiet", "-am", "README: the shards")
    git(source, "checkout", "--quiet", "-b", "pr-slow-short", "main")
    bench = open(os.path.join(source, "bench.cpp")).read()
    with open(os.path.join(source, "bench.cpp"), "w") as out:
        out.write(bench.replace("kShortSteps = 40000", "kShortSteps = 120000"))
    git(source, "commit", "--quiet", "-am", "walk_short: 3 times further")
    git(source, "checkout", "--quiet", "--detach", "main")
    git(source, "merge", "--quiet", "--no-ff", "--no-edit", "pr-slow-short")
    git(source, "update-ref", "refs/pull/7/merge", "HEAD")
    git(source, "checkout", "--quiet", "main")
    origin = os.path.join(work, "suite-origin.git")
    run(["git", "clone", "--quiet", "--mirror", source, origin], work)
    return origin


def history_stores(work):
    """The history of each CI's sharded main jobs (BENCHKIT_STORE): a schema of its own in the
    PostgreSQL server the tests start on loopback (tests/store/postgres_server.sh, through
    CTest's postgres_server fixture), or, without it, an SQLite file, saying why. Returns
    ({"github": store, "gitlab": store}, what to drop afterwards)."""
    url_file = os.path.join(BUILD, "postgres", "url")
    url = open(url_file).read().strip() if os.path.isfile(url_file) else ""
    reason = ""
    if not url:
        reason = ("%s is absent: run the test through ctest, whose postgres_server fixture "
                  "starts the tests' PostgreSQL server" % url_file)
    elif not shutil.which("psql"):
        reason = "psql (postgresql-client, which scripts/install-deps installs) is not on PATH"
    if reason:
        print("note: the sharded recipes record into SQLite files, not PostgreSQL: " + reason)
        return {ci: os.path.join(work, ci + "-history.db") for ci in ("github", "gitlab")}, []
    stores = {}
    schemas = []
    for ci in ("github", "gitlab"):
        schema = "ci_recipes_%s_%d" % (ci, os.getpid())
        run(["psql", url, "-v", "ON_ERROR_STOP=1", "-q", "-c", "CREATE SCHEMA " + schema], work)
        schemas.append(schema)
        stores[ci] = url + "?options=-csearch_path%3D" + schema
    print("ok: the sharded recipes record into PostgreSQL (%s)" % ", ".join(schemas))
    return stores, [(url, schema) for schema in schemas]


def drop_schemas(dropped, work):
    for url, schema in dropped:
        run(["psql", url, "-q", "-c", "DROP SCHEMA IF EXISTS %s CASCADE" % schema], work,
            check=False)


def read_text(path):
    return open(path).read() if os.path.isfile(path) else ""


def artifact(runners, name, file):
    return read_text(os.path.join(runners.artifacts, name, file))


def check_comment(what, comment, detail):
    """The one comment of a sharded pull request: posted once, every benchmark in it once,
    walk_short regressed."""
    expect(comment.count("--- body") == 1, "%s: one comment is posted" % what, comment + detail)
    counts = {name: len(re.findall(r"`%s`" % name, comment)) for name in SUITE}
    expect(all(count == 1 for count in counts.values()),
           "%s: every benchmark of the suite is in the comment once (%s)"
           % (what, ", ".join("%s %d" % item for item in sorted(counts.items()))), comment)
    expect(re.search(r"`walk_short`[^\n]*regressed", comment),
           "%s: walk_short, 3 times slower, is regressed" % what, comment)


def check_shard_comparisons(what, files):
    """Each shard's comparison names both sides' executables, the same builds in every shard."""
    hashes = set()
    for index, text in enumerate(files, 1):
        try:
            document = json.loads(text)
        except ValueError:
            expect(False, "%s: shard %d wrote its comparison" % (what, index), text[:2000])
            continue
        expect(document.get("shard", {}).get("index") == index
               and document["shard"].get("count") == 3,
               "%s: comparison %d is shard %d/3" % (what, index, index), str(document.get("shard")))
        pair = (document.get("baseline", {}).get("executable_sha256", ""),
                document.get("new", {}).get("executable_sha256", ""))
        expect(all(re.fullmatch(r"[0-9a-f]{64}", h) for h in pair) and pair[0] != pair[1],
               "%s: comparison %d names both builds' executables (SHA-256)" % (what, index),
               str(pair))
        hashes.add(pair)
    expect(len(hashes) == 1, "%s: the three shards compared the same two builds" % what,
           str(hashes))


def history_list(store, work):
    return run([os.path.join(BUILD, "benchkit"), "history", "list", "--store", store], work,
               check=False)


def sharded_github(found, work, prefix, log, store):
    github = {"github.base_ref": "main", "github.event.number": "7", "github.token": "fake-token",
              "runner.os": "Linux", "runner.name": "hosted", "github.event_name": "pull_request",
              "secrets.BENCHKIT_STORE": store}
    origin = make_suite_origin(os.path.join(work, "github-suite"))
    runners = Runners(work, origin, "github-shards")

    # The pull request: every job checks out its merge into main.
    def merged(folder):
        git(folder, "fetch", "--quiet", "origin", "refs/pull/7/merge")
        git(folder, "checkout", "--quiet", "--detach", "FETCH_HEAD")
    posted(log)
    done = run_github_workflow(found["github-shards-pr"], runners, prefix,
                               dict(github, **{"github.run_id": "5100"}), merged)
    detail = "\n".join(all_output(outputs) for _, outputs, _ in done.values())
    expect([name for name in done] == ["shard (1)", "shard (2)", "shard (3)", "comment"],
           "GitHub sharded pull request: the matrix is three jobs, then the comment job",
           str(list(done)))
    expect(all(done[name][0] == 0 for name in done if name.startswith("shard")),
           "GitHub sharded pull request: each shard's ab passes", detail)
    check_shard_comparisons("GitHub sharded pull request",
                            [artifact(runners, "compare-%d" % k, "compare-%d.json" % k)
                             for k in (1, 2, 3)])
    expect(done.get("comment", (None,))[0] == 1,
           "GitHub sharded pull request: the comment job fails on the merged regression (exit 1)",
           detail)
    check_comment("GitHub sharded pull request", posted(log), detail)
    expect(artifact(runners, "bench", "comparison.html").startswith("<!DOCTYPE html>"),
           "GitHub sharded pull request: the comparison's page is the artifact")

    # Main: two pushes, each run recorded by three shards into the history under its run id.
    commits = git(runners.origin, "rev-list", "--reverse", "main").split()
    for push, commit in enumerate(commits[-2:], 1):
        runners.new_pipeline()
        run_id = str(5200 + push)
        values = dict(github, **{"github.run_id": run_id, "github.event_name": "push"})

        def on_main(folder, commit=commit):
            git(folder, "checkout", "--quiet", "-B", "main", commit)
        # The second push loses shard 3's runner: the check refuses the incomplete run.
        lost = (lambda job, matrix: matrix.get("matrix.shard") != "3") if push == 2 else None
        time.sleep(1.1)  # runs are ordered by their dates, to the second
        done = run_github_workflow(found["github-shards-main"], runners, prefix, values, on_main,
                                   only=lost)
        detail = "\n".join(all_output(outputs) for _, outputs, _ in done.values())
        if push == 2:
            status, outputs, _ = done["check"]
            text = all_output(outputs)
            expect(status == 2 and "incomplete" in text and "shard 3/3 was not recorded" in text
                   and "missing from the merge: shard 3/3" in text,
                   "GitHub sharded main, push 2 without shard 3: check refuses the incomplete run "
                   "(exit 2) and merge names the shard (got %d)" % status, text)
            # Re-run failed jobs: shard 3 (attempt 2) and the check that needs it.
            done = run_github_workflow(
                found["github-shards-main"], runners, prefix, values, on_main, attempt=2,
                only=lambda job, matrix: job == "check" or matrix.get("matrix.shard") == "3")
            detail = "\n".join(all_output(outputs) for _, outputs, _ in done.values())
        expect(all(status == 0 for status, _, _ in done.values()),
               "GitHub sharded main, push %d: every job passes" % push,
               "%s\n%s" % ({n: s for n, (s, _, _) in done.items()}, detail))
        summary = done.get("check", (0, [], ""))[2]
        expect(all("`%s`" % name in summary for name in SUITE)
               and "(group %s, 3/3 shards, commit %s, branch main)" % (run_id, commit[:12])
               in summary,
               "GitHub sharded main, push %d: the check of the whole run, its group of 3 shards "
               "and every benchmark, is in the step summary" % push, summary + detail)
        merged_run = artifact(runners, "bench-main", "bench.json")
        names = [b["name"] for b in json.loads(merged_run)["benchmarks"]] if merged_run else []
        expect(sorted(names) == sorted(SUITE),
               "GitHub sharded main, push %d: the merged result file holds every benchmark once"
               % push, str(names))
    listed = history_list(store, work)
    expect(listed.returncode == 0 and "2 runs in" in listed.stdout
           and listed.stdout.count("3/3") == 2
           and all(c[:8] in listed.stdout for c in commits[-2:]),
           "GitHub sharded main: the history holds one run of 3/3 shards for each push",
           listed.stdout + listed.stderr)


def sharded_gitlab(found, work, prefix, log, store):
    pipeline = read_yaml(found["gitlab-shards"])
    origin = make_suite_origin(os.path.join(work, "gitlab-suite"))
    runners = Runners(work, origin, "gitlab-shards")
    gitlab = {"CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "main", "CI_API_V4_URL":
              "https://gitlab.example/api/v4", "CI_PROJECT_ID": "12", "CI_MERGE_REQUEST_IID": "3",
              "CI_DEFAULT_BRANCH": "main", "BENCHKIT_GITLAB_TOKEN": "fake-token",
              "CI_BUILDS_DIR": os.path.join(runners.root, "builds"), "CI_PROJECT_PATH":
              "group/project",
              "BENCHKIT_STORE": store, "CI": "true"}

    # The merge request: the branch's head, detached. Each instance runs on a runner of its own,
    # whose clones lie in a folder of its own (BUILDS/TOKEN/SLOT/GROUP/PROJECT, unless the job
    # says GIT_CLONE_PATH): ab's builds through ccache are the same bytes at any path.
    def head(folder):
        git(folder, "checkout", "--quiet", "--detach", "origin/pr-slow-short")
    builds = os.path.join(runners.root, "builds")
    request = dict(gitlab, CI_PIPELINE_SOURCE="merge_request_event", CI_PIPELINE_ID="700",
                   CI_COMMIT_BRANCH="", CI_MERGE_REQUEST_SOURCE_BRANCH_NAME="pr-slow-short",
                   CI_COMMIT_SHA=git(runners.origin, "rev-parse", "pr-slow-short"))
    posted(log)
    done = run_gitlab_pipeline(pipeline, runners, prefix, request, head,
                               path_of=lambda name, index: os.path.join(
                                   builds, "token%d" % index, "0", "group", "project"))
    detail = "\n".join(all_output(outputs) for _, outputs in done.values())
    expect(list(done) == ["bench-mr-shard 1/3", "bench-mr-shard 2/3", "bench-mr-shard 3/3",
                          "bench-mr-comment"],
           "GitLab sharded merge request: the rules choose the parallel shards and the note job",
           str(list(done)))
    expect(all(done[name][0] == 0 for name in done if "shard" in name),
           "GitLab sharded merge request: each shard's ab passes", detail)
    check_shard_comparisons("GitLab sharded merge request (three runners, three checkout paths)",
                            [artifact(runners, "bench-mr-shard %d of 3" % k,
                                      "compare-%d.json" % k) for k in (1, 2, 3)])
    expect(done.get("bench-mr-comment", (None,))[0] == 1,
           "GitLab sharded merge request: the note job fails on the merged regression (exit 1)",
           detail)
    note = posted(log)
    expect("/projects/12/merge_requests/3/notes" in note,
           "GitLab sharded merge request: the note goes through the API", note)
    check_comment("GitLab sharded merge request", note, detail)

    # Main: one push; shard 3's job fails first, then is retried.
    commit = git(runners.origin, "rev-parse", "main")

    def detached(folder):
        git(folder, "checkout", "--quiet", "--detach", commit)
    push = dict(gitlab, CI_PIPELINE_SOURCE="push", CI_PIPELINE_ID="701", CI_COMMIT_BRANCH="main",
                CI_COMMIT_SHA=commit)
    runners.new_pipeline()
    done = run_gitlab_pipeline(pipeline, runners, prefix, push, detached,
                               only=lambda name, index: index != 3)
    status, outputs = done.get("bench-main-check", (None, []))
    text = all_output(outputs)
    expect(status == 2 and "shard 3/3 was not recorded" in text,
           "GitLab sharded main without shard 3: the check refuses the incomplete run (exit 2, got "
           "%s)" % status, text + "\n".join(all_output(o) for _, o in done.values()))
    done = run_gitlab_pipeline(pipeline, runners, prefix, push, detached,
                               only=lambda name, index: name == "bench-main-check" or index == 3)
    detail = "\n".join(all_output(outputs) for _, outputs in done.values())
    expect(list(done) == ["bench-main-shard 3/3", "bench-main-check"]
           and all(status == 0 for status, _ in done.values()),
           "GitLab sharded main: shard 3 retried, the check passes",
           "%s\n%s" % ({n: s for n, (s, _) in done.items()}, detail))
    check = artifact(runners, "bench-main-check", "check.md")
    expect(all("`%s`" % name in check for name in SUITE)
           and "(group 701, 3/3 shards, commit %s, branch main)" % commit[:12] in check,
           "GitLab sharded main: the check covers every benchmark of the pipeline's run", check)
    listed = history_list(store, work)
    expect(listed.returncode == 0 and "1 run in" in listed.stdout and "3/3" in listed.stdout,
           "GitLab sharded main: the history holds the pipeline's run once, 3/3 shards",
           listed.stdout + listed.stderr)


def one_runner(found, work, prefix, log):
    """The recipes of one job each, every job in one kept workspace."""
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
    request = dict(gitlab, CI_COMMIT_BRANCH="", CI_MERGE_REQUEST_SOURCE_BRANCH_NAME="pr-slow",
                   CI_COMMIT_SHA=git(workspace, "rev-parse", "HEAD"))
    status, outputs, artifacts = run_gitlab_job(pipeline, "bench-mr", workspace, prefix, request)
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

    # GitLab, main: a detached checkout, which the recipe leaves as it is; the run must still be
    # on the branch main (the branch GitLab names for the commit checked out).
    time.sleep(1.1)
    start_job(workspace, commits[2])
    status, outputs, artifacts = run_gitlab_job(pipeline, "bench-main", workspace, prefix,
                                                dict(gitlab, CI_COMMIT_SHA=commits[2]))
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
        for name in ("github-pr", "github-main", "gitlab", "instructions-pr", "github-shards-pr",
                     "github-shards-main", "gitlab-shards"):
            if name not in found:
                sys.exit("%s has no block marked ci-recipe %s" % (DOC, name))
        if "one-runner" in PARTS:
            one_runner(found, work, prefix, log)
        if "sharded" in PARTS:
            stores, schemas = history_stores(work)
            try:
                sharded_github(found, work, prefix, log, stores["github"])
                sharded_gitlab(found, work, prefix, log, stores["gitlab"])
            finally:
                drop_schemas(schemas, work)
    except YamlError as error:
        failures.append(str(error))
        print("FAIL: the recipes' YAML: %s" % error, file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        sys.exit("%d check(s) failed" % len(failures))


FAKES = ""
main()
