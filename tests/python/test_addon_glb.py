"""The add-on's .glb helpers (blender/boneyard_io/glb.py, plain Python) that split a converted file
for Blender's importer: the model without its motions (the accessors only the animations use
dropped, the others renumbered, everything else as it was), and each accessor decoded as
Blender's glTF importer decodes it (normalised SHORT rotations: max(c / 32767, -1) as float32)."""
import importlib.util
import json
import os
import pathlib
import subprocess

import pytest

numpy = pytest.importorskip("numpy", reason="the add-on's decoder needs numpy (Debian: python3-numpy)")

SOURCE = pathlib.Path(os.environ["BONEYARD_SOURCE_DIR"])
CLI = os.environ["BONEYARD_CLI"]
_spec = importlib.util.spec_from_file_location("addon_glb", SOURCE / "blender" / "boneyard_io" / "glb.py")
glb = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(glb)


@pytest.fixture(scope="module")
def arm(tmp_path_factory):
    """The example model with its two motions, as the add-on gets it from boneyard."""
    folder = tmp_path_factory.mktemp("glb")
    meshes = folder / "meshes"
    (meshes / "models").mkdir(parents=True)
    model = meshes / "models" / "wave_arm.ogf"
    model.write_bytes((SOURCE / "examples" / "wave_arm.ogf").read_bytes())
    refs = json.loads(subprocess.run([CLI, "dump", str(model)], capture_output=True, text=True, check=True).stdout)
    motion = meshes.joinpath(*refs["motion_refs"]["refs"][0].replace("\\", "/").split("/")).with_suffix(".omf")
    motion.parent.mkdir(parents=True, exist_ok=True)
    motion.write_bytes((SOURCE / "examples" / "wave.omf").read_bytes())
    out = folder / "wave_arm.glb"
    subprocess.run([CLI, "convert", "--output=" + str(out), "--", str(model)], check=True)
    document, binary = glb.read(str(out))
    assert document["animations"] and document["meshes"] and document["skins"], "a skinned model with motions"
    return document, binary


def resolved(document):
    """Each mesh attribute, index list and inverse bind matrix as its accessor's definition."""
    accessors = document["accessors"]
    out = []
    for mesh in document["meshes"]:
        for primitive in mesh["primitives"]:
            out.append({k: accessors[v] for k, v in primitive["attributes"].items()})
            out.append(accessors[primitive["indices"]] if "indices" in primitive else None)
    out += [accessors[s["inverseBindMatrices"]] for s in document["skins"] if "inverseBindMatrices" in s]
    return out


def test_without_animations(arm):
    document, _ = arm
    model = glb.without_animations(document)
    assert "animations" not in model
    assert resolved(model) == resolved(document)
    sampled = {i for a in document["animations"] for s in a["samplers"] for i in (s["input"], s["output"])}
    assert len(model["accessors"]) == len(document["accessors"]) - len(sampled)  # no accessor is shared here
    for key in document:
        if key not in ("animations", "accessors", "meshes", "skins"):
            assert model[key] == document[key], key
    assert glb.without_animations(dict(document, extensionsUsed=["KHR_x"])) is None


def test_shared_accessor_kept(arm):
    document, _ = arm
    shared = json.loads(json.dumps(document))
    mesh_accessor = shared["meshes"][0]["primitives"][0]["attributes"]["POSITION"]
    shared["animations"][0]["samplers"][0]["output"] = mesh_accessor
    model = glb.without_animations(shared)
    assert resolved(model) == resolved(shared)


def test_decode_like_blender(arm):
    document, binary = arm
    rotations = [s["output"] for a in document["animations"] for s in a["samplers"]
                 if document["accessors"][s["output"]].get("normalized")]
    assert rotations, "the example's rotations are normalised SHORTs"
    for index in rotations + [document["animations"][0]["samplers"][0]["input"]]:
        accessor = document["accessors"][index]
        view = document["bufferViews"][accessor["bufferView"]]
        start = view.get("byteOffset", 0) + accessor.get("byteOffset", 0)
        width = {"SCALAR": 1, "VEC3": 3, "VEC4": 4}[accessor["type"]]
        dtype = {5122: "<i2", 5126: "<f4"}[accessor["componentType"]]
        raw = numpy.frombuffer(binary, dtype, count=accessor["count"] * width, offset=start).reshape(-1, width)
        expected = numpy.maximum(-1.0, raw / 32767.0).astype(numpy.float32) if accessor.get("normalized") else raw
        got = glb.decode_accessor(document, binary, index)
        assert got.dtype == numpy.float32 and numpy.array_equal(got, expected)
    broken = json.loads(json.dumps(document))
    broken["accessors"][rotations[0]]["count"] = 10 ** 9
    with pytest.raises(glb.GlbError, match="runs past"):
        glb.decode_accessor(broken, binary, rotations[0])


def test_accessors_by_view_equal_one_by_one(arm):
    document, binary = arm
    decode = glb.Accessors(document, binary)
    for index in range(len(document["accessors"])):
        one = glb.decode_accessor(document, binary, index)
        got = decode(index)
        assert got.dtype == one.dtype and numpy.array_equal(got, one), index
    assert decode.views, "boneyard's accessors share views: some were decoded whole"
