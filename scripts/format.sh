#!/usr/bin/env bash
# Formats every Swift file of the project with .swift-format (swift-format ships with the
# toolchain); scripts/test.sh, and so CI, fails when a file is not formatted.
set -euo pipefail
cd "$(dirname "$0")/.."
swift format format --in-place --recursive --parallel Sources Tests Package.swift Benchmarks Fuzz
