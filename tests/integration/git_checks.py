"""What the tests that run benchkit in a real git repository share (ab_flow.py, ab_counted.py):
git with a fixed identity and no user configuration, commits of whole files, the user's state of
a checkout (which benchkit must never change), and checks that are counted and reported at the
end rather than stopping at the first.
"""
import os
import subprocess
import sys
import tempfile
import time

ENV = dict(os.environ)
ENV.update({
    "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
    "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
})


# The C++ of a serial chain of xorshift steps (kSteps from steps.hpp, written by steps()): each
# step depends on the one before, so its time and its instruction count are the number of steps
# times a few, whatever the compiler does.
WALK = """static std::uint64_t walk(std::uint64_t x, std::uint64_t steps) {
  for (std::uint64_t i = 0; i < steps; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
  }
  return x;
}
"""


def steps(n):
    """steps.hpp with kSteps = n."""
    return "#pragma once\n#include <cstdint>\ninline constexpr std::uint64_t kSteps = %d;\n" % n


def run(argv, cwd, check=True, **kw):
    done = subprocess.run(argv, cwd=cwd, env=ENV, capture_output=True, encoding="utf-8",
                          errors="replace", **kw)
    if check and done.returncode != 0:
        sys.exit("failed: %s\n%s\n%s" % (" ".join(argv), done.stdout, done.stderr))
    return done


def git(repo, *args):
    return run(["git", "-C", repo] + list(args), repo).stdout.strip()


def commit(repo, message, files):
    for path, text in files.items():
        with open(os.path.join(repo, path), "w") as out:
            out.write(text)
    git(repo, "add", "--all")
    git(repo, "commit", "--quiet", "-m", message)
    return git(repo, "rev-parse", "HEAD")


def new_repository(prefix):
    """A temporary folder WORK holding an empty repository WORK/repo on branch main: (WORK, repo)."""
    work = tempfile.mkdtemp(prefix=prefix)
    repo = os.path.join(work, "repo")
    os.makedirs(repo)
    git(repo, "init", "--quiet", "--initial-branch=main")
    return work, repo


def user_state(repo):
    return (git(repo, "status", "--porcelain", "--untracked-files=all"), git(repo, "stash", "list"),
            git(repo, "branch", "--list"), git(repo, "rev-parse", "HEAD"),
            git(repo, "diff", "--cached"), git(repo, "diff"))


class Checks:
    """expect() records a failed check and goes on; benchkit() runs the tool in a repository and
    checks that the user's checkout is as it was; finish() exits non-zero if any check failed."""

    def __init__(self, tool):
        self.tool = tool
        self.failures = []

    def expect(self, condition, what, done=None):
        if not condition:
            detail = "" if done is None else "\n--- stdout\n%s\n--- stderr\n%s" % (done.stdout,
                                                                                 done.stderr)
            self.failures.append(what + detail)
            print("FAIL: " + what + detail, file=sys.stderr)
        else:
            print("ok: " + what)

    def benchkit(self, repo, *args):
        before = user_state(repo)
        started = time.monotonic()
        done = run([self.tool] + list(args), repo, check=False)
        print("  benchkit %s: exit %d in %.1f s" % (" ".join(args), done.returncode,
                                                     time.monotonic() - started))
        self.expect(user_state(repo) == before,
                    "the checkout is untouched by benchkit " + " ".join(args[:3]))
        return done

    def finish(self):
        if self.failures:
            sys.exit("%d check(s) failed" % len(self.failures))
