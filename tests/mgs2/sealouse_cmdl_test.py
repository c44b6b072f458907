#!/usr/bin/env python3
"""SeaLouse's own CMDL classes (Jacky720/SeaLouse cmdl/cmdl.py) on the .cmdl files boneyard writes,
and boneyard on what SeaLouse's CMDL writer makes of them (issue 16 scope 5; the Blender tier,
tests/blender/sealouse_cmdl_test.py, runs SeaLouse's exporter on boneyard's models).

    sealouse_cmdl_test.py CLI FIXTURE_WRITER SCRATCH PEERS_DIR

1. Every .cmdl boneyard writes (the spec fixtures laid out by hand, and what `convert` writes for
   MC models: rewrites, --layout mc, from glTF) is read by SeaLouse's CMDL.fromFile, asserts and
   all, and every value it reads equals boneyard's dump: header, entries, every element of every
   section, the triangles and every field of every record.
2. SeaLouse's CMDL.writeToFile of what it read: boneyard reads it with the same values (its
   NRM0 within the packing step, as SeaLouse normalises and packs again), the pair with the
   model still checks out, and every other byte is boneyard's (both lay sections out alike).

SeaLouse is GPL code that stays outside the repository: a checkout in PEERS_DIR/SeaLouse, else
the test is skipped (exit 77). cmdl.py and the kms.py it imports are pure Python; SeaLouse's
package __init__ (a Blender add-on) is not run: the package is a bare module object here.
"""
import importlib
import json
import os
import shutil
import struct
import subprocess
import sys
import types

CLI, WRITER, SCRATCH, PEERS = sys.argv[1:5]
SEALOUSE = os.path.join(PEERS, "SeaLouse")


def skip(reason):
    print("SKIP: " + reason)
    sys.exit(77)


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def boneyard(*args):
    run = subprocess.run([CLI, *map(str, args)], capture_output=True, text=True)
    if run.returncode != 0:
        fail("boneyard %s: exit %d\n%s%s" % (" ".join(map(str, args)), run.returncode, run.stdout, run.stderr))
    return run.stdout


def load_cmdl_module():
    if not os.path.isfile(os.path.join(SEALOUSE, "cmdl", "cmdl.py")):
        skip("no SeaLouse checkout in %s (git clone https://github.com/Jacky720/SeaLouse there to run this test)" % PEERS)
    package = types.ModuleType("SeaLouse")
    package.__path__ = [SEALOUSE]
    sys.modules["SeaLouse"] = package
    return importlib.import_module("SeaLouse.cmdl.cmdl")


def close(a, b, tol=1e-6):
    return abs(a - b) <= tol * max(1.0, abs(b))


def check_equal(where, theirs, ours, tol=1e-6):
    """theirs (SeaLouse's values) == ours (boneyard's dump), element by element."""
    if isinstance(ours, list):
        theirs = list(theirs)
        if len(theirs) != len(ours):
            fail("%s: SeaLouse reads %d values, boneyard %d" % (where, len(theirs), len(ours)))
        for i, (t, o) in enumerate(zip(theirs, ours)):
            check_equal("%s[%d]" % (where, i), t, o, tol)
    elif isinstance(ours, float) or isinstance(theirs, float):
        if not close(float(theirs), float(ours), tol):
            fail("%s: SeaLouse reads %r, boneyard %r" % (where, theirs, ours))
    elif theirs != ours:
        fail("%s: SeaLouse reads %r, boneyard %r" % (where, theirs, ours))


def compare(path, c, nrm_tol=1e-6):
    """SeaLouse's CMDL object `c` against boneyard's reading of `path`."""
    d = json.loads(boneyard("dump", path))
    raw = json.loads(boneyard("dump", "--raw", path))
    name = os.path.basename(path)
    check_equal(name + " header version", c.header.version, d["version"])
    check_equal(name + " header tail offset", c.header.tailOffset, raw["tail_offset"])
    check_equal(name + " section count", c.header.numSection, len(d["sections"]))
    for s, mine in zip(c.sections, d["sections"]):
        where = "%s %s" % (name, mine["tag"])
        check_equal(where + " tag", s.magic.decode(), mine["tag"])
        check_equal(where + " format", s.unknown_04, mine["format"])
        check_equal(where + " field 0x06", s.unknown_06, mine["field_06"])
        check_equal(where + " offset", s.dataOffset, mine["offset"])
        check_equal(where + " size", s.dataSize, mine["size"])
        values = [list(v) if isinstance(v, (tuple, list)) else v for v in s.data.data]
        check_equal(where + " values", values, mine["values"], nrm_tol if mine["tag"] == "NRM0" else 1e-6)
    check_equal(name + " triangles", [list(f) for f in c.tail.faces], d["triangles"])
    check_equal(name + " record count", c.tail.numMeshes, len(raw["meshes"]))
    for i, (m, mine) in enumerate(zip(c.tail.meshes, raw["meshes"])):
        where = "%s record %d" % (name, i)
        check_equal(where + " box min", m.minPos.xyz(), mine["bbox_min"])
        check_equal(where + " box max", m.maxPos.xyz(), mine["bbox_max"])
        for theirs, key in (("startVertex", "start_vertex"), ("vertexCount", "vertex_count"), ("startFace", "start_index"),
                            ("faceCount", "index_count"), ("meshIndex", "mesh"), ("subMeshIndex", "sub_mesh"),
                            ("unknown_18", "field_18"), ("unknown_1C", "field_1a"), ("unknown_36", "field_pre")):
            check_equal("%s %s" % (where, key), getattr(m, theirs), mine[key])
        check_equal(where + " bones", m.bones, mine["bones"])
        check_equal(where + " 0x80 bytes", list(m.unknown_2E), mine["field_80"])
    return raw


