"""blender-xray (PavelBlend/blender-xray, an independent .object reader and writer) against
boneyard's .object files (issue 39 scope 6). For each sample object:

* boneyard converts it to glTF and back without a template (for the game whose smoothing style the
  original is in), and with the template after an edit (one point moved by 1 cm in the glTF, the
  primitive extras dropped as a DCC tool drops them, so the mesh is rebuilt in the template's
  layout);
* blender-xray imports the original and both outputs; what it makes of each output must equal what
  it makes of the original: the bones (names, parents), every corner's position, UV and weights
  (as sets: blender-xray merges vertices), the surfaces (texture, shaders, game material) and the
  sharp edges (its reading of the smoothing groups) -- the edited one with the moved point moved;
* blender-xray exports its import of the original, and boneyard reads and validates that file,
  rewrites it byte for byte, and its glTF and back (without a template) is what blender-xray's
  import of its own export is.

blender-xray runs from a checkout outside the repository: the last ARG is the folder holding
blender-xray/ (CMake BONEYARD_PEERS_DIR); skipped when it or the samples are absent.
"""
import json
import os
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import blender_common as bc  # noqa: E402

import bpy  # noqa: E402

args = bc.Args()
addon_parent = bc.blender_xray(args)
SAMPLES = ["sdk/mod/handflash_hud.object", "sdk/mod/dev_detector_1_hud.object", "sdk/blender-xray/test_fmt_bones.object",
           "sdk/blender-xray/test_fmt_sg_maya.object", "sdk/blender-xray/test_fmt_sg_new.object",
           "sdk/blender-xray/test_fmt_vmrefs.object", "sdk/blender-xray/test_fmt_omf.object"]
if args.sample(SAMPLES[0]) is None:
    bc.skip("real samples not found under %s" % args.samples_dir)
out = args.out("objects")
os.makedirs(out, exist_ok=True)
POS, UV, WEIGHT = 1e-4, 1e-4, 2e-3


def reset_with_addon():
    bc.reset_with_blender_xray(addon_parent)


def imported(path, style):
    """What blender-xray makes of an .object: bones, corners, surfaces, sharp edges (X-Ray space)."""
    reset_with_addon()
    result = bpy.ops.xray_import.object(directory=os.path.dirname(path), files=[{"name": os.path.basename(path)}],
                                        fmt_version=style)
    if result != {"FINISHED"}:
        bc.fail("%s: blender-xray import: %s" % (path, result))
    bones = []
    for arm in bc.armatures():
        bones += [(b.name, b.parent.name if b.parent else "") for b in arm.data.bones]
    corners, surfaces, sharp = [], set(), set()
    for obj in bpy.data.objects:
        if obj.type != "MESH":
            continue
        mesh = obj.data
        uv = mesh.uv_layers.active
        groups = {g.index: g.name for g in obj.vertex_groups}
        for m in mesh.materials:
            surfaces.add((m.name.split(".0")[0] if m.name[-4:-3] == "." else m.name, m.xray.eshader, m.xray.cshader,
                          m.xray.gamemtl))
        def co(i):
            c = obj.matrix_world @ mesh.vertices[i].co
            return (round(c.x, 4), round(c.z, 4), round(c.y, 4))  # Blender (x, z, y) -> X-Ray
        for poly in mesh.polygons:
            for li in poly.loop_indices:
                v = mesh.vertices[mesh.loops[li].vertex_index]
                u, vv = uv.data[li].uv if uv else (0.0, 0.0)
                weights = {groups[g.group]: g.weight for g in v.groups if g.weight > 0}
                corners.append(co(v.index) + (u, 1 - vv, weights))
        for e in mesh.edges:
            if e.use_edge_sharp:
                sharp.add(tuple(sorted((co(e.vertices[0]), co(e.vertices[1])))))
    return sorted(bones), corners, surfaces, sharp


def same_weights(a, b):
    ta, tb = sum(a.values()) or 1, sum(b.values()) or 1
    return all(abs(a.get(n, 0) / ta - b.get(n, 0) / tb) <= WEIGHT for n in set(a) | set(b))


def key(c):
    return (round(c[0] * 1000), round(c[1] * 1000), round(c[2] * 1000))


def find(grid, c):
    k = key(c)
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            for dz in (-1, 0, 1):
                for o in grid.get((k[0] + dx, k[1] + dy, k[2] + dz), []):
                    if max(abs(o[i] - c[i]) for i in range(3)) <= POS and abs(o[3] - c[3]) <= UV and abs(o[4] - c[4]) <= UV \
                            and same_weights(o[5], c[5]):
                        return o
    return None


def compare(name, want, have, moved=None):
    """`have` (an output's import) equals `want` (the original's); `moved`: (old, new) position."""
    w_bones, w_corners, w_surfaces, w_sharp = want
    h_bones, h_corners, h_surfaces, h_sharp = have
    if h_bones != w_bones:
        bc.fail("%s: bones differ:\n %s\n %s" % (name, h_bones, w_bones))
    if h_surfaces != w_surfaces:
        bc.fail("%s: surfaces differ:\n %s\n %s" % (name, sorted(h_surfaces), sorted(w_surfaces)))
    def moved_to(c):
        if moved and max(abs(c[i] - moved[0][i]) for i in range(3)) <= POS:
            return tuple(moved[1]) + tuple(c[3:])
        return c
    grid = {}
    for c in h_corners:
        grid.setdefault(key(c), []).append(c)
    for c in w_corners:
        c = moved_to(c)
        if find(grid, c) is None:
            bc.fail("%s: blender-xray finds no corner at %s with UV %s and weights %s" % (name, c[:3], c[3:5], c[5]))
    grid = {}
    for c in w_corners:
        c = moved_to(c)
        grid.setdefault(key(c), []).append(c)
    for c in h_corners:
        if find(grid, c) is None:
            bc.fail("%s: blender-xray has a corner at %s the original has not" % (name, c[:3]))
    if moved:  # edges at the moved point: compare the others
        def touches(e):
            return any(max(abs(p[i] - q[i]) for i in range(3)) <= 2e-3 for p in e for q in (moved[0], moved[1]))
        w_sharp = {e for e in w_sharp if not touches(e)}
        h_sharp = {e for e in h_sharp if not touches(e)}
    if h_sharp != w_sharp:
        bc.fail("%s: sharp edges differ: %d only in the output, %d only in the original" %
                (name, len(h_sharp - w_sharp), len(w_sharp - h_sharp)))
    print("%s: %d bones, %d corners, %d surfaces, %d sharp edges agree" % (name, len(h_bones), len(h_corners),
                                                                           len(h_surfaces), len(h_sharp)))


