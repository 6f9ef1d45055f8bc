#!/usr/bin/env bash
# The main job: builds the folio tool and runs its tour over a temporary copy of the
# example stores in Data/ (the committed stores are never touched).
#
# The build is a release build of the tool alone: it compiles no swift-syntax (the
# macros are for apps), and it is the build to keep, several times faster than a debug
# one. The tour ends with the exact line that puts it on your PATH; nothing here changes
# your shell's files.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-dependencies.sh
swift build -c release --product folio
"$(swift build -c release --show-bin-path)/folio" tour --data Data --migrations Migrations