def nrm0_extent(raw):
    for s in raw["sections"]:
        if s["tag"] == "NRM0":
            return s["offset"] + 0x0C, s["offset"] + 0x0C + s["size"]
    return 0, 0


def main():
    cmdl = load_cmdl_module()
    if sys.flags.optimize:
        fail("run without -O: SeaLouse's reader checks what it reads with assert")
    shutil.rmtree(SCRATCH, ignore_errors=True)
    os.makedirs(SCRATCH)
    subprocess.run([WRITER, SCRATCH], check=True)
    out = os.path.join(SCRATCH, "out")
    os.makedirs(os.path.join(out, "glb"))
    # model -> the .cmdl boneyard gives it (written beside it in _win/)
    pairs = []
    for model in ("standard_mc.kms", "plain_mc.kms", "evm_mc.evm", "evm_mc_large.evm"):
        stem = model.rsplit(".", 1)[0]
        pairs.append((os.path.join(SCRATCH, model), os.path.join(SCRATCH, "_win", stem + ".cmdl")))  # by hand
        pairs.append((os.path.join(out, model), None))
        boneyard("convert", os.path.join(SCRATCH, model), "-o", pairs[-1][0])
        glb = os.path.join(out, "glb", stem + ".glb")
        boneyard("convert", os.path.join(SCRATCH, model), "-o", glb)
        pairs.append((os.path.join(out, "glb", model), None))
        boneyard("convert", glb, "-o", pairs[-1][0])
    pairs.append((os.path.join(out, "branching_kms.kms"), None))
    boneyard("convert", os.path.join(SCRATCH, "branching.kms"), "--layout", "mc", "-o", pairs[-1][0])
    pairs.append((os.path.join(out, "branching_evm.evm"), None))
    boneyard("convert", os.path.join(SCRATCH, "branching_mc.evm"), "-o", pairs[-1][0], "--n-mats", "sealouse")
    for model, path in pairs:
        path = path or os.path.join(os.path.dirname(model), "_win", os.path.basename(model).rsplit(".", 1)[0] + ".cmdl")
        with open(path, "rb") as f:
            try:
                c = cmdl.CMDL().fromFile(f)
            except Exception as e:  # noqa: BLE001 - SeaLouse's failure is the finding
                fail("SeaLouse's CMDL reader rejects %s: %s %s" % (path, type(e).__name__, e))
        raw = compare(path, c)
        # SeaLouse's writer on what it read.
        again = path + ".sealouse"
        with open(again, "wb") as f:
            c.writeToFile(f)
        compare(again, c, nrm_tol=2.0 / 511)
        pair = subprocess.run([CLI, "validate", model, "--cmdl", again], capture_output=True, text=True)
        if pair.returncode != 0 or " 0 errors, 0 warnings" not in pair.stdout.splitlines()[-1]:
            fail("the pair %s + SeaLouse's rewrite of its .cmdl:\n%s%s" % (model, pair.stdout, pair.stderr))
        ours, theirs = open(path, "rb").read(), open(again, "rb").read()
        lo, hi = nrm0_extent(raw)
        if len(ours) != len(theirs) or any(a != b and not lo <= i < hi for i, (a, b) in enumerate(zip(ours, theirs))):
            fail("SeaLouse's writer lays %s out otherwise than boneyard (outside NRM0)" % path)
        print("SeaLouse reads %s (%d vertices, %d triangles) and its writer's copy reads back in boneyard"
              % (os.path.relpath(path, SCRATCH), c.sections[0].dataSize // 16, len(c.tail.faces)))
    print("sealouse cmdl interop: ok (%d files)" % len(pairs))


main()
