#!/usr/bin/env bash
# Two builds of `rigscope convert` on one input, alternated so that a noisy machine slows both alike:
# ROUNDS rounds of five runs of A, then five of B; prints each one's mean time per run.
# usage: tools/ab_convert.sh INPUT ROUNDS RIGSCOPE_A RIGSCOPE_B
set -euo pipefail
input=$1 rounds=$2 a=$3 b=$4
out=$(mktemp --suffix=.iqm)
trap 'rm -f "$out"' EXIT
ta=0 tb=0
for _ in $(seq "$rounds"); do
  s=$(date +%s%N); for _ in 1 2 3 4 5; do "$a" convert "$input" "$out" >/dev/null; done; ta=$((ta + $(date +%s%N) - s))
  s=$(date +%s%N); for _ in 1 2 3 4 5; do "$b" convert "$input" "$out" >/dev/null; done; tb=$((tb + $(date +%s%N) - s))
done
echo "$input: A $((ta / rounds / 5 / 1000)) us, B $((tb / rounds / 5 / 1000)) us per run"
