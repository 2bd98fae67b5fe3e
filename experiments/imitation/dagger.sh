#!/usr/bin/env bash
# Study row "DAgger (heuristic teacher)": the imitation of the heuristic (heuristic.sh) plays
# GAMES training deals per level (indices from 500,000: disjoint from the teacher's games),
# the heuristic labels every state it reaches, and the policy is refitted for EPOCHS epochs
# on the teacher's games plus these. One round per run; ROUNDS rounds in all.
set -euo pipefail
cd "$(dirname "$0")/../.."
GAMES="${GAMES:-250}"
EPOCHS="${EPOCHS:-2}"
ROUNDS="${ROUNDS:-1}"
student=runs/bc-heuristic/policy.zip
rm -f data/dagger-heuristic.jsonl
for round in $(seq 1 "${ROUNDS}"); do
  friday imitate dagger --student "${student}" --teacher heuristic --levels 1-4 \
    --games "${GAMES}" --first-index $((500000 + 10000 * round)) --workers 1 --no-progress \
    --games-file data/dagger-heuristic.jsonl --data data/heuristic-1000.jsonl \
    --epochs "${EPOCHS}" --learning-rate 5e-4 --out "runs/dagger-heuristic/round${round}.zip"
  student="runs/dagger-heuristic/round${round}.zip"
done
fits=$(for r in $(seq 1 "${ROUNDS}"); do echo "runs/dagger-heuristic/round${r}.fit.json"; done)
python experiments/imitation/study.py evaluate dagger-heuristic --title "DAgger, heuristic teacher" \
  --note "imitation of the heuristic, then ${ROUNDS} DAgger round(s) of ${GAMES} student games per level labelled by the heuristic, refitted ${EPOCHS} epochs; CPU adds the rounds to the heuristic imitation's" \
  --agent "ppo:model=${student}" --data data/heuristic-1000.jsonl data/dagger-heuristic.jsonl \
  --fits runs/bc-heuristic/policy.fit.json ${fits} --fit-share 0.25
