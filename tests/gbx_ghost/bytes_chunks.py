# Prints the ghost and replay chunks (CGameCtnGhost 0x03092xxx, CGameCtnReplayRecord 0x03093xxx)
# that a dump keeps as bytes ({"id", "data"}): since the race result, 02B and the replay's 01E..023
# are typed, no corpus file has one. Usage: bytes_chunks.py DUMP.json
import json, sys

def walk(n):
    if isinstance(n, dict):
        cid = n.get("id")
        if isinstance(cid, str) and cid[:7].upper() in ("0X03092", "0X03093") and set(n) == {"id", "data"}:
            print(cid)
        for v in n.values():
            walk(v)
    elif isinstance(n, list):
        for v in n:
            walk(v)

walk(json.load(open(sys.argv[1])))
