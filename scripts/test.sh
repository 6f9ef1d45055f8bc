#!/usr/bin/env bash
# Runs every test: builds all targets (warnings are errors), then the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-dependencies.sh
swift build --build-tests
swift test --skip-build --parallel
