#!/usr/bin/env python3
"""apply's proof that a race recording is unchanged (docs/usage.md "Race recordings"). apply notes every
node its operations went through or put in place, compares the records it reached with a fresh
read of the original, and hands the write that proof, so the write's guard does not read the
original again (patch/apply_recordings.c, core/doc/recording_guard.c). This checks that the proof still
refuses each way an operation reaches a record, on a corpus map holding its validation ghost:
  a string, a number and a list element inside the ghost replaced or removed, a value copied into
  it, a value moved out of it, and the ghost's whole chunk replaced by its own dump with one
  string changed (a node put in place above the record), and the map's text form patched to
  binary (the records unchanged, but that needs the original beside them: the write's guard
  decides it): each refused naming the race record, nothing written; a rename outside the ghost is written, and the ghost in the output dumps as
  the original's.
Usage: apply_trace.py REBYTE MAP (exit 77 when the map is absent)."""
import json, os, subprocess, sys, tempfile



def arguments():
    """REBYTE and MAP, or None when the map is absent (the test is then skipped)."""
    if len(sys.argv) == 3 and os.path.isfile(sys.argv[2]):
        return sys.argv[1], sys.argv[2]
    print("skipped: no map at", sys.argv[2] if len(sys.argv) > 2 else "(none given)")
    return None


given = arguments()
if given is None:
    sys.exit(77)
rebyte, map_path = given
failures = []
PARAMS = "/body/chunks/[id=0x03043011]/challengeParameters/chunks"


def run(*args):
    return subprocess.run([rebyte, *args], capture_output=True)


def ghost_of(dump):
    chunk = next(c for c in dump["body"]["chunks"] if c.get("id") == "0x03043011")
    holders = [(i, c) for i, c in enumerate(chunk["challengeParameters"]["chunks"]) if "raceValidateGhost" in c]
    return holders[0] if holders else (None, None)


def member_path(ghost, member):
    """The ghost's chunk holding `member` (a value of the dump), as a path below the ghost."""
    for i, c in enumerate(ghost["chunks"]):
        if member in c:
            return f"/chunks/{i}/{member}", c[member]
    return None, None


with tempfile.TemporaryDirectory() as tmp:
    t = lambda n: os.path.join(tmp, n)
    run("dump", map_path, "-o", t("d.json"))
    dump = json.load(open(t("d.json"), encoding="utf-8"))
    index, holder = ghost_of(dump)
    if holder is None:
        print("FAIL: no validation ghost in", map_path)
        sys.exit(1)
    ghost = holder["raceValidateGhost"]
    g = f"{PARAMS}/{index}/raceValidateGhost"
    nick, nick_value = member_path(ghost, "ghostNickname")
    time, time_value = member_path(ghost, "raceTime")
    login, _ = member_path(ghost, "ghostLogin")
    uid, _ = member_path(ghost, "validateChallengeUid")
    checkpoints, _ = member_path(ghost, "checkpoints")
    if None in (nick, time, login, uid, checkpoints):
        print("FAIL: the ghost lacks a member this test edits")
        sys.exit(1)
    changed_holder = json.loads(json.dumps(holder))
    changed_ghost = changed_holder["raceValidateGhost"]
    changed_ghost["chunks"][int(nick.split("/")[2])]["ghostNickname"] = "X" + nick_value[1:]
    reaching = {
        "a string replaced": [{"op": "replace", "path": g + nick, "value": "X" + nick_value[1:]}],
        "a number replaced": [{"op": "replace", "path": g + time, "value": time_value - 1}],
        "a list element removed": [{"op": "remove", "path": g + checkpoints + "/0"}],
        "a value copied in": [{"op": "copy", "from": "/body/chunks/[id=0x0304301F]/mapName", "path": g + login}],
        "a value moved out": [{"op": "move", "from": g + uid, "path": "/body/chunks/[id=0x0304301F]/mapName"}],
        "its chunk put in place": [{"op": "replace", "path": f"{PARAMS}/{index}", "value": changed_holder}],
    }
    for what, ops in reaching.items():
        json.dump(ops, open(t("p.json"), "w"))
        out = t("a.Gbx")
        if os.path.exists(out):
            os.unlink(out)
        result = run("apply", "--patch", t("p.json"), map_path, "-o", out)
        if result.returncode == 0 or os.path.exists(out):
            failures.append(f"{what}: written (exit {result.returncode})")
        elif b"race record" not in result.stderr:
            failures.append(f"{what}: refused for another reason: {result.stderr.decode(errors='replace')[:300]}")
    # the records unchanged, the encoding changed: the map's text form written as binary needs its
    # original beside it, which the write's own guard decides
    run("convert", "--to", "text", map_path, "-o", t("m.txt"))
    json.dump([{"op": "replace", "path": "/format", "value": "B"}], open(t("f.json"), "w"))
    result = run("apply", "--patch", t("f.json"), t("m.txt"), "-o", t("f.Gbx"))
    if result.returncode == 0 or os.path.exists(t("f.Gbx")) or b"race record" not in result.stderr:
        failures.append(f"its text form patched to binary: not refused naming the race record (exit {result.returncode})")
    json.dump([{"op": "replace", "path": "/body/chunks/[id=0x0304301F]/mapName", "value": "Renamed"}],
              open(t("r.json"), "w"))
    result = run("apply", "--patch", t("r.json"), map_path, "-o", t("r.Gbx"))
    if result.returncode != 0:
        failures.append(f"a rename outside the ghost: exit {result.returncode}: {result.stderr.decode(errors='replace')[:300]}")
    else:
        run("dump", t("r.Gbx"), "-o", t("r.json.dump"))
        _, renamed_holder = ghost_of(json.load(open(t("r.json.dump"), encoding="utf-8")))
        if renamed_holder is None or renamed_holder["raceValidateGhost"] != ghost:
            failures.append("a rename outside the ghost: the ghost in the output is not the original's")
for f in failures:
    print("FAIL", f)
print(f"apply refuses each of 6 ways of reaching the validation ghost and its text form made binary, and keeps "
      f"the ghost through a rename "
      f"({len(failures)} failures)")
sys.exit(1 if failures else 0)
