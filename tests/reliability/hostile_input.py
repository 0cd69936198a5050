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
# HTML, attribute break-outs, Markdown, CSV formulas, backticks, JSON and terminal escapes (the
# browser test, tests/browser/hostile_test.mjs, opens the HTML of the same names in Chromium).
NAMES = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                    "hostile_names.json"), encoding="utf-8"))
HOSTILE = NAMES[0]
# A text cell starting with one of these is a formula to a spreadsheet (OWASP's CSV injection).
FORMULA_STARTS = "=+-@\t\r"
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
    named = [word for i, name in enumerate(NAMES) for word in ("--cmd", f"true {i}", "--name", name)]
    done = run([BENCHKIT, "run", "--runs", "2", "--warmup", "0"] + named + [
                "--cmd", "true x", "--name", "bad\udcffutf8".encode("utf-8", "surrogateescape"),
                "--export-json", "h.json", "--export-markdown", "h.md", "--export-csv", "h.csv",
                "--export-junit", "h.xml", "--html", "h.html", "--color", "always"], work, env=env)
    count = len(NAMES) + 1
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
    check(f"json: the {len(NAMES)} names exactly", names[:-1] == NAMES, repr(names[:3]))
    check("json: a name that is not UTF-8 written with U+FFFD", names[-1] == "bad\ufffdutf8",
          repr(names[-1]))

    markdown = open(os.path.join(work, "h.md"), encoding="utf-8", errors="replace").read()
    rows = [line for line in markdown.splitlines() if line.strip()]
    pipes = {len(re.findall(r"(?<!\\)\|", row)) for row in rows}
    table = [r for r in rows if r.startswith("|")]
    check(f"markdown: a table of {count} rows, every row the same columns",
          len(table) == count + 2 and len(rows) == len(table) and len(pipes) == 1, markdown)
    # CommonMark: a code span opened by N backticks ends at the next run of exactly N, so the
    # fence must be longer than every run inside; padded by a space when the name starts or
    # ends with a backtick.
    spans_whole = []
    for row in table[2:]:
        cell = re.split(r"(?<!\\)\|", row)[1].strip()
        fence = re.match(r"`+", cell)
        inside = cell[len(fence.group(0)):-len(fence.group(0))] if fence else ""
        runs = {len(r) for r in re.findall(r"`+", inside)}
        bare = inside.strip(" ")
        padded = not (bare.startswith("`") or bare.endswith("`")) or (
            inside.startswith(" ") and inside.endswith(" "))
        spans_whole.append(bool(fence) and cell.endswith(fence.group(0)) and
                           len(fence.group(0)) not in runs and padded)
    check("markdown: every name is one code span (backticks inside do not end it)",
          all(spans_whole), f"{spans_whole}")

    text = open(os.path.join(work, "h.csv"), encoding="utf-8", errors="replace", newline="").read()
    parsed = list(csv.reader(io.StringIO(text)))
    check(f"csv: parses to a header and {count} rows of the header's width",
          len(parsed) == count + 1 and len({len(r) for r in parsed}) == 1)
    # A name a spreadsheet would take for a formula gets a ' in front; the others are exact.
    expected = ["'" + n if n[:1] in FORMULA_STARTS else n for n in NAMES]
    cells = [r[0] for r in parsed[1:-1]]
    check("csv: each name exactly, a formula one as text with a ' in front", cells == expected,
          f"{[(c, e) for c, e in zip(cells, expected) if c != e][:2]}")
    numbers_ok = all(re.fullmatch(r"-?[0-9.e+]*", cell) for r in parsed[1:] for cell in r[2:14])
    check("csv: the number columns are plain numbers (no ' added)", numbers_ok)
    compared = run([BENCHKIT, "compare", "h.json", "h.json", "--format", "csv"], work, env=env)
    rows_compared = list(csv.reader(io.StringIO(compared.stdout.decode("utf-8", "replace"))))
    check("csv (compare): each name as text, a formula one with a ' in front",
          compared.returncode in (0, 1) and len(rows_compared) == count + 1 and
          set(expected) <= {r[0] for r in rows_compared[1:]},
          compared.stderr.decode(errors="replace"))

    try:
        root = ElementTree.parse(os.path.join(work, "h.xml")).getroot()
        cases = root.findall(".//testcase")
        check(f"junit: parses, {count} test cases", len(cases) == count)
    except ElementTree.ParseError as error:
        check("junit: parses", False, str(error))

    page = open(os.path.join(work, "h.html"), encoding="utf-8").read()
    tags = ["<script>window.pwned", "<img src=x", "<svg onload", "<iframe", "<style>body",
            "<b>bold"]
    check("html: no tag of a name in the page", not [t for t in tags if t in page],
          f"{[t for t in tags if t in page]}")
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
