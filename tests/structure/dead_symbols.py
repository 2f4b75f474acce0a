#!/usr/bin/env python3
"""No dead function in the library or the program: every non-static function an object
of the library or of the CLI defines is used by another object (of the library, the program, a
test, a benchmark or a fuzz harness), is the public API (RB_API in include/rebyte.h) or is the
program's entry point (main). A function only its own file calls is made static; one nobody
calls is removed. Also a table or constant defined for others and used by none (a GBX chunk table left out of core/gbx/gbx_tables.h is never looked up).
Usage: dead_symbols.py SOURCE_DIR BUILD_DIR OBJECT... (the library's and the CLI's)"""
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from object_symbols import read_objects, source_of  # noqa: E402

source_dir, build_dir, library = sys.argv[1], sys.argv[2], sys.argv[3:]
with open(os.path.join(source_dir, "include", "rebyte.h"), encoding="utf-8") as f:
    api = set(re.findall(r"^RB_API .*?[ *](rb_[a-z_0-9]+)\(", f.read(), re.M))
api.add("main")  # the program's entry point: the system calls it

defined, _ = read_objects(source_dir, library)
# every object of this build tree whose source still exists uses what it leaves undefined
everything = [o for o in glob.glob(os.path.join(build_dir, "**", "*.o"), recursive=True)
              if source_of(source_dir, o)]
_, used = read_objects(source_dir, everything)
users = {}
for source, names in used.items():
    for name in names:
        if defined.get(name) not in (None, source):
            users.setdefault(name, source)

dead = sorted((source, name) for name, source in defined.items() if name not in users and name not in api)
for source, name in dead:
    print("FAIL %s: %s is used by no other object and is not the API (make it static, or remove it)"
          % (source, name))
print("dead symbols: %d global symbols of %d library objects, %d public, %d used by no other object"
      % (len(defined), len(library), len(api & set(defined)), len(dead)))
sys.exit(1 if dead or not defined else 0)
