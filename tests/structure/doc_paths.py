#!/usr/bin/env python3
"""The docs' paths are real: every JSON pointer a page of docs/ or the README shows
in a patch ("path" or "from"), or alone on a line of a code block, must lead somewhere in a file
at hand — a sample, or a corpus file when REBYTE_SHARED has them (a `test` operation through
`rebyte apply --dry-run`, so identity selectors resolve as in a patch);
placeholders ("...", N, K, <CHUNK>, a final "-" of an add) are not paths and are skipped.
Usage: doc_paths.py REBYTE SOURCE_DIR [SHARED_DIR]"""
import glob, json, os, re, subprocess, sys, tempfile

rebyte, source = sys.argv[1], sys.argv[2]
shared = sys.argv[3] if len(sys.argv) > 3 else ""
pages = sorted(glob.glob(os.path.join(source, "docs", "*.md")) + glob.glob(os.path.join(source, "docs", "formats", "*.md"))
               + [os.path.join(source, "README.md")])
found = {}
for page in pages:
    text = open(page, encoding="utf-8").read()
    for m in re.finditer(r'"(?:path|from)":\s*"(/[^"]*)"', text):
        found.setdefault(m.group(1), os.path.relpath(page, source))
    # a pointer alone at the start of a line of a code block (the selector examples)
    for block in re.findall(r"```[a-z]*\n(.*?)```", text, re.S):
        for m in re.finditer(r"^(/(?:body|headerChunks|chunks|groups|swap|bodies|sections)/\S*)", block, re.M):
            found.setdefault(m.group(1), os.path.relpath(page, source))


def placeholder(pointer):
    tokens = pointer.split("/")[1:]
    return any(t in ("...", "N", "K") or t.startswith("<") for t in tokens)


files = sorted(p for p in glob.glob(os.path.join(source, "samples", "**", "*"), recursive=True)
               if os.path.isfile(p) and not p.endswith((".json", ".md")))
if shared and os.path.isdir(os.path.join(shared, "corpus")):
    files += sorted(p for p in glob.glob(os.path.join(shared, "corpus", "*", "*"))
                    if os.path.isfile(p) and not os.path.basename(p).startswith("MANIFEST"))


def exists_in(path, pointer, tmp):
    """A `test` of the pointer on the file: it may fail on the value, never on the place (the
    engine resolves identity selectors as `apply` does; no JSON rendering of big files)."""
    patch = os.path.join(tmp, "p.json")
    op = {"op": "test", "path": pointer, "value": "rebyte-doc-paths"}
    if "[*]" in pointer:  # every element: a test of each, and at least one must be there
        op["each"] = True
    json.dump([op], open(patch, "w"))
    r = subprocess.run([rebyte, "apply", "--dry-run", patch, path], capture_output=True)
    if b"each: 0 matches" in r.stderr:
        return False
    return r.returncode == 0 or (b"test failed" in r.stderr and b"does not exist" not in r.stderr)


# the files a pointer can be about, by its first token (each format's model root)
ROOTS = {"body": (".gbx",), "headerChunks": (".gbx",), "chunks": (".win",), "groups": (".map",),
         "sections": (".grf", ".scn"), "swap": (".spz",), "bodies": (".tpa",)}


def candidates(pointer):
    ends = ROOTS.get(pointer.split("/")[1], ())
    return [f for f in files if f.lower().endswith(ends)] or files


# Illustrative paths of the data.win cookbook that name a text no sample or corpus file holds.
PENDING = {"/chunks/[id=CODE]/entries/[name=gml_Object_oTitle_Draw_0]/stringOperands/[at=260]/string",
           "/chunks/[id=STRG]/strings/[=old text]"}

failures, checked = [], 0
with tempfile.TemporaryDirectory() as tmp:
    for pointer, page in sorted(found.items()):
        if placeholder(pointer) or pointer in PENDING:
            continue
        checked += 1
        target = pointer[:-2] if pointer.endswith("/-") else pointer  # an add appends to a list that exists
        where = candidates(target)
        if not any(exists_in(f, target, tmp) for f in where):
            failures.append(f"{page}: {pointer} leads nowhere in {len(where)} files")
for f in failures:
    print("FAIL", f)
print(f"doc paths: {checked} pointers of {len(pages)} pages checked against {len(files)} files "
      f"({len(found) - checked} placeholders skipped, {len(failures)} failures)")
sys.exit(1 if failures else 0)
