"""data.win edit tests on every corpus file (run by edit_tests.sh).

For each file: lengthen a string that structures refer to and shorten the longest string
(renaming them: references name their string by text, so the patch changes them too), add a
string, replace a texture blob with a
larger one (a valid PNG with an extra chunk, or extra bytes where the entry stores the blob size)
and replace (or add) an audio blob. Then:
  * the edited file re-reads;
  * its model equals the original model with the patch applied: every string reference and
    pointer is a link (an index) in the model, so equal models mean every pointer lands on what it
    pointed at before, with the chunks after the edit moved; string references are links by text;
  * chunk alignment, STRG record alignment and 128-byte texture alignment hold in the bytes;
  * a second round trip of the edited file is byte-exact (rebyte verify).
"""
import base64, json, os, struct, subprocess, sys, tempfile, zlib

rebyte = os.environ.get("REBYTE", "rebyte")
corpus = os.path.join(os.environ.get("REBYTE_SHARED", "../shared"), "corpus", "datawin")


def run(*args, **kw):
    return subprocess.run([rebyte, *args], capture_output=True, text=True, **kw)


def dump(path):
    r = run("dump", path, "--blobs=base64")
    if r.returncode:
        raise RuntimeError("dump %s: %s" % (path, r.stderr.strip()))
    return json.loads(r.stdout)


def bigger_png(png):
    """The same image with one more ancillary chunk before IEND (a longer, still valid PNG)."""
    text = b"Comment\0made longer by the rebyte edit test"
    chunk = struct.pack(">I", len(text)) + b"tEXt" + text + struct.pack(">I", zlib.crc32(b"tEXt" + text))
    iend = png.rfind(b"IEND") - 4
    return png[:iend] + chunk + png[iend:]


def chunk_index(model, cid):
    return [c["id"] for c in model["chunks"]].index(cid)


def string_fields(node, path, out):
    """Every JSON string value outside STRG, with its JSON pointer (references are among them)."""
    if isinstance(node, dict):
        if node.get("id") == "STRG":
            return
        for k, v in node.items():
            if k not in ("id", "$blob", "$base64", "$source"):
                string_fields(v, path + "/" + k.replace("~", "~0").replace("/", "~1"), out)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            string_fields(v, "%s/%d" % (path, i), out)
    elif isinstance(node, str):
        out.append((path, node))


def make_patch(model):
    patch = []
    s = chunk_index(model, "STRG")
    strings = model["chunks"][s]["strings"]
    fields = []
    string_fields(model, "", fields)
    referenced = {}
    for path, text in fields:
        referenced.setdefault(text, []).append(path)
    long_i = next(i for i, t in enumerate(strings) if t in referenced)
    short_i = max((i for i in range(len(strings)) if i != long_i and strings[i] not in (strings[long_i],)),
                  key=lambda i: len(strings[i]))
    for i, new in ((long_i, strings[long_i] + " (lengthened by the edit test)"),
                   (short_i, strings[short_i][:1] + " (shortened)")):
        # the references first: a string some of them name as an identifier (a variable's name) is
        # renamed deliberately so; the string's own replace alone would be refused (datawin_follow.c)
        for path in referenced.get(strings[i], []):
            patch.append({"op": "replace", "path": path, "value": new})
        patch.append({"op": "replace", "path": "/chunks/%d/strings/%d" % (s, i), "value": new})
    patch.append({"op": "add", "path": "/chunks/%d/strings/-" % s, "value": "a string added by the edit test"})
    t = chunk_index(model, "TXTR")
    txtr = model["chunks"][t]
    for k, tex in enumerate(txtr.get("textures", [])):
        if "data" in tex:
            blob = base64.b64decode(tex["data"]["$base64"])
            new = bigger_png(blob) if blob.startswith(b"\x89PNG") and txtr["entryWords"] < 4 else blob + b"\x00rebyte" * 40
            patch.append({"op": "replace", "path": "/chunks/%d/textures/%d/data" % (t, k),
                          "value": {"$base64": base64.b64encode(new).decode()}})
            break
    a = chunk_index(model, "AUDO")
    sounds = model["chunks"][a].get("sounds", [])
    sound = base64.b64encode(b"RIFF\x1d\x00\x00\x00WAVEedit-test-sound").decode()
    with_data = [k for k, x in enumerate(sounds) if "data" in x]
    if with_data:
        patch.append({"op": "replace", "path": "/chunks/%d/sounds/%d/data" % (a, with_data[0]), "value": {"$base64": sound}})
    else:
        patch.append({"op": "add", "path": "/chunks/%d/sounds/-" % a, "value": {"data": {"$base64": sound}}})
    return patch


