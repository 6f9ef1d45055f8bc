#!/usr/bin/env bash
# Runs every test: builds all targets (warnings are errors), then the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-dependencies.sh
# Formatting first: it takes seconds, and says which file to run scripts/format.sh on.
if ! swift format lint --strict --recursive --parallel Sources Tests Package.swift Benchmarks Fuzz; then
    echo "error: the files above are not formatted as .swift-format says; run bash scripts/format.sh" >&2
    exit 1
fi
swift build --build-tests
swift test --skip-build --parallel
