#!/usr/bin/env python3
"""How each era's header XML spells the facts it copies (docs/formats/gbx.md "Header copies"),
on maps the project writes itself: the bundled sample map given a header XML (chunk 0x03043005)
of each era as a template, a name and a decoration, built by `rebyte build`. The XML is read
from the built file's bytes (not through rebyte's model) and compared with what the games write:
the first games (type="challenge", exever 0.x) spell a name's space '+' but keep a mood's
("Day " of TM Sunrise's Coast); TMNF escapes XML; from exever 3 the mood is the decoration's
time of day ("48x48Screen155Day" and TM2020's "Day64" are "Day", ManiaPlanet's "64x64Day" is
"Day64"). Each built map reads back exact and `check` finds no header-copies warning; a mood
edit of a Day64 map reaches the XML.

Then a tool-written map: its XML name is "Template" while its body names it otherwise (as a
track generator leaves it). `check` reports the mismatch; a rename reaches the XML name (the
game writes the XML from the body), the result reads back exact, the rename's diff is one
operation and re-applies to the same bytes.
Usage: xml_spellings.py REBYTE SAMPLE_MAP_JSON"""
import json, os, re, struct, subprocess, sys, tempfile

rebyte, sample_json = sys.argv[1:3]
failures = []

OLD = '<header type="challenge" version="TMc.6" exever="0.1.4.3">'
TMNF = '<header type="challenge" version="TMc.6" exever="2.11.26">'
TM2020 = '<header type="map" exever="3.3.0" exebuild="2024-01-01_00_00" title="TMStadium">'

# (era's opening tag, body name, decoration id, the XML's name, the XML's mood)
CASES = [
    (OLD, "Paradise Island", "Day ", "Paradise+Island", "Day "),
    (OLD, "1+1 = 100% <&>", "Sunset", "1%2B1+=+100%25+%3C%26%3E", "Sunset"),
    (OLD, "Coast", "Sunrise ", "Coast", "Sunrise "),
    (TMNF, "Rock & \"Roll\" <1>", "Sunrise ", "Rock &amp; &quot;Roll&quot; &lt;1&gt;", "Sunrise "),
    (TMNF, "A B", "Day", "A B", "Day"),
    (TM2020, "A B", "48x48Screen155Day", "A B", "Day"),
    (TM2020, "x", "48x48Screen155Sunset", "x", "Sunset"),
    (TM2020, "x", "Day64", "x", "Day"),
    (TM2020, "x", "Sunrise64", "x", "Sunrise"),
    (TM2020, "x", "64x64Day", "x", "Day64"),
    (TM2020, "x", "NoStadium48x48Night", "x", "Night"),
    (TM2020, "x", "Land48x48Night", "x", "Night"),
    (TM2020, "x", "Sunrise48", "x", "Sunrise"),
    (TM2020, "x", "48x48Day", "x", "Day"),
]


def run(*args):
    return subprocess.run([rebyte, *args], capture_output=True, text=True)


def header_xml(data):
    """The text of header chunk 0x03043005, read from a version 6 file's user data."""
    count = struct.unpack_from("<I", data, 17)[0]
    at, table = 21, []
    for _ in range(count):
        cid, size = struct.unpack_from("<II", data, at)
        table.append((cid, size & 0x7FFFFFFF))
        at += 8
    for cid, size in table:
        if cid == 0x03043005:
            n = struct.unpack_from("<I", data, at)[0]
            return data[at + 4:at + 4 + n].decode("utf-8")
        at += size
    return None


def attribute(xml, element, name):
    m = re.search(r"<%s\b[^>]*?\s%s=\"([^\"]*)\"" % (element, name), xml)
    return m.group(1) if m else None


def made_map(tmp, opening, name, decoration, xml_name=None):
    """The sample with this name and decoration and an XML of its era: its name derived, or
    `xml_name` as the XML's own words (a tool-written map)."""
    d = json.load(open(sample_json))
    for c in d["body"]["chunks"]:
        if "decoration" in c:
            c["mapName"], c["decoration"]["id"] = name, decoration
    name_part = xml_name if xml_name is not None else {"derived": "name"}
    template = [opening + '<ident uid="', {"derived": "uid"}, '" name="', name_part, '" author="',
                {"derived": "author"}, '"/><desc envir="Stadium" mood="', {"derived": "mood"},
                '" type="Race" nblaps="0" price="120" /><times bronze="', {"derived": "bronze"}, '" silver="',
                {"derived": "silver"}, '" gold="', {"derived": "gold"}, '" authortime="', {"derived": "authortime"},
                '" authorscore="0"/><deps></deps></header>']
    parts = []  # a literal name joins the strings around it
    for p in template:
        if isinstance(p, str) and parts and isinstance(parts[-1], str):
            parts[-1] += p
        else:
            parts.append(p)
    d["headerChunks"].append({"id": "0x03043005", "heavy": True, "xmlTemplate": parts})
    src, out = os.path.join(tmp, "made.json"), os.path.join(tmp, "made.Map.Gbx")
    json.dump(d, open(src, "w"))
    p = run("build", src, "-o", out)
    if p.returncode != 0:
        failures.append(f"{decoration!r}: build failed: {p.stderr.strip()}")
        return None
    return out


