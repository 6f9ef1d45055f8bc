#!/usr/bin/env bash
# The main job: builds the folio tool and runs it.
# (Until the store and the tour land, that is its version and help.)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-dependencies.sh
swift build --product folio
folio="$(swift build --show-bin-path)/folio"
"$folio" --version
"$folio" --help
