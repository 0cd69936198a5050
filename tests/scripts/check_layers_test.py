#!/usr/bin/env python3
"""Tests scripts/check-layers on small trees made in a temporary folder: each rule it enforces
fails once (exit 1, the file named), and a tree that keeps them all passes (exit 0).
Usage: check_layers_test.py PATH_TO_CHECK_LAYERS"""
import pathlib
import subprocess
import sys
import tempfile
import unittest

SCRIPT = None  # set from the command line


class CheckLayers(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory(prefix="benchkit-check-layers-")
        self.root = pathlib.Path(self.folder.name)
        # A tree that keeps every rule: a top-level file in src/, and layers including only
        # what they may.
        self.write("src/build_info.hpp.in", "#pragma once\n")
        self.write("src/model/result.hpp", "#include <string>\n#include \"stats/summary.hpp\"\n")
        self.write("src/vcs/git.cpp", "#include \"process/capture.hpp\"\n#include \"vcs/git.hpp\"\n")
        self.write("src/cli/main.cpp", "#include \"session/run.hpp\"\n#include \"vcs/git.hpp\"\n")
        self.write("include/benchkit/benchkit.hpp", "#include \"benchkit/bench.hpp\"\n")

    def tearDown(self):
        self.folder.cleanup()

    def write(self, relative, text):
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)

    def check(self, *more):
        return subprocess.run([sys.executable, SCRIPT, str(self.root), *more],
                              capture_output=True, text=True)

    def design(self, rows):
        """A DESIGN.md whose Layers table has `rows` ((layer, may depend on), in order)."""
        text = "## Layers\n\n| folder | its one job | may depend on |\n|---|---|---|\n"
        text += "| `include/benchkit/` | public API | std only |\n"
        for layer, depends in rows:
            text += f"| `src/{layer}/` | its job | {depends} |\n"
        self.write("DESIGN.md", text)

    def test_a_tree_that_keeps_the_rules_passes(self):
        result = self.check()
        self.assertEqual(result.returncode, 0, result.stdout)
        self.assertIn("0 violation(s)", result.stdout)

    def test_an_include_the_table_does_not_allow_fails(self):
        self.write("src/system/context.cpp", "#include \"vcs/git.hpp\"\n")
        result = self.check()
        self.assertEqual(result.returncode, 1)
        self.assertIn("context.cpp:1: vcs/git.hpp: system/ may include only ['model']",
                      result.stdout)

    def test_a_lower_layer_including_session_fails(self):
        self.write("src/store/history.cpp", "#include \"formats/json.hpp\"\n"
                                            "#include \"session/run.hpp\"\n")
        result = self.check()
        self.assertEqual(result.returncode, 1)
        self.assertIn("history.cpp:2: session/run.hpp", result.stdout)
        self.assertNotIn("history.cpp:1", result.stdout)

    def test_a_folder_that_is_not_a_layer_fails(self):
        self.write("src/plugins/loader.cpp", "#include <string>\n")
        result = self.check()
        self.assertEqual(result.returncode, 1)
        self.assertIn("plugins: not a layer of DESIGN.md", result.stdout)

    def test_io_in_stats_fails(self):
        self.write("src/stats/summary.cpp", "#include <vector>\n#include <fstream>\n")
        result = self.check()
        self.assertEqual(result.returncode, 1)
        self.assertIn("summary.cpp:2: fstream: src/stats does no I/O", result.stdout)

    def test_a_public_header_including_a_layer_fails(self):
        self.write("include/benchkit/bench.hpp", "#include \"model/result.hpp\"\n")
        result = self.check()
        self.assertEqual(result.returncode, 1)
        self.assertIn("bench.hpp:1: public headers include only std and benchkit/", result.stdout)

    def test_session_including_report_fails(self):
        self.write("src/session/profile.cpp", "#include \"report/flame_graph.hpp\"\n")
        result = self.check()
        self.assertEqual(result.returncode, 1)
        self.assertIn("profile.cpp:1: report/flame_graph.hpp: session/ may include only",
                      result.stdout)

    # The table as DESIGN.md writes it today.
    TABLE = [("clock", "std, OS"), ("stats", "std, Boost.Math"), ("model", "stats (types)"),
             ("formats", "model"), ("measure", "clock, stats, model"), ("analysis", "stats, model"),
             ("system", "model"), ("process", "clock, model"), ("vcs", "process, model"),
             ("store", "model, formats"), ("report", "model, analysis"),
             ("session", "all layers above except cli and report"), ("cli", "all of the above")]

    def test_the_design_table_that_matches_passes(self):
        self.design(self.TABLE)
        result = self.check()
        self.assertEqual(result.returncode, 0, result.stdout)
        self.assertIn("the table checked against", result.stdout)

    def test_a_design_table_in_another_order_fails(self):
        table = list(self.TABLE)
        table[6], table[7] = table[7], table[6]  # process before system
        self.design(table)
        result = self.check()
        self.assertEqual(result.returncode, 1)
        self.assertIn("the layers in its order are", result.stdout)

    def test_a_design_table_that_allows_other_layers_fails(self):
        table = [(layer, "all layers above except cli") if layer == "session" else (layer, depends)
                 for layer, depends in self.TABLE]
        self.design(table)
        result = self.check()
        self.assertEqual(result.returncode, 1)
        self.assertIn("session may not include ['report']", result.stdout)

    def test_a_design_table_naming_a_layer_below_fails(self):
        table = [(layer, "std, model") if layer == "stats" else (layer, depends)
                 for layer, depends in self.TABLE]
        self.design(table)
        result = self.check()
        self.assertEqual(result.returncode, 1)
        self.assertIn("stats may depend on ['model'], which are not above it", result.stdout)

    def test_the_design_file_can_be_named(self):
        self.design([("clock", "std")])
        self.write("elsewhere/DESIGN.md", "no table here\n")
        result = self.check("--design", str(self.root / "elsewhere" / "DESIGN.md"))
        self.assertEqual(result.returncode, 1)
        self.assertIn("no Layers table", result.stdout)


if __name__ == "__main__":
    SCRIPT = sys.argv.pop(1)
    unittest.main()