def xml_warnings(path):
    return [l for l in run("check", path).stdout.splitlines() if "header-copies (warning)" in l]


with tempfile.TemporaryDirectory() as tmp:
    for opening, name, decoration, want_name, want_mood in CASES:
        era = re.search(r'exever="([^"]+)"', opening).group(1)
        made = made_map(tmp, opening, name, decoration)
        if not made:
            continue
        xml = header_xml(open(made, "rb").read())
        got = (attribute(xml, "ident", "name"), attribute(xml, "desc", "mood"))
        if got != (want_name, want_mood):
            failures.append(f"exever {era}, {name!r} on {decoration!r}: the XML says name={got[0]!r} mood={got[1]!r}, "
                            f"the game writes name={want_name!r} mood={want_mood!r}")
        if run("verify", "-q", made).returncode != 0:
            failures.append(f"exever {era}, {decoration!r}: the made map does not read back exact")
        if xml_warnings(made):
            failures.append(f"exever {era}, {decoration!r}: check warns {xml_warnings(made)}")

    # a mood edit reaches the XML on the 2026 decorations (TM2020's Day64 shows as Day)
    made = made_map(tmp, TM2020, "x", "Day64")
    if made:
        patch, moved = os.path.join(tmp, "mood.json"), os.path.join(tmp, "moved.Map.Gbx")
        json.dump([{"op": "replace", "path": "/body/chunks/[id=0x0304301F]/decoration/id", "value": "Sunset64"}],
                  open(patch, "w"))
        if run("apply", "-q", patch, made, "-o", moved).returncode != 0:
            failures.append("the mood edit of a Day64 map failed")
        elif attribute(header_xml(open(moved, "rb").read()), "desc", "mood") != "Sunset":
            failures.append("after a mood edit from Day64 to Sunset64 the XML mood is not Sunset")

    # a tool-written map whose XML name is not its body's
    made = made_map(tmp, TMNF, "Generated track 7", "Day", xml_name="Template")
    if made:
        tool = os.path.join(tmp, "tool.Map.Gbx")
        os.replace(made, tool)
        if run("verify", "-q", tool).returncode != 0:
            failures.append("the tool-written map does not read back exact")
        if not any('name="Template"' in w for w in xml_warnings(tool)):
            failures.append("check does not report the tool-written map's XML name")
        patch, renamed = os.path.join(tmp, "rename.json"), os.path.join(tmp, "renamed.Map.Gbx")
        json.dump([{"op": "replace", "path": "/body/chunks/[id=0x0304301F]/mapName", "value": "Renamed it's"}],
                  open(patch, "w"))
        p = run("apply", "-q", patch, tool, "-o", renamed)
        if p.returncode != 0:
            failures.append(f"the rename of the tool-written map failed: {p.stderr.strip()}")
        else:
            xml_name = attribute(header_xml(open(renamed, "rb").read()), "ident", "name")
            if xml_name != "Renamed it's":
                failures.append(f"after the rename the XML name is {xml_name!r}, not the body's")
            if run("verify", "-q", renamed).returncode != 0:
                failures.append("the renamed tool-written map does not read back exact")
            if xml_warnings(renamed):
                failures.append(f"the renamed map still warns: {xml_warnings(renamed)}")
            diff = run("diff", tool, renamed)
            ops = json.loads(diff.stdout).get("operations", []) if diff.returncode in (0, 1) and diff.stdout else None
            ops = None if ops is None else [o for o in ops if o.get("op") != "test"]  # the diff's pins are not edits
            if ops is None or len(ops) != 1:
                failures.append(f"the rename's diff is not one operation: {diff.stdout.strip()[:300]} {diff.stderr.strip()}")
            else:
                dfile, again = os.path.join(tmp, "rename.diff"), os.path.join(tmp, "again.Map.Gbx")
                open(dfile, "w").write(diff.stdout)
                if run("apply", "-q", dfile, tool, "-o", again).returncode != 0 or \
                        open(again, "rb").read() != open(renamed, "rb").read():
                    failures.append("the rename's diff does not re-apply to the same bytes")

for f in failures:
    print("FAIL", f)
print(f"XML spellings: {len(CASES)} eras and decorations, a mood edit, a tool-written rename; {len(failures)} failures")
sys.exit(1 if failures else 0)
