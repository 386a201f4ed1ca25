#!/usr/bin/env bash
# Builds the libFuzzer targets of MSAL's and the emulator's parsers and runs each for FUZZ_RUNS executions (1,000,000
# by default) on a copy of its seed corpus in Corpus/<name>/. Prints each target's executions,
# executions per second and wall time, and exits non-zero if any target found a crash, a broken
# invariant, a leak or a timeout. See README.md.
#
#   Fuzz/run.sh                      # all nine targets
#   Fuzz/run.sh jwt cache-file       # some of them
#   FUZZ_RUNS=100000 Fuzz/run.sh     # shorter
#   FUZZ_ARGS="-max_len=65536" Fuzz/run.sh   # extra libFuzzer flags
set -euo pipefail
cd "$(dirname "$0")"

all=(jwt token-response cache-file redirect www-authenticate form-body admin-json authorize-query access-token)
targets=("${@:-${all[@]}}")
for name in "${targets[@]}"; do
  [[ " ${all[*]} " == *" $name "* ]] || { echo "error: unknown target '$name' (have: ${all[*]})" >&2; exit 2; }
done
runs=${FUZZ_RUNS:-1000000}
read -r -a extra <<<"${FUZZ_ARGS:-}"

# A trap must reach libFuzzer's handler (which saves the input), not Swift's backtracer, which would
# take it first and leave the run waiting on a symbolizer.
export SWIFT_BACKTRACE=enable=no
# Leaks in dependencies, each explained in the file.
export LSAN_OPTIONS="suppressions=$PWD/lsan-suppressions.txt${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

scratch=../.build-fuzz
out=$scratch/fuzz-runs
# MSAL and its dependencies are instrumented too (coverage and AddressSanitizer); -enable-testing lets the
# targets `@testable import MSAL` in a release build; lld links libFuzzer where gold fails.
flags=(-c release --scratch-path "$scratch"
       -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing -Xswiftc -use-ld=lld)

# Same dependency versions as the main package (SwiftPM resolves the fuzz package on its own).
if [[ ! -f Package.resolved && -f ../Package.resolved ]]; then cp ../Package.resolved Package.resolved; fi

echo "== building (swift build ${flags[*]})"
start=$SECONDS
nice -n 10 swift build "${flags[@]}"
echo "== built in $((SECONDS - start)) s"
bin=$(swift build "${flags[@]}" --show-bin-path)

failed=()
summary=$(printf '%-18s %12s %10s %8s  %s' target executions exec/s wall result)
for name in "${targets[@]}"; do
  dir=$out/$name
  rm -rf "$dir"
  mkdir -p "$dir/corpus" "$dir/artifacts"
  cp Corpus/"$name"/* "$dir/corpus/"
  echo "== fuzz-$name: $runs runs, log $dir/log"
  start=$SECONDS
  status=0
  nice -n 10 "$bin/fuzz-$name" -runs="$runs" -print_final_stats=1 -timeout=30 \
    -artifact_prefix="$dir/artifacts/" ${extra[@]+"${extra[@]}"} "$dir/corpus" >"$dir/log" 2>&1 || status=$?
  wall=$((SECONDS - start))
  executed=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/log" | tail -1)
  findings=$(find "$dir/artifacts" -type f | wc -l)
  if [[ $status -eq 0 && $findings -eq 0 ]]; then
    result=ok
  else
    result="FAILED (exit $status): $(find "$dir/artifacts" -type f | head -3 | tr '\n' ' ')"
    failed+=("$name")
    echo "---- fuzz-$name failed; end of its log:"
    grep -v '^#[0-9]' "$dir/log" | tail -40
    echo "----"
  fi
  line=$(printf '%-18s %12s %10s %7ss  %s' "$name" "${executed:-?}" "${speed:-?}" "$wall" "$result")
  echo "$line"
  summary+=$'\n'"$line"
done

echo
echo "$summary"
if ((${#failed[@]})); then
  echo "findings in: ${failed[*]} (reproduce: SWIFT_BACKTRACE=enable=no $bin/fuzz-<target> <artifact>)" >&2
  exit 1
fi
