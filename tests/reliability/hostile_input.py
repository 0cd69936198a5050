#!/usr/bin/env python3
"""Hostile input, with the real programs (docs/reliability.md).

    hostile_input.py BUILD_DIR

- a command named with HTML, Markdown, CSV and terminal escape sequences (and a name that is not
  UTF-8) in every output format: the console gets no raw control character, the Markdown table
  keeps its rows and columns, the CSV parses to the same name, the JSON holds it exactly, the
  JUnit XML parses, the HTML page holds no tag of the name (tests/browser checks such a page in
  Chromium); benchkit report reading that result back prints the same safe console table;
- baseline names and a history run that try to leave their folder: refused, exit 2, nothing
  written outside;
- --cmd text that a shell would expand never reaches one without --shell: refused with a message,
  or passed as literal words;
- a PostgreSQL URL with a password (the throwaway server of tests/store/postgres_server.sh, its
  URL in BUILD_DIR/postgres/url): the password is in no output, result, report or history.
Exit status 1 naming the first broken promise.
"""
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree

BUILD = os.path.abspath(sys.argv[1])
BENCHKIT = os.path.join(BUILD, "benchkit")
SAMPLE_BENCH = os.path.join(BUILD, "tests", "sample_bench")
HOSTILE = ('<script>window.pwned=1</script><img src=x onerror="window.pwned=2"> | a | b, "c"\n'
           '`tick` **bold** \x1b[31mRED\x1b]0;title\x07 \x1b[2J \\| end\r')
# Every control character but the newline that reaches a terminal raw.
RAW_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f]")
failures = []


def check(what, ok, detail=""):
    print(f"{'ok  ' if ok else 'FAIL'}  {what}{': ' + detail if detail and not ok else ''}")
    if not ok:
        failures.append(what)


def run(argv, cwd, **kwargs):
    return subprocess.run(argv, cwd=cwd, capture_output=True, **kwargs)


def names_in_every_format(work):
    env = dict(os.environ, BENCHKIT_DIR=os.path.join(work, ".benchkit"))
    done = run([BENCHKIT, "run", "--runs", "2", "--warmup", "0", "--cmd", "true", "--name",
                HOSTILE, "--cmd", "true x", "--name", "bad\udcffutf8".encode("utf-8",
                                                                             "surrogateescape"),
                "--export-json", "h.json", "--export-markdown", "h.md", "--export-csv", "h.csv",
                "--export-junit", "h.xml", "--html", "h.html", "--color", "always"], work, env=env)
    check("benchkit run with hostile names succeeds", done.returncode == 0,
          done.stderr.decode(errors="replace"))
    if done.returncode != 0:
        return
    console = done.stdout.decode("utf-8", errors="replace")
    # With --color always only benchkit's own colour sequences may remain.
    without_colour = re.sub(r"\x1b\[[0-9;]*m", "", console)
    check("console (colour on): no raw control character", not RAW_CONTROL.search(without_colour))
    check("console: the name shown with visible escapes", "\\e]0;title\\x07" in console)
    check("stderr: no raw control character",
          not RAW_CONTROL.search(re.sub(r"\x1b\[[0-9;]*m|\r\x1b\[K", "",
                                        done.stderr.decode(errors="replace"))))
    shown = run([BENCHKIT, "report", "h.json"], work)
    check("benchkit report (console) of the file: no raw control character",
          shown.returncode == 0 and not RAW_CONTROL.search(shown.stdout.decode(errors="replace")))

    document = json.load(open(os.path.join(work, "h.json"), encoding="utf-8"))
    names = [b["name"] for b in document["benchmarks"]]
    check("json: the name exactly", names[0] == HOSTILE, repr(names[0]))
    check("json: a name that is not UTF-8 written with U+FFFD", names[1] == "bad\ufffdutf8",
          repr(names[1]))

    markdown = open(os.path.join(work, "h.md"), encoding="utf-8", errors="replace").read()
    rows = [line for line in markdown.splitlines() if line.strip()]
    pipes = {len(re.findall(r"(?<!\\)\|", row)) for row in rows}
    check("markdown: a table of 2 rows, every row the same columns",
          len(rows) == 4 and all(r.startswith("|") for r in rows) and len(pipes) == 1, markdown)

    text = open(os.path.join(work, "h.csv"), encoding="utf-8", errors="replace", newline="").read()
    parsed = list(csv.reader(io.StringIO(text)))
    check("csv: parses to a header and 2 rows of the header's width",
          len(parsed) == 3 and len({len(r) for r in parsed}) == 1)
    check("csv: the name exactly", parsed[1][0] == HOSTILE if len(parsed) > 1 else False)

    try:
        root = ElementTree.parse(os.path.join(work, "h.xml")).getroot()
        cases = root.findall(".//testcase")
        check("junit: parses, 2 test cases", len(cases) == 2)
    except ElementTree.ParseError as error:
        check("junit: parses", False, str(error))

    page = open(os.path.join(work, "h.html"), encoding="utf-8").read()
    check("html: no tag of the name in the page",
          "<script>window.pwned" not in page and "<img src=x" not in page)
    check("html: a Content-Security-Policy that allows only its own script",
          "Content-Security-Policy" in page and "script-src 'nonce-" in page)


