"""Scopes 4 and 6 of the hostile-input issue: boneyard never writes a file it would reject, and
nothing is silently lost (truncated chunks, unreadable mesh children, inputs with validation
errors, lines-only glTF, EVM influences past four)."""
import struct

from craft import GLTF_ASSET, example, gltf_blob_accessors, gltf_json, kms_ps2, omf_static
from hostile_case import case

# ---- builders ---------------------------------------------------------------------------------


def floats(values):
    return struct.pack(f"<{len(values)}f", *values)


def arm_animation_gltf(name="wave", marks=None):
    """Nodes named like wave_arm.ogf's bones and one two-frame animation rotating upper_arm;
    `marks` go into the animation's boneyard extras (a list of {"name", "intervals"})."""
    times = floats([0.0, 1.0 / 30])
    rots = floats([0, 0, 0, 1, 0, 0, 0.0998, 0.995])
    doc = {"scene": 0, "scenes": [{"nodes": [0]}],
           "nodes": [{"name": "root", "children": [1]}, {"name": "upper_arm", "children": [2],
                                                        "translation": [0, 0.3, 0]},
                     {"name": "forearm", "translation": [0, 0.25, 0]}]}
    data = gltf_blob_accessors([times, rots], [(0, 2, "SCALAR", 5126), (1, 2, "VEC4", 5126)])
    data["accessors"][0].update({"min": [0.0], "max": [1.0 / 30]})
    anim = {"name": name, "samplers": [{"input": 0, "output": 1, "interpolation": "LINEAR"}],
            "channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}}]}
    if marks is not None:
        anim["extras"] = {"xray": {"marks": marks}}
    return gltf_json(doc, asset=GLTF_ASSET, **data, animations=[anim])


def mesh_gltf(mode=4, influences=4):
    """One triangle (or, with mode 1/0, lines/points) skinned to 6 joints. With influences 6 each
    vertex carries JOINTS_0/WEIGHTS_0 and JOINTS_1/WEIGHTS_1 (6 non-zero weights)."""
    n_joints = 6
    pos = floats([0, 0, 0, 0.1, 0, 0, 0, 0.1, 0])
    nrm = floats([0, 0, 1] * 3)
    idx = struct.pack("<3H", 0, 1, 2) + b"\0\0"
    if influences == 6:
        w0 = floats([0.3, 0.2, 0.15, 0.15] * 3)
        w1 = floats([0.1, 0.1, 0, 0] * 3)
    else:
        w0 = floats([1, 0, 0, 0] * 3)
        w1 = floats([0, 0, 0, 0] * 3)
    j0 = struct.pack("<12B", *([0, 1, 2, 3] * 3))
    j1 = struct.pack("<12B", *([4, 5, 0, 0] * 3))
    ibm = floats([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] * n_joints)
    nodes = [{"name": f"j{i}", **({"children": [i + 1]} if i + 1 < n_joints else {})} for i in range(n_joints)]
    nodes.append({"name": "mesh", "mesh": 0, "skin": 0})
    doc = {"scene": 0, "scenes": [{"nodes": [0, n_joints]}], "nodes": nodes,
           "skins": [{"joints": list(range(n_joints)), "inverseBindMatrices": 7}]}
    data = gltf_blob_accessors([pos, nrm, idx, w0, j0, w1, j1, ibm],
                               [(0, 3, "VEC3", 5126), (1, 3, "VEC3", 5126), (2, 3, "SCALAR", 5123),
                                (3, 3, "VEC4", 5126), (4, 3, "VEC4", 5121), (5, 3, "VEC4", 5126),
                                (6, 3, "VEC4", 5121), (7, n_joints, "MAT4", 5126)])
    data["accessors"][0].update({"min": [0, 0, 0], "max": [0.1, 0.1, 0]})
    attrs = {"POSITION": 0, "NORMAL": 1, "JOINTS_0": 4, "WEIGHTS_0": 3}
    if influences == 6:
        attrs.update({"JOINTS_1": 6, "WEIGHTS_1": 5})
    return gltf_json(doc, asset=GLTF_ASSET, **data,
                     meshes=[{"primitives": [{"attributes": attrs, "indices": 2, "mode": mode}]}])


def ogf_chunks(data):
    """[(id, offset, size)] of the top-level chunks."""
    out, pos = [], 0
    while pos + 8 <= len(data):
        cid, size = struct.unpack_from("<II", data, pos)
        out.append((cid, pos, size))
        pos += 8 + size
    return out


def ogf_with_embedded_motions():
    """wave_arm.ogf without its motion ref, with wave.omf's 0xE and 0xF appended (0xE first)."""
    ogf = example("wave_arm.ogf")
    ref = [c for c in ogf_chunks(ogf) if c[0] == 0x13][0]
    return ogf[:ref[1]] + example("wave.omf")


def omf_non_permutation():
    """Two bones whose motion-bone indices are both 0 (not a permutation)."""
    return omf_static([("m", 30)], bones=[("root", 0), ("arm", 0)])


# One unit (the first) with one packet: a 3-vertex strip in a 100-unit box (kms_ps2() arguments).
KMS_TRIANGLE = dict(bbox=(0, 0, 0, 100, 100, 0), packet_unit=0,
                    strip=[((0, 0, 0), (0, 0)), ((100, 0, 0), (4096, 0)), ((0, 100, 0), (0, 4096))])


# ---- Scope 4: never write a file boneyard would reject ----------------------------------------


@case("gltf_nul_in_motion_name_to_omf", why="a NUL in a glTF animation name would cut the .omf motion name",
      exit=1, stderr=r"animation \"wa\\x00lk\".*motion name contains a NUL byte", one_line=True)
def _(d):
    (d / "anim.gltf").write_bytes(arm_animation_gltf(name="wa\0lk"))
    (d / "arm.ogf").write_bytes(example("wave_arm.ogf"))
    return ["convert", "anim.gltf", "-o", "out.omf", "--skeleton", "arm.ogf"]


@case("gltf_crlf_in_mark_name_to_omf", why="CR/LF in a mark name would end the CR LF-terminated mark early",
      exit=1, stderr=r"mark 0.*mark name contains CR or LF", one_line=True)
def _(d):
    (d / "anim.gltf").write_bytes(arm_animation_gltf(marks=[{"name": "step\r\nLeft", "intervals": [[0.0, 0.01]]}]))
    (d / "arm.ogf").write_bytes(example("wave_arm.ogf"))
    return ["convert", "anim.gltf", "-o", "out.omf", "--skeleton", "arm.ogf"]


@case("gltf_mark_name_outside_cp1251_to_omf", why="a mark name the game's code page cannot hold must not become empty",
      exit=1, stderr=r"mark 0.*no cp1251 encoding", one_line=True)
def _(d):
    (d / "anim.gltf").write_bytes(arm_animation_gltf(marks=[{"name": "step \u4e00", "intervals": [[0.0, 0.01]]}]))
    (d / "arm.ogf").write_bytes(example("wave_arm.ogf"))
    return ["convert", "anim.gltf", "-o", "out.omf", "--skeleton", "arm.ogf"]


@case("gltf_control_free_names_still_convert", why="the name checks refuse only what the .omf cannot hold",
      exit=0, creates=[r"out\.omf"], creates_required=[r"out\.omf"])
def _(d):
    (d / "anim.gltf").write_bytes(arm_animation_gltf(name="\u0432\u043e\u043b\u043d\u0430",
                                                     marks=[{"name": "Left", "intervals": [[0.0, 0.01]]}]))
    (d / "arm.ogf").write_bytes(example("wave_arm.ogf"))
    return ["convert", "anim.gltf", "-o", "out.omf", "--skeleton", "arm.ogf"]


# ---- Scope 6: nothing silently lost -----------------------------------------------------------


def truncated_ogf(d):
    data = ogf_with_embedded_motions()
    motions = [c for c in ogf_chunks(data) if c[0] == 0xE][0]
    (d / "cut.ogf").write_bytes(data[:motions[1] + 8 + motions[2] // 2])  # cut inside chunk 0xE


@case("ogf_truncated_in_0xE_validate", why="an .ogf cut inside chunk 0xE lost its motions: an error, not trailing bytes",
      exit=1, stdout=r"0xE: chunk truncated.*expected \d+ bytes, found \d+ bytes available.*FAIL")
def _(d):
    truncated_ogf(d)
    return ["validate", "cut.ogf"]


@case("ogf_truncated_in_0xE_convert", why="convert refuses an input with validation errors and writes nothing",
      exit=1, stderr=r"chunk truncated.*not converted: 1 validation error \(--force converts anyway\)")
def _(d):
    truncated_ogf(d)
    return ["convert", "cut.ogf", "-o", "out.glb"]


@case("ogf_truncated_in_0xE_convert_force", why="--force converts anyway and says so",
      exit=0, stderr=r"converting despite 1 validation error \(--force\)", creates=[r"out\.ogf"],
      creates_required=[r"out\.ogf"])
def _(d):
    truncated_ogf(d)
    return ["convert", "cut.ogf", "-o", "out.ogf", "--force"]


def huge_child_ogf(d):
    data = bytearray(example("wave_arm.ogf"))
    children = [c for c in ogf_chunks(bytes(data)) if c[0] == 0x9][0]
    struct.pack_into("<I", data, children[1] + 8 + 4, 0x7FFFFFFF)  # child 0's size field
    (d / "huge.ogf").write_bytes(bytes(data))


@case("ogf_child_size_huge_validate", why="a mesh child that cannot be read fails validate",
      exit=1, stdout=r"0x9/0: child cannot be read.*expected 2147483647 bytes.*FAIL")
def _(d):
    huge_child_ogf(d)
    return ["validate", "huge.ogf"]


@case("ogf_child_size_huge_to_glb", why="an unreadable mesh child fails the conversion (no .glb with 0 meshes)",
      exit=1, stderr=r"0x9/0: child cannot be read.*not converted")
def _(d):
    huge_child_ogf(d)
    return ["convert", "huge.ogf", "-o", "out.glb"]


@case("ogf_child_size_huge_keep_going", why="--keep-going converts without the child and names it in a warning",
      exit=0, stderr=r"0x9/0: child left out of the export \(--keep-going\): child cannot be read",
      creates=[r"out\.glb"], creates_required=[r"out\.glb"])
def _(d):
    huge_child_ogf(d)
    return ["convert", "huge.ogf", "-o", "out.glb", "--keep-going"]


@case("omf_non_permutation_convert", why="an .omf that validate rejects is not rewritten without a word",
      exit=1, stderr=r"permutation.*not converted: \d+ validation errors? \(--force converts anyway\)")
def _(d):
    (d / "bad.omf").write_bytes(omf_non_permutation())
    return ["convert", "bad.omf", "-o", "out.omf"]


@case("omf_non_permutation_convert_force", why="--force writes the lossless copy and says so",
      exit=0, stderr=r"converting despite \d+ validation errors? \(--force\)", creates=[r"out\.omf"],
      creates_required=[r"out\.omf"])
def _(d):
    (d / "bad.omf").write_bytes(omf_non_permutation())
    return ["convert", "bad.omf", "-o", "out.omf", "--force"]


@case("kms_unit_own_parent_convert", why="a KMS unit that is its own parent is refused by convert like by validate",
      exit=1, stderr=r"parent.*not converted: \d+ validation errors?")
def _(d):
    (d / "self.kms").write_bytes(kms_ps2([0], **KMS_TRIANGLE))
    return ["convert", "self.kms", "-o", "out.kms"]


@case("kms_unit_own_parent_convert_force", why="--force writes the lossless copy and says so",
      exit=0, stderr=r"converting despite \d+ validation errors? \(--force\)", creates=[r"out\.kms"],
      creates_required=[r"out\.kms"])
def _(d):
    (d / "self.kms").write_bytes(kms_ps2([0], **KMS_TRIANGLE))
    return ["convert", "self.kms", "-o", "out.kms", "--force"]


@case("kms_overlapping_pointers_convert", why="KMS packets sharing their arrays are refused by convert like by validate",
      exit=1, stderr=r"not converted: \d+ validation errors?")
def _(d):
    (d / "overlap.kms").write_bytes(kms_ps2(packets=2, **KMS_TRIANGLE))
    return ["convert", "overlap.kms", "-o", "out.kms"]


@case("kms_valid_fixture_converts", why="the KMS builder of this file makes a valid model (control for the cases above)",
      exit=0, creates=[r"out\.kms"], creates_required=[r"out\.kms"])
def _(d):
    (d / "ok.kms").write_bytes(kms_ps2(**KMS_TRIANGLE))
    return ["convert", "ok.kms", "-o", "out.kms"]


@case("recursive_invalid_file_fails", why="--recursive checks each file like convert: a failing file counts as failed",
      exit=1, stdout=r"0 converted, 0 with warnings, 1 failed", stderr=r"permutation")
def _(d):
    (d / "in").mkdir()
    (d / "in" / "bad.omf").write_bytes(omf_non_permutation())
    return ["convert", "--recursive", "in", "-o", "out", "-j", "1"]


@case("recursive_invalid_file_force", why="--recursive --force converts a file with validation errors, with a warning",
      exit=0, stdout=r"0 converted, 1 with warnings, 0 failed", stderr=r"chunk truncated.*converting despite 1 validation",
      creates=[r"out", r"out/cut\.glb"], creates_required=[r"out/cut\.glb"])
def _(d):
    (d / "in").mkdir()
    truncated_ogf(d / "in")
    return ["convert", "--recursive", "in", "-o", "out", "-j", "1", "--force"]


@case("recursive_truncated_ogf_fails", why="--recursive fails a truncated .ogf instead of exporting it without motions",
      exit=1, stdout=r"0 converted, 0 with warnings, 1 failed.*chunk truncated")
def _(d):
    (d / "in").mkdir()
    truncated_ogf(d / "in")
    return ["convert", "--recursive", "in", "-o", "out", "-j", "1"]


@case("gltf_lines_only_to_kms", why="a glTF with only lines must not become an empty .kms",
      exit=1, stderr=r"no triangles to write \(points and lines are not written\)")
def _(d):
    (d / "lines.gltf").write_bytes(mesh_gltf(mode=1))
    return ["convert", "lines.gltf", "-o", "out.kms"]


@case("gltf_points_only_to_evm", why="the .evm path refuses points-only glTF too",
      exit=1, stderr=r"no triangles to write")
def _(d):
    (d / "points.gltf").write_bytes(mesh_gltf(mode=0))
    return ["convert", "points.gltf", "-o", "out.evm"]


@case("gltf_six_influences_to_evm", why="a 5th and 6th influence dropped by EVM are reported as moved weight",
      exit=0, stderr=r"influences past the 4 heaviest were moved to them \(EVM holds 4 per vertex\).*3 vertices, total 0\.6",
      creates=[r"out\.evm"], creates_required=[r"out\.evm"])
def _(d):
    (d / "six.gltf").write_bytes(mesh_gltf(influences=6))
    return ["convert", "six.gltf", "-o", "out.evm"]


@case("gltf_six_influences_to_kms", why="KMS counts the dropped 5th and 6th influences in its moved weight",
      exit=0, stderr=r"moved to them \(KMS holds two\)", creates=[r"out\.kms"], creates_required=[r"out\.kms"])
def _(d):
    (d / "six.gltf").write_bytes(mesh_gltf(influences=6))
    return ["convert", "six.gltf", "-o", "out.kms"]
