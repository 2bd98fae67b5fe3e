#!/usr/bin/env bash
# The evaluation-deal games of the learning study, played once after the choice of `net`
# (experiments/expert-iteration/PLAN.md and its amendments): bash experiments/rl/evaluate.sh
set -euo pipefail
ROUND1=experiments/expert-iteration/results/round-01/network.npz
mkdir -p experiments/rl/eval
# net (1,000 evaluation deals per level), paired against the network fine-tuning started from
friday eval --agents "net:model=$ROUND1,net" --levels 1-4 --games 1000 --no-progress \
    --out results/net-vs-start
cp results/net-vs-start/results.json experiments/rl/eval/net_vs_start.json
# guided with each new prior, paired against guided (listed between them: the first
# comparison is guided against the round-1 prior, the second the chosen net against guided).
# Played with guided's defaults before the level-4 leaf study (the committed file names them
# `guided`, `guided:prior=...`); since that study they are spelled out:
OLD=guided-value-per-level
friday eval --agents "guided:prior=$ROUND1:value=$OLD,guided:prior=guided-prior:value=$OLD,guided:prior=net:value=$OLD" \
    --levels 1-4 --games 200 --no-progress --out results/guided-priors
cp results/guided-priors/results.json experiments/rl/eval/guided_priors.json
