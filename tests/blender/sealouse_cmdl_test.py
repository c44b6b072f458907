"""SeaLouse's CMDL exporter (Jacky720/SeaLouse cmdl/exporter/cmdl_exporter.py, which needs Blender)
on boneyard's Master Collection models, read back by boneyard (issue 16 scope 5). For each model:
SeaLouse imports it and exports it again with its .cmdl, as its export operators do (KMS: the KMS
exporter, which records the strip order the .cmdl's OIDX needs, then the CMDL exporter; EVM: the
same with evmMode). The CMDL object SeaLouse writes is kept (its writeToFile is wrapped), and
boneyard's reading of the file must give its values: every position, normal (within the packing
step), UV (as half floats), bone index and weight, OIDX, triangle and record field. Then boneyard
checks SeaLouse's pair (no errors in the .cmdl), and its own .cmdl of SeaLouse's model draws the
same: the same records with the same triangles, corner by corner at the same places (SeaLouse
keeps one vertex per strip vertex, or per corner for an EVM; boneyard merges equal ones).

SeaLouse runs from a checkout outside the repository (ARGS: the fixture writer and the folder
holding SeaLouse/); skipped when absent. Two shims give Debian's Blender 3.4 the 3.5+ calls
SeaLouse makes (Mesh.from_pydata's shade_flat, MeshUVLoopLayer.uv); they change no value.
"""
import importlib
import json
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import blender_common as bc  # noqa: E402
import sealouse_shims  # noqa: E402

import bpy  # noqa: E402

args = bc.Args()
sealouse_shims.prepare(args, "cmdl/exporter/cmdl_exporter.py", uv_layers=True)
kms_importer = importlib.import_module("SeaLouse.kms.importer.kms_importer")
kms_exporter = importlib.import_module("SeaLouse.kms.exporter.kms_exporter")
evm_importer = importlib.import_module("SeaLouse.evm.importer.evm_importer")
evm_exporter = importlib.import_module("SeaLouse.evm.exporter.evm_exporter")
cmdl_exporter = importlib.import_module("SeaLouse.cmdl.exporter.cmdl_exporter")
cmdl_classes = importlib.import_module("SeaLouse.cmdl.cmdl")

written = []
_write = cmdl_classes.CMDL.writeToFile


def _keep_and_write(self, f):
    written.append(self)
    return _write(self, f)


cmdl_classes.CMDL.writeToFile = _keep_and_write


def dump(path, raw=False):
    return json.loads(bc.boneyard(args, "dump", *(["--raw"] if raw else []), path)[1])


def half(v):
    return struct.unpack("<e", struct.pack("<e", v))[0]


def f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0]


def unit(v):
    n = sum(x * x for x in v) ** 0.5
    return [x / n for x in v] if n else [1.0, 0.0, 0.0]


def expect(where, ok, theirs, ours):
    if not ok:
        bc.fail("%s: SeaLouse wrote %r, boneyard reads %r" % (where, theirs, ours))


def compare(path, c):
    """SeaLouse's CMDL object `c` (values before encoding) against boneyard's reading of `path`."""
    d, raw = dump(path), dump(path, raw=True)
    name = os.path.basename(path)
    if [bytes(s.magic).decode() for s in c.sections] != [s["tag"] for s in d["sections"]]:
        bc.fail("%s: sections %s, boneyard reads %s" % (name, [s.magic for s in c.sections], [s["tag"] for s in d["sections"]]))
    for s, mine in zip(c.sections, d["sections"]):
        tag = mine["tag"]
        expect(name + " " + tag + " format", s.unknown_04 == mine["format"], s.unknown_04, mine["format"])
        values = mine["values"]
        expect(name + " " + tag + " count", len(s.data.data) == len(values), len(s.data.data), len(values))
        for i, (t, o) in enumerate(zip(s.data.data, values)):
            where = "%s %s %d" % (name, tag, i)
            if tag == "POS0":
                expect(where, [f32(x) for x in t] == [f32(x) for x in o], t, o)  # boneyard prints the shortest float32
            elif tag == "NRM0":
                expect(where, all(abs(a - b) <= 1.0 / 511 for a, b in zip(unit(t), o)), unit(t), o)
            elif tag.startswith("TEX") or tag == "BONW":
                expect(where, [half(x) for x in t] == [f32(x) for x in o], t, o)
            else:  # BONI, OIDX
                expect(where, (list(t) if isinstance(t, (list, tuple)) else t) == o, t, o)
    expect(name + " triangles", [list(f) for f in c.tail.faces] == d["triangles"], len(c.tail.faces), len(d["triangles"]))
    for i, (m, mine) in enumerate(zip(c.tail.meshes, raw["meshes"])):
        where = "%s record %d" % (name, i)
        fields = (m.startVertex, m.vertexCount, m.startFace, m.faceCount, m.meshIndex, m.subMeshIndex, list(m.bones))
        ours = tuple(mine[k] for k in ("start_vertex", "vertex_count", "start_index", "index_count", "mesh", "sub_mesh", "bones"))
        expect(where, fields == ours, fields, ours)
        box = [f32(x) for x in m.minPos.xyz() + m.maxPos.xyz()]
        ours_box = [f32(x) for x in mine["bbox_min"] + mine["bbox_max"]]
        expect(where + " box", box == ours_box, box, ours_box)
    expect(name + " record count", len(c.tail.meshes) == len(raw["meshes"]), len(c.tail.meshes), len(raw["meshes"]))
    return d


