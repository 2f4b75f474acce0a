"""The model checks of tests/gbx_ghost/corpus.sh, each corpus file's dump read once for all of them
(one interpreter for the corpus, not one a file and a check):
  - no ghost or replay chunk (CGameCtnGhost 0x03092xxx, CGameCtnReplayRecord 0x03093xxx) of a map
    or a replay is kept as bytes ({"id", "data"});
  - the maps whose ChallengeParameters have chunk 0x0305B00D (a raceValidateGhost, an object or a
    null reference): where it holds a ghost (a node with a classId), its samples are typed
    (an "id" 0x0303F003, 005 or 006 in the map);
  - every replay's map (chunk 002) is part of the model ("map" an object);
  - the first nickname or race time of every ghost and replay (a race recording), for the shell
    to patch: "recording FILE POINTER";
  - the first map (in name order) holding a validation ghost with a nickname: "validation FILE
    POINTER" (the ghost's nickname).
Prints "FAIL ..." lines, those lines and "counts WITH_CHUNK WITH_GHOST REPLAYS".
Usage: corpus_dumps.py DUMP_DIR CORPUS_FILE... (the dump of F is DUMP_DIR/basename(F).json)"""
import json, os, sys

dump_dir, files = sys.argv[1], sorted(sys.argv[2:], key=os.path.basename)
GHOST_SAMPLES = {"0x0303F003", "0x0303F005", "0x0303F006"}


def walk(node, visit):
    """Calls visit(dict) on every object of the tree."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, dict):
            visit(n)
            stack.extend(n.values())
        elif isinstance(n, list):
            stack.extend(n)


def first_recording_field(n, p):
    """The JSON pointer of the first nickname or race time, depth first in key order."""
    if isinstance(n, dict):
        for k in ("ghostNickname", "raceTime", "playerNickname", "nickname"):
            if k in n and not isinstance(n[k], (dict, list)):
                return p + "/" + k
        for k, v in n.items():
            r = first_recording_field(v, p + "/" + k)
            if r:
                return r
    if isinstance(n, list):
        for i, v in enumerate(n):
            r = first_recording_field(v, p + "/" + str(i))
            if r:
                return r
    return None


def validation_nickname(model):
    """The pointer of a map's validation ghost's nickname, or None."""
    for i, c in enumerate(model["body"]["chunks"]):
        for j, p in enumerate(c.get("challengeParameters", {}).get("chunks", [])):
            for k, g in enumerate(p.get("raceValidateGhost", {}).get("chunks", [])):
                if "ghostNickname" in g:
                    return f"/body/chunks/{i}/challengeParameters/chunks/{j}/raceValidateGhost/chunks/{k}/ghostNickname"
    return None


with_chunk = with_ghost = replays = 0
validation = None
for path in files:
    name = os.path.basename(path)
    try:
        model = json.load(open(os.path.join(dump_dir, name + ".json")))
    except (OSError, ValueError):
        print(f"FAIL dump {name}")
        continue
    seen = {"kept": [], "validate": [], "ids": set(), "map": False, "nickname": False, "ctn_map": False}

    def visit(d):
        cid = d.get("id")
        if isinstance(cid, str):
            seen["ids"].add(cid)
            if cid[:7].upper() in ("0X03092", "0X03093") and set(d) == {"id", "data"}:
                seen["kept"].append(cid)
        if isinstance(d.get("raceValidateGhost"), dict):
            seen["validate"].append(d["raceValidateGhost"])
        seen["map"] |= isinstance(d.get("map"), dict)
        seen["nickname"] |= "ghostNickname" in d
        seen["ctn_map"] |= d.get("classId") == "0x03043000"

    walk(model, visit)
    is_map, is_replay = name.endswith((".Map.Gbx", ".Challenge.Gbx")), name.endswith(".Replay.Gbx")
    if (is_map or is_replay) and seen["kept"]:
        print(f"FAIL {name}: ghost or replay chunks kept as bytes: {' '.join(seen['kept'])}")
    if is_map and seen["validate"]:
        with_chunk += 1
        if any("classId" in g for g in seen["validate"]):
            with_ghost += 1
            if not seen["ids"] & GHOST_SAMPLES:
                print(f"FAIL {name}: validation ghost without typed samples")
    if is_replay:
        replays += 1
        if not seen["map"]:
            print(f"FAIL {name}: the embedded map is not in the model")
    if name.endswith((".Ghost.Gbx", ".Replay.Gbx")):
        pointer = first_recording_field(model, "")
        if pointer:
            print(f"recording {path} {pointer}")
    if validation is None and seen["validate"] and seen["nickname"] and seen["ctn_map"]:
        pointer = validation_nickname(model)
        if pointer:
            validation = f"validation {path} {pointer}"
if validation:
    print(validation)
print(f"counts {with_chunk} {with_ghost} {replays}")
