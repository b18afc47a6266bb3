#!/usr/bin/env bash
# Instructions per decision, counted by valgrind (callgrind), so the figure does not move with the machine's load:
# the gate's and the bare parse's, as the difference between runs of A and B whole passes over the corpus (start-up,
# loading and most of the JIT's work cancel out). node runs --single-threaded so that its compilers work on the
# main thread and are counted alike in every run. Slow: a few minutes per run. Usage: bench/gate-instructions.sh [A B]
set -euo pipefail
cd "$(dirname "$0")/.."
A=${1:-20}
B=${2:-40}
command -v valgrind >/dev/null || { echo "gate-instructions: valgrind is not installed" >&2; exit 69; }
count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null node --single-threaded bench/gate-passes.mjs "$1" "$2" 2>&1 \
    | sed -n 's/.*I *refs: *//p' | tr -d ,
}
lines=$(grep -cv -e '^# ' -e '^[[:space:]]*$' bench/corpus.txt)
for mode in raw gate; do
  a=$(count "$mode" "$A")
  b=$(count "$mode" "$B")
  per=$(( (b - a) / (B - A) / lines ))
  echo "$mode: $per instructions per line ($a at $A passes, $b at $B)"
  eval "per_$mode=$per"
done
awk -v g="$per_gate" -v r="$per_raw" 'BEGIN { printf "gate ÷ raw parse: %.2f\n", g / r }'
