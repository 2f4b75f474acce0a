#!/usr/bin/env python3
"""No dependency loop in the library or the program, found from the objects' symbols.

A module is one source file; module A depends on B when A's object uses (nm: undefined) a
symbol B's object defines, and A's folder then depends on B's folder. Include lines miss what a
declaration in a shared header hides (include_cycles.py), the symbols do not. Checked over
every object given (the library and the CLI: core/, writers/, patch/, patch/cli/), with no
exception:
  * no loop among files: no group of modules that reach each other (a strongly connected
    component), whether its files share a folder or span several;
  * no loop among folders: no folder that reaches itself through others (two folders that
    depend on each other, or a ring of them);
  * layers run one way: docs/api.md "Where the code is" lists every folder, each using only the
    folders of its own row and the rows above it; a folder that names one listed below it (core/
    calling into patch/) fails, and so does a folder the table does not list.
Prints each loop (its modules or folders, and one symbol of each edge); any loop fails. The way
out: move what both need to the lower one, or to a small file of its own below both
(core/gbx/map/map_facts.c); what sits above a list (a registry: core/registry/, the GBX class
tables in core/gbx/gbx_classes.c) is reached from below through a hook, never by name
(docs/formats/adding.md "1. The folder and its files").
Usage: symbol_cycles.py SOURCE_DIR OBJECT..."""
import collections
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from object_symbols import layer_rows, read_objects, strongly_connected  # noqa: E402


source_dir, objects = sys.argv[1], sys.argv[2:]
defined, used = read_objects(source_dir, objects)
modules = set(defined.values()) | set(used)

# every edge A -> B with the symbols A uses of B, between files and between their folders
edges = collections.defaultdict(lambda: collections.defaultdict(set))
folder_edges = collections.defaultdict(lambda: collections.defaultdict(set))
for module, names in used.items():
    for name in names:
        owner = defined.get(name)
        if owner and owner != module:
            edges[module][owner].add(name)
            if os.path.dirname(module) != os.path.dirname(owner):
                folder_edges[os.path.dirname(module)][os.path.dirname(owner)].add((module, owner, name))

loops = 0
for component in strongly_connected({m: set(edges[m]) for m in modules}):
    loops += 1
    folders = sorted({os.path.dirname(m) for m in component})
    where = "spanning folders " + ", ".join(folders) if len(folders) > 1 else "in " + folders[0]
    print("FAIL dependency loop %s: %s" % (where, " <-> ".join(component)))
    for a in component:
        for b in component:
            if b in edges[a]:
                print("    %s uses %s of %s" % (a, sorted(edges[a][b])[0], b))

folders = {os.path.dirname(m) for m in modules}
for component in strongly_connected({f: set(folder_edges[f]) for f in folders}):
    loops += 1
    print("FAIL folders depend on each other: %s" % " <-> ".join(component))
    for a in component:
        for b in component:
            if b in folder_edges[a]:
                module, owner, name = sorted(folder_edges[a][b])[0]
                print("    %s/ -> %s/: %s uses %s of %s" % (a, b, module, name, owner))



rows, upward = layer_rows(source_dir), 0
for folder in sorted(folders):
    if folder not in rows:
        upward += 1
        print("FAIL %s/ is not in docs/api.md's table of folders (\"Where the code is\"): its layer is unknown" % folder)
for a in sorted(folder_edges):
    for b in sorted(folder_edges[a]):
        if a in rows and b in rows and rows[b] > rows[a]:
            upward += 1
            module, owner, name = sorted(folder_edges[a][b])[0]
            print("FAIL a lower layer names an upper one: %s/ -> %s/: %s uses %s of %s" % (a, b, module, name, owner))

# the check covers the library and the program, or it proves nothing
missing = [f for f in ("core", "core/gbx", "writers", "patch", "patch/cli") if f not in folders]
for f in missing:
    print("FAIL no object of %s/ was given: the check must cover the library and the CLI" % f)
print("symbol cycles: %d modules in %d folders checked, %d loops, %d uses against the layers"
      % (len(modules), len(folders), loops, upward))
sys.exit(1 if loops or upward or missing else 0)
