#!/usr/bin/env python3
"""The streamer objects table goes back quote-aware: a quoted field holding a line
break, commas and doubled quotes stays one field, CR LF ends records, and only the cells that
changed become operations; the unchanged table gives the map's bytes; a row of another width
is refused naming its row.
Usage: csv_putback.py REBYTE SOURCE_DIR"""
import os, subprocess, sys, tempfile

rebyte, source = sys.argv[1], sys.argv[2]
failures = []
run = lambda *a: subprocess.run([rebyte, *a], capture_output=True)

for name in ("stunt-park.map", "safehouse.map"):
    src = os.path.join(source, "samples", "streamer", name)
    with tempfile.TemporaryDirectory() as tmp:
        t = lambda n: os.path.join(tmp, n)
        run("extract", src, "-o", t("x"), "-q")
        table = open(t("x/objects/objects.csv"), newline="").read()
        same = run("replace", src, "/groups", t("x/objects/objects.csv"), "-o", t("same.map"))
        if same.returncode or open(t("same.map"), "rb").read() != open(src, "rb").read():
            failures.append(f"{name}: the unchanged table does not give the map's bytes")
        rows = table.split("\n")
        if len(rows) < 4:
            failures.append(f"{name}: fewer than 2 objects")
            continue
        first, last = rows[1].split(","), rows[-2].split(",")
        first[9] = '"10\n11, ""quoted"""'  # worlds: a group's, not given back; quoted with a line break
        last[3] = "123.5"                   # x of the last object
        rows[1], rows[-2] = ",".join(first), ",".join(last)
        open(t("edited.csv"), "w", newline="").write("\r\n".join(rows))
        edited = run("replace", src, "/groups", t("edited.csv"), "-o", t("edited.map"))
        if edited.returncode:
            failures.append(f"{name}: a quoted line break broke the table: {edited.stderr.decode()[:300]}")
            continue
        if b"(1 change)" not in edited.stderr:
            failures.append(f"{name}: expected one change: {edited.stderr.decode()[:300]}")
        run("extract", t("edited.map"), "-o", t("y"), "-q")
        back = open(t("y/objects/objects.csv")).read().split("\n")
        if back[-2].split(",")[3] != "123.5" or back[1] != table.split("\n")[1]:
            failures.append(f"{name}: the edit did not land where it was made")
        rows[2] = rows[2] + ",1"
        open(t("wide.csv"), "w", newline="").write("\n".join(rows))
        wide = run("replace", src, "/groups", t("wide.csv"), "-o", t("wide.map"))
        if wide.returncode == 0 or b"row 3" not in wide.stderr or os.path.exists(t("wide.map")):
            failures.append(f"{name}: a row of 14 fields was not refused by its number: {wide.stderr.decode()[:300]}")
for f in failures:
    print("FAIL", f)
print(f"streamer CSV put-back: quoted line breaks, CR LF, one change, a wrong row ({len(failures)} failures)")
sys.exit(1 if failures else 0)
