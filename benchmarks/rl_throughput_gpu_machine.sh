#!/usr/bin/env bash
# `friday rl` throughput on a machine with one GPU and many cores, as measured for
# benchmarks/rl_throughput_cuda.json and benchmarks/rl_throughput_gpu_machine_cpu.json:
# one process on CUDA (NCCL takes one GPU per process), then 1, 4 and 16 processes on the same
# machine's CPU cores. Run from the repository root with the package importable; OUT names
# the folder for the result files (default benchmarks/).
set -eo pipefail
out=${OUT:-benchmarks}
note="lent GPU machine, nothing else running; python 3.12 and the torch installed there"
python3 benchmarks/rl_throughput.py --device cuda --processes 1 --updates 12 --rounds 3 \
    --note "$note" --out "$out/rl_throughput_cuda.json"
python3 benchmarks/rl_throughput.py --device cpu --processes 1,4,16 --updates 12 --rounds 3 \
    --note "$note; the GPU machine's CPU cores" --out "$out/rl_throughput_gpu_machine_cpu.json"
