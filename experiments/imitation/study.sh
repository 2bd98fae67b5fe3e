#!/usr/bin/env bash
# The whole learned-agent study, in the order it was run; each step writes one result file in
# experiments/imitation/results/ (see each script's header), then the README section is
# rendered. Search games: copy a cache to data/search32.jsonl first if you have one (see
# search.sh); otherwise collection plays them (about a CPU-second per game).
set -euo pipefail
cd "$(dirname "$0")/../.."
S=experiments/imitation
python experiments/imitation/study.py evaluate heuristic --title "heuristic (the teacher)" \
  --note "agents/heuristic.py, hand-written rules" --agent heuristic
python experiments/imitation/study.py evaluate ppo-scratch --title "PPO from scratch (committed recipe)" \
  --note "experiments/ppo-training/train_ppo.sh: MaskablePPO 64x64, reward progress, 800k timesteps per level; the CPU column is the training time that recipe states (wall seconds on one core)" \
  --agent "ppo:model=runs/ppo-scratch/level{level}.zip" \
  --timed experiments/imitation/results/costs/ppo-scratch.jsonl  # the checkpoints train_ppo.sh made
bash "${S}/heuristic.sh"
bash "${S}/dagger.sh"
GAMES=212 EPOCHS=4 NAME=bc-search-212 bash "${S}/search.sh"
BASE=bc-search-212 STEPS=100000 bash "${S}/finetune.sh" ft-progress 1
BASE=bc-search-212 STEPS=100000 EXTRA="--vf-warmup 30000 --learning-rate 1e-5" \
  bash "${S}/finetune.sh" ft-warmup 1
BASE=bc-search-212 STEPS=100000 REWARD=value_shaped bash "${S}/finetune.sh" ft-shaped 1
GAMES=370 EPOCHS=5 NAME=bc-search bash "${S}/search.sh"
BASE=bc-search BASE_GAMES=370 GAMES=150 OUT=dagger-search bash "${S}/dagger_search.sh"
BASE_GAMES=212 bash "${S}/dagger_refit.sh"
bash "${S}/curves.sh"
BEFORE=bc-search-212 AFTER=dagger-search-212 bash "${S}/curves_dagger.sh"
bash "${S}/curves_dagger.sh"
bash "${S}/commit_agent.sh" dagger-search
python experiments/imitation/study.py plot
python tools/docs_sections.py
