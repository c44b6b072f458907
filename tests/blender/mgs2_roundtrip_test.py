"""A KMS and an EVM through Blender and back (issue 12): the branching fixtures (six units/joints,
parents [-1, 0, 0, 2, 1, 1], several texture sets, single-sided packets) -> glb -> Blender import
with its DEFAULT settings (bone_heuristic TEMPERANCE turns the joint frames) -> Blender export,
with custom properties (extras) and without -> .kms/.evm with and without --template. Every
result must keep the unit/joint order, parents, places, texture ids and triangles (mgs2_compare),
although Blender writes the skin joints depth-first.

ARGS: the fixture writer (tests/blender/write_mgs2_blender_fixtures.cpp).
"""
import json
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import blender_common as bc  # noqa: E402
import mgs2_compare as mc  # noqa: E402

import bpy  # noqa: E402
import subprocess  # noqa: E402

args = bc.Args()
writer = args.extra[0]
subprocess.run([writer, args.scratch], check=True)
fixture = args.out


def glb_json(path):
    with open(path, "rb") as f:
        b = f.read()
    n = struct.unpack_from("<I", b, 12)[0]
    return json.loads(b[20:20 + n])


def through_blender(source, glb_opts, stem):
    """source -> glb (boneyard) -> Blender default import -> (with extras, without) glbs."""
    glb = fixture(stem + ".glb")
    bc.boneyard(args, "convert", source, "-o", glb, *glb_opts)
    bc.reset(fps=30)
    bc.import_gltf(glb)
    with_extras, plain = fixture(stem + "_blender.glb"), fixture(stem + "_blender_plain.glb")
    bc.export_glb(with_extras)
    bc.export_glb(plain, export_extras=False)
    return with_extras, plain


def check_skin_is_reordered(glb, prefix):
    """The test only proves something when Blender's skin order is not the stored one."""
    j = glb_json(glb)
    names = [j["nodes"][n]["name"] for n in j["skins"][0]["joints"]]
    stored = ["%s_%d" % (prefix, i) for i in range(len(names))]
    if names == stored:
        bc.fail("Blender kept the skin order %s: the fixture no longer tests the reordering" % names)
    return names


def check(source, back_glb, ext, label, template, header_keys):
    out = fixture("%s%s" % (label, ext))
    extra = ["--template", source] if template else []
    code, _, err = bc.boneyard(args, "convert", back_glb, "-o", out, *extra)
    original, back = mc.dump(args.cli, source), mc.dump(args.cli, out)
    diffs = mc.differences(original, back)
    if diffs:
        bc.fail("%s: round trip through Blender changed the model:\n  %s\n%s" % (label, "\n  ".join(diffs), err))
    if "joint frames turned" not in err:
        bc.fail("%s: Blender's default import turns joint frames, but no line lists the corrected joints:\n%s" % (label, err))
    for key in header_keys:
        if original[key] != back[key]:
            bc.fail("%s: header %s %s came back %s" % (label, key, original[key], back[key]))
    return err


def run_model(name, ext, glb_opts, prefix, header_keys):
    source = fixture(name + ext)
    with_extras, plain = through_blender(source, glb_opts, name)
    order = check_skin_is_reordered(with_extras, prefix)
    # With the extras (Blender keeps node, mesh and material custom properties), everything the
    # header holds comes back even without a template; without them, only with the template.
    check(source, with_extras, ext, name + "_extras", False, header_keys)
    check(source, with_extras, ext, name + "_extras_template", True, header_keys)
    err = check(source, plain, ext, name + "_plain", False, [])
    if "writing the PS2 layout" not in err:
        bc.fail("%s without extras or template: the layout default was not announced:\n%s" % (name, err))
    check(source, plain, ext, name + "_plain_template", True, header_keys)
    print("%s: Blender's skin order %s; order, parents, places, textures and triangles kept (4 ways)" % (name, order))


run_model("branching", ".kms", ["--names", fixture("textures.txt")], "unit",
          ["layout", "data_format", "n_models", "texture", "position"])
run_model("branching", ".evm", [], "joint", ["layout", "n_models", "type", "texture"])
print("blender mgs2 round trip: ok")
