#!/usr/bin/env python3
"""One fact, one place (issues 19, 29): on the bundled sample map, every corpus map and every map of
the public set (tests/public/maps.tsv, when gathered) with header chunks, ONE replace of the
body's map name (with characters each era escapes its own way), of its author time and of its
decoration (to one another real map of the same environment uses) each reaches every copy the
game reads: the header chunks 002 (medals) and 003 (name, decoration) and the XML of 005, read here
from the file's bytes by a parser of its own (not rebyte's model), the XML's mood as real maps
write it. The result verifies and `rebyte check` finds nothing the original did not have, no
header-copies warning included.
Usage: gbx_header_copies.py REBYTE SAMPLE_MAP CORPUS_DIR [PUBLIC_MAPS_DIR]"""
import json, os, re, struct, subprocess, sys, tempfile

rebyte, sample, corpus = sys.argv[1:4]
public = sys.argv[4] if len(sys.argv) > 4 else None
BLOCKS = "/body/chunks/[id={}]"
failures = []


def run(*args):
    return subprocess.run([rebyte, *args], capture_output=True, text=True)


# ---------- the header, read from the bytes ----------

class Reader:
    def __init__(self, data, at=0):
        self.d, self.at, self.ids = data, at, None

    def u8(self):
        self.at += 1
        return self.d[self.at - 1]

    def u32(self):
        self.at += 4
        return struct.unpack_from("<I", self.d, self.at - 4)[0]

    def i32(self):
        return struct.unpack("<i", struct.pack("<I", self.u32()))[0]

    def string(self):
        n = self.u32()
        self.at += n
        return self.d[self.at - n:self.at]

    def lookback(self):
        if self.ids is None:
            self.u32()  # the table's version word
            self.ids = []
        v = self.u32()
        if v == 0xFFFFFFFF:
            return None
        if v & 0xC0000000 and not v & 0x3FFFFFFF:
            s = self.string()
            self.ids.append(s)
            return s
        if v & 0xC0000000:
            return self.ids[(v & 0x3FFFFFFF) - 1]
        return v

    def meta(self):
        return (self.lookback(), self.lookback(), self.lookback())


def header_chunks(data):
    """{id: payload} of a version 6 file's user data."""
    if data[:3] != b"GBX" or struct.unpack_from("<H", data, 3)[0] < 6:
        return {}
    r = Reader(data, 13)
    r.u32()  # user data size
    count = r.u32()
    table = [(r.u32(), r.u32() & 0x7FFFFFFF) for _ in range(count)]
    chunks = {}
    for cid, size in table:
        chunks[cid & 0xFFF] = data[r.at:r.at + size]
        r.at += size
    return chunks


def header_facts(data):
    """What the header says: name and decoration (003), author time (002), XML attributes (005)."""
    chunks, facts = header_chunks(data), {}
    if 0x003 in chunks:
        r = Reader(chunks[0x003])
        r.u8()
        r.meta()
        facts["name003"] = r.string()
        r.u8()
        version = chunks[0x003][0]
        if version >= 2:
            r.u32()
            r.string()
            facts["decoration003"] = r.meta()[0]
    if 0x002 in chunks:
        r = Reader(chunks[0x002])
        version = r.u8()
        if version <= 2:
            r.meta()
            r.string()
        r.u32()
        if version >= 1:
            facts["times002"] = [r.i32() for _ in range(4)]
    if len(chunks.get(0x005, b"")) >= 4:
        xml = Reader(chunks[0x005]).string().decode("utf-8", "replace")
        facts["xml"] = dict(re.findall(r' (\w+)="([^"]*)"', xml))
        facts["old_style"] = xml.startswith('<header type="challenge"') and ' exever="0.' in xml.split(">")[0]
        facts["exever"] = facts["xml"].get("exever", "")
        facts["apos"] = "&apos;" in xml
    return facts


def xml_text(value, old, apos=False):
    if value.startswith("\ufeff"):
        value = value[1:]
    if old:
        escaped = '&<>"%+' + ("'" if apos else "")  # no real map shows an old-style apostrophe: either
        return "".join("+" if c == " " else "%%%02X" % ord(c) if c in escaped else c for c in value)
    value = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    return value.replace("'", "&apos;") if apos else value


def mood_of(decoration, exever):
    """The mood real maps write for a decoration: before exever 3 the decoration itself; from 3 on
    the time of day ("Land48x48Night", "48x48Screen155Day": "Night", "Day"; "Day48", TM2020's
    "Day64": "Day"; ManiaPlanet's "64x64Day": "Day64")."""
    if not exever[:1].isdigit() or int(exever.split(".")[0]) < 3:
        return decoration
    rest = decoration.rsplit("48x48", 1)[1] if "48x48" in decoration else decoration
    sized = re.match(r"^(\d\d)x\1(.+)$", rest) if "48x48" not in decoration else None
    if sized:
        rest = sized.group(2)
    time = re.search(r"Sunrise|Sunset|Night|Day", rest)
    if time:
        tail = rest[time.end():]
        rest = rest[time.start():] if not tail.isdigit() else time.group(0)
    elif rest.endswith("48") and len(rest) > 2:
        rest = rest[:-2]
    return rest + (sized.group(1) if sized else "")


