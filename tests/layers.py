#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""
The house's plan, checked: every folder (and top-level file) has a floor,
and a file may use only what is on its own floor or below.  Fails (exit
1, one line a fault) when

  - a file includes a header that lives on a floor above its own;
  - an object calls a symbol defined by an object on a floor above
    (read with nm from the objects under BUILD, tests left out);
  - objects call each other round a circle (within a floor too).

Faults named in ALLOW (lines "FROM -> TO", files relative to ROOT, and
"circle: A <-> B ...": a circle within those files) are reported as
tolerated for now, not failed: the list only shrinks.

    tests/layers.py [--root ROOT] [--build BUILD] [--allow FILE]
                    [--floors "base dev.c device ..."] [-v]

NM= names nm for cross builds.
"""
import argparse
import os
import re
import subprocess
import sys

# Lowest first.  A folder may use its own floor and those below it.
FLOORS = ("base dev.c device vm vm.c safety record verdict output modes "
          "probes front flashbench.c erase.c")


def floor_of(path):
    """The floor of a source path: its folder, or the top-level file."""
    d = os.path.dirname(path)
    if d:
        return d.split(os.sep)[0]
    return path if path.endswith(".c") else path[:-2] + ".c"


def sources(root, floors):
    """Every .c and .h of the floors, relative to root."""
    out = []
    for fl in floors:
        p = os.path.join(root, fl)
        if os.path.isfile(p):
            out.append(fl)
            h = fl[:-2] + ".h"
            if os.path.isfile(os.path.join(root, h)):
                out.append(h)
        elif os.path.isdir(p):
            for f in sorted(os.listdir(p)):
                if f.endswith((".c", ".h")):
                    out.append(os.path.join(fl, f))
    return out


INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def include_faults(root, srcs, rank):
    """(from, to, why) for each include of a header from a higher floor."""
    by_name = {}
    for s in srcs:
        by_name.setdefault(os.path.basename(s), []).append(s)
    faults = []
    for s in srcs:
        with open(os.path.join(root, s), errors="replace") as f:
            text = f.read()
        for name in INCLUDE.findall(text):
            for t in by_name.get(os.path.basename(name), []):
                if rank[floor_of(t)] > rank[floor_of(s)]:
                    faults.append((s, t, "includes %s" % name))
    return faults


def symbols(root, build, floors):
    """{object source: set of undefined symbols}, {symbol: source}."""
    nm = os.environ.get("NM", "nm")
    uses, defs = {}, {}
    for fl in floors:
        objs = []
        p = os.path.join(root, build, fl)
        if fl.endswith(".c"):
            objs = [p[:-2] + ".o"]
        elif os.path.isdir(p):
            objs = [os.path.join(p, f) for f in sorted(os.listdir(p))
                    if f.endswith(".o")]
        for o in objs:
            if not os.path.isfile(o):
                continue
            src = os.path.relpath(o, os.path.join(root, build))[:-2] + ".c"
            if not os.path.isfile(os.path.join(root, src)):
                continue  # a stale object: its source moved or went
            out = subprocess.run([nm, o], capture_output=True, text=True,
                                 check=True).stdout
            for line in out.splitlines():
                f = line.split()
                if len(f) == 2 and f[0] == "U":
                    uses.setdefault(src, set()).add(f[1])
                elif len(f) == 3 and f[1] in "TDBRGSC":
                    defs[f[2]] = src
    return uses, defs


def circles(edges):
    """The strongly connected sets of more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(100000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=".")
    ap.add_argument("--build", default="build")
    ap.add_argument("--allow", default=None)
    ap.add_argument("--floors", default=FLOORS)
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--list", action="store_true",
                    help="print today's faults in the ALLOW file's form")
    a = ap.parse_args()
    floors = a.floors.split()
    rank = {fl: i for i, fl in enumerate(floors)}
    allowed, allowed_circles = set(), []
    if a.allow and os.path.isfile(a.allow):
        for line in open(a.allow):
            line = line.split("#")[0].strip()
            if line.startswith("circle:"):
                allowed_circles.append(
                    set(x.strip() for x in line[7:].split("<->")))
            elif line:
                f, t = [x.strip() for x in line.split("->")]
                allowed.add((f, t))

    srcs = sources(a.root, floors)
    faults = include_faults(a.root, srcs, rank)
    uses, defs = symbols(a.root, a.build, floors)
    edges = {}
    for f, syms in sorted(uses.items()):
        for s in sorted(syms):
            t = defs.get(s)
            if not t or t == f:
                continue
            edges.setdefault(f, set()).add(t)
            if rank[floor_of(t)] > rank[floor_of(f)]:
                faults.append((f, t, "calls %s" % s))

    if a.list:
        for p in sorted(set((f, t) for f, t, _ in faults)):
            print("%s -> %s" % p)
        for c in circles(edges):
            print("circle: " + " <-> ".join(c))
        return 0
    status, used, tolerated = 0, set(), []
    for f, t, why in faults:
        msg = "%s -> %s: %s, from floor %s up to %s" % (
            f, t, why, floor_of(f), floor_of(t))
        if (f, t) in allowed:
            used.add((f, t))
            tolerated.append(msg)
        else:
            print("layers: " + msg, file=sys.stderr)
            status = 1
    used_circles = set()
    for c in circles(edges):
        within = [i for i, ac in enumerate(allowed_circles) if set(c) <= ac]
        if within:
            used_circles.add(within[0])
            tolerated.append("circle " + " <-> ".join(c))
        else:
            print("layers: circle: " + " <-> ".join(c), file=sys.stderr)
            status = 1
    for p in sorted(allowed - used):
        print("layers: %s -> %s is in the allowed list but no longer "
              "happens: remove it" % p)
    for i, ac in enumerate(allowed_circles):
        if i not in used_circles:
            print("layers: circle %s is in the allowed list but no longer "
                  "happens: remove it" % " <-> ".join(sorted(ac)))
    for t in tolerated:
        if a.verbose:
            print("tolerated: " + t)
    if tolerated:
        print("layers: %d faults tolerated for now (%s; -v lists them)" % (
            len(tolerated), a.allow))
    n = len([f for f in faults if (f[0], f[1]) not in allowed])
    print("layers: %d floors, %d files, %d calls between files, %s" % (
        len(floors), len(srcs), sum(len(v) for v in edges.values()),
        "no fault" if status == 0 else "%d faults" % n))
    return status


if __name__ == "__main__":
    sys.exit(main())
