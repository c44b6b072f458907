#!/usr/bin/env python3
"""MTAR-GEAR's MGS2 .mar script (316austin316/MTAR-GEAR code/mar_mgs2.py, a Master Collection .mar
tool no one here wrote) on boneyard's Master Collection fixture, and boneyard on what it writes.

    mtar_gear_mar_test.py CLI FIXTURE_WRITER SCRATCH PEERS_DIR MIRROR_DIR

1. Its header and 16-byte table readers (read_mar, parse_mtcm_data_table, extract_blocks) give the
   values boneyard's `dump --raw` gives: max joint, motion count, MTCM area, each entry's offset and
   size, each MTCM's absolute offset; the blocks it exports are the MTCMs' bytes.
2. Its PS2-to-MC block conversion (modify_block_data: a pad dword after the archive offset, 12 bytes
   at 0x40, archive offset + 0x10) of boneyard's PS2 MTCM of the five-joint motion gives boneyard's
   Master Collection MTCM of it byte for byte: the same header and the archive on the same 16-byte
   boundary. Its fixed insert fits only a motion whose PS2 joint offsets end at 0x40 (five joints),
   where it agrees with boneyard's rule (the archive at the header's end rounded up to 16).
3. Its block import (import_new_block: the new block appended, the table entry pointed at it) makes
   a file boneyard reads and validates without errors, whose motion 0 is now the imported motion,
   and rewrites byte for byte.

MTAR-GEAR stays outside the repository: a checkout in PEERS_DIR/MTAR-GEAR, else the snapshot in
MIRROR_DIR/316austin316+MTAR-GEAR/repo (git archive); skipped (exit 77) when neither is there.
"""
import importlib.util
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile

CLI, WRITER, SCRATCH, PEERS, MIRROR = sys.argv[1:6]


def skip(reason):
    print("SKIP: " + reason)
    sys.exit(77)


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def run(args, **kw):
    r = subprocess.run([str(a) for a in args], capture_output=True, text=True, **kw)
    if r.returncode != 0:
        fail("%s: exit %d\n%s%s" % (" ".join(map(str, args)), r.returncode, r.stdout[-3000:], r.stderr[-3000:]))
    return r.stdout


def load_script():
    path = os.path.join(PEERS, "MTAR-GEAR", "code", "mar_mgs2.py")
    if not os.path.isfile(path):
        bare = os.path.join(MIRROR, "316austin316+MTAR-GEAR", "repo")
        if not os.path.isdir(bare):
            skip("no MTAR-GEAR checkout in %s nor snapshot in %s" % (PEERS, MIRROR))
        archive = subprocess.run(["git", "-C", bare, "archive", "--format=tar", "HEAD", "code/mar_mgs2.py"], capture_output=True)
        if archive.returncode != 0:
            fail("git archive of %s: %s" % (bare, archive.stderr.decode(errors="replace")))
        tree = os.path.join(SCRATCH, "MTAR-GEAR")
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as t:
            t.extractall(tree)
        path = os.path.join(tree, "code", "mar_mgs2.py")
    spec = importlib.util.spec_from_file_location("mar_mgs2", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    shutil.rmtree(SCRATCH, ignore_errors=True)
    fixtures = os.path.join(SCRATCH, "fixtures")
    os.makedirs(fixtures)
    run([WRITER, fixtures])
    mtg = load_script()
    mc = os.path.join(fixtures, "mc.mar")
    data = open(mc, "rb").read()
    dump = json.loads(run([CLI, "dump", "--raw", mc]))
    if dump["layout"] != "mc":
        fail("boneyard reads the Master Collection fixture as %s" % dump["layout"])

    # 1. Header, table, blocks.
    h = mtg.read_mar(mc)
    if (h.magic, h.maxJoint, h.numMotion, h.mtcmOffset) != (0x6152414D, dump["max_joint"], dump["motion_count"], dump["mtcm_offset"]):
        fail("header: MTAR-GEAR %r, boneyard %r" % ((h.magic, h.maxJoint, h.numMotion, h.mtcmOffset), dump))
    table = mtg.parse_mtcm_data_table(mc, h)
    ours = [(m["entry"]["offset"], m["entry"]["size"]) for m in dump["motions"]]
    if table != ours:
        fail("table: MTAR-GEAR %r, boneyard %r" % (table, ours))
    blocks = mtg.extract_blocks(mc, h)
    if [b[0] for b in blocks] != [m["offset"] for m in dump["motions"]]:
        fail("MTCM offsets: MTAR-GEAR %r, boneyard %r" % ([b[0] for b in blocks], [m["offset"] for m in dump["motions"]]))
    cwd = os.getcwd()
    os.chdir(SCRATCH)
    try:
        for i, (offset, size) in enumerate(blocks):
            mtg.export_block(mc, offset, size, i)
            block = open("block_%d.bin" % i, "rb").read()
            if block[:size] != data[offset:offset + size]:
                fail("exported block %d differs from the MTCM at %#x" % (i, offset))
    finally:
        os.chdir(cwd)

    # 2. Its PS2-to-MC conversion of the five-joint motion (motion 3) gives our MC MTCM.
    ps2 = os.path.join(fixtures, "ps2.mar")
    ps2_dump = json.loads(run([CLI, "dump", "--raw", ps2]))
    p = ps2_dump["motions"][3]
    if p["joints"] != 5:
        fail("the fixture's motion 3 has %d joints, not 5" % p["joints"])
    ps2_bytes = open(ps2, "rb").read()
    converted = bytes(mtg.modify_block_data(bytearray(ps2_bytes[p["offset"]:p["offset"] + p["entry"]["size"]])))
    m = dump["motions"][3]
    want = data[m["offset"]:m["offset"] + m["entry"]["size"]]
    if converted != want:
        fail("MTAR-GEAR's PS2-to-MC MTCM (%d bytes) differs from boneyard's MC MTCM (%d bytes)" % (len(converted), len(want)))

    # 3. Its block import, read back by boneyard.
    copy = os.path.join(SCRATCH, "imported.mar")
    shutil.copy(mc, copy)
    mtg.import_new_block(copy, 0, os.path.join(SCRATCH, "block_1.bin"))
    report = subprocess.run([CLI, "validate", copy], capture_output=True, text=True)
    if report.returncode != 0:
        fail("boneyard rejects the file MTAR-GEAR wrote:\n" + report.stdout + report.stderr)
    imported = json.loads(run([CLI, "dump", copy]))
    a, b = imported["motions"][0], dump["motions"][1]
    for key in ("name", "frames", "joints", "flags", "base_tick"):
        if a[key] != b[key]:
            fail("imported motion 0 %s: %r, the block's motion %r" % (key, a[key], b[key]))
    if a["rotations"] != json.loads(run([CLI, "dump", mc]))["motions"][1]["rotations"]:
        fail("imported motion 0's keys differ from the block's")
    rewritten = os.path.join(SCRATCH, "rewritten.mar")
    run([CLI, "convert", copy, "-o", rewritten])
    if open(rewritten, "rb").read() != open(copy, "rb").read():
        fail("boneyard's rewrite of MTAR-GEAR's file is not byte-identical")
    print("MTAR-GEAR: header, %d entries and blocks agree; its PS2-to-MC MTCM equals boneyard's; its import reads back" % len(table))
    print("OK")


main()
