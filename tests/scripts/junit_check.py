#!/usr/bin/env python3
"""Checks JUnit XML files as CI servers read them (the schema of Jenkins' and GitLab's JUnit
parsers): a <testsuites> root of <testsuite name tests failures errors skipped> elements whose
counts match their <testcase name classname time> children, each holding at most one <failure>
or <error> (with message and type) and at most one <system-out>, and nothing else.

Usage: junit_check.py FILE...   Exit status 1 naming the first problem of each bad file."""
import sys
import xml.etree.ElementTree as ElementTree


def problems(path):
    try:
        root = ElementTree.parse(path).getroot()
    except ElementTree.ParseError as error:
        yield f"not well-formed XML: {error}"
        return
    if root.tag != "testsuites":
        yield f"root is <{root.tag}>, not <testsuites>"
        return
    suites = list(root)
    if not suites:
        yield "no <testsuite>"
    for suite in suites:
        if suite.tag != "testsuite":
            yield f"<{suite.tag}> inside <testsuites>"
            continue
        for attribute in ("name", "tests", "failures", "errors", "skipped"):
            if attribute not in suite.attrib:
                yield f"testsuite without {attribute}"
        cases = list(suite)
        counts = {"failure": 0, "error": 0}
        for case in cases:
            if case.tag != "testcase":
                yield f"<{case.tag}> inside <testsuite>"
                continue
            for attribute in ("name", "classname", "time"):
                if attribute not in case.attrib:
                    yield f"testcase without {attribute}"
            try:
                if float(case.get("time", "0")) < 0:
                    yield f"testcase {case.get('name')}: negative time"
            except ValueError:
                yield f"testcase {case.get('name')}: time {case.get('time')!r} is not a number"
            tags = [child.tag for child in case]
            for tag in tags:
                if tag not in ("failure", "error", "skipped", "system-out", "system-err"):
                    yield f"testcase {case.get('name')}: unexpected <{tag}>"
            if tags.count("failure") + tags.count("error") > 1:
                yield f"testcase {case.get('name')}: more than one failure or error"
            if tags.count("system-out") > 1:
                yield f"testcase {case.get('name')}: more than one system-out"
            for child in case:
                if child.tag in counts:
                    counts[child.tag] += 1
                    for attribute in ("message", "type"):
                        if attribute not in child.attrib:
                            yield f"testcase {case.get('name')}: <{child.tag}> without {attribute}"
        for attribute, actual in (("tests", len(cases)), ("failures", counts["failure"]),
                                  ("errors", counts["error"])):
            if suite.get(attribute) != str(actual):
                yield (f"testsuite {suite.get('name')}: {attribute}=\"{suite.get(attribute)}\" but "
                       f"{actual} found")


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    bad = 0
    for path in sys.argv[1:]:
        found = list(problems(path))
        if found:
            bad += 1
            print(f"{path}: {found[0]}" + (f" (and {len(found) - 1} more)" if len(found) > 1 else ""))
        else:
            print(f"{path}: ok")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
