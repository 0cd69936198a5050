#!/usr/bin/env python3
"""Tests scripts/check-functions on small trees made in a temporary folder: a function over
either limit fails once (exit 1, file:line and the function named), the C++ that pmccabe cannot
read by itself is still measured, an allowlisted function passes, and a tree of short functions
passes (exit 0). Needs pmccabe.
Usage: check_functions_test.py PATH_TO_CHECK_FUNCTIONS"""
import pathlib
import subprocess
import sys
import tempfile
import unittest

SCRIPT = None  # set from the command line


def function(name, lines=3, branches=0):
    """A C++ function of `lines` lines whose cyclomatic complexity is branches + 1."""
    body = [f"  if (x == {i}) ++x;" for i in range(branches)]
    body += ["  ++x;"] * max(0, lines - 3 - len(body))
    return "\n".join([f"int {name}(int x) {{"] + body + ["  return x;", "}"]) + "\n"


class CheckFunctions(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory(prefix="benchkit-check-functions-")
        self.root = pathlib.Path(self.folder.name)
        self.write("src/stats/short.cpp", "namespace benchkit::stats {\n" + function("short_one") +
                   "}  // namespace benchkit::stats\n")

    def tearDown(self):
        self.folder.cleanup()

    def write(self, relative, text):
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)

    def check(self, *arguments):
        return subprocess.run([sys.executable, SCRIPT, str(self.root), *arguments],
                              capture_output=True, text=True)

    def test_a_tree_of_short_functions_passes(self):
        result = self.check()
        self.assertEqual(result.returncode, 0, result.stdout)
        self.assertIn("1 function(s) in src/, 0 problem(s)", result.stdout)

    def test_a_function_over_120_lines_fails(self):
        self.write("src/report/page.cpp", "namespace benchkit::report {\n" +
                   function("fits", lines=120) + function("page", lines=121) + "}\n")
        result = self.check()
        self.assertEqual(result.returncode, 1)
        self.assertIn("src/report/page.cpp:122: benchkit::report::page: 121 lines, complexity 1: "
                      "over 120 lines", result.stdout)
        self.assertNotIn("fits", result.stdout)

    def test_a_function_of_complexity_over_40_fails(self):
        self.write("src/analysis/compare.cpp", function("simple", branches=39) +
                   function("compare", branches=40))
        result = self.check()
        self.assertEqual(result.returncode, 1)
        self.assertIn("compare.cpp:43: compare: 43 lines, complexity 41: complexity over 40",
                      result.stdout)
        self.assertNotIn("simple", result.stdout)

    def test_modern_cpp_is_still_measured(self):
        # Each of these constructs alone makes pmccabe report no function of the file.
        self.write("src/measure/engine.cpp", "\n".join([
            "namespace benchkit::measure {",
            "class Timer final : public Base {",
            " public:",
            "  Timer(int a) : a_{a}, b_(a) {}",
            "  [[nodiscard]] int start() noexcept override { return 1; }",
            "  auto stop() const -> int { return a_ > 1 ? 2 : 3; }",
            "  int a_, b_;",
            "};",
            "__attribute__((noinline)) int run() {",
            "  const char* text = \"} {\";  // }",
            "  const char* raw = R\"(\" } )\";",
            "  return 1'000 + '}' + *text + *raw;",
            "}",
            function("drive", lines=121),
            "}  // namespace benchkit::measure",
        ]))
        result = self.check("--top", "2")
        self.assertEqual(result.returncode, 1, result.stdout)
        self.assertIn("engine.cpp:14: benchkit::measure::drive: 121 lines", result.stdout)
        self.assertIn("6 function(s)", result.stdout)
        self.assertIn("the 2 longest functions of src/", result.stdout)
        self.assertIn("   121   1  src/measure/engine.cpp:14: benchkit::measure::drive",
                      result.stdout)

    def test_a_file_pmccabe_cannot_read_fails(self):
        self.write("src/model/broken.cpp", "int f() { return 1; } }\n")
        result = self.check()
        self.assertEqual(result.returncode, 1)
        self.assertIn("src/model/broken.cpp: pmccabe cannot parse it", result.stdout)


if __name__ == "__main__":
    SCRIPT = sys.argv.pop(1)
    unittest.main()
