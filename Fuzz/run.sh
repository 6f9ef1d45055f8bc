#!/bin/sh
# Builds the harnesses with libFuzzer and AddressSanitizer, then runs one of them
# with one worker for the given number of seconds.
#
#   ./Fuzz/run.sh [HARNESS] [SECONDS] [extra libFuzzer flags...]
#
# HARNESS is json-reader-fuzzer (the default), query-fuzzer, manifest-fuzzer or
# stage-fuzzer (the -fuzzer may be left off); SECONDS defaults to 600. So
# `./Fuzz/run.sh 600` still fuzzes the JSON reader.
#
# New inputs are kept in Fuzz/corpus/<name>/ (gitignored); the committed seeds in
# Fuzz/seeds/<name>/ are read but never written (<name> is the harness without
# -fuzzer). Crashes, oracle violations, leaks and timeouts are saved to
# Fuzz/crashes/ as <name>-crash-<sha1>, <name>-leak-<sha1>, <name>-timeout-<sha1>.
set -eu

here=$(cd "$(dirname "$0")" && pwd)

harness=json-reader-fuzzer
case "${1:-}" in
    "" | [0-9]* | -*) ;;
    *) harness=${1%-fuzzer}-fuzzer; shift ;;
esac
name=${harness%-fuzzer}
seconds=${1:-600}
[ $# -gt 0 ] && shift

# What each harness reads: its dictionary and the longest input worth trying.
case "$name" in
    json-reader) dictionaries="json.dict"; max_len=65536 ;;
    query) dictionaries="query.dict"; max_len=4096 ;;
    manifest) dictionaries="json.dict manifest.dict"; max_len=16384 ;;
    stage) dictionaries="json.dict stage.dict"; max_len=16384 ;;
    *) echo "run.sh: no harness named $harness (json-reader-fuzzer, query-fuzzer, manifest-fuzzer, stage-fuzzer)" >&2; exit 64 ;;
esac

# Every module gets AddressSanitizer and libFuzzer's coverage instrumentation (what
# -sanitize=fuzzer turns on when compiling); libFuzzer itself is linked by
# Package.swift into the harnesses only, since --sanitize=fuzzer would also link it
# into Folio's macro plugin, whose `main` then clashes with libFuzzer's.
build_flags="-c release --package-path $here --sanitize=address -Xswiftc -sanitize-coverage=edge,indirect-calls,trace-cmp,inline-8bit-counters,pc-table"
# shellcheck disable=SC2086  # build_flags is split on purpose
swift build $build_flags --product "$harness"
# shellcheck disable=SC2086
bin_path=$(swift build $build_flags --show-bin-path)

# libFuzzer takes one dictionary: a harness reading JSON gets JSON's tokens and its own.
dictionary="$bin_path/$name.dict"
# shellcheck disable=SC2086  # dictionaries is split on purpose
(cd "$here" && cat $dictionaries) >"$dictionary"

mkdir -p "$here/corpus/$name" "$here/crashes"
exec "$bin_path/$harness" "$here/corpus/$name" "$here/seeds/$name" \
    -dict="$dictionary" \
    -max_total_time="$seconds" \
    -max_len="$max_len" \
    -timeout=10 \
    -rss_limit_mb=2048 \
    -artifact_prefix="$here/crashes/$name-" \
    -print_final_stats=1 \
    "$@"