def style_of(path):
    _, info, _ = bc.boneyard(args, "info", path)
    return "soc" if "smoothing groups in the SoC style" in info else "cscop"


def edited_glb(src, dst):
    """The .glb with its primitives' extras dropped and the first vertex of the first primitive
    (and every vertex at its position) moved up 1 cm; returns (old, new) in X-Ray space."""
    data = open(src, "rb").read()
    json_len = struct.unpack_from("<I", data, 12)[0]
    doc = json.loads(data[20:20 + json_len])
    binary = bytearray(data[20 + json_len + 8:])
    accessor = doc["accessors"][doc["meshes"][0]["primitives"][0]["attributes"]["POSITION"]]
    view = doc["bufferViews"][accessor["bufferView"]]
    at = view.get("byteOffset", 0) + accessor.get("byteOffset", 0)
    old = struct.unpack_from("<3f", binary, at)
    for mesh in doc["meshes"]:
        for prim in mesh["primitives"]:
            prim.pop("extras", None)
            acc = doc["accessors"][prim["attributes"]["POSITION"]]
            v = doc["bufferViews"][acc["bufferView"]]
            base = v.get("byteOffset", 0) + acc.get("byteOffset", 0)
            for i in range(acc["count"]):
                p = struct.unpack_from("<3f", binary, base + 12 * i)
                if p == old:
                    struct.pack_into("<3f", binary, base + 12 * i, p[0], p[1] + 0.01, p[2])
    text = json.dumps(doc, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 4)
    out_bytes = struct.pack("<III", 0x46546C67, 2, 12 + 8 + len(text) + 8 + len(binary))
    out_bytes += struct.pack("<II", len(text), 0x4E4F534A) + text + struct.pack("<II", len(binary), 0x004E4942) + binary
    open(dst, "wb").write(out_bytes)
    # glTF (x, y, z) is X-Ray (x, y, -z).
    return (round(old[0], 4), round(old[1], 4), round(-old[2], 4)), (round(old[0], 4), round(old[1] + 0.01, 4), round(-old[2], 4))


for rel in SAMPLES:
    original = args.sample(rel)
    name = os.path.splitext(os.path.basename(rel))[0]
    style = style_of(original)
    glb = os.path.join(out, name + ".glb")
    bc.boneyard(args, "convert", original, "-o", glb)
    fresh = os.path.join(out, name + "_new.object")
    bc.boneyard(args, "convert", glb, "-o", fresh, "--game", "soc" if style == "soc" else "cop")
    want = imported(original, style)
    compare(name + " (template-less)", want, imported(fresh, style))
    edited = os.path.join(out, name + "_edited.glb")
    moved = edited_glb(glb, edited)
    rebuilt = os.path.join(out, name + "_edited.object")
    bc.boneyard(args, "convert", edited, "-o", rebuilt, "--template", original)
    compare(name + " (edited, template)", want, imported(rebuilt, style), moved)
    # What blender-xray writes, boneyard reads.
    imported(original, style)
    exported_dir = os.path.join(out, "bx_" + name)
    os.makedirs(exported_dir, exist_ok=True)
    roots = [o.name for o in bpy.data.objects if o.xray.isroot]
    result = bpy.ops.xray_export.object(directory=exported_dir, objects=",".join(roots), fmt_version=style,
                                        texture_name_from_image_path=False)
    if result != {"FINISHED"}:
        bc.fail("%s: blender-xray export: %s" % (name, result))
    exported = sorted(f for f in os.listdir(exported_dir) if f.endswith(".object"))
    if not exported:
        bc.fail("%s: blender-xray exported nothing into %s" % (name, exported_dir))
    for f in exported:
        path = os.path.join(exported_dir, f)
        bc.boneyard(args, "validate", path)
        rewritten = path + ".rewritten.object"
        bc.boneyard(args, "convert", path, "-o", rewritten)
        if open(path, "rb").read() != open(rewritten, "rb").read():
            bc.fail("%s: boneyard's rewrite of blender-xray's export is not byte for byte" % name)
        bc.boneyard(args, "convert", path, "-o", path + ".glb")
        again = path + ".again.object"
        bc.boneyard(args, "convert", path + ".glb", "-o", again, "--game", "soc" if style == "soc" else "cop")
        # Against blender-xray's own import of its export: it leaves out what it flagged on import
        # (duplicate faces go to a ".xr-bad!" vertex group and are not exported).
        compare(name + " (blender-xray's export, through boneyard's glTF and back)", imported(path, style),
                imported(again, style))
print("blender-xray reads boneyard's objects as it reads the originals, and boneyard reads blender-xray's")
