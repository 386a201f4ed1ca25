#!/usr/bin/env bash
# Runs the whole test suite under ThreadSanitizer (issue #9), stopping at the first report. Not part of .ci/run: the instrumented
# build and run take longer than CI's budget on a 2-core machine. Uses its own build folder.
#   scripts/tsan.sh                  # everything
#   scripts/tsan.sh --filter Cache   # extra arguments go to `swift test`
set -euo pipefail
cd "$(dirname "$0")/.."
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1 second_deadlock_stack=1}"
exec swift test --sanitize=thread --scratch-path .build-tsan "$@"
