#!/usr/bin/env python3
"""Writes in scripts and shared folders (docs/reliability.md "Concurrent writers", "Signals and
temporary files"):

  1. two `apply --in-place` with different patches on one file at once, 20 times: the file holds
     both patches, or one run failed with exit 3 and said why (never two successes, one lost);
     with REBYTE_LOCK_WAIT=0 a run that finds the file locked is refused at once, exit 3;
  2. SIGTERM, SIGINT and SIGHUP while a large output is written (a shim holds write() part-way):
     no temporary file left, the target untouched; a run killed with SIGKILL leaves one, and the
     next run on that target removes it (while a live writer's is kept);
  3. a file size limit (ulimit -f): "write failed", exit 3, no temporary file;
  4. the write is refused, exit 3, when the input changed between the read and the rename (a
     writer that takes no lock).

Usage: write_safety.py REBYTE SOURCE_DIR PAUSE_SHIM [SHARED_DIR]
"""
import glob
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

rebyte, source, shim = sys.argv[1], sys.argv[2], sys.argv[3]
shared = sys.argv[4] if len(sys.argv) > 4 else None
failures = []


def fail(message):
    failures.append(message)
    print("FAIL " + message)


def dump(path):
    out = subprocess.run([rebyte, "dump", "--blobs=omit", path], capture_output=True, check=True)
    return json.loads(out.stdout)


def chunk(doc, chunk_id):
    return next(c for c in doc["body"]["chunks"] if c["id"] == chunk_id)


NAME = "/body/chunks/[id=0x0304301F]/mapName"
TIME = "/body/chunks/[id=0x03043011]/challengeParameters/chunks/[id=0x0305B004]/authorTime"


def held(path):
    """(name patched, time patched) of the map at path."""
    doc = dump(path)
    name = chunk(doc, "0x0304301F")["mapName"] == "patched by A"
    params = chunk(doc, "0x03043011")["challengeParameters"]["chunks"]
    author = next(c for c in params if c["id"] == "0x0305B004")["authorTime"] == 20000
    return name, author


def temporaries(folder):
    return glob.glob(os.path.join(folder, "*.rebyte-*"))


def map_for_test():
    """A map of about 500 KB when the corpus is at hand (an edit long enough for two to overlap
    without locks, short enough for a quick test), else the sample."""
    if shared:
        maps = sorted(glob.glob(os.path.join(shared, "corpus", "gbx", "*.Map.Gbx")),
                      key=lambda p: abs(os.path.getsize(p) - 500000))
        for path in maps:
            try:
                doc = dump(path)
                chunk(doc, "0x0304301F")["mapName"]
                params = chunk(doc, "0x03043011")["challengeParameters"]["chunks"]
                if any(c["id"] == "0x0305B004" for c in params):
                    return path
            except Exception:
                continue
    return os.path.join(source, "samples", "gbx", "sample.Map.Gbx")


