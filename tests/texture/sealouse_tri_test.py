#!/usr/bin/env python3
"""SeaLouse's own .tri decoder (tri/tri.py: TRI.fromFile, initPartialProcessBuffer, dumpTexture,
with Pillow) against boneyard, pixel for pixel (issue 40 scopes 1, 3 and 5).

    sealouse_tri_test.py CLI FIXTURE_WRITER SCRATCH PEERS_DIR

1. The fixtures (tests/support/tri_fixture.h, written by FIXTURE_WRITER: both entry sizes, 4- and
   8-bit, NPOT sub-rectangles, CSAY != 0 up to 15, two pages across, the PSMT8 CLUT arrangement,
   alpha 0x80 and above): every texture SeaLouse exports equals boneyard's PNG and the builder's
   pixels. SeaLouse refuses textures with alpha above 0x80 ("Invalid alpha in palette"); those
   must be exactly the ones whose pixels hold such alpha.
2. The .tri boneyard writes from edited PNGs (new colours, moved colours, scaled alpha back):
   SeaLouse reads the edited texture as the edited PNG and every other texture as before.

SeaLouse is GPL code that stays outside the repository: a checkout in PEERS_DIR/SeaLouse (else
BONEYARD_SEALOUSE_GIT, a git repository of it, is exported into SCRATCH), or the test is skipped
(exit 77). tri.py is pure Python and Pillow; it is loaded as a lone module (SeaLouse's package
__init__ is a Blender add-on and is not run). Two versions are known: ShizCalev/SeaLouse reads
both entry sizes and writes `%06x.png` with the stored alpha; Jacky720/SeaLouse (the checkout the
other interop tests name) reads only Master Collection entries and writes `%d.tga` with the alpha
stretched to a * 255 // 128: with it, the PS2 fixtures are left out (said) and its alpha is
compared in its own scale.
"""
import importlib.util
import io
import os
import shutil
import subprocess
import sys
import contextlib

CLI, WRITER, SCRATCH, PEERS = sys.argv[1:5]


def skip(reason):
    print("SKIP: " + reason)
    sys.exit(77)


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def boneyard(*args, expect=0):
    run = subprocess.run([CLI, *map(str, args)], capture_output=True, text=True)
    if run.returncode != expect:
        fail("boneyard %s: exit %d\n%s%s" % (" ".join(map(str, args)), run.returncode, run.stdout, run.stderr))
    return run


def sealouse_tri_py():
    here = os.path.join(PEERS, "SeaLouse", "tri", "tri.py")
    if os.path.isfile(here):
        return here
    git = os.environ.get("BONEYARD_SEALOUSE_GIT", "")
    if git and os.path.isdir(git):
        target = os.path.join(SCRATCH, "SeaLouse")
        shutil.rmtree(target, ignore_errors=True)
        os.makedirs(target)
        archive = subprocess.run(["git", "-C", git, "archive", "HEAD", "tri"], capture_output=True)
        if archive.returncode == 0:
            subprocess.run(["tar", "-x", "-C", target], input=archive.stdout, check=True)
            if os.path.isfile(os.path.join(target, "tri", "tri.py")):
                return os.path.join(target, "tri", "tri.py")
    skip("no SeaLouse checkout in %s (git clone https://github.com/ShizCalev/SeaLouse there, or set "
         "BONEYARD_SEALOUSE_GIT to a git repository of it, to run this test)" % PEERS)


try:
    from PIL import Image
except ImportError:
    skip("Pillow (python3-pil) is not installed")

shutil.rmtree(SCRATCH, ignore_errors=True)
os.makedirs(SCRATCH)
spec = importlib.util.spec_from_file_location("sealouse_tri", sealouse_tri_py())
tri = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tri)


SHIZCALEV = hasattr(tri, "_detectIsPS2")  # else Jacky720's: MC entries only, TGA, alpha stretched


