#!/usr/bin/env bash
# Checks the mutation runner without building Swift, in seconds (CI runs it): Tests/Mutation/test_mutants.py
# tests the mutant generator on Tests/Mutation/Fixtures/Operators.swift (each operator's mutant, comments,
# strings and imports left alone, seeded selection repeatable), then runs Tests/Mutation/run.sh in a scratch
# repository with a fake `swift`: scores, survivors, timeouts, and the file put back after a normal run, a
# terminated one, and (by the next run) one killed outright.
#
# `Tests/Mutation/selftest.sh [-v] [TEST...]`: arguments go to `python3 -m unittest`.
set -euo pipefail
cd "$(dirname "$0")"
exec python3 -m unittest "${@:-test_mutants}"