def concurrent_in_place(tmp, original):
    a, b = os.path.join(tmp, "A.json"), os.path.join(tmp, "B.json")
    json.dump([{"op": "replace", "path": NAME, "value": "patched by A"}], open(a, "w"))
    json.dump([{"op": "replace", "path": TIME, "value": 20000}], open(b, "w"))
    target = os.path.join(tmp, "shared.Map.Gbx")
    both = refused = 0
    for round_ in range(20):
        shutil.copyfile(original, target)
        runs = [subprocess.Popen([rebyte, "apply", "-q", "--patch", p, target, "--in-place"], stderr=subprocess.PIPE)
                for p in (a, b)]
        results = [(r.wait(), r.stderr.read().decode()) for r in runs]
        name, author = held(target)
        codes = [rc for rc, _ in results]
        if codes == [0, 0]:
            if name and author:
                both += 1
            else:
                fail("round %d: both runs succeeded, the file holds %s" %
                     (round_, "A's patch only" if name else "B's patch only" if author else "neither patch"))
        elif sorted(codes) == [0, 3]:
            refused += 1
            winner = codes.index(0)
            why = results[1 - winner][1]
            if (name, author) != ((True, False) if winner == 0 else (False, True)):
                fail("round %d: one run refused, but the file does not hold the other's patch" % round_)
            if "another process" not in why and "changed by another process" not in why:
                fail("round %d: the refusal does not say why: %s" % (round_, why))
        else:
            fail("round %d: exit statuses %s: %s" % (round_, codes, [e for _, e in results]))
        if temporaries(tmp):
            fail("round %d: temporary files left: %s" % (round_, temporaries(tmp)))
    print("concurrent in-place applies on %s: 20 rounds, %d with both patches, %d with one run refused (exit 3)" %
          (os.path.basename(original), both, refused))

    # a run that may not wait: refused at once while another holds the lock
    shutil.copyfile(original, target)
    holder = subprocess.Popen([sys.executable, "-c", "import fcntl,sys,time; f=open(sys.argv[1]); "
                               "fcntl.flock(f, fcntl.LOCK_EX); print('locked', flush=True); time.sleep(30)", target],
                              stdout=subprocess.PIPE)
    holder.stdout.readline()
    started = time.time()
    run = subprocess.run([rebyte, "apply", "-q", "--patch", a, target, "--in-place"], capture_output=True,
                         env=dict(os.environ, REBYTE_LOCK_WAIT="0"))
    holder.kill()
    holder.wait()
    if run.returncode != 3 or b"another process is writing it" not in run.stderr:
        fail("a locked file: exit %d, %s" % (run.returncode, run.stderr.decode()))
    if time.time() - started > 10:
        fail("REBYTE_LOCK_WAIT=0 waited")
    if held(target)[0]:
        fail("a locked file was written")


def wait_for_temporary(folder, at_least):
    """The temporary file of a paused writer, once it holds `at_least` bytes (None after 20 s)."""
    deadline = time.time() + 20
    while time.time() < deadline:
        for path in temporaries(folder):
            try:
                if os.path.getsize(path) >= at_least:
                    return path
            except OSError:
                pass
        time.sleep(0.02)
    return None


def default_signals():
    """In the child: the signals at their default, whatever this test inherited (a background
    job ignores SIGINT; rebyte keeps a signal ignored, as nohup means)."""
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)


def paused_writer(args, folder):
    env = dict(os.environ, LD_PRELOAD=shim, REBYTE_PAUSE_AFTER="512")
    run = subprocess.Popen([rebyte] + args, env=env, stderr=subprocess.PIPE, preexec_fn=default_signals)
    return run, wait_for_temporary(folder, 512)


