#!/bin/sh
# Builds json-reader-fuzzer with libFuzzer and AddressSanitizer, then fuzzes
# FolioJSON's reader and writer with one worker for the given number of seconds.
#
#   ./Fuzz/run.sh [SECONDS] [extra libFuzzer flags...]    (default: 600 seconds)
#
# New inputs are kept in Fuzz/corpus/ (gitignored); the committed seeds in
# Fuzz/seeds/ are read but never written. Crashes, oracle violations, leaks and
# timeouts are saved to Fuzz/crashes/ as crash-<sha1>, leak-<sha1>, timeout-<sha1>.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
seconds=${1:-600}
[ $# -gt 0 ] && shift

# --sanitize makes SwiftPM link libFuzzer and ASan and leave `main` to libFuzzer,
# but it passes the two as separate -sanitize= flags in no fixed order, and the
# compiler keeps only the last one; -Xswiftc appends one flag naming both.
build_flags="-c release --package-path $here --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address"
# shellcheck disable=SC2086  # build_flags is split on purpose
swift build $build_flags
# shellcheck disable=SC2086
bin=$(swift build $build_flags --show-bin-path)/json-reader-fuzzer

mkdir -p "$here/corpus" "$here/crashes"
exec "$bin" "$here/corpus" "$here/seeds" \
    -dict="$here/json.dict" \
    -max_total_time="$seconds" \
    -max_len=65536 \
    -timeout=10 \
    -rss_limit_mb=2048 \
    -artifact_prefix="$here/crashes/" \
    -print_final_stats=1 \
    "$@"
