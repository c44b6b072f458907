"""blender-xray's own code checks boneyard's LZHuf and envelope evaluator (issue 38 scopes 2-3).

blender-xray (PavelBlend/blender-xray) carries a pure-Python LZHuf decoder (io_scene_xray/rw/
lzhuf.py) and the LightWave interpolator it bakes SDK curves with (io_scene_xray/formats/motions/
interp.py). Both import without Blender. This test takes them from a checkout (PEERS/blender-xray)
or a snapshot (a bare git repository, extracted into a temporary folder: never into the
repository), and:

* decodes with blender-xray's decoder every stream boneyard's encoder wrote (sdk_probe lzhuf) and
  the SDK-written body of test_fmt_old.object, comparing with the data;
* evaluates with blender-xray's interpolator the spans of random envelopes of every shape and of
  every real .anm given (sdk_probe envelopes / anm), comparing with boneyard's values.

blender-xray's interpolator differs from the engine's in three places, which docs/xray-sdk.md lists
and tests/xray/envelope_test.cpp checks by hand; spans that reach them are left out here and
counted: the tangent of an end TCB key whose a and b differ (blender-xray takes their mean), the
outgoing tangent of a linear or Bezier 2D key before a TCB/Hermite/Bezier span (blender-xray: 0),
and the value handle of a Bezier 2D span after another shape (blender-xray: the outgoing tangent
/ 3, the engine: param[1] / 3).

Usage: blender_xray_interop.py SDK_PROBE PEERS_DIR SNAPSHOT SAMPLES_DIR [ANM_DIR...]
Exit 77 (skipped) when neither blender-xray checkout nor snapshot is there.
"""
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile

probe, peers, snapshot, samples = sys.argv[1:5]
anm_dirs = sys.argv[5:]

FILES = ["io_scene_xray/formats/motions/interp.py", "io_scene_xray/rw/lzhuf.py"]


def skip(reason):
    print("SKIP: " + reason)
    sys.exit(77)


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