def sealouse_export(model, evm):
    """SeaLouse's import of `model`, then its export of the model and its .cmdl; returns the paths
    and the CMDL object it wrote."""
    bc.reset()
    stem = os.path.splitext(os.path.basename(model))[0]
    out_model, out_cmdl = args.out("sealouse_" + stem + (".evm" if evm else ".kms")), args.out("sealouse_" + stem + ".cmdl")
    del written[:]
    if evm:
        evm_importer.main(model)
        name = bpy.data.collections["EVM"].children[0].name
        evm_exporter.main(out_model, name)
        cmdl_exporter.main(out_cmdl, name, True, False)
    else:
        kms_importer.main(model)
        name = bpy.data.collections["KMS"].children[0].name
        kms_exporter.main(out_model, name)
        cmdl_exporter.main(out_cmdl, name, False, False)
    if len(written) != 1:
        bc.fail("SeaLouse wrote %d .cmdl for %s" % (len(written), model))
    return out_model, out_cmdl, written[0]


def check_pair(model, cmdl):
    """boneyard's pair check of SeaLouse's model and .cmdl: no error in the .cmdl (SeaLouse's own
    model may have its own faults: its KMS writer counts an extended unit as a regular one)."""
    code, out, err = bc.boneyard(args, "validate", model, "--cmdl", cmdl, expect=None)
    summary = out.strip().splitlines()[-1]
    if " 0 errors" not in summary or "(cmdl with" not in summary:
        bc.fail("boneyard finds errors in SeaLouse's pair:\n%s%s" % (out, err))
    return summary.split(": ", 2)[-1]


def same_structure(sealouse_model, theirs):
    """boneyard's own .cmdl of SeaLouse's model draws what SeaLouse's does: the same records, each
    with the same triangles in the same order and winding, corner by corner at the same places.
    Returns both vertex counts (boneyard merges equal vertices; SeaLouse keeps one per strip vertex)."""
    ours = args.out("boneyard_" + os.path.basename(sealouse_model))
    bc.boneyard(args, "convert", sealouse_model, "-o", ours, "--force")  # SeaLouse's n_models fault, see check_pair
    mine = dump(os.path.join(os.path.dirname(ours), "_win", os.path.splitext(os.path.basename(ours))[0] + ".cmdl"))

    def drawn(d):
        pos = {s["tag"]: s["values"] for s in d["sections"]}["POS0"]
        return [[m["mesh"], m["sub_mesh"], [[pos[v][:3] for v in t] for t in
                                            d["triangles"][m["start_index"] // 3:(m["start_index"] + m["index_count"]) // 3]]]
                for m in d["meshes"]]
    if drawn(mine) != drawn(theirs):
        bc.fail("%s: boneyard's .cmdl draws otherwise than SeaLouse's" % sealouse_model)
    return len(mine["sections"][0]["values"]), len(theirs["sections"][0]["values"])


kms_models = [args.out("standard_mc.kms"), args.out("plain_mc.kms"), args.out("branching_mc.kms")]
bc.boneyard(args, "convert", args.out("branching.kms"), "--layout", "mc", "--no-cmdl", "-o", kms_models[2])
evm_models = [args.out("evm_mc.evm"), args.out("evm_sealouse.evm")]
bc.boneyard(args, "convert", args.out("branching_mc.evm"), "--n-mats", "sealouse", "--no-cmdl", "-o", evm_models[1])
for model in kms_models + evm_models:
    evm = model.endswith(".evm")
    out_model, out_cmdl, written_cmdl = sealouse_export(model, evm)
    theirs = compare(out_cmdl, written_cmdl)
    pair = check_pair(out_model, out_cmdl)
    counts = same_structure(out_model, theirs)
    print("SeaLouse's .cmdl of %s: %d vertices (boneyard's: %d), %d triangles drawn alike, read by boneyard with "
          "its values; pair: %s" % (os.path.basename(model), counts[1], counts[0], len(theirs["triangles"]), pair))
print("sealouse cmdl exporter interop: ok")