def signals(tmp, original):
    folder = os.path.join(tmp, "signals")
    os.mkdir(folder)
    target = os.path.join(folder, "map.Map.Gbx")
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        for kind, args in (("dump -o", ["dump", original, "-o", os.path.join(folder, "out.json")]),
                           ("apply --in-place", ["apply", "-q", "--patch", os.path.join(tmp, "A.json"), target,
                                                 "--in-place"])):
            shutil.copyfile(original, target)
            before = open(target, "rb").read()
            run, temp = paused_writer(args, folder)
            if not temp:
                fail("%s: no temporary file appeared" % kind)
                run.kill()
                run.wait()
                continue
            run.send_signal(sig)
            rc = run.wait(timeout=20)
            if rc != -sig:
                fail("%s, %s: the process ended with %s, not by the signal" % (kind, sig.name, rc))
            if temporaries(folder):
                fail("%s, %s: temporary files left: %s" % (kind, sig.name, temporaries(folder)))
            if os.path.exists(os.path.join(folder, "out.json")):
                fail("%s, %s: a partial output" % (kind, sig.name))
            if open(target, "rb").read() != before:
                fail("%s, %s: the input changed" % (kind, sig.name))
    print("SIGTERM, SIGINT, SIGHUP during a write held part-way: no temporary file left")

    # SIGKILL leaves one; a live writer's is kept by the next run, then the killed one's is removed
    killed, temp = paused_writer(["dump", original, "-o", os.path.join(folder, "out.json")], folder)
    killed.kill()
    killed.wait()
    if not temp or not os.path.exists(temp):
        fail("SIGKILL: expected the temporary file to stay: %s" % temporaries(folder))
        return
    live, live_temp = None, None
    live = subprocess.Popen([rebyte, "dump", original, "-o", os.path.join(folder, "live.json")],
                            env=dict(os.environ, LD_PRELOAD=shim, REBYTE_PAUSE_AFTER="512"), stderr=subprocess.PIPE)
    deadline = time.time() + 20
    while time.time() < deadline and not live_temp:
        live_temp = next((t for t in temporaries(folder) if "live.json" in t and os.path.getsize(t) >= 512), None)
        time.sleep(0.02)
    run = subprocess.run([rebyte, "dump", original, "-o", os.path.join(folder, "out.json")], capture_output=True)
    if run.returncode != 0:
        fail("the run after SIGKILL failed: %s" % run.stderr.decode())
    if os.path.exists(temp):
        fail("the next run on the target left the killed run's temporary file")
    if not live_temp or not os.path.exists(live_temp):
        fail("the next run removed a live writer's temporary file")
    live.kill()
    live.wait()
    subprocess.run([rebyte, "dump", original, "-o", os.path.join(folder, "live.json")], capture_output=True)
    if temporaries(folder):
        fail("after the writers: %s" % temporaries(folder))
    print("SIGKILL: the temporary file left is removed by the next run; a live writer's is kept")


def file_size_limit(tmp, original):
    out = os.path.join(tmp, "limited.json")

    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (2048, 2048))

    run = subprocess.run([rebyte, "dump", original, "-o", out], capture_output=True, preexec_fn=limit)
    if run.returncode != 3 or b"write failed" not in run.stderr:
        fail("ulimit -f: exit %d (3 expected), %s" % (run.returncode, run.stderr.decode()))
    if os.path.exists(out) or temporaries(tmp):
        fail("ulimit -f: output or temporary file left")
    print("ulimit -f: %s" % run.stderr.decode().strip()[:120])


def changed_meanwhile(tmp, original):
    """A writer that takes no lock replaces the input while apply waits in its write: refused."""
    folder = os.path.join(tmp, "changed")
    os.mkdir(folder)
    target = os.path.join(folder, "map.Map.Gbx")
    shutil.copyfile(original, target)
    run = subprocess.Popen([rebyte, "apply", "-q", "--patch", os.path.join(tmp, "A.json"), target, "--in-place"],
                           env=dict(os.environ, LD_PRELOAD=shim, REBYTE_PAUSE_AFTER="512"), stderr=subprocess.PIPE)
    if not wait_for_temporary(folder, 512):
        fail("changed meanwhile: no temporary file appeared")
    other = open(original, "rb").read()[:-1] + b"\0"
    with open(target + ".other", "wb") as f:
        f.write(other)
    os.rename(target + ".other", target)
    os.kill(run.pid, signal.SIGUSR1)  # the shim lets the write go on
    rc = run.wait(timeout=60)
    err = run.stderr.read().decode()
    if rc != 3 or "changed by another process" not in err:
        fail("changed meanwhile: exit %d, %s" % (rc, err))
    if open(target, "rb").read() != other:
        fail("changed meanwhile: the other writer's file was replaced")
    print("an input replaced between the read and the rename: refused, exit 3")


with tempfile.TemporaryDirectory() as tmp:
    original = map_for_test()
    concurrent_in_place(tmp, original)
    signals(tmp, original)
    file_size_limit(tmp, original)
    changed_meanwhile(tmp, original)
if failures:
    print("%d failure(s)" % len(failures))
    sys.exit(1)
print("write safety: ok")
