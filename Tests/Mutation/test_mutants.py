"""Self-test of the mutation runner (Tests/Mutation/selftest.sh runs it): the generator on a fixture, and
run.sh itself in a scratch repository where a fake `swift` stands in for the compiler and the tests, so that
it takes seconds and builds nothing."""

import json
import os
import shutil
import signal
import subprocess
import tempfile
import textwrap
import time
import unittest

import mutants

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "Fixtures", "Operators.swift")
EXPECTED = os.path.join(HERE, "Fixtures", "Operators.expected")


def fixture_mutants():
    with open(FIXTURE, encoding="utf-8") as file:
        return mutants.mutants_of("Operators.swift", file.read())


def rendered(mutant):
    return f"{mutant.line}: {mutant.description} => {mutant.mutated.strip()}"


class GeneratorTests(unittest.TestCase):
    def test_fixture_gives_exactly_the_expected_mutants(self):
        with open(EXPECTED, encoding="utf-8") as file:
            expected = file.read().splitlines()
        actual = [rendered(m) for m in fixture_mutants()]
        self.assertEqual(actual, expected, "regenerate Fixtures/Operators.expected only after reading the difference")

    def test_every_operator_makes_its_mutant(self):
        made = {(m.line, m.description, m.mutated.strip()) for m in fixture_mutants()}
        for line, description, mutated in [
            (12, "'<' -> '>='", None), (12, "'>' -> '<='", None), (12, "'<=' -> '>'", None),
            (12, "'>=' -> '<'", None), (12, "'==' -> '!='", None), (12, "'!=' -> '=='", None),
            (16, "'ready' -> '!ready'", "if !ready {"),
            (19, "'!ready' -> 'ready'", "if ready, count > 2 {"),
            (19, "'count > 2' -> '!(count > 2)'", "if !ready, !(count > 2) {"),
            (22, "'first == count' -> '!(first == count)'",
             "guard let first = list.first, !(first == count) else { return 3 }"),
            (28, "'&&' -> '||'", "a || b || !a"), (28, "'||' -> '&&'", "a && b && !a"),
            (33, "'0xFF' -> '0x100'", "let mask = 0x100"), (33, "'0xFF' -> '0xFE'", "let mask = 0xFE"),
            (41, "'3' -> '4'", "for index in 1...4 { sum -= index }"),
            (40, "'..<' -> '...'", "for index in 0...values.count { sum += values[index] }"),
            (41, "'...' -> '..<'", "for index in 1..<3 { sum -= index }"),
            (46, "removed 'values.append(1)'", ""), (47, "removed 'values[0] = 2'", ""),
            (48, "removed 'values[0] += 3'", ""),
            (17, "removed 'return 1'", ""),
            (23, "removed 'return 4'", "if ready && list.isEmpty { }"),
            (64, "'true' -> 'false'", "return small > limits(min: 1) ? false : false"),
            (64, "'false' -> 'true'", "return small > limits(min: 1) ? true : true"),
            (62, "'min' -> 'max'", "let small = max(values.count, 3) + max(0, Int.max - 1)"),
            (62, "'max' -> 'min' (2nd on the line)", "let small = min(values.count, 3) + max(0, Int.min - 1)"),
            (68, "'[\"a\", \"b\", \"c\"]' -> '[\"a\", \"b\"]'", "let names = [\"a\", \"b\"]"),
            (68, "'[\"a\", \"b\", \"c\"]' -> '[\"b\", \"c\"]'", "let names = [\"b\", \"c\"]"),
        ]:
            with self.subTest(line=line, description=description):
                matches = [m for m in made if m[0] == line and m[1] == description]
                self.assertEqual(len(matches), 1, f"line {line}: no {description} among {sorted(made)}")
                if mutated is not None:
                    self.assertEqual(matches[0][2], mutated)

    def test_comments_strings_imports_and_other_platforms_are_left_alone(self):
        lines = {m.line for m in fixture_mutants()}
        # imports (3, 4), doc and block comments (6-9), the declaration of a generic (11), a variable named
        # min (63), a capture list and a one-element list (69, 70), string literals (75-81), #if lines and
        # the branch Linux does not compile (84-88).
        for line in [1, 2, 3, 4, 6, 7, 8, 9, 11, 63, 69, 70, 75, 76, 77, 78, 79, 80, 84, 85, 86, 88]:
            self.assertNotIn(line, lines)
        # Never the tuple element, the float or a declaration; never a precondition removed, nor a
        # statement that continues on the next line.
        descriptions = {(m.line, m.description) for m in fixture_mutants()}
        self.assertNotIn((51, "removed 'let declared = values.count'"), descriptions)
        self.assertFalse([d for d in descriptions if d[0] == 53 and d[1].startswith("removed")])
        self.assertFalse([d for d in descriptions if d[0] in (54, 55) and d[1].startswith("removed")])
        self.assertFalse([d for d in descriptions if d[0] == 34 and ("'.0'" in d[1] or "'5'" in d[1])])
        self.assertFalse([d for d in descriptions if d[0] == 22 and d[1].startswith("removed")],
                         "a guard's return is never removed: the guard would not compile")

    def test_token_mutants_change_code_only(self):
        with open(FIXTURE, encoding="utf-8") as file:
            lines = mutants.split_lines(file.read())
        for mutant in fixture_mutants():
            if mutant.operator in ("statement", "return", "list", "condition"):
                continue
            original, mutated = mutant.original, mutant.mutated
            start = 0
            while original[start] == mutated[start]:
                start += 1
            end = 0
            while end < len(original) - start and original[-1 - end] == mutated[-1 - end]:
                end += 1
            with self.subTest(mutant=rendered(mutant)):
                self.assertTrue(lines[mutant.line - 1].is_code(start, max(start + 1, len(original) - end)))

    def test_each_mutant_edits_one_line_and_keeps_the_line_count(self):
        with open(FIXTURE, encoding="utf-8") as file:
            text = file.read()
        original = text.split("\n")
        for mutant in fixture_mutants():
            mutant.file = FIXTURE
            changed = mutants.mutated_text(mutant).split("\n")
            self.assertEqual(len(changed), len(original))
            self.assertEqual([k + 1 for k in range(len(original)) if original[k] != changed[k]], [mutant.line])

    def test_lexer_edge_cases(self):
        source = textwrap.dedent('''\
            let a = #"raw \\#(x < y) "quoted" "# + "\\(min(1, 2))"
            /* outer /* inner */ still a comment: x < y */ let b = 1 == 2
            let c = """
                x < y "\\(z > 0)"
                """
            let d = text.firstMatch(of: /a < (\\d+)/) != nil
            let e = "a // not a comment" == f
            ''')
        found = {(m.line, m.description) for m in mutants.mutants_of("Edge.swift", source)}
        self.assertEqual(found, {
            (2, "'==' -> '!='"), (2, "'1' -> '0'"), (2, "'1' -> '2'"), (2, "'2' -> '1'"), (2, "'2' -> '3'"),
            (6, "'!=' -> '=='"), (7, "'==' -> '!='"),
        })

    def test_linux_conditions(self):
        for condition, holds in [("canImport(Darwin)", False), ("canImport(Glibc)", True), ("os(Linux)", True),
                                 ("!canImport(FoundationNetworking)", False), ("os(macOS) || os(Linux)", True),
                                 ("compiler(>=6.3)", True), ("targetEnvironment(simulator)", False)]:
            self.assertEqual(mutants.linux_condition(condition), holds, condition)

    def test_seeded_selection_is_reproducible(self):
        found = fixture_mutants()
        first = [m.key() for m in mutants.select(found, 7, 10)]
        self.assertEqual(first, [m.key() for m in mutants.select(fixture_mutants(), 7, 10)])
        self.assertEqual(first[:4], [m.key() for m in mutants.select(found, 7, 4)], "--max takes a prefix")
        self.assertNotEqual(first, [m.key() for m in mutants.select(found, 8, 10)])
        self.assertEqual(len(mutants.select(found, 7, None)), len(found))


