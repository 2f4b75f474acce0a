#!/usr/bin/env python3
"""The diff of two different maps (docs/usage.md "Diffs"): pairs of different corpus maps of one
game era, drawn with a fixed seed. Each pair's `rebyte diff A B` must give a patch that turns A
into B's bytes, or refuse with a named reason (exit 2, no "internal"); never an internal error,
never a patch whose result differs from B.

Usage: diff_map_pairs.py REBYTE CORPUS_DIR [--pairs N] [--seed S] [--by-identity] [-v]
Prints one line per pair and a tally; exit 1 when a pair fails the rule.
"""
import json
import os
import random
import subprocess
import sys
import tempfile


def era_of(rebyte, path):
    """The file's class and game era as `rebyte info --json` names them, or None."""
    out = subprocess.run([rebyte, "info", "--json", path], capture_output=True, text=True)
    if out.returncode != 0:
        return None
    info = json.loads(out.stdout)
    if info.get("class") != "CGameCtnChallenge":
        return None
    return (info.get("origin") or {}).get("era")


def draw_pairs(rebyte, corpus, count, seed):
    """`count` pairs of different maps of one era, the same for the same seed and corpus."""
    names = sorted(n for n in os.listdir(corpus) if n.endswith((".Map.Gbx", ".Challenge.Gbx")))
    by_era = {}
    for name in names:
        era = era_of(rebyte, os.path.join(corpus, name))
        if era:
            by_era.setdefault(era, []).append(name)
    eras = sorted(e for e, maps in by_era.items() if len(maps) >= 2)
    rng = random.Random(seed)
    every = sum(len(by_era[e]) * (len(by_era[e]) - 1) for e in eras)
    pairs = []
    while len(pairs) < min(count, every):
        maps = by_era[rng.choice(eras)]
        pair = tuple(rng.sample(maps, 2))
        if pair not in pairs:
            pairs.append(pair)
    return pairs


def one_pair(rebyte, corpus, a, b, flags, scratch):
    """What the diff of a -> b gave: (verdict, detail), verdict one of exact, refused, internal,
    differs, apply-refused, other."""
    pa, pb = os.path.join(corpus, a), os.path.join(corpus, b)
    patch, out = os.path.join(scratch, "patch.json"), os.path.join(scratch, "out.Gbx")
    with open(patch, "wb") as f:
        d = subprocess.run([rebyte, "diff", *flags, pa, pb], stdout=f, stderr=subprocess.PIPE, text=False)
    err = d.stderr.decode("utf-8", "replace").strip()
    if d.returncode == 2:
        return ("internal" if "internal" in err else "refused"), err.splitlines()[-1] if err else ""
    if d.returncode != 1:
        return "other", f"diff exit {d.returncode}: {err}"
    ap = subprocess.run([rebyte, "apply", "--patch", patch, pa, "-o", out], capture_output=True, text=True)
    if ap.returncode != 0:
        return "apply-refused", ap.stderr.strip().splitlines()[-1] if ap.stderr.strip() else f"exit {ap.returncode}"
    with open(out, "rb") as f1, open(pb, "rb") as f2:
        same = f1.read() == f2.read()
    return ("exact", "") if same else ("differs", "apply(diff(A, B), A) is not B's bytes")


def main(argv):
    args = [x for x in argv[1:] if not x.startswith("-")]
    if len(args) < 2:
        print(__doc__)
        return 64
    rebyte, corpus = args[0], args[1]
    count = int(argv[argv.index("--pairs") + 1]) if "--pairs" in argv else 16
    seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 40
    flags = ["--by-identity"] if "--by-identity" in argv else []
    pairs = draw_pairs(rebyte, corpus, count, seed)
    tally = {}
    bad = 0
    with tempfile.TemporaryDirectory() as scratch:
        for a, b in pairs:
            verdict, detail = one_pair(rebyte, corpus, a, b, flags, scratch)
            tally[verdict] = tally.get(verdict, 0) + 1
            ok = verdict in ("exact", "refused")
            bad += not ok
            print(f"{'ok  ' if ok else 'FAIL'} {verdict:13} {a} -> {b}{': ' + detail if detail else ''}")
    print(f"diff of {len(pairs)} pairs of different maps (seed {seed}{', by identity' if flags else ''}): " +
          ", ".join(f"{n} {v}" for v, n in sorted(tally.items())))
    return 1 if bad or not pairs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
