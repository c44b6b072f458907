#!/usr/bin/env python3
"""The .mar readers of Jayveer's MGS2 Noesis plugins (a reader no one here wrote) on boneyard's .mar
fixtures, key for key against boneyard's glTF of the same motions (issue 40 scope 5).

    noesis_mar_test.py CLI FIXTURE_WRITER SCRATCH PEERS_DIR MIRROR_DIR CXX

1. The plugins' sources (motion.h and the mgs/ headers it includes) are taken from a checkout in
   PEERS_DIR (MGS-KMS-EVM-Noesis/, MGS-Master-Collection-Noesis/) or from the bare snapshot in
   MIRROR_DIR (Jayveer+<name>/repo, `git archive`), copied into SCRATCH beside stand-ins for the
   Noesis API (tests/mgs2/noesis_stub: pluginshare.h, half.h) and compiled with a harness that
   calls their loadMotion (PS2 plugin, 8-byte table) or loadMarMotion (Master Collection plugin,
   16-byte table) and prints every key they hand to Noesis. Nothing of theirs enters the repository.
2. boneyard converts the branching model with each .mar (`convert MODEL --mar X.mar -o X.glb`) and
   dumps the .mar; the test reads the .glb's animations.
3. Every motion, joint and key must agree: the same key frames (time = frame / 30), translations
   (Noesis: half * 128 model units; the glTF: the same in metres, 1 unit = 1 mm) and rotations (the
   glTF's quaternion is the stored one, normalised, up to sign; Noesis receives its conjugate, its
   `Transpose()` into Noesis's row-vector convention, docs/mgs2-mar.md "Quaternions").

What the stand-ins decide (Noesis's own code is closed): RichBitStream reads LSB first, so the bit
order itself is pinned by tests/mgs2/mar_test.cpp (MarBits), not here. Skipped (exit 77) when neither
plugin's sources are present; a plugin whose sources are present but do not compile fails.
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tarfile
import io

CLI, WRITER, SCRATCH, PEERS, MIRROR, CXX = sys.argv[1:7]
STUB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "noesis_stub")
FILES = ["motion.h", "mgs/common/util.h", "mgs/common/fileutil.h", "mgs/motion"]
PLUGINS = [
    # (name, the .mar it reads, compile flag)
    ("MGS-KMS-EVM-Noesis", "ps2", ["-DMGS2_PS2_PLUGIN"]),
    ("MGS-Master-Collection-Noesis", "mc", []),
]


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


def fetch_sources(name, tree):
    """The plugin's sources into `tree`; False when neither a checkout nor a snapshot is there."""
    checkout = os.path.join(PEERS, name)
    if os.path.isfile(os.path.join(checkout, "motion.h")):
        for f in FILES:
            src = os.path.join(checkout, f)
            dst = os.path.join(tree, f)
            if os.path.isdir(src):
                shutil.copytree(src, dst)
            else:
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                shutil.copy(src, dst)
        return True
    bare = os.path.join(MIRROR, "Jayveer+" + name, "repo")
    if not os.path.isdir(bare):
        return False
    archive = subprocess.run(["git", "-C", bare, "archive", "--format=tar", "HEAD"] + FILES, capture_output=True)
    if archive.returncode != 0:
        fail("git archive of %s: %s" % (bare, archive.stderr.decode(errors="replace")))
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as t:
        t.extractall(tree)
    return True


def build_harness(name, flags):
    tree = os.path.join(SCRATCH, name)
    shutil.rmtree(tree, ignore_errors=True)
    os.makedirs(tree)
    if not fetch_sources(name, tree):
        return None
    os.makedirs(os.path.join(tree, "noesis", "plugin"))
    os.makedirs(os.path.join(tree, "include", "half"))
    shutil.copy(os.path.join(STUB, "pluginshare.h"), os.path.join(tree, "noesis", "plugin", "pluginshare.h"))
    shutil.copy(os.path.join(STUB, "half.h"), os.path.join(tree, "include", "half", "half.h"))
    shutil.copy(os.path.join(STUB, "harness.cpp"), os.path.join(tree, "harness.cpp"))
    exe = os.path.join(tree, "harness")
    run([CXX, "-std=c++17", "-w", "-O1", "-I", tree, *flags, os.path.join(tree, "harness.cpp"), "-o", exe])
    return exe


def glb_animations(path):
    """{animation name: {joint: {"rotation": [[t, x, y, z, w]...], "translation": [[t, x, y, z]...]}}}"""
    data = open(path, "rb").read()
    magic, _, total = struct.unpack_from("<III", data, 0)
    if magic != 0x46546C67 or total != len(data):
        fail("%s is not a .glb" % path)
    length, kind = struct.unpack_from("<II", data, 12)
    doc = json.loads(data[20:20 + length])
    at = 20 + length
    bin_length, _ = struct.unpack_from("<II", data, at)
    binary = data[at + 8:at + 8 + bin_length]

    def floats(index, width):
        a = doc["accessors"][index]
        if a["componentType"] != 5126:
            fail("accessor %d is not float" % index)
        view = doc["bufferViews"][a["bufferView"]]
        start = view.get("byteOffset", 0) + a.get("byteOffset", 0)
        stride = view.get("byteStride", 4 * width)
        return [list(struct.unpack_from("<%df" % width, binary, start + i * stride)) for i in range(a["count"])]

    joint_of = {}
    for i, node in enumerate(doc["nodes"]):
        name = node.get("name", "")
        if name.startswith("unit_") or name.startswith("joint_"):
            joint_of[i] = int(name.split("_")[1])
    out = {}
    for anim in doc.get("animations", []):
        per_joint = out.setdefault(anim["name"], {})
        for ch in anim["channels"]:
            sampler = anim["samplers"][ch["sampler"]]
            path = ch["target"]["path"]
            width = 4 if path == "rotation" else 3
            times = floats(sampler["input"], 1)
            values = floats(sampler["output"], width)
            per_joint.setdefault(joint_of[ch["target"]["node"]], {})[path] = [[t[0]] + v for t, v in zip(times, values)]
    return out