def names_that_leave_their_folder(work):
    folder = os.path.join(work, "leave")
    inner = os.path.join(folder, "inner")
    os.makedirs(inner)
    env = dict(os.environ, BENCHKIT_DIR=os.path.join(inner, ".benchkit"))
    outside = os.path.join(folder, "abs")
    for name in ["../x", "../../x", outside, ".hidden", "a/../../x", "..\\x"]:
        done = run([BENCHKIT, "run", "--runs", "2", "--warmup", "0", "--cmd", "true",
                    "--save-baseline", name], inner, env=env)
        check(f"--save-baseline {name}: exit 2", done.returncode == 2,
              done.stderr.decode(errors="replace"))
    bench = [SAMPLE_BENCH, "--quiet", "--filter", "^add/amount=1$", "--time-budget", "5ms",
             "--processes", "1"]
    done = run(bench + ["--save-baseline", "../x"], inner, env=env)
    check("bench --save-baseline ../x: exit 2", done.returncode == 2)
    done = run(bench + ["--baseline", "../x"], inner, env=env)
    check("bench --baseline ../x: exit 2", done.returncode == 2)
    made = [os.path.relpath(os.path.join(d, f), folder) for d, _, files in os.walk(folder)
            for f in files]
    check("nothing written anywhere", made == [], made)
    store = os.path.join(inner, "history.db")
    run([BENCHKIT, "run", "--runs", "2", "--warmup", "0", "--cmd", "true", "--record", "--store",
         store], inner, env=env)
    done = run([BENCHKIT, "history", "show", "--store", store, "../x"], inner, env=env)
    check("history show ../x: exit 2", done.returncode == 2, done.stderr.decode(errors="replace"))


def commands_without_a_shell(work):
    folder = os.path.join(work, "cmd")
    os.makedirs(folder)
    for text in ["touch $HOME/pwned", "touch `pwned`", "touch a; touch pwned", "touch a | cat",
                 "touch $(pwned)", "touch a && touch pwned", "touch a > pwned"]:
        done = run([BENCHKIT, "run", "--runs", "1", "--warmup", "0", "--cmd", text], folder)
        said = done.stderr.decode(errors="replace")
        check(f"--cmd {text!r}: refused, exit 2, pointing to --shell",
              done.returncode == 2 and "--shell" in said, said)
    # Quoted, the same characters are literal words: touch makes files of those names.
    done = run([BENCHKIT, "run", "--runs", "1", "--warmup", "0", "--cmd",
                "touch '$(touch pwned)' 'a;touch pwned' '*'"], folder)
    made = sorted(os.listdir(folder))
    check("quoted shell syntax: literal words, no shell", done.returncode == 0 and
          made == sorted(["$(touch pwned)", "a;touch pwned", "*"]), f"{made} {done.stderr}")
    for f in made:
        os.remove(os.path.join(folder, f))
    done = run([BENCHKIT, "run", "--runs", "1", "--warmup", "0", "--", "touch", "$(touch pwned)",
                "x;touch pwned"], folder)
    made = sorted(os.listdir(folder))
    check("a command after --: its words as they are, no shell",
          done.returncode == 0 and made == sorted(["$(touch pwned)", "x;touch pwned"]), made)


def postgres_password(work):
    url_file = os.path.join(BUILD, "postgres", "url")
    if not os.path.exists(url_file):
        check("PostgreSQL: the test server's URL (run through ctest)", False, url_file)
        return
    url = open(url_file).read().strip()
    match = re.match(r"postgres(?:ql)?://[^:/@]+:([^@]+)@", url)
    if not match:
        check("PostgreSQL: the test server's URL holds a password", False, url)
        return
    password = match.group(1)
    folder = os.path.join(work, "pg")
    os.makedirs(folder)
    env = dict(os.environ, BENCHKIT_DIR=os.path.join(folder, ".benchkit"))
    outputs = []
    done = run([SAMPLE_BENCH, "--filter", "^add/amount=1$", "--time-budget", "5ms",
                "--processes", "1", "--record", "--store", url, "--out", "b.json", "--html",
                "b.html"], folder, env=env)
    check("bench --record into PostgreSQL", done.returncode == 0, done.stderr.decode())
    outputs += [done.stdout, done.stderr]
    done = run([BENCHKIT, "run", "--runs", "2", "--warmup", "0", "--cmd", "true", "--record",
                "--store", url, "--export-json", "r.json", "--html", "r.html"], folder, env=env)
    check("benchkit run --record into PostgreSQL", done.returncode == 0, done.stderr.decode())
    outputs += [done.stdout, done.stderr]
    for argv in (["history", "list", "--store", url], ["history", "export", "--store", url]):
        done = run([BENCHKIT] + argv, folder, env=env)
        outputs += [done.stdout, done.stderr]
    # A server that cannot be reached: the message names the URL, not its password.
    wrong = re.sub(r"@([^/:]+):\d+", r"@\1:1", url)
    done = run([BENCHKIT, "history", "list", "--store", wrong], folder, env=env)
    check("an unreachable server: exit 2", done.returncode == 2)
    outputs += [done.stdout, done.stderr]
    for name in os.listdir(folder):
        if os.path.isfile(os.path.join(folder, name)):
            outputs.append(open(os.path.join(folder, name), "rb").read())
    leaked = [i for i, text in enumerate(outputs) if password.encode() in text]
    check("the password is in no output, result, report or history", not leaked,
          f"found in {len(leaked)} of {len(outputs)} outputs")


def main():
    work = tempfile.mkdtemp(prefix="benchkit-hostile-")
    try:
        names_in_every_format(work)
        names_that_leave_their_folder(work)
        commands_without_a_shell(work)
        postgres_password(work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
