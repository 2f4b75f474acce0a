#!/usr/bin/env python3
"""Reads never write, and const means const (docs/performance.md "Reads never write"): the casts
to a document or node pointer type (rb_doc, rb_node, and their struct spellings) in the library
and the CLI stay at most MAX, and each has a comment on its line or the line above saying why.
Such a cast is how a reader of a `const rb_doc *` used to change the document behind it.
Usage: const_casts.py SOURCE_DIR"""
import os, re, sys

MAX = 3
CAST = re.compile(r"\(\s*(?:struct\s+)?rb_(?:doc|node)\s*\*+\s*\)")
root = os.path.abspath(sys.argv[1])
found, bare = [], []
for top in ("core", "patch", "writers", "include"):
    for folder, _, names in os.walk(os.path.join(root, top)):
        for name in sorted(names):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(folder, name)
            lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
            for i, line in enumerate(lines):
                code = re.sub(r"sizeof\s*\(\s*(?:struct\s+)?rb_(?:doc|node)\s*\*+\s*\)", "", line)
                if not CAST.search(code):
                    continue
                where = "%s:%d" % (os.path.relpath(path, root), i + 1)
                found.append(where)
                if "/*" not in line and "//" not in line and not lines[i - 1].strip().endswith("*/"):
                    bare.append(where)
for where in found:
    print("cast to a document or node pointer:", where)
for where in bare:
    print("no comment says why:", where)
print("%d casts (at most %d), %d without a reason" % (len(found), MAX, len(bare)))
sys.exit(1 if len(found) > MAX or bare else 0)