def close(a, b, tol):
    return abs(a - b) <= tol * max(1.0, abs(b))


def compare(label, noesis_lines, glb, dump, scale=0.001):
    keys = 0
    by_name = {json.loads(line)["name"]: json.loads(line) for line in noesis_lines}
    dumped = {"%06x" % m["name"]: m for m in dump["motions"]}
    if sorted(by_name) != sorted(glb) or sorted(by_name) != sorted(dumped):
        fail("%s: Noesis reads motions %s, boneyard's glTF %s, its dump %s" % (label, sorted(by_name), sorted(glb), sorted(dumped)))
    for name, anim in by_name.items():
        ours = glb[name]
        for bone in anim["bones"]:
            j = bone["bone"]
            where = "%s motion %s joint %d" % (label, name, j)
            theirs_r = bone["rotation"]
            mine_r = ours.get(j, {}).get("rotation", [])
            dump_r = dumped[name]["rotations"][j]
            if len(theirs_r) != len(mine_r) or len(theirs_r) != len(dump_r):
                fail("%s: Noesis has %d rotation keys, the glTF %d, the dump %d" % (where, len(theirs_r), len(mine_r), len(dump_r)))
            for k, (t, g, d) in enumerate(zip(theirs_r, mine_r, dump_r)):
                if not close(t[0], g[0], 1e-6) or round(t[0] * 30) != d[0]:
                    fail("%s key %d: time %r (Noesis) vs %r (glTF), frame %r (dump)" % (where, k, t[0], g[0], d[0]))
                conj = [-t[1], -t[2], -t[3], t[4]]  # Noesis holds the transposed rotation
                sign = 1.0 if sum(a * b for a, b in zip(conj, g[1:])) >= 0 else -1.0
                if not all(close(sign * c, v, 1e-6) for c, v in zip(conj, g[1:])):
                    fail("%s key %d: rotation %r (Noesis, transposed) vs %r (glTF)" % (where, k, t[1:], g[1:]))
                dump_sign = 1.0 if sum(a * b for a, b in zip(conj, d[1])) >= 0 else -1.0
                if not all(close(c, v, 1e-6) for c, v in zip(conj, [dump_sign * x for x in d[1]])):
                    fail("%s key %d: rotation %r (Noesis, transposed) vs %r (dump)" % (where, k, t[1:], d[1]))
                keys += 1
            theirs_t = bone["translation"]
            mine_t = ours.get(j, {}).get("translation", [])
            if len(theirs_t) != len(mine_t):
                fail("%s: Noesis has %d translation keys, the glTF %d" % (where, len(theirs_t), len(mine_t)))
            if theirs_t:
                dump_t = dumped[name]["translation"]
                if len(dump_t) != len(theirs_t):
                    fail("%s: Noesis has %d translation keys, the dump %d" % (where, len(theirs_t), len(dump_t)))
            for k, (t, g) in enumerate(zip(theirs_t, mine_t)):
                if not close(t[0], g[0], 1e-6):
                    fail("%s translation key %d: time %r vs %r" % (where, k, t[0], g[0]))
                if not all(close(c * scale, v, 1e-5) for c, v in zip(t[1:], g[1:])):
                    fail("%s translation key %d: %r model units (Noesis) vs %r m (glTF)" % (where, k, t[1:], g[1:]))
                if not all(close(c, v, 1e-6) for c, v in zip(t[1:], dumped[name]["translation"][k][1])):
                    fail("%s translation key %d: %r (Noesis) vs %r (dump)" % (where, k, t[1:], dumped[name]["translation"][k][1]))
                keys += 1
        if len(anim["bones"]) != dumped[name]["joints"]:
            fail("%s motion %s: Noesis keys %d joints, boneyard %d" % (label, name, len(anim["bones"]), dumped[name]["joints"]))
    return keys


def main():
    shutil.rmtree(SCRATCH, ignore_errors=True)
    fixtures = os.path.join(SCRATCH, "fixtures")
    os.makedirs(fixtures)
    run([WRITER, fixtures])
    ran = []
    for name, layout, flags in PLUGINS:
        exe = build_harness(name, flags)
        if exe is None:
            print("no sources of %s in %s or %s: not run" % (name, PEERS, MIRROR))
            continue
        mar = os.path.join(fixtures, layout + ".mar")
        model = os.path.join(fixtures, "branching_mc.kms" if layout == "mc" else "branching.kms")
        lines = [l for l in run([exe, mar, 6]).splitlines() if l.strip()]
        glb = os.path.join(SCRATCH, layout + ".glb")
        run([CLI, "convert", model, "--mar", mar, "-o", glb])
        dump = json.loads(run([CLI, "dump", mar]))
        keys = compare(name, lines, glb_animations(glb), dump)
        print("%s: %d motions, %d keys agree with boneyard's glTF and dump" % (name, len(lines), keys))
        ran.append(name)
    if not ran:
        skip("neither Noesis plugin's sources are present (a checkout in %s or a snapshot in %s)" % (PEERS, MIRROR))
    print("OK")


main()