def theirs_scale(image):
    """`image` (alpha as stored) as this SeaLouse exports it."""
    if SHIZCALEV:
        return image
    r, g, b, a = image.split()
    return Image.merge("RGBA", (r, g, b, a.point(lambda v: v * 255 // 128)))


def sealouse_export(path, out_dir):
    """SeaLouse's images of every texture of `path`: {id: PIL image or None (refused)}."""
    os.makedirs(out_dir, exist_ok=True)
    with open(path, "rb") as f:
        t = tri.TRI().fromFile(f)
    texture_buffer = t.header.initPartialProcessBuffer(0)
    clut_buffer = t.header.initPartialProcessBuffer(1)
    out = {}
    for entry in t.textures:
        with contextlib.redirect_stdout(io.StringIO()):
            written = entry.dumpTexture(out_dir, texture_buffer, clut_buffer)
        out[entry.texID] = Image.open(written).convert("RGBA") if written else None
    return t, out


def rgba_of(path):
    return Image.open(path).convert("RGBA")


def same(a, b):
    return a.size == b.size and a.tobytes() == b.tobytes()


subprocess.run([WRITER, os.path.join(SCRATCH, "fixtures")], check=True, capture_output=True)
fixtures = os.path.join(SCRATCH, "fixtures")
manifest = [line.split() for line in open(os.path.join(fixtures, "manifest.txt"))]
checked = refused = 0
left_out = []
for name in sorted({m[0] for m in manifest}):
    if not SHIZCALEV and name.endswith("_ps2"):
        left_out.append(name)
        continue
    path = os.path.join(fixtures, name + ".tri")
    ours = os.path.join(SCRATCH, "boneyard_" + name)
    boneyard("texture", path, "-o", ours)
    t, theirs = sealouse_export(path, os.path.join(SCRATCH, "sealouse_" + name))
    if SHIZCALEV and t.isPS2 != name.endswith("_ps2"):
        fail("%s: SeaLouse reads it as %s" % (name, "PS2" if t.isPS2 else "Master Collection"))
    for fixture, id6, w, h in (m for m in manifest if m[0] == name):
        expected = Image.frombytes("RGBA", (int(w), int(h)), open(os.path.join(fixtures, "%s.%s.rgba" % (name, id6)), "rb").read())
        mine = rgba_of(os.path.join(ours, id6 + ".png"))
        if not same(mine, expected):
            fail("%s texture %s: boneyard's PNG is not the builder's pixels" % (name, id6))
        sl = theirs[int(id6, 16)]
        if sl is None:
            if max(expected.getchannel("A").getdata()) <= 0x80:
                fail("%s texture %s: SeaLouse refused a texture whose alpha is within 0..0x80" % (name, id6))
            refused += 1
            continue
        if not same(sl, theirs_scale(mine)):
            diff = sum(1 for a, b in zip(sl.getdata(), theirs_scale(mine).getdata()) if a != b)
            fail("%s texture %s: SeaLouse and boneyard differ in %d of %d pixels (sizes %s, %s)"
                 % (name, id6, diff, mine.size[0] * mine.size[1], sl.size, mine.size))
        checked += 1
if refused != (2 if SHIZCALEV else 1):  # texture 0a1b2c of the standard fixtures it reads
    fail("SeaLouse refused %d textures; the fixtures it read hold %d with alpha above 0x80" % (refused, 2 if SHIZCALEV else 1))

# 2. Edited PNGs back into a .tri, read by SeaLouse.
for layout in ("ps2", "mc") if SHIZCALEV else ("mc",):
    name = "edges_" + layout
    src = os.path.join(fixtures, name + ".tri")
    out = os.path.join(SCRATCH, "edit_" + layout)
    boneyard("texture", src, "-o", out, "--alpha", "scaled")
    # 5a5a5a (4-bit, 6 of 16 colours): a stripe of two new colours and moved pixels.
    im = rgba_of(os.path.join(out, "5a5a5a.png"))
    px = im.load()
    for x in range(32):
        px[x, 5] = (255, 0, 0, 255)
        px[x, 6] = (0, 0, 255, 128)
        px[x, 7] = px[x, 20]
    im.save(os.path.join(out, "5a5a5a.png"))
    # c0ffe (8-bit, every colour used): pixels moved only.
    im2 = rgba_of(os.path.join(out, "0c0ffe.png"))
    px2 = im2.load()
    for x in range(200):
        px2[x, 0], px2[x, 39] = px2[x, 39], px2[x, 0]
    im2.save(os.path.join(out, "0c0ffe.png"))
    edited = os.path.join(SCRATCH, "edited_" + layout + ".tri")
    # Pillow, as image editors do, drops the PNGs' trIa chunk: --alpha says how they hold alpha.
    run = boneyard("texture", out, "-o", edited, "--template", src, "--alpha", "scaled")
    if "5a5a5a.png (texture 0x5A5A5A): re-encoded" not in run.stderr or "00beef.png (texture 0x00BEEF): unchanged" not in run.stderr:
        fail("edit %s: %s" % (layout, run.stderr))
    _, theirs = sealouse_export(edited, os.path.join(SCRATCH, "sealouse_edited_" + layout))
    for id6 in ("5a5a5a", "0c0ffe", "00beef"):
        # The PNGs hold scaled alpha; SeaLouse exports the stored alpha: compare in the stored range.
        want = rgba_of(os.path.join(out, id6 + ".png"))
        r, g, b, a = want.split()
        want = theirs_scale(Image.merge("RGBA", (r, g, b, a.point(lambda v: (v * 128 + 127) // 255))))
        if theirs[int(id6, 16)] is None or not same(theirs[int(id6, 16)], want):
            fail("edit %s: SeaLouse reads texture %s of boneyard's .tri otherwise than the edited PNG" % (layout, id6))
        checked += 1
print("ok: %d textures agree with SeaLouse (%s) pixel for pixel; %d refused by it for alpha above 0x80, as expected%s"
      % (checked, "ShizCalev's" if SHIZCALEV else "Jacky720's, alpha in its a * 255 // 128", refused,
         "; left out (it reads Master Collection entries only): " + ", ".join(left_out) if left_out else ""))
