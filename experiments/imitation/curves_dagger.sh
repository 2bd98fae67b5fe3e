#!/usr/bin/env bash
# Held-out win rate (200 deals per level from evaluation index 500,000 on, never the reported
# deals) before and after one DAgger round with the search teacher: BEFORE and AFTER name the
# study rows (defaults: the 370-game search imitation and its DAgger round, the committed agent).
set -euo pipefail
cd "$(dirname "$0")/../.."
BEFORE="${BEFORE:-bc-search}"
AFTER="${AFTER:-dagger-search}"
OUT="experiments/imitation/results/curves/${AFTER}.csv"
for point in "0:${BEFORE}" "1:${AFTER}"; do
  python experiments/imitation/study.py curve-point "${OUT}" --x "${point%%:*}" \
    --x-label "DAgger rounds (search teacher)" --agent "ppo:model=runs/${point##*:}/policy.zip" \
    --workers "${WORKERS:-2}"
done
