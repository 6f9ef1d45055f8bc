#!/usr/bin/env bash
# Regenerates Tests/DocSamplesTests/GeneratedDocSamples.swift from the docs' Swift samples.
# Starts from an empty stub, so a stale sample that no longer compiles cannot block it.
set -euo pipefail
cd "$(dirname "$0")/.."
generated=Tests/DocSamplesTests/GeneratedDocSamples.swift
echo 'func allDocSamples() -> [(name: String, run: () throws -> Void)] { [] }' > "$generated"
swift build --build-tests
FOLIO_UPDATE_DOC_SAMPLES=1 swift test --skip-build --filter 'DocSamplesTests.docSamplesAreCurrent' >/dev/null
swift build --build-tests
swift test --skip-build --filter DocSamplesTests