def check_alignment(path, model):
    data = open(path, "rb").read()
    assert data[:4] == b"FORM" and struct.unpack_from("<I", data, 4)[0] == len(data) - 8, "FORM length"
    align = model["chunkAlignment"]
    pos, chunks = 8, []
    while pos < len(data):
        cid = data[pos:pos + 4].decode("latin-1")
        size = struct.unpack_from("<I", data, pos + 4)[0]
        chunks.append((cid, pos + 8, size))
        pos += 8 + size
    assert pos == len(data), "chunk walk ends at EOF"
    for cid, start, size in chunks[:-1]:
        assert (start + size) % align == 0, "%s ends unaligned" % cid
    for cid, start, size in chunks:
        if cid == "STRG":
            n = struct.unpack_from("<I", data, start)[0]
            ptrs = struct.unpack_from("<%dI" % n, data, start + 4)
            rec_align = [c for c in model["chunks"] if c["id"] == "STRG"][0]["recordAlignment"]
            assert all(p % rec_align == 0 for p in ptrs), "STRG record alignment"
            assert (start + size) % 128 == 0 or chunks[-1][0] == "STRG", "STRG ends on 128"
        if cid == "TXTR":
            words = [c for c in model["chunks"] if c["id"] == "TXTR"][0]["entryWords"]
            n = struct.unpack_from("<I", data, start)[0]
            for p in struct.unpack_from("<%dI" % n, data, start + 4):
                blob = struct.unpack_from("<I", data, p + 4 * (words - 1))[0]
                assert blob == 0 or blob % 128 == 0, "texture blob at 0x%x is not 128-aligned" % blob


def test_file(path, tmp):
    name = os.path.basename(path)
    original = dump(path)
    patch = make_patch(original)
    patch_path = os.path.join(tmp, "patch.json")
    json.dump(patch, open(patch_path, "w"))
    edited = os.path.join(tmp, "edited.win")
    r = run("apply", patch_path, path, "-o", edited)
    if r.returncode:
        return "apply: " + r.stderr.strip()
    doc_path = os.path.join(tmp, "original.json")
    json.dump(original, open(doc_path, "w"))
    r = run("json-patch", doc_path, patch_path)
    if r.returncode:
        return "json-patch: " + r.stderr.strip()
    expected = json.loads(r.stdout)
    got = dump(edited)
    if got != expected:
        for i, (a, b) in enumerate(zip(got["chunks"], expected["chunks"])):
            if a != b:
                return "model of the edited file differs from the patched model in chunk %s" % a["id"]
        return "model of the edited file differs from the patched model"
    check_alignment(edited, got)
    r = run("verify", edited)
    if r.returncode:
        return "second round trip: " + (r.stdout + r.stderr).strip()
    if os.path.getsize(edited) == os.path.getsize(path):
        return "the edit did not change the file size"
    return None


def main():
    if not os.path.isdir(corpus):
        print("SKIP: corpus folder %s not found (set REBYTE_SHARED)" % corpus)
        return 77
    files = sorted(f for f in os.listdir(corpus) if not f.endswith((".tsv", ".md")))
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for f in files:
            try:
                why = test_file(os.path.join(corpus, f), tmp)
            except (AssertionError, RuntimeError) as e:
                why = str(e)
            print(("FAIL %s: %s" % (f, why)) if why else "ok   %s" % f)
            failed += why is not None
    print("datawin edits: %d/%d files consistent after string, texture and audio edits" % (len(files) - failed, len(files)))
    return 1 if failed else 0


sys.exit(main())
