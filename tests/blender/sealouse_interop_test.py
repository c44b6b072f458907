"""SeaLouse's EVM importer on boneyard's EVMs (issue 12, scope 6). SeaLouse reads n_mats as the
influences per vertex and fails (IndexError) when it is above 4, which the spec's reading (the
matrices a packet uses) allows; `--n-mats sealouse` writes its reading. The branching EVM fixture
(Master Collection layout, the only one this SeaLouse reads) has a packet over six matrices:
written with --n-mats sealouse, both from the glb and as a rewrite of the .evm, SeaLouse must
import it with boneyard's triangles, positions and weights.

SeaLouse runs from a checkout outside the repository (never committed): ARGS are the fixture
writer and the folder holding SeaLouse/ (CMake BONEYARD_PEERS_DIR); skipped when it is absent.
"""
import importlib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import blender_common as bc  # noqa: E402
import sealouse_shims  # noqa: E402
import mgs2_compare as mc  # noqa: E402

import bpy  # noqa: E402

args = bc.Args()
sealouse_shims.prepare(args, "evm/importer/evm_importer.py")
evm_importer = importlib.import_module("SeaLouse.evm.importer.evm_importer")


def sealouse_import(path):
    """The mesh SeaLouse makes of `path`, or the exception it raises."""
    bc.reset()
    try:
        evm_importer.main(path)
    except Exception as e:  # noqa: BLE001 - SeaLouse's failure is the result here
        return e
    meshes = [o for o in bpy.data.objects if o.type == "MESH"]
    if len(meshes) != 1:
        bc.fail("SeaLouse made %d meshes of %s" % (len(meshes), path))
    return meshes[0]


def sealouse_position_scale(flag):
    """SeaLouse's vertex positions per boneyard model unit. Positions are stored as 1.11.4 fixed
    point (model units * 16) unless the header's LARGE bit (1) is set. Older SeaLouse keeps the stored
    units; newer SeaLouse divides them by 16 itself (evm.evmPosScale), landing on model units."""
    stored = 1 if flag & 1 else 16
    evm_module = importlib.import_module("SeaLouse.evm.evm")
    scale_of = getattr(evm_module, "evmPosScale", None)
    return stored * scale_of(flag) if scale_of else stored


def check_sealouse_reads(path):
    """SeaLouse's mesh of `path` has boneyard's triangles, stored positions and weights."""
    d = mc.dump(args.cli, path)
    if max(p["n_mats"] for p in d["packets"]) > 4:
        bc.fail("%s: --n-mats sealouse left n_mats above 4: %s" % (path, [p["n_mats"] for p in d["packets"]]))
    obj = sealouse_import(path)
    if isinstance(obj, Exception):
        bc.fail("SeaLouse cannot import %s: %s: %s" % (path, type(obj).__name__, obj))
    mesh = obj.data
    triangles = sum(len(p["triangles"]) for p in d["packets"])
    if len(mesh.polygons) != triangles:
        bc.fail("%s: SeaLouse made %d faces, boneyard has %d triangles" % (path, len(mesh.polygons), triangles))
    scale = sealouse_position_scale(d["type"])
    vertices = [(v, w) for p in d["packets"] for v, w in zip(p["vertices"], p["weights"])]
    if len(mesh.vertices) != len(vertices):
        bc.fail("%s: SeaLouse made %d vertices, boneyard has %d" % (path, len(mesh.vertices), len(vertices)))
    groups = obj.vertex_groups
    for i, (v, w) in enumerate(vertices):
        co = tuple(mesh.vertices[i].co)
        if max(abs(co[c] - v[c] * scale) for c in range(3)) > 1e-3:
            bc.fail("%s vertex %d: SeaLouse at %s, boneyard at %s" % (path, i, co, [x * scale for x in v]))
        got = {}
        for g in mesh.vertices[i].groups:
            if g.weight > 0:
                got[int(groups[g.group].name[len("bone"):])] = g.weight
        want = {j: x for j, x in w}
        if set(got) != set(want) or any(abs(got[j] - want[j]) > 1e-6 for j in want):
            bc.fail("%s vertex %d: SeaLouse weights %s, boneyard %s" % (path, i, got, want))
    return triangles, len(vertices)


spec = args.out("branching_mc.evm")
spec_n_mats = [p["n_mats"] for p in mc.dump(args.cli, spec)["packets"]]
if max(spec_n_mats) <= 4:
    bc.fail("the fixture has no packet over 4 matrices (n_mats %s): it tests nothing" % spec_n_mats)
# What the option is for: the spec's reading, as boneyard writes it by default.
failure = sealouse_import(spec)
spec_result = ("fails: %s" % type(failure).__name__) if isinstance(failure, Exception) else "reads it"
glb = args.out("branching_mc.glb")
from_glb, rewritten = args.out("from_glb.evm"), args.out("rewritten.evm")
bc.boneyard(args, "convert", spec, "-o", glb)
bc.boneyard(args, "convert", glb, "-o", from_glb, "--n-mats", "sealouse")
bc.boneyard(args, "convert", spec, "-o", rewritten, "--n-mats", "sealouse")
for path in (from_glb, rewritten):
    triangles, vertices = check_sealouse_reads(path)
    print("SeaLouse reads %s: %d triangles, %d vertices, weights as boneyard's" % (os.path.basename(path), triangles, vertices))
print("sealouse interop: ok (n_mats %s in the spec's reading; SeaLouse on it %s)" % (spec_n_mats, spec_result))
