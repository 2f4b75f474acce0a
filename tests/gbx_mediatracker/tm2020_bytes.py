# The TM2020 media blocks of samples/gbx_mediatracker/tm2020.Clip.json, built uncompressed: their
# bytes as GBX.NET's chunkl files lay them out, packed here independently of the writer.
# Usage: tm2020_bytes.py FILE.Clip.Gbx
import struct, sys
data = open(sys.argv[1], "rb").read()
FACADE = struct.pack("<I", 0xFACADE01)
def expect(what, blob):
    if blob not in data:
        print("missing:", what); sys.exit(1)
s = lambda t: struct.pack("<i", len(t)) + t.encode()
packdesc = lambda path: struct.pack("<B", 2) + s(path) + s("")
EMPTY_ID = struct.pack("<I", 0xFFFFFFFF)
# Entity version 3: no record, start/end, start offset, no notice records, 4 bools, light trail
# colour; (3+) an empty ident, a vec3, no skins, no badge
expect("entity v3", struct.pack("<IIi3fI", 0x0329F000, 3, -1, 0, 3, 0, 0) + struct.pack("<4I3f", 1, 0, 0, 0, 1, 0, 0)
       + EMPTY_ID * 3 + struct.pack("<3fII", 0, 0, 0, 0, 0) + FACADE)
# Entity version 11: the record node is defined in place, then (after its end) the look
expect("entity v11 head", struct.pack("<IIiII", 0x0329F000, 11, 3, 0x0911F000, 0x0911F000) + struct.pack("<I", 10))
keys = struct.pack("<I", 2) + struct.pack("<fifiiff", 0, 0, 1, 0, 0, 1, .5) + struct.pack("<fifiiff", 2, 1, 1, 0, 0, 0, 0)
expect("entity v11 tail", struct.pack("<3fI", 1, .5, 0, 1) + packdesc("Skins\\Models\\CarSport\\Stadium.zip")
       + struct.pack("<II3fi", 1, 0, 0, .5, 1, 1) + s("Flag") + struct.pack("<I", 1) + s("Sticker1") + s("Top")
       + struct.pack("<I", 2) + s("Layer1") + s("Layer2") + s("Options") + keys + s("Rebyte")
       + struct.pack("<iii", 0, -1, 0) + struct.pack("<I", 0x0329F002) + s("Options") + FACADE)
# Object version 0: anchored object infos; version 1: a CGameReplayObjectVisData node in place
expect("object v0", struct.pack("<IIffI", 0x03196000, 0, 0, 5, 1) + struct.pack("<Iifffi", 1, 7, 1, 2, 3, -1) + FACADE)
expect("object v1", struct.pack("<IIffiI", 0x03196000, 1, 1, 4, 8, 0x031A8000) + struct.pack("<III", 0x031A8000, 0, 1)
       + struct.pack("<10i", *range(1, 11)) + struct.pack("<I", 2) + struct.pack("<5i", 10, 20, 30, 40, 50)
       + struct.pack("<5i", -1, -2, -3, -4, -5) + FACADE + FACADE)
# Skel version 4: keys {time, 4 f32, transquats}, i32, (4) i32, 4 f32, (4) f32
expect("skel", struct.pack("<III", 0x0314A000, 4, 2) + struct.pack("<5fI", 0, 1, 0, 0, 1, 2)
       + struct.pack("<7f", 0, 0, 0, 0, 0, 0, 1) + struct.pack("<7f", 1, 0, 0, 0, 0, 0, 1)
       + struct.pack("<5fI", 1, 1, 0, 0, 1, 0) + struct.pack("<ii5f", 0, 1, 100, 1, 100, 1, 0) + FACADE)
# Decal2d: start, end, image packdescs, decals {iso4, scale, f32, bool, i32}
expect("decal 2d", struct.pack("<IffI", 0x031AA000, 0, 2, 1) + packdesc("Media\\Images\\Decal.png") + struct.pack("<I", 1)
       + struct.pack("<12f", 1, 0, 0, 0, 1, 0, 0, 0, 1, 16, 9, 16) + struct.pack("<4fIi", 2, 2, 2, .5, 1, 0) + FACADE)
