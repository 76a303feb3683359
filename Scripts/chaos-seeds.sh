#!/usr/bin/env bash
# Runs tender-chaos's kill test for three seeds side by side: builds the release executable once, starts one process
# per seed at the same time, each in its own work directory (so kills land while SQLite checkpoints), waits for all,
# prints each one's summary line, and exits non-zero unless all three end exactly
#   lost=0 duplicated=0 crashes=0 mismatches=0
#
# Usage: Scripts/chaos-seeds.sh [KILLS] [--power-loss] [-- extra tender-chaos arguments]
#   KILLS         kill-test rounds per seed (default 300).
#   --power-loss  the power-loss mode of the kill test (tender-chaos --power-loss): the children's ledgers open
#                 through the power-loss VFS, so a kill loses every write SQLite had not synced, and half the lives
#                 cut their own power at a chosen write (whole, torn, reordered). Its outputs go to
#                 .build/chaos-seeds-power-loss unless CHAOS_OUTPUT says otherwise, so it can run beside the kill test.
# Environment: CHAOS_SEEDS (default "20261122 7 424242"), CHAOS_OUTPUT (where outputs and work directories go;
# default .build/chaos-seeds).
# Each process's full output is kept in $CHAOS_OUTPUT/seed-S.txt; its worlds are removed when it ends.
set -euo pipefail
cd "$(dirname "$0")/.."

kills="${1:-300}"
shift || true
mode=()
power_loss=0
if [ "${1:-}" = "--power-loss" ]; then mode=(--power-loss); power_loss=1; shift; fi
[ "${1:-}" = "--" ] && shift
for argument in "$@"; do if [ "$argument" = "--power-loss" ]; then power_loss=1; fi; done
seeds=(${CHAOS_SEEDS:-20261122 7 424242})
if [ "$power_loss" -eq 1 ]; then
  output="${CHAOS_OUTPUT:-.build/chaos-seeds-power-loss}"
else
  output="${CHAOS_OUTPUT:-.build/chaos-seeds}"
fi

case "$kills" in ''|*[!0-9]*) echo "chaos-seeds: KILLS must be a number, got '$kills'" >&2; exit 64 ;; esac

swift build -c release --product tender-chaos
executable="$(swift build -c release --show-bin-path)/tender-chaos"

rm -rf "$output"
mkdir -p "$output"
start=$(date +%s)
pids=()
for seed in "${seeds[@]}"; do
  mkdir -p "$output/work-$seed"
  "$executable" --only kill --kills "$kills" --seed "$seed" --workdir "$output/work-$seed" ${mode[@]+"${mode[@]}"} "$@" \
    > "$output/seed-$seed.txt" 2>&1 &
  pids+=("$!")
done

# Wait for each by the process id started above; a process that dies is reported, the others still awaited.
statuses=()
for index in "${!pids[@]}"; do
  set +e
  wait "${pids[$index]}"
  statuses+=("$?")
  set -e
done
elapsed=$(( $(date +%s) - start ))

clean="lost=0 duplicated=0 crashes=0 mismatches=0"
failed=0
for index in "${!seeds[@]}"; do
  seed="${seeds[$index]}"
  file="$output/seed-$seed.txt"
  summary="$(tail -n 1 "$file" 2>/dev/null || true)"
  kill_row="$(grep -E '^ *(kill|power-loss) ' "$file" | tail -n 1 || true)"
  printf 'seed %-9s exit %-3s %s\n' "$seed" "${statuses[$index]}" "$summary"
  [ -n "$kill_row" ] && printf '               %s\n' "$(echo "$kill_row" | tr -s ' ')"
  if [ "$summary" != "$clean" ] || [ "${statuses[$index]}" -ne 0 ]; then
    failed=1
    grep -E '^  ! ' "$file" | head -n 10 || true
  fi
done
echo "chaos-seeds$([ "$power_loss" -eq 1 ] && echo ' --power-loss'): ${#seeds[@]} seeds x $kills rounds in ${elapsed}s (outputs in $output)"
exit "$failed"
