#!/bin/bash
# old and new builds alternating, 3 repetitions each
for r in 1 2; do
  for b in old new; do
    d=/work/wt/f14b; [ $b = old ] && d=/work/wt/f14b-base
    (cd $d && node --import tsx bench/repro-real.ts --parse-only 2>/dev/null | grep -E '"parse"|worstHost' | sed "s/^/{\"build\":\"$b\",\"rep\":$r,\"line\":/; s/\$/}/") >> /work/wt/f14b/.scratch/sbs.jsonl
  done
done