FAKE_SWIFT = r"""#!/usr/bin/env bash
# Stands in for swift: `build` fails when the demo source matches the regex $FAKE_NO_BUILD; `test` fails when it
# matches $FAKE_KILL, fails always with FAKE_FAIL, and when it matches $FAKE_BLOCK writes its pid to $FAKE_READY
# and waits.
source=Sources/Demo/Demo.swift
contains() { [[ -n $1 ]] && grep -qE -- "$1" "$source"; }
case $1 in
    build)
        if contains "${FAKE_NO_BUILD:-}"; then echo "error: no such thing"; exit 1; fi
        echo "Build complete!" ;;
    test)
        if contains "${FAKE_BLOCK:-}"; then echo $$ > "$FAKE_READY.new"; mv "$FAKE_READY.new" "$FAKE_READY"; exec sleep 60; fi
        if [[ -n ${FAKE_FAIL:-} ]] || contains "${FAKE_KILL:-}"; then
            echo "Executed 3 tests, with 1 failure (0 unexpected)"; exit 1
        fi
        echo "Executed 3 tests, with 0 failures (0 unexpected)" ;;
esac
"""

DEMO = """// A demo source for the mutation runner's self-test.
func isSmall(_ value: Int) -> Bool {
    return value < 10
}
"""


