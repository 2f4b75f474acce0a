#!/usr/bin/env python3
"""Every fact the code relies on is written in the repository.

(a) No source, test or doc cites a fact sheet kept outside the repository: no "facts" + section
    sign, no "<name>-facts" sheet file, no path into the shared spec folder, and no bare section
    number (a section sign followed by a digit) left from such a sheet.
(b) Every citation of the project's docs (a path docs/NAME.md, a space, a heading in double
    quotes, maybe more headings: "A", "B") names a file that exists and headings that file has
    (Markdown `#` headings outside code fences; backticks and `*` do not count when comparing),
    each heading on one line.

Scans core/, patch/, writers/, include/, tests/ (C, headers, shell, Python, CMake), docs/ and
README.md. Prints each problem with its file and line.
Usage: doc_citations.py SOURCE_DIR"""
import os
import re
import sys

root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", ".."))
CODE_DIRS = ("core", "patch", "writers", "include", "tests")
CODE_SUFFIXES = (".c", ".h", ".sh", ".py", ".cmake", "CMakeLists.txt")

# (a): spelled with escapes so that this file does not match itself
SECTION = "\u00a7"
OUTSIDE = [
    (re.compile("facts " + SECTION), "cites a fact sheet section"),
    (re.compile(r"-facts\.md"), "cites a fact sheet file"),
    (re.compile("shared/spec" + "s"), "cites the shared spec folder"),
    (re.compile(SECTION + r"\s*\d"), "cites a section number of an outside sheet"),
]
# (b): a doc path, then the heading in double quotes (possibly on the next comment line, or
# escaped inside a C string); more headings of the same doc may follow (`"A", "B"`, `"A" to "B"`)
GAP = r'(?:[ \t]+|[ \t]*\n[ \t]*(?:\*|#|//)?[ \t]*)'
CITATION = re.compile(r'\b(docs/[A-Za-z0-9_./-]+\.md)' + GAP + r'\\?"([^"\n\\]+)\\?"')
MORE = re.compile(r'[ \t]*(?:,|and|to)' + GAP + r'\\?"([^"\n\\]+)\\?"')
SPLIT = re.compile(r'\b(docs/[A-Za-z0-9_./-]+\.md)[ \t]+\\?"[^"\n]*\n')


def files():
    for d in CODE_DIRS:
        for folder, subdirs, names in os.walk(os.path.join(root, d)):
            subdirs[:] = sorted(s for s in subdirs if not s.startswith("."))
            for name in sorted(names):
                if name.endswith(CODE_SUFFIXES):
                    yield os.path.join(folder, name)
    for folder, subdirs, names in os.walk(os.path.join(root, "docs")):
        subdirs.sort()
        for name in sorted(names):
            if name.endswith(".md"):
                yield os.path.join(folder, name)
    yield os.path.join(root, "README.md")


def plain(heading):
    return re.sub(r"[`*]", "", heading).strip()


headings_cache = {}


def headings(rel):
    if rel not in headings_cache:
        found, fenced = set(), False
        path = os.path.join(root, rel)
        if os.path.isfile(path):
            for line in open(path, encoding="utf-8"):
                if line.lstrip().startswith("```"):
                    fenced = not fenced
                elif not fenced:
                    m = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
                    if m:
                        found.add(plain(m.group(1)))
        else:
            found = None
        headings_cache[rel] = found
    return headings_cache[rel]


problems, citations = [], 0
for path in files():
    if not os.path.isfile(path):
        continue
    rel = os.path.relpath(path, root)
    text = open(path, encoding="utf-8", errors="replace").read()
    for pattern, why in OUTSIDE:
        for m in pattern.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            problems.append("%s:%d: %s: %s" % (rel, line, why, text.splitlines()[line - 1].strip()))
    for m in CITATION.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        doc, cited = m.group(1), [m.group(2)]
        more = MORE.match(text, m.end())
        while more:
            cited.append(more.group(1))
            more = MORE.match(text, more.end())
        known = headings(doc)
        if known is None:
            problems.append('%s:%d: cites %s, which does not exist' % (rel, line, doc))
            continue
        for heading in cited:
            citations += 1
            if plain(heading) not in known:
                problems.append('%s:%d: cites %s "%s", which has no such heading' % (rel, line, doc, heading))
    for m in SPLIT.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        problems.append('%s:%d: cites a heading of %s split across lines (keep it on one line)' % (rel, line, m.group(1)))

for p in problems:
    print("FAIL", p)
print("doc citations: %d citations of docs checked, %d problems" % (citations, len(problems)))
sys.exit(1 if problems else 0)
