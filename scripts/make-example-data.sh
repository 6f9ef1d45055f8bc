#!/usr/bin/env bash
# Regenerates the example stores in Data/ (TimerApp, OneThing, ForestFocus, HealthSync,
# Rowing) with the ExampleStores generator: deletes the five store folders, keeps
# Data/README.md, writes them again. The output is the same bytes on every run, so
# `git status` afterwards shows only what a change to the generator or to Folio changed.
set -euo pipefail
cd "$(dirname "$0")/.."
for store in TimerApp OneThing ForestFocus HealthSync Rowing; do
    rm -rf "Data/$store"
done
swift build --product ExampleStores
"$(swift build --show-bin-path)/ExampleStores" Data
