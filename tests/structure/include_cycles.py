#!/usr/bin/env python3
"""No include cycle between the modules of the library and the program: core/,
writers/, patch/ and patch/cli/, with no exception. A module is a .c file, its .h and its private
X_internal.h; module A depends on B when a file of A includes B's header, and A's folder then
depends on B's. No cycle among modules, none among folders, and no folder including one listed
below it in docs/api.md's table of folders (or one the table does not list). Includes are written from the
project's root ("core/model/model.h"); one relative to the including file is read too. Prints
each cycle found.
Usage: include_cycles.py SOURCE_DIR"""
import os, re, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from object_symbols import layer_rows, strongly_connected  # noqa: E402

source_dir = os.path.abspath(sys.argv[1])
roots = [os.path.join(source_dir, folder) for folder in ("core", "writers", "patch")]
deps, folder_deps, example = {}, {}, {}


def text_of(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def module_of(path):
    """X_internal.h that includes X.h (of its folder) is X's private header: part of module X."""
    m = os.path.splitext(os.path.relpath(path, source_dir))[0]
    if m.endswith("_internal") and path.endswith(".h"):
        owner = m[: -len("_internal")]
        if re.search(r'#include "(%s|%s)\.h"' % (re.escape(owner), re.escape(os.path.basename(owner))), text_of(path)):
            return owner
    return m


def resolve(folder, spelled):
    """The project file an include names, or None (a system or public header)."""
    for base in (source_dir, folder):
        target = os.path.normpath(os.path.join(base, spelled))
        if os.path.isfile(target) and any(os.path.commonpath([target, r]) == r for r in roots):
            return target
    return None


files = 0
for root in roots:
    for folder, _, names in os.walk(root):
        for name in names:
            if not name.endswith((".c", ".h")):
                continue
            files += 1
            path = os.path.join(folder, name)
            module = module_of(path)
            for m in re.finditer(r'#include "([^"]+)"', text_of(path)):
                target = resolve(folder, m.group(1))
                if target:
                    other = module_of(target)
                    if other != module:
                        deps.setdefault(module, set()).add(other)
                    if os.path.dirname(other) != os.path.dirname(module):
                        folder_deps.setdefault(os.path.dirname(module), set()).add(os.path.dirname(other))
                        example.setdefault((os.path.dirname(module), os.path.dirname(other)),
                                           "%s includes %s" % (os.path.relpath(path, source_dir), m.group(1)))

cycles = strongly_connected(deps)  # a component of more than one module is a cycle
for c in cycles:
    print("FAIL include cycle:", " <-> ".join(c))
folder_cycles = strongly_connected(folder_deps)
for c in folder_cycles:
    print("FAIL folders include each other:", " <-> ".join(c))
    for a in c:
        for b in c:
            if (a, b) in example:
                print("    %s/ -> %s/: %s" % (a, b, example[(a, b)]))
# layers (docs/api.md "Where the code is"): a folder includes only its own row's and those above
rows, upward = layer_rows(source_dir), []
for a in sorted(folder_deps):
    for b in sorted(folder_deps[a]):
        if a not in rows or b not in rows or rows[b] > rows[a]:
            upward.append((a, b))
            print("FAIL %s/ -> %s/ runs against docs/api.md's layers (%s)" % (a, b, example[(a, b)]))
print(f"include cycles: {files} files, {len(deps)} modules with includes, {len(cycles)} cycles, "
      f"{len(folder_deps)} folders, {len(folder_cycles)} folder cycles, {len(upward)} includes against the layers")
sys.exit(1 if cycles or folder_cycles or upward or not deps else 0)