def mood_text(decoration, exever):
    """The mood as the XML spells it: moods are no names, the first games spell no space '+' in them."""
    return xml_text(mood_of(decoration, exever), False)


# ---------- the edits ----------

def body_facts(model):
    out = {}
    for c in model["body"]["chunks"]:
        if c["id"][-3:] in ("01F", "013") and "mapName" in c:
            out.update(blocks=c["id"], name=c["mapName"], decoration=c["decoration"]["id"])
        if c["id"][-3:] == "011" and "challengeParameters" in c:
            for p in c["challengeParameters"].get("chunks", []):
                if p["id"][-3:] == "004":
                    out["medals"] = (c["id"], p["id"], [p[k] for k in ("bronzeTime", "silverTime", "goldTime", "authorTime")])
    return out


# environment -> decorations real maps of it use (the maps under test), to move a map to another
# the decorations the sample's and the corpus's maps use, and those only the public set's use: a
# corpus map is given one of the first whether the public set is there or not (the same edits as
# without it), a public map one of either
DECORATIONS, PUBLIC_DECORATIONS, PUBLIC_MAP = {}, {}, [False]


def learn_decorations(model, pool):
    for c in model["body"]["chunks"]:
        d = c.get("decoration") if isinstance(c, dict) else None
        if isinstance(d, dict) and isinstance(d.get("id"), str) and d["id"]:
            env = str(c.get("mapInfo", {}).get("collection", d.get("collection")))
            pool.setdefault(env, set()).add(d["id"])


def environment(model, body):
    for c in model["body"]["chunks"]:
        if c.get("id") == body["blocks"]:
            return str(c.get("mapInfo", {}).get("collection"))


def new_decoration(env, decoration, exever):
    """Another decoration a real map of `env` uses, whose mood differs when one does."""
    others = DECORATIONS.get(env, set()) | (PUBLIC_DECORATIONS.get(env, set()) if PUBLIC_MAP[0] else set())
    others = sorted(others - {decoration})
    others.sort(key=lambda d: mood_of(d, exever) == mood_of(decoration, exever))
    return others[0] if others else None


def edits(body, env, exever):
    name = "Renamed & \"tested\" <1> it's"
    yield "name", name, [{"op": "replace", "path": BLOCKS.format(body["blocks"]) + "/mapName", "value": name}]
    if "medals" in body and body["medals"][2][3] > 1000 and min(body["medals"][2]) > 0:
        outer, inner, times = body["medals"]
        yield "author time", times[3] - 7, [{"op": "replace", "value": times[3] - 7,
            "path": f"/body/chunks/[id={outer}]/challengeParameters/chunks/[id={inner}]/authorTime"}]
    other = new_decoration(env, body.get("decoration"), exever) if isinstance(body.get("decoration"), str) else None
    if other:
        yield "mood", other, [{"op": "replace", "value": other, "path": BLOCKS.format(body["blocks"]) + "/decoration/id"}]


def copies_before(before, body):
    """Which copies held the body's value in the original (those the edit must reach)."""
    old, xml, exever = before.get("old_style"), before.get("xml", {}), before.get("exever", "")
    held = set()
    if before.get("name003") == body["name"].encode():
        held.add("name003")
    if xml.get("name") in (xml_text(body["name"], old), xml_text(body["name"], old, True)):
        held.add("xml name")
    if "medals" in body and before.get("times002") == body["medals"][2]:
        held.add("times002")
    if "medals" in body and xml.get("authortime") == str(body["medals"][2][3]):
        held.add("xml authortime")
    if before.get("decoration003") == str(body.get("decoration")).encode():
        held.add("decoration003")
    mood = mood_text(str(body.get("decoration")), exever)
    if xml.get("mood") and xml.get("mood").startswith(mood):  # TM2020 writes "DayScreen16x9" for 48x48Day
        held.add("xml mood")
    return held


