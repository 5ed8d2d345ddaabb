#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Pick a small corpus: greedy set cover of the coverage edges that a
libFuzzer merge control file (-merge=1 -merge_control_file=FILE) records
per input.  Inputs with a name of their own (seeds, regressions: not a
libFuzzer SHA-1 name) are always kept; then the input that adds the most
uncovered edges is taken, until every edge is covered or MAX are kept.
Usage: setcover.py CONTROL_FILE OUT_DIR [MAX]; copies the chosen inputs
into OUT_DIR (created) and says how many and how much they cover."""
import os
import re
import shutil
import sys


def main():
    ctl, out = sys.argv[1], sys.argv[2]
    most = int(sys.argv[3]) if len(sys.argv) > 3 else 1 << 30
    with open(ctl, encoding='utf-8', errors='replace') as f:
        lines = f.read().splitlines()
    nfiles = int(lines[0])
    files = lines[2:2 + nfiles]
    cov, size = {}, {}
    for line in lines[2 + nfiles:]:
        parts = line.split()
        if len(parts) >= 3 and parts[0] == 'STARTED':
            size[int(parts[1])] = int(parts[2])
        elif parts and parts[0] == 'COV':
            cov[int(parts[1])] = set(parts[2:])
    every = set().union(*cov.values()) if cov else set()
    left = set(every)
    chosen = [i for i in range(nfiles)
              if not re.fullmatch('[0-9a-f]{40}', os.path.basename(files[i]))]
    for i in chosen:
        left -= cov.get(i, set())
    while left and len(chosen) < most:
        best = max(cov, key=lambda i: (len(cov[i] & left), -size.get(i, 0)))
        gain = cov[best] & left
        if not gain:
            break
        chosen.append(best)
        left -= gain
    os.makedirs(out, exist_ok=True)
    for i in chosen:
        shutil.copy(files[i], os.path.join(out, os.path.basename(files[i])))
    done = 1 - len(left) / len(every) if every else 1
    print(f'{len(chosen)} of {nfiles} inputs, {100 * done:.1f}% of '
          f'{len(every)} edges')


if __name__ == '__main__':
    main()
