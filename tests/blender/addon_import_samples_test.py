"""The Blender add-on imports every sample model that has motions (issue 17, scope 3; import
only, so it stays fast): each .ogf whose motion ref names a sample .omf, laid out as the game does,
and each .ogf with embedded motions. For each: the armature has the model's bones, one action per
motion in file order with the motion's frame count, and the motion file's bytes are kept as the
export template.

ARGS: ZIP. Skipped when the samples are absent.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import addon_common as ac  # noqa: E402
import blender_common as bc  # noqa: E402

import bpy  # noqa: E402

args = bc.Args()
zip_path = args.extra[0]
root = os.path.join(args.samples_dir, "xray")
if not os.path.isdir(root):
    bc.skip("the samples are absent (../shared/samples/xray)")


def sample_files(ext):
    out = []
    for folder, _, files in os.walk(root):
        out += [os.path.join(folder, f) for f in files if f.lower().endswith(ext)]
    return sorted(out)


def models_with_motions():
    """(ogf, omf or None for embedded motions) for every sample model with motions we have."""
    omfs = {os.path.splitext(os.path.basename(p))[0].lower(): p for p in sample_files(".omf")}
    out = []
    for ogf in sample_files(".ogf"):
        d = ac.dump(args.cli, ogf)
        refs = (d.get("motion_refs") or {}).get("refs") or []
        if refs:
            omf = omfs.get(refs[0].replace("\\", "/").split("/")[-1].lower())
            if omf is not None:
                out.append((ogf, omf))
        elif d.get("motions"):
            out.append((ogf, None))
    return out


def expected_motions(ogf, omf):
    """Motion names (the first of repeated names, as the engine keeps it) and frames, in file order."""
    source = omf
    if omf is None:
        source = args.out(os.path.basename(ogf) + ".omf")
        bc.boneyard(args, "convert", ogf, "-o", source)
    seen, out = set(), []
    for m in ac.dump(args.cli, source)["motions"]:
        if m["name"].lower() not in seen:
            seen.add(m["name"].lower())
            out.append((m["name"], m["frames"]))
    return out, open(source, "rb").read()


ac.install(zip_path)
pairs = models_with_motions()
if len(pairs) < 4:
    bc.fail("expected at least 4 sample models with motions, found %s" % pairs)
for ogf, omf in pairs:
    label = os.path.relpath(ogf, root)
    model = ogf
    if omf is not None:
        model, _ = ac.game_tree(args, ogf, omf, args.out(os.path.basename(ogf) + "_game"))
    ac.fresh(args.cli)
    result = bpy.ops.import_scene.boneyard_xray(filepath=model)
    if result != {"FINISHED"}:
        bc.fail("%s: import %s" % (label, result))
    arm = ac.armature()
    want_bones = sorted(b["name"] for b in ac.dump(args.cli, ogf)["bones"])
    if sorted(b.name for b in arm.data.bones) != want_bones:
        bc.fail("%s: bones %s, expected %s" % (label, sorted(b.name for b in arm.data.bones), want_bones))
    motions, template = expected_motions(ogf, omf)
    actions = ac.motion_actions(arm)
    got = [(a.boneyard.name, ac.frames_of(a)) for a in actions]
    if got != motions:
        bad = [(g, w) for g, w in zip(got, motions) if g != w][:5]
        bc.fail("%s: motions (name, frames) %d, expected %d; first differences %s" % (label, len(got), len(motions), bad))
    if bytes(arm.data.boneyard.motion_sets[0]["template"]) != template:
        bc.fail("%s: the kept template is not the motion file's bytes" % label)
    print("%s: %d bones, %d motions with their frame counts, template kept" % (label, len(want_bones), len(got)))
# OGF v3 (builds before 2004): read by boneyard's own v3 model, imported the same way.
v3 = [p for p in sample_files(".ogf") if ac.dump(args.cli, p).get("ogf_version") == 3]
if not v3:
    bc.fail("expected the OGF v3 sample (sdk/blender-xray/test_fmt_ogf_v3.ogf)")
for ogf in v3:
    label = os.path.relpath(ogf, root)
    d = ac.dump(args.cli, ogf)
    ac.fresh(args.cli)
    result = bpy.ops.import_scene.boneyard_xray(filepath=ogf)
    if result != {"FINISHED"}:
        bc.fail("%s: import %s" % (label, result))
    arm = ac.armature()
    want_bones = sorted((b["name"], b["parent"]) for b in d["bones"])
    got_bones = sorted((b.name, b.parent.name if b.parent else "") for b in arm.data.bones)
    if got_bones != want_bones:
        bc.fail("%s: bones %s, expected %s" % (label, got_bones, want_bones))
    triangles = sum(len(o.data.polygons) for o in bpy.data.objects if o.type == "MESH")
    want_triangles = sum(m["index_count"] // 3 for m in d["meshes"])
    if triangles != want_triangles:
        bc.fail("%s: %d triangles, expected %d" % (label, triangles, want_triangles))
    if d["motions"] is None and arm.data.boneyard.motion_sets and ac.motion_actions(arm):
        bc.fail("%s: motions made for a model without any" % label)
    print("%s (OGF v3): %d bones, %d triangles" % (label, len(got_bones), triangles))
print("addon import of %d sample models with motions and %d OGF v3 models: ok" % (len(pairs), len(v3)))