def check_edit(path, label, value, before, after, held):
    old, xml, exever = after.get("old_style"), after.get("xml", {}), after.get("exever", "")
    if label == "name":
        # the file's own escaping: a file that wrote &apos; keeps writing it; others may write either
        spellings = {xml_text(value, old, True)} if before.get("apos") else {xml_text(value, old), xml_text(value, old, True)}
        expect = {"name003": after.get("name003") == value.encode(), "xml name": xml.get("name") in spellings}
    elif label == "author time":
        expect = {"times002": (after.get("times002") or [None] * 4)[3] == value,
                  "xml authortime": xml.get("authortime") == str(value)}
    else:
        tail = before.get("xml", {}).get("mood", "")[len(mood_text(str(before.get("decoration_body")), exever)):]
        expect = {"decoration003": after.get("decoration003") == value.encode(),
                  "xml mood": xml.get("mood") == mood_text(value, exever) + tail}
    for copy, ok in expect.items():
        if copy in held and not ok:
            failures.append(f"{os.path.basename(path)}: {label}: the header's {copy} did not follow the body")
    return sum(1 for copy in expect if copy in held)


def problems(path):
    lines = run("check", path).stdout.splitlines()
    return set(l.split(": ", 1)[1] for l in lines if not re.search(r": ok( \(\d+ warnings?\))?$", l))


KNOWN = []
PROBLEMS = {}  # each original's check findings


def kept_copy_refused(path, error):
    """A copy the file stores in its own way (an id written in full again, ...) stays in the model
    (docs/formats/gbx.md "Header copies"): an edit of its fact is refused by the header-copies
    rule, which names the copy to remove. Counted, not a failure."""
    kept = re.findall(r"keeps its own (\w+)", run("verify", path).stdout)
    m = re.search(r"game rule header-copies at /headerChunks/\[id=0x[0-9A-F]+\]/(\w+)", error)
    if m and m.group(1) in kept:
        KNOWN.append(f"{os.path.basename(path)}: {m.group(1)}")
        return True
    return False


def one_map(path, tmp):
    data = open(path, "rb").read()
    before = header_facts(data)
    if not before:
        return 0
    model = MODELS.get(path)
    if model is None:
        return 0
    body = body_facts(model)
    if "blocks" not in body:
        return 0
    before["decoration_body"] = body.get("decoration")
    held, reached = copies_before(before, body), 0
    for label, value, patch in edits(body, environment(model, body), before.get("exever", "")):
        pfile, out = os.path.join(tmp, "p.json"), os.path.join(tmp, "out.Gbx")
        json.dump(patch, open(pfile, "w"))
        p = run("apply", "-q", pfile, path, "-o", out)
        if p.returncode != 0 and kept_copy_refused(path, p.stderr):
            continue
        if p.returncode != 0:
            failures.append(f"{os.path.basename(path)}: {label}: apply failed: {p.stderr.strip()}")
            continue
        reached += check_edit(path, label, value, before, header_facts(open(out, "rb").read()), held)
        if run("verify", "-q", out).returncode != 0:
            failures.append(f"{os.path.basename(path)}: {label}: the result does not verify")
        # a copy the file keeps in its own way is refused above; the XML must follow: no warning
        if path not in PROBLEMS:
            PROBLEMS[path] = problems(path)
        new = {x for x in problems(out) if x.split(": ")[0] != "header-copies" or "/xml" in x} - PROBLEMS[path]
        if new:
            failures.append(f"{os.path.basename(path)}: {label}: check finds {sorted(new)}")
    return reached


maps, public_maps = [sample], set()
for folder, what in ((corpus, "corpus"), (public, "public set")):
    if folder and os.path.isdir(folder):
        found = sorted(os.path.join(folder, f) for f in os.listdir(folder)
                       if f.lower().endswith((".map.gbx", ".challenge.gbx")) or (what == "public set" and f.lower().endswith(".gbx")))
        # the public set is sampled evenly (every one of them is verified and checked by public_world)
        maps += found if what == "corpus" else found[::max(1, len(found) // 30)]
        public_maps |= set() if what == "corpus" else set(found[::max(1, len(found) // 30)])
    elif folder:
        print(f"{what} not found at {folder}: its maps are skipped")
MODELS = {}  # each map's dump, read once
for m in maps:
    p = run("dump", m)
    if p.returncode == 0:
        MODELS[m] = json.loads(p.stdout)
        learn_decorations(MODELS[m], PUBLIC_DECORATIONS if m in public_maps else DECORATIONS)
with tempfile.TemporaryDirectory() as tmp:
    counted = {}
    for m in maps:
        PUBLIC_MAP[0] = m in public_maps
        counted[m] = one_map(m, tmp)
copies = sum(counted.values())
if copies < len(maps):
    failures.append(f"only {copies} header copies were followed over {len(maps)} maps: the test reads too little")
for f in failures:
    print("FAIL", f)
print(f"header copies: {len(maps)} maps, {copies} copies followed one body edit, {len(failures)} failures; "
      f"edits refused because the file keeps its own copy: {KNOWN}")
sys.exit(1 if failures else 0)
