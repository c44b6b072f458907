"""Hostile inputs for the .ogf writers (issue 29): glTF -> .ogf with and without --template, and the
`boneyard ogf` edits. Each limit the format or the engine sets is refused in one line naming what
broke it, and nothing is written (docs/ogf-write.md "Limits")."""
import os
import struct

from craft import GLTF_ASSET, example, gltf_blob_accessors, gltf_json
from hostile_case import case


def model_gltf(joint_names=("root", "spine"), triangles=1, material=None):
    """A skinned model of `triangles` separate triangles (three vertices each, none shared, so
    nothing welds), every vertex on the first joint; the joints form a chain. `material` is the
    glTF material (default: one named after an X-Ray texture)."""
    n = 3 * triangles
    pos, uv = [], []
    for t in range(triangles):
        x = t * 0.01
        pos += [x, 0, 0, x + 0.005, 0, 0, x, 0.005, 0]
        uv += [0, 0, 1, 0, 0, 1]
    big = n > 65535
    blobs = [struct.pack(f"<{3 * n}f", *pos), struct.pack(f"<{3 * n}f", *([0, 0, 1] * n)),
             struct.pack(f"<{2 * n}f", *uv),
             struct.pack(f"<{n}I" if big else f"<{n}H", *range(n)) + (b"" if big or n % 2 == 0 else b"\0\0"),
             struct.pack(f"<{4 * n}H", *([0, 0, 0, 0] * n)), struct.pack(f"<{4 * n}f", *([1, 0, 0, 0] * n))]
    joints = len(joint_names)
    blobs.append(struct.pack(f"<{16 * joints}f", *([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] * joints)))
    data = gltf_blob_accessors(blobs, [(0, n, "VEC3", 5126), (1, n, "VEC3", 5126), (2, n, "VEC2", 5126),
                                       (3, n, "SCALAR", 5125 if big else 5123), (4, n, "VEC4", 5123),
                                       (5, n, "VEC4", 5126), (6, joints, "MAT4", 5126)])
    data["accessors"][0].update({"min": [0, 0, 0], "max": [(triangles - 1) * 0.01 + 0.005, 0.005, 0]})
    nodes = [{"name": name, **({"children": [i + 1]} if i + 1 < joints else {})} for i, name in enumerate(joint_names)]
    nodes.append({"name": "body", "mesh": 0, "skin": 0})
    doc = {"scene": 0, "scenes": [{"nodes": [0, joints]}], "nodes": nodes,
           "skins": [{"joints": list(range(joints)), "inverseBindMatrices": 6}]}
    prim = {"attributes": {"POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2, "JOINTS_0": 4, "WEIGHTS_0": 5},
            "indices": 3, "material": 0}
    return gltf_json(doc, asset=GLTF_ASSET, **data, materials=[material or {"name": "act\\act_zombie",
                                                                "extras": {"xray": {"shader": "models\\model"}}}],
                     meshes=[{"primitives": [prim]}])


@case("ogf_import_plain_model_converts", why="the builder below makes a model the import takes: the refusals "
      "that follow are the limits, not the builder", exit=0, creates=[r"out\.ogf"], creates_required=[r"out\.ogf"])
def _(d):
    (d / "m.gltf").write_bytes(model_gltf())
    return ["convert", "m.gltf", "-o", "out.ogf", "--game", "soc"]


@case("ogf_import_template_not_ogf", why="a --template of another format (an .omf) is a usage error naming what "
      "it holds, before anything is built", exit=2, stderr=r"--template.*holds omf data", one_line=True)
def _(d):
    (d / "m.gltf").write_bytes(model_gltf())
    (d / "t.ogf").write_bytes(example("wave.omf"))
    return ["convert", "m.gltf", "-o", "out.ogf", "--template", "t.ogf"]


@case("ogf_import_template_junk", why="a --template that is no model at all is one line naming the option",
      exit=1, stderr=r"--template", one_line=True)
def _(d):
    (d / "m.gltf").write_bytes(model_gltf())
    (d / "t.ogf").write_bytes(b"\x01\x00\x00\x00\x04\x00\x00\x00junk" * 4)
    return ["convert", "m.gltf", "-o", "out.ogf", "--template", "t.ogf"]


@case("ogf_import_too_many_vertices", why="an .ogf child indexes its vertices with 16 bits: 65,538 vertices in "
      "one mesh cannot be one child", exit=1, stderr=r"too many vertices for one \.ogf child.*65538", one_line=True,
      timeout=60)
def _(d):
    (d / "m.gltf").write_bytes(model_gltf(triangles=21846))
    return ["convert", "m.gltf", "-o", "out.ogf"]


@case("ogf_import_too_many_bones", why="the engine keeps a model's bones in a 64-bit visibility mask",
      exit=1, stderr=r"too many bones.*64", one_line=True)
def _(d):
    (d / "m.gltf").write_bytes(model_gltf(joint_names=[f"bone{i}" for i in range(65)]))
    return ["convert", "m.gltf", "-o", "out.ogf"]


@case("ogf_import_bone_name_too_long", why="bone names are read into 256-byte strings by the engine",
      exit=1, stderr=r"255", one_line=True)
def _(d):
    (d / "m.gltf").write_bytes(model_gltf(joint_names=["root", "b" * 300]))
    return ["convert", "m.gltf", "-o", "out.ogf"]


@case("ogf_import_material_without_texture", why="a child needs a texture name: a material with no name, "
      "extras or image has none to give", exit=1, stderr=r"material 0.*names no texture", one_line=True)
def _(d):
    (d / "m.gltf").write_bytes(model_gltf(material={"pbrMetallicRoughness": {"baseColorFactor": [1, 1, 1, 1]}}))
    return ["convert", "m.gltf", "-o", "out.ogf"]


@case("ogf_import_nul_in_texture_name", why="a NUL would end the stored texture name early",
      exit=1, stderr=r"NUL", one_line=True)
def _(d):
    (d / "m.gltf").write_bytes(model_gltf(material={"name": "act\\a\0b"}))
    return ["convert", "m.gltf", "-o", "out.ogf"]


@case("ogf_import_texture_name_outside_cp1251", why="a texture name the game's code page cannot hold must not "
      "become another name", exit=1, stderr=r"cp1251", one_line=True)
def _(d):
    (d / "m.gltf").write_bytes(model_gltf(material={"name": "act\\\u65e5\u672c"}))
    return ["convert", "m.gltf", "-o", "out.ogf"]


@case("ogf_set_in_place_read_only", why="--in-place on a 0444 model is refused in one line (exit 2), even for "
      "root: a file without any write permission bit is never replaced", exit=2, stderr=r"read-only", one_line=True)
def _(d):
    (d / "m.ogf").write_bytes(example("wave_arm.ogf"))
    os.chmod(d / "m.ogf", 0o444)
    return ["ogf", "set", "m.ogf", "--child", "0", "--texture", "act\\x", "--in-place"]


@case("ogf_set_texture_outside_cp1251", why="an edit to a name the game's code page cannot hold is refused, "
      "nothing written", exit=1, stderr=r"cp1251", one_line=True)
def _(d):
    (d / "m.ogf").write_bytes(example("wave_arm.ogf"))
    return ["ogf", "set", "m.ogf", "--child", "0", "--texture", "act\\\u65e5\u672c", "-o", "out.ogf"]


@case("ogf_motion_refs_name_too_long", why="a motion ref longer than the engine's strings is refused, nothing "
      "written", exit=1, stderr=r"255|long", one_line=True)
def _(d):
    (d / "m.ogf").write_bytes(example("wave_arm.ogf"))
    return ["ogf", "motion-refs", "m.ogf", "--ref", "r" * 600, "-o", "out.ogf"]
