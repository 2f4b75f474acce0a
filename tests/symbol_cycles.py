#!/usr/bin/env python3
"""No dependency loop between the library's modules, found from the objects' symbols (issue 30).

A module is one source file; module A depends on B when A's object uses (nm: undefined) a
symbol B's object defines. Include lines miss what a declaration in a shared header hides
(include_cycles.py), the symbols do not. Checked, each as its own graph:
  * the engine: the files directly in core/;
  * every folder of a format (core/<family>/ and its subfolders, each alone) of more than two
    files.
Prints each loop (the modules of a strongly connected component and one symbol of each edge).
KNOWN lists the loops left when this check came, in files other work was changing; such a loop
is reported but passes, and a note says when one is gone (then remove it from KNOWN).
Usage: symbol_cycles.py SOURCE_DIR OBJECT..."""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from object_symbols import read_objects, strongly_connected  # noqa: E402

# issue 30: left to the work on those files (map header facts, ghost records, Trespasser assets)
KNOWN = {
    ("core/gbx/map/map_header.c", "core/gbx/map/map_header_xml.c"),
    ("core/gbx/ghost/ent_record.c", "core/gbx/ghost/ghost.c", "core/gbx/ghost/ghost_samples.c"),
    ("core/tres/pid.c", "core/tres/spz.c", "core/tres/tres_assets.c"),
}

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

loops, seen = [], set()
for group, modules in sorted(groups.items()):
    if group != "core/ (the engine)" and len(modules) <= 2:
        continue
    members = set(modules)
    graph = {m: {o for o in edges[m] if o in members} for m in members}
    for component in strongly_connected(graph):
        known = tuple(component) in KNOWN
        seen.add(tuple(component))
        if not known:
            loops.append((group, component))
        print("%s dependency loop in %s: %s" % ("known" if known else "FAIL", group, " <-> ".join(component)))
        for a in component:
            for b in component:
                if b in graph[a]:
                    print("    %s uses %s of %s" % (a, sorted(edges[a][b])[0], b))
for gone in sorted(KNOWN - seen):
    print("note: the known loop %s is gone: remove it from KNOWN" % " <-> ".join(gone))
print("symbol cycles: %d graphs (%d modules) checked, %d new loops, %d known"
      % (len(groups), sum(len(m) for m in groups.values()), len(loops), len(seen & KNOWN)))
sys.exit(1 if loops or not groups else 0)
