#!/usr/bin/env bash
# The committed learned agent's recipe: imitation of the search agent (32 simulations per
# decision) by one 256x256 MaskablePPO policy for all four levels.
#   1. teacher games: the search agent on training deals 0..GAMES-1 of every level, with its
#      action values at every searched decision (soft targets);
#   2. the policy starts from the imitation of the heuristic (heuristic.sh: cheap, many games)
#      and is fitted on the search games with soft targets softmax(q / TAU) for EPOCHS epochs;
#   3. 1,000 evaluation deals per level.
# CACHE: the search games are the slow part (about a CPU-second or more per game, measured per
# game in the games file). A games file written earlier by the same collector, or by
# /work/data/collect_search.py (the same agent, deals and seeding: `same-games` below checks
# the games both hold are identical), can be copied to data/search32.jsonl first; collect then
# only plays what is missing, and the CPU charged for cached games is the per-game mean of
# data/search32-timing.jsonl (games this collector timed).
# Usage (from the repository root): bash experiments/imitation/search.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
GAMES="${GAMES:-600}"
TAU="${TAU:-2}"
EPOCHS="${EPOCHS:-6}"
NAME="${NAME:-bc-search}"
friday imitate collect --teacher search:sims=32 --levels 1-4 --games 6 \
  --out data/search32-timing.jsonl --workers 1 --no-progress
friday imitate collect --teacher search:sims=32 --levels 1-4 --games "${GAMES}" \
  --out data/search32.jsonl --workers 2 --no-progress
python -m agents.imitation_study same-games data/search32-timing.jsonl data/search32.jsonl
python - "${GAMES}" <<'PY'
import json, sys
games = int(sys.argv[1])
lines = [json.loads(t) for t in open("data/search32.jsonl")]
with open("data/search32-used.jsonl", "w") as out:
    for line in lines:
        if line["index"] < games:
            out.write(json.dumps(line) + "\n")
PY
friday imitate encode data/search32-used.jsonl --out data/search32-used.npz
friday imitate fit --dataset data/search32-used.npz --levels 1-4 --init runs/bc-heuristic/policy.zip \
  --soft-tau "${TAU}" --epochs "${EPOCHS}" --lr 5e-4 --out "runs/${NAME}/policy.zip"
python -m agents.imitation_study evaluate "${NAME}" \
  --title "${TITLE:-imitation of search, ${GAMES} games per level}" \
  --note "${GAMES} search games per level (32 sims), soft targets tau=${TAU}, ${EPOCHS} epochs from the heuristic imitation; one network for all levels" \
  --agent "ppo:model=runs/${NAME}/policy.zip" \
  --data data/heuristic-1000.jsonl data/search32-used.jsonl --timing data/search32-timing.jsonl \
  --fits runs/bc-heuristic/policy.fit.json "runs/${NAME}/policy.fit.json" --fit-share 0.25
