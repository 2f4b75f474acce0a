"""What the objects of a build define and use (nm -P), by source file; shared by the checks
symbol_cycles.py and dead_symbols.py."""
import collections
import os
import subprocess
import sys


def source_of(source_dir, obj):
    """The source an object was compiled from, relative to the source folder, or None for an
    object whose source is gone (a file moved since this build tree last built it). CMake puts
    SOURCE.o under <binary dir>/CMakeFiles/<target>.dir/, spelling each '..' as '__'."""
    head, sep, rest = obj.partition(".dir" + os.sep)
    if not sep or not rest.endswith(".o"):
        return None
    target_dir = os.path.dirname(os.path.dirname(head))  # <binary dir> of the target
    rel = rest[:-2].replace("__" + os.sep, ".." + os.sep)
    for base in _source_bases(source_dir, target_dir):
        path = os.path.normpath(os.path.join(base, rel))
        if os.path.isfile(path):
            return os.path.relpath(path, source_dir)
    return None


def _source_bases(source_dir, target_dir):
    """The source folder of a target's binary folder: the same relative place under the source
    tree (CMake mirrors it), found by walking the binary folder's parts from the deepest."""
    parts = os.path.normpath(target_dir).split(os.sep)
    for i in range(len(parts), -1, -1):
        yield os.path.join(source_dir, *parts[i:]) if i < len(parts) else source_dir


def read_objects(source_dir, objects):
    """{symbol: defining source} over every object, and {source: symbols it uses}. One nm run
    for many objects (nm -A names the object on each line): a process per object was slow."""
    defined, used = {}, collections.defaultdict(set)
    sources = {obj: source_of(source_dir, obj) for obj in objects}
    todo = [obj for obj in objects if sources[obj]]
    for start in range(0, len(todo), 200):
        batch = todo[start:start + 200]
        try:
            result = subprocess.run(["nm", "-A", "-P"] + batch, capture_output=True, text=True)
        except FileNotFoundError:
            sys.exit("nm not found: these checks need binutils' nm")  # a failure, never a pass
        if result.returncode != 0:
            sys.exit("nm failed: %s" % result.stderr.strip())
        for line in result.stdout.splitlines():
            obj, sep, rest = line.partition(": ")
            fields = rest.split()
            if not sep or len(fields) < 2 or obj not in sources:
                continue
            name, kind, source = fields[0], fields[1], sources[obj]
            if kind in "TDRBV":  # global text, data, read-only data, bss
                defined[name] = source
            elif kind == "U":
                used[source].add(name)
    return defined, used


def strongly_connected(graph):
    """Tarjan's components of more than one node, each sorted, in a stable order."""
    index, low, stack, on_stack, found, counter = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
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
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)