work = tempfile.mkdtemp(prefix="boneyard_bx_")
try:
    checkout = os.path.join(peers, "blender-xray")
    if os.path.isdir(os.path.join(checkout, "io_scene_xray")):
        for f in FILES:
            os.makedirs(os.path.dirname(os.path.join(work, f)), exist_ok=True)
            shutil.copy(os.path.join(checkout, f), os.path.join(work, f))
        source = checkout
    elif os.path.isdir(snapshot):
        archive = subprocess.run(["git", "-C", snapshot, "archive", "HEAD"] + FILES, capture_output=True)
        if archive.returncode != 0:
            skip("blender-xray snapshot at %s has no %s" % (snapshot, ", ".join(FILES)))
        subprocess.run(["tar", "-x", "-C", work], input=archive.stdout, check=True)
        source = snapshot + " (HEAD)"
    else:
        skip("blender-xray not found: no checkout at %s and no snapshot at %s" % (checkout, snapshot))

    def load(name, rel):
        spec = importlib.util.spec_from_file_location(name, os.path.join(work, rel))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module

    interp = load("bx_interp", FILES[0])
    lzhuf = load("bx_lzhuf", FILES[1])
    print("blender-xray from " + source)

    # ---- LZHuf: boneyard encodes, blender-xray decodes
    lz_dir = os.path.join(work, "lzhuf")
    os.makedirs(lz_dir)
    count = int(subprocess.run([probe, "lzhuf", lz_dir], capture_output=True, text=True, check=True).stdout)
    for i in range(count):
        data = open(os.path.join(lz_dir, "%d.data" % i), "rb").read()
        packed = open(os.path.join(lz_dir, "%d.lzh" % i), "rb").read()
        size = int.from_bytes(packed[:4], "little")
        if size != len(data):
            fail("stream %d declares %d bytes, its data has %d" % (i, size, len(data)))
        # blender-xray's decoder keeps 9 to 16 bits of lookahead and stops when that lookahead
        # reaches the end of the stream before the last symbols are decoded; the engine reads zero
        # bits past the end instead. Streams the SDK writes end the same way (their last symbols
        # may sit in the last byte), so the stream is given with the two zero bytes the engine reads.
        got = bytes(lzhuf.decompress_buffer(bytearray(packed[4:]) + b"\0\0", size))
        if got != data:
            first = next((k for k in range(min(len(got), len(data))) if got[k] != data[k]), min(len(got), len(data)))
            fail("stream %d (%d bytes): blender-xray decodes other bytes from byte %d" % (i, len(data), first))
    print("LZHuf: blender-xray decodes all %d streams boneyard encoded" % count)
    old = os.path.join(samples, "xray/sdk/blender-xray/test_fmt_old.object")
    if os.path.isfile(old):
        raw = open(old, "rb").read()
        size = int.from_bytes(raw[8:12], "little")
        body = bytes(lzhuf.decompress_buffer(bytearray(raw[12:]), size))
        if len(body) != 1645 or int.from_bytes(body[0:4], "little") != 0x0900:
            fail("blender-xray decodes test_fmt_old.object to %d bytes" % len(body))
        print("LZHuf: blender-xray decodes the SDK's test_fmt_old.object body as boneyard does (1645 bytes)")

    # ---- envelopes
    Shape = interp.Shape
    TCB, HERM, BEZI, LINE, STEP, BEZ2 = 0, 1, 2, 3, 4, 5

    def bx_key(k):
        key = interp.Key()
        key.time, key.value, key.shape = k["time"], k["value"], Shape(k["shape"])
        key.tension, key.continuity, key.bias = k["tension"], k["continuity"], k["bias"]
        key.param_1, key.param_2, key.param_3, key.param_4 = k["param"]
        return key

    def neighbour(k):
        key = interp.Key()
        if k is not None:
            key.time, key.value = k["time"], k["value"]
        return key

    def tcb_ab(k, outgoing):
        t, c, b = k["tension"], k["continuity"], k["bias"]
        if outgoing:
            return (1 - t) * (1 + c) * (1 + b), (1 - t) * (1 - c) * (1 - b)
        return (1 - t) * (1 - c) * (1 + b), (1 - t) * (1 + c) * (1 - b)

    def why_not(k0, k1, prev, nxt):
        """Why blender-xray's formula for this span is not the engine's, or None when it is."""
        s0, s1 = k0["shape"] & 0xFF, k1["shape"] & 0xFF
        if s1 in (STEP, LINE):
            return None
        if s1 == BEZ2:
            return None if s0 == BEZ2 else "Bezier 2D value handle after another shape"
        if s1 in (TCB, HERM, BEZI):
            if s0 in (LINE, BEZ2):
                return "outgoing tangent of a linear or Bezier 2D key"
            if s0 == TCB and prev is None:
                a, b = tcb_ab(k0, True)
                if a != b:
                    return "tangent of an end TCB key"
            if s1 == TCB and nxt is None:
                a, b = tcb_ab(k1, False)
                if a != b:
                    return "tangent of an end TCB key"
            return None
        return "shape out of range"

    def compare(lines, what):
        compared, skipped, worst = 0, {}, 0.0
        for line in lines:
            env = json.loads(line)
            keys = env["keys"]
            for time, ours in env["samples"]:
                k = 0
                while k + 2 < len(keys) and time > keys[k + 1]["time"]:
                    k += 1
                k0, k1 = keys[k], keys[k + 1]
                prev = keys[k - 1] if k > 0 else None
                nxt = keys[k + 2] if k + 2 < len(keys) else None
                reason = why_not(k0, k1, prev, nxt)
                if reason:
                    skipped[reason] = skipped.get(reason, 0) + 1
                    continue
                args = (bx_key(k0), bx_key(k1), neighbour(prev), neighbour(nxt))
                theirs = interp.evaluate(time, *args)
                scale = max(1.0, abs(theirs))
                # float (boneyard, the engine) against double (Python).
                tolerance = 2e-5 * scale
                if (k1["shape"] & 0xFF) == BEZ2 and k0["time"] < time < k1["time"]:
                    # The Bezier 2D time search stops anywhere within 1e-4 s of the time, on each
                    # side: the values may differ by what the curve moves in 2e-4 s.
                    h = min(1e-3, time - k0["time"], k1["time"] - time)
                    slope = abs(interp.evaluate(time + h, *args) - interp.evaluate(time - h, *args)) / (2 * h)
                    tolerance += 3e-4 * slope
                error = abs(ours - theirs)
                worst = max(worst, error / scale)
                if not error <= tolerance:
                    fail("%s at %.9g s (span %d, shapes %d -> %d): boneyard %.9g, blender-xray %.9g" %
                         (env["name"], time, k, k0["shape"], k1["shape"], ours, theirs))
                compared += 1
        print("%s: %d values equal to blender-xray's (largest relative difference %.2g); left out: %s" %
              (what, compared, worst, ", ".join("%d (%s)" % (n, r) for r, n in sorted(skipped.items())) or "none"))
        return compared

    out = subprocess.run([probe, "envelopes", "600", "38"], capture_output=True, text=True, check=True).stdout
    if compare(out.splitlines(), "random envelopes") < 5000:
        fail("too few random spans compared")
    anm_files = []
    for root in [os.path.join(samples, "xray/sdk")] + anm_dirs:
        for dirpath, _, names in os.walk(root):
            anm_files += sorted(os.path.join(dirpath, n) for n in names if n.lower().endswith(".anm"))
    if anm_files:
        run = subprocess.run([probe, "anm"] + anm_files, capture_output=True, text=True)
        if run.returncode != 0:
            fail("sdk_probe anm: " + run.stderr)
        compare(run.stdout.splitlines(), "%d real .anm files, every frame" % len(anm_files))
    else:
        print("no real .anm found under %s (samples absent): random envelopes only" % samples)
finally:
    shutil.rmtree(work, ignore_errors=True)
