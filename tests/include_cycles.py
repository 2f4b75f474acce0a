#!/usr/bin/env python3
"""No include cycle between the modules of core/ (issue 23): a module is a .c file and its .h;
module A depends on B when a file of A includes B's header. Prints each cycle found.
Usage: include_cycles.py SOURCE_DIR"""
import os, re, sys

root = os.path.abspath(os.path.join(sys.argv[1], "core"))
deps = {}
for folder, _, names in os.walk(root):
    for name in names:
        if not name.endswith((".c", ".h")):
            continue
        path = os.path.join(folder, name)
        module = os.path.splitext(os.path.relpath(path, root))[0]
        for m in re.finditer(r'#include "([^"]+)"', open(path, encoding="utf-8", errors="replace").read()):
            target = os.path.normpath(os.path.join(folder, m.group(1)))
            if os.path.exists(target) and os.path.commonpath([target, root]) == root:
                other = os.path.splitext(os.path.relpath(target, root))[0]
                if other != module:
                    deps.setdefault(module, set()).add(other)

# Tarjan's strongly connected components: a component of more than one module is a cycle
index, low, stack, on_stack, cycles, counter = {}, {}, [], set(), [], [0]
sys.setrecursionlimit(10000)


def visit(v):
    index[v] = low[v] = counter[0]
    counter[0] += 1
    stack.append(v)
    on_stack.add(v)
    for w in sorted(deps.get(v, ())):
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on_stack:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        component = []
        while True:
            w = stack.pop()
            on_stack.discard(w)
            component.append(w)
            if w == v:
                break
        if len(component) > 1:
            cycles.append(sorted(component))


for module in sorted(deps):
    if module not in index:
        visit(module)
for c in cycles:
    print("FAIL include cycle:", " <-> ".join(c))
print(f"include cycles: {len(deps)} modules of core/ with includes, {len(cycles)} cycles")
sys.exit(1 if cycles else 0)
