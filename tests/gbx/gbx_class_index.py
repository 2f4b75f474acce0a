#!/usr/bin/env python3
"""The class -> file index of docs/formats/gbx.md matches the chunk tables under core/gbx/.

Every class id with a chunk description (an entry `{0x........, skippable, "name", fn}` of a
gbx_chunk_def table) must have one row in the index naming the files that describe it, and the
index must not list a class or a file the code does not have."""
import collections
import glob
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
code = collections.defaultdict(set)
for path in glob.glob(os.path.join(root, "core/gbx/**/*.c"), recursive=True):
    rel = os.path.relpath(path, os.path.join(root, "core/gbx"))
    with open(path, encoding="utf-8") as f:
        for m in re.finditer(r'^\s*\{0x([0-9A-Fa-f]{8}), (?:\d|GBX_WHOLE_NODE), "', f.read(), re.M):
            code[int(m.group(1), 16) & 0xFFFFF000].add(rel)

with open(os.path.join(root, "docs/formats/gbx.md"), encoding="utf-8") as f:
    doc_text = f.read()
section = doc_text.split("### Class → file index", 1)
if len(section) != 2:
    sys.exit("docs/formats/gbx.md has no '### Class → file index' section")
doc = {}
for m in re.finditer(r"^\| 0x([0-9A-F]{8}) \| [^|]+ \| ([^|]+) \|$", section[1], re.M):
    class_id = int(m.group(1), 16)
    if class_id in doc:
        sys.exit("class 0x%08X has two rows in the index" % class_id)
    doc[class_id] = set(re.findall(r"`([^`]+)`", m.group(2)))

problems = []
for class_id in sorted(set(code) | set(doc)):
    if class_id not in doc:
        problems.append("0x%08X is described in %s but not in the index" % (class_id, sorted(code[class_id])))
    elif class_id not in code:
        problems.append("0x%08X is in the index but no chunk table describes it" % class_id)
    elif code[class_id] != doc[class_id]:
        problems.append("0x%08X: the index says %s, the code has it in %s"
                        % (class_id, sorted(doc[class_id]), sorted(code[class_id])))
for p in problems:
    print(p)
print("%d classes in the code, %d rows in the index, %d problems" % (len(code), len(doc), len(problems)))
sys.exit(1 if problems or not code else 0)
