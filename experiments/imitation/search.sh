#!/usr/bin/env bash
# Imitation of the search agent (32 simulations per decision) by one 256x256 MaskablePPO
# policy for all four levels: the first step of the committed agent's recipe (then
# dagger_search.sh), and with other settings the study's search-imitation rows.
#   1. teacher games: the search agent on training deals 0..GAMES-1 of every level, with its
#      action values at every searched decision (soft targets);
#   2. the policy starts from the imitation of the heuristic (heuristic.sh; INIT=none: fresh
#      weights) and is fitted on the search games, targets softmax(q / TAU) (TAU=0: the
#      search's actions as hard labels), EPOCHS epochs;
#   3. 1,000 evaluation deals per level.
# CACHE: the search games are the slow part (about a CPU-second per game, measured per game
# in the games file). A games file written earlier by the same collector, or by
# data/collect_search.py (the same agent, deals and seeding: `same-games` below checks
# that the games both hold are identical), can be copied to data/search32.jsonl first;
# collect then plays only what is missing, and the CPU charged for cached games is the
# per-game mean of data/search32-timing.jsonl (games this collector played and timed).
# Usage (from the repository root): GAMES=400 NAME=bc-search bash experiments/imitation/search.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
GAMES="${GAMES:-600}"
TAU="${TAU:-2}"
EPOCHS="${EPOCHS:-4}"
INIT="${INIT:-runs/bc-heuristic/policy.zip}"
NAME="${NAME:-bc-search}"
USED="data/search32-first${GAMES}.jsonl"
friday imitate collect --teacher search:sims=32 --levels 1-4 --games 6 \
  --out data/search32-timing.jsonl --workers 1 --no-progress
friday imitate collect --teacher search:sims=32 --levels 1-4 --games "${GAMES}" \
  --out data/search32.jsonl --workers 2 --no-progress
python experiments/imitation/study.py same-games data/search32-timing.jsonl data/search32.jsonl
python - "${GAMES}" "${USED}" <<'PY'
import json, sys
games, used = int(sys.argv[1]), sys.argv[2]
with open("data/search32.jsonl") as source, open(used, "w") as out:
    for text in source:
        if json.loads(text)["index"] < games:
            out.write(text)
PY
friday imitate encode "${USED}" --out "data/search32-first${GAMES}.npz"
data=("${USED}") fits=("runs/${NAME}/policy.fit.json") init=()
if [ "${INIT}" != none ]; then
  init=(--init "${INIT}") data+=(data/heuristic-1000.jsonl) fits+=(runs/bc-heuristic/policy.fit.json)
fi
friday imitate fit --dataset "data/search32-first${GAMES}.npz" --levels 1-4 "${init[@]}" \
  --soft-tau "${TAU}" --epochs "${EPOCHS}" --learning-rate 5e-4 --out "runs/${NAME}/policy.zip"
python experiments/imitation/study.py evaluate "${NAME}" \
  --title "${TITLE:-imitation of search, ${GAMES} games per level}" \
  --note "${GAMES} search games per level (32 sims), targets tau=${TAU} (0 = hard labels), ${EPOCHS} epochs from ${INIT} (none = fresh weights); one network for all levels; CPU includes the heuristic imitation it starts from" \
  --agent "ppo:model=runs/${NAME}/policy.zip" --data "${data[@]}" \
  --timing data/search32-timing.jsonl --fits "${fits[@]}" --fit-share 0.25
