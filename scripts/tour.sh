#!/usr/bin/env bash
# The main job: builds the folio tool and runs its tour over a temporary copy of the
# example stores in Data/ (the committed stores are never touched).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-dependencies.sh
swift build --product folio
"$(swift build --show-bin-path)/folio" tour --data Data --migrations Migrations