class RunnerTests(unittest.TestCase):
    """run.sh end to end in a scratch git repository, with the fake swift first on PATH."""

    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="mutation-selftest-")
        self.addCleanup(shutil.rmtree, self.root, ignore_errors=True)
        os.makedirs(os.path.join(self.root, "Tests", "Mutation"))
        os.makedirs(os.path.join(self.root, "Sources", "Demo"))
        os.makedirs(os.path.join(self.root, "bin"))
        for name in ("run.sh", "mutants.py"):
            shutil.copy2(os.path.join(HERE, name), os.path.join(self.root, "Tests", "Mutation", name))
        self.source = os.path.join(self.root, "Sources", "Demo", "Demo.swift")
        self.write(DEMO)
        swift = os.path.join(self.root, "bin", "swift")
        with open(swift, "w", encoding="utf-8") as file:
            file.write(FAKE_SWIFT)
        os.chmod(swift, 0o755)
        with open(os.path.join(self.root, ".gitignore"), "w", encoding="utf-8") as file:
            file.write(".build/\nbin/\n")
        for command in (["init", "-q"], ["add", "."],
                        ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "demo"]):
            subprocess.run(["git", *command], cwd=self.root, check=True)
        self.environment = dict(os.environ, PATH=os.path.join(self.root, "bin") + os.pathsep + os.environ["PATH"],
                                FAKE_READY=os.path.join(self.root, "ready"))

    def write(self, text):
        with open(self.source, "w", encoding="utf-8") as file:
            file.write(text)

    def read(self):
        with open(self.source, encoding="utf-8") as file:
            return file.read()

    def start(self, *arguments, **fake):
        environment = dict(self.environment, **fake)
        return subprocess.Popen([os.path.join(self.root, "Tests", "Mutation", "run.sh"), *arguments], cwd=self.root,
                                env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def run_sh(self, *arguments, **fake):
        process = self.start(*arguments, **fake)
        out, err = process.communicate(timeout=60)
        return process.returncode, out, err

    def wait_until_ready(self):
        """The pid of the fake test run once it is waiting with a mutant planted."""
        ready = self.environment["FAKE_READY"]
        deadline = time.monotonic() + 30
        while not os.path.exists(ready):
            self.assertLess(time.monotonic(), deadline, "the fake test run never started")
            time.sleep(0.02)
        with open(ready, encoding="utf-8") as file:
            return int(file.read())

    def test_a_run_reports_killed_survived_and_skipped_and_restores_the_file(self):
        status, out, err = self.run_sh("--filter", "DemoTests", "Sources", FAKE_KILL="value >= 10", FAKE_NO_BUILD="11")
        self.assertEqual(status, 0, err)
        lines = out.splitlines()
        self.assertIn("mutation: 3 candidate mutants; trying 3 of them (seed 1)", lines)
        self.assertEqual(len([line for line in lines if line.startswith("[")]), 3)
        self.assertTrue(any(line.startswith("[") and " killed Sources/Demo/Demo.swift:3: '<' -> '>='" in line
                            for line in lines), out)
        self.assertTrue(any(" skipped Sources/Demo/Demo.swift:3: '10' -> '11' (does not compile" in line
                            for line in lines), out)
        self.assertIn("Sources/Demo/Demo.swift:3: '10' -> '9'", lines[lines.index("survivors:") + 1:])
        self.assertEqual(lines[-1], "mutation score: 1 of 2 (50 %)")
        self.assertEqual(self.read(), DEMO)
        logs = os.path.join(self.root, ".build", "mutation", "logs")
        self.assertEqual(sorted(name for name in os.listdir(logs) if name[0].isdigit()), ["001.log", "002.log", "003.log"])
        self.assertEqual(subprocess.run(["git", "status", "--porcelain"], cwd=self.root, capture_output=True,
                                        text=True).stdout, "")

    def test_a_filtered_score_says_it_counts_only_the_tests_run(self):
        status, out, err = self.run_sh("--filter", "DemoTests", "Sources", FAKE_KILL="value >= 10")
        self.assertEqual(status, 0, err)
        self.assertEqual(out.splitlines()[-2], "mutation: the score counts only the tests --filter 'DemoTests' ran; "
                         "a survivor is a gap only once the owning test target (no --filter) lets it live too")

    def test_a_filter_longer_than_a_file_name_still_runs(self):
        # The unmutated run's log is named after the filter; 26 suites made a name past 255 bytes.
        long_filter = "|".join(["DemoTests"] + ["Suite%02dTests" % n for n in range(30)])
        status, out, err = self.run_sh("--filter", long_filter, "Sources", FAKE_KILL=">=")
        self.assertEqual(status, 0, err)
        self.assertNotIn("File name too long", err)
        self.assertTrue(out.splitlines()[-1].startswith("mutation score: "))

    def test_min_score_fails_a_low_score_but_keeps_the_score_line_last(self):
        status, out, err = self.run_sh("--filter", "DemoTests", "--min-score", "60", "Sources", FAKE_KILL=">=")
        self.assertEqual(status, 1)
        self.assertEqual(out.splitlines()[-1], "mutation score: 1 of 3 (33 %)")
        self.assertIn("below --min-score 60", err)

    def test_tests_that_time_out_kill_the_mutant(self):
        status, out, _ = self.run_sh("--filter", "DemoTests", "--timeout", "1", "--max", "3", "Sources",
                                     FAKE_BLOCK="value >= 10")
        self.assertEqual(status, 0)
        self.assertIn("killed Sources/Demo/Demo.swift:3: '<' -> '>=' (tests timed out after 1 s", out)
        self.assertEqual(out.splitlines()[-1], "mutation score: 1 of 3 (33 %)")
        self.assertEqual(self.read(), DEMO)

    def test_nothing_compiled(self):
        status, out, _ = self.run_sh("--filter", "DemoTests", "Sources", FAKE_NO_BUILD=">=|11|9")
        self.assertEqual(status, 0)
        self.assertIn("mutation: no mutant compiled", out)
        self.assertEqual(out.splitlines()[-1], "mutation score: 0 of 0 (n/a)")

    def test_tests_failing_without_mutants_stop_the_run(self):
        status, _, err = self.run_sh("--filter", "DemoTests", "Sources", FAKE_FAIL="1")
        self.assertEqual(status, 1)
        self.assertIn("fail without any mutant", err)
        self.assertEqual(self.read(), DEMO)

    def test_terminated_run_restores_the_file(self):
        process = self.start("--filter", "DemoTests", "Sources", FAKE_BLOCK="value >= 10")
        fake = self.wait_until_ready()
        self.assertNotEqual(self.read(), DEMO, "the mutant is planted while its tests run")
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=30)
        self.assertEqual(process.returncode, 143, err)
        self.assertIn("mutation: stopped; restored Sources/Demo/Demo.swift", out)
        self.assertEqual(self.read(), DEMO)
        self.assertFalse(os.path.exists(os.path.join(self.root, ".build", "mutation", "pristine", "path")))
        with self.assertRaises(ProcessLookupError, msg="the test run was stopped too"):
            os.kill(fake, 0)

    def test_a_run_killed_outright_is_repaired_by_the_next(self):
        process = self.start("--filter", "DemoTests", "Sources", FAKE_BLOCK="value >= 10")
        fake = self.wait_until_ready()
        process.kill()  # no trap runs
        process.communicate(timeout=30)
        os.kill(fake, signal.SIGKILL)
        self.assertIn("value >= 10", self.read())
        status, out, err = self.run_sh("--list", "Sources")
        self.assertEqual(status, 0, err)
        self.assertIn("mutation: an earlier run was interrupted with a mutant planted; restored Sources/Demo/Demo.swift",
                      out)
        self.assertEqual(self.read(), DEMO)

    def test_a_file_edited_after_a_killed_run_is_not_overwritten(self):
        process = self.start("--filter", "DemoTests", "Sources", FAKE_BLOCK="value >= 10")
        fake = self.wait_until_ready()
        process.kill()
        process.communicate(timeout=30)
        os.kill(fake, signal.SIGKILL)
        self.write(DEMO + "// edited by hand\n")
        status, _, err = self.run_sh("--list", "Sources")
        self.assertEqual(status, 1)
        self.assertIn("it was edited since", err)
        self.assertEqual(self.read(), DEMO + "// edited by hand\n")

    def test_base_mutates_only_the_changed_lines(self):
        self.write(DEMO.replace("return value < 10", "return value < 10 || value == 99"))
        status, out, err = self.run_sh("--list", "--base", "HEAD")
        self.assertEqual(status, 0, err)
        listed = [line for line in out.splitlines() if line.startswith("Sources/")]
        self.assertTrue(listed and all(line.startswith("Sources/Demo/Demo.swift:3: ") for line in listed), out)
        self.assertTrue(any("'||' -> '&&'" in line for line in listed))

    def test_the_plan_is_the_same_for_the_same_seed(self):
        plans = []
        for seed in ("5", "5", "6"):
            status, out, err = self.run_sh("--list", "--seed", seed, "--max", "2", "Sources")
            self.assertEqual(status, 0, err)
            plans.append(out)
        self.assertEqual(plans[0], plans[1])
        with open(os.path.join(self.root, ".build", "mutation", "plan.json"), encoding="utf-8") as file:
            self.assertEqual(json.load(file)["seed"], 6)

    def test_bad_input_is_one_sentence_and_a_failure(self):
        for arguments, message in [
            ((), "name what to mutate"),
            (("--frobnicate", "Sources"), "there is no option '--frobnicate'"),
            (("Nowhere",), "there is no file or folder 'Nowhere'"),
            (("--base", "no-such-rev"), "git knows no revision 'no-such-rev'"),
            (("--seed", "abc", "Sources"), "--seed takes a whole number, not 'abc'"),
            (("--max", "-3", "Sources"), "--max takes a whole number, not '-3'"),
            (("--max",), "--max needs a value"),
            (("Sources",), "no test target is known for Sources/Demo/Demo.swift"),
        ]:
            with self.subTest(arguments=arguments):
                status, out, err = self.run_sh(*arguments)
                self.assertNotEqual(status, 0)
                self.assertEqual(len(err.strip().splitlines()), 1, err)
                self.assertIn(message, err)
        self.assertEqual(self.read(), DEMO)


if __name__ == "__main__":
    unittest.main()
