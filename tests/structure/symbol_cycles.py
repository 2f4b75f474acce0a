#!/usr/bin/env python3
"""No dependency loop between the library's modules, found from the objects' symbols (issue 30).

A module is one source file; module A depends on B when A's object uses (nm: undefined) a
symbol B's object defines. Include lines miss what a declaration in a shared header hides
(include_cycles.py), the symbols do not. Checked, each as its own graph:
  * the engine: the files directly in core/;
  * every folder of a format (core/<family>/ and its subfolders, each alone) of more than two
    files.
Prints each loop (the modules of a strongly connected component and one symbol of each edge);
any loop fails. The way out: move what both files need to the lower one, or to a small file of
its own below both (core/gbx/map/map_facts.c), as docs/formats/adding.md says.
Usage: symbol_cycles.py SOURCE_DIR OBJECT..."""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from object_symbols import read_objects, strongly_connected  # noqa: E402

source_dir, objects = sys.argv[1], sys.argv[2:]
defined, used = read_objects(source_dir, objects)

# every edge A -> B with the symbols A uses of B
edges = collections.defaultdict(lambda: collections.defaultdict(set))
for module, names in used.items():
    for name in names:
        owner = defined.get(name)
        if owner and owner != module:
            edges[module][owner].add(name)

groups = collections.defaultdict(list)  # graph name -> its modules
for module in set(defined.values()) | set(used):
    folder = os.path.dirname(module)
    if folder == "core":
        groups["core/ (the engine)"].append(module)
    elif folder.startswith("core/"):
        groups[folder].append(module)

loops = []
for group, modules in sorted(groups.items()):
    if group != "core/ (the engine)" and len(modules) <= 2:
        continue
    members = set(modules)
    graph = {m: {o for o in edges[m] if o in members} for m in members}
    for component in strongly_connected(graph):
        loops.append((group, component))
        print("FAIL dependency loop in %s: %s" % (group, " <-> ".join(component)))
        for a in component:
            for b in component:
                if b in graph[a]:
                    print("    %s uses %s of %s" % (a, sorted(edges[a][b])[0], b))
print("symbol cycles: %d graphs (%d modules) checked, %d loops"
      % (len(groups), sum(len(m) for m in groups.values()), len(loops)))
sys.exit(1 if loops or not groups else 0)
