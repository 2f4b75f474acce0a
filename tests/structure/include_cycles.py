#!/usr/bin/env python3
"""No include cycle between the modules of core/ (issue 23): a module is a .c file, its .h and
its private X_internal.h; module A depends on B when a file of A includes B's header. Prints
each cycle found.
Usage: include_cycles.py SOURCE_DIR"""
import os, re, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from object_symbols import strongly_connected  # noqa: E402

root = os.path.abspath(os.path.join(sys.argv[1], "core"))
deps = {}


def module_of(path):
    """X_internal.h that includes X.h is X's private header: part of module X."""
    m = os.path.splitext(os.path.relpath(path, root))[0]
    if m.endswith("_internal") and path.endswith(".h"):
        owner = m[: -len("_internal")]
        text = open(path, encoding="utf-8", errors="replace").read()
        if '#include "%s.h"' % os.path.basename(owner) in text:
            return owner
    return m


for folder, _, names in os.walk(root):
    for name in names:
        if not name.endswith((".c", ".h")):
            continue
        path = os.path.join(folder, name)
        module = module_of(path)
        for m in re.finditer(r'#include "([^"]+)"', open(path, encoding="utf-8", errors="replace").read()):
            target = os.path.normpath(os.path.join(folder, m.group(1)))
            if os.path.exists(target) and os.path.commonpath([target, root]) == root:
                other = module_of(target)
                if other != module:
                    deps.setdefault(module, set()).add(other)

cycles = strongly_connected(deps)  # a component of more than one module is a cycle
for c in cycles:
    print("FAIL include cycle:", " <-> ".join(c))
print(f"include cycles: {len(deps)} modules of core/ with includes, {len(cycles)} cycles")
sys.exit(1 if cycles else 0)
