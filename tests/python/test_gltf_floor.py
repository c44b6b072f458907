"""bench/gltf_floor.py, the measure of how small a .glb of the same content can be in core glTF
(docs/performance.md, issue 30): its rules on a hand-made file, byte for byte, and on real
conversions that the floor holds the same nodes, meshes, skins and motions as boneyard's file."""
import importlib.util
import json
import os
import pathlib
import struct
import subprocess

import pytest

SOURCE = pathlib.Path(os.environ["BONEYARD_SOURCE_DIR"])
CLI = os.environ["BONEYARD_CLI"]
SAMPLES = pathlib.Path(os.environ.get("BONEYARD_SAMPLES_DIR", "")) / "xray"
_spec = importlib.util.spec_from_file_location("gltf_floor", SOURCE / "bench" / "gltf_floor.py")
gltf_floor = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gltf_floor)

Q = (0, 0, 16384, 28377)  # a rotation that is not the rest pose
IDENTITY = (0, 0, 0, 32767)


def hand_made():
    """Two nodes; one motion: node 0's rotation held, its translation keyed, node 1's rotation held
    at its rest pose (identity); extras on a node, the motion and the root."""
    binary = (struct.pack("<2f", 0, 1) + struct.pack("<8h", *Q, *Q) + struct.pack("<8h", *IDENTITY, *IDENTITY)
              + struct.pack("<6f", 1, 2, 3, 4, 5, 6))
    document = {
        "asset": {"version": "2.0"}, "extras": {"tool": 1},
        "nodes": [{"name": "a", "children": [1], "extras": {"bone": 0}}, {"name": "b", "rotation": [0, 0, 0, 1]}],
        "animations": [{"name": "m", "extras": {"xray": {"fps": 30}},
                        "samplers": [{"input": 0, "output": 1}, {"input": 0, "output": 3}, {"input": 0, "output": 2}],
                        "channels": [{"sampler": 0, "target": {"node": 0, "path": "rotation"}},
                                     {"sampler": 1, "target": {"node": 0, "path": "translation"}},
                                     {"sampler": 2, "target": {"node": 1, "path": "rotation"}}]}],
        "accessors": [
            {"bufferView": 0, "byteOffset": 0, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [1]},
            {"bufferView": 1, "byteOffset": 0, "componentType": 5122, "normalized": True, "count": 2, "type": "VEC4"},
            {"bufferView": 1, "byteOffset": 16, "componentType": 5122, "normalized": True, "count": 2, "type": "VEC4"},
            {"bufferView": 2, "componentType": 5126, "count": 2, "type": "VEC3"}],
        "bufferViews": [{"buffer": 0, "byteLength": 8}, {"buffer": 0, "byteOffset": 8, "byteLength": 32},
                        {"buffer": 0, "byteOffset": 40, "byteLength": 24}],
        "buffers": [{"byteLength": 64}],
    }
    return document, binary


def test_the_rules_on_a_hand_made_file():
    floor, binary = gltf_floor.floor_document(*hand_made(), drop_rest=False)
    assert floor == {
        "asset": {"version": "2.0"},
        "nodes": [{"name": "a", "children": [1]}, {"name": "b", "rotation": [0, 0, 0, 1]}],
        "animations": [{"name": "m",
                        "samplers": [{"input": 0, "output": 2}, {"input": 1, "output": 4}, {"input": 0, "output": 3}],
                        "channels": [{"sampler": 0, "target": {"node": 0, "path": "rotation"}},
                                     {"sampler": 1, "target": {"node": 0, "path": "translation"}},
                                     {"sampler": 2, "target": {"node": 1, "path": "rotation"}}]}],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 1, "type": "SCALAR", "min": [0], "max": [0]},
            {"bufferView": 1, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [1]},
            {"bufferView": 2, "componentType": 5122, "normalized": True, "count": 1, "type": "VEC4"},
            {"bufferView": 2, "byteOffset": 8, "componentType": 5122, "normalized": True, "count": 1, "type": "VEC4"},
            {"bufferView": 3, "componentType": 5126, "count": 2, "type": "VEC3"}],
        "bufferViews": [{"buffer": 0, "byteLength": 4}, {"buffer": 0, "byteOffset": 4, "byteLength": 8},
                        {"buffer": 0, "byteOffset": 12, "byteLength": 16},
                        {"buffer": 0, "byteOffset": 28, "byteLength": 24}],
        "buffers": [{"byteLength": 52}],
    }
    assert binary == (struct.pack("<f", 0) + struct.pack("<2f", 0, 1) + struct.pack("<4h", *Q)
                      + struct.pack("<4h", *IDENTITY) + struct.pack("<6f", 1, 2, 3, 4, 5, 6))

    floor, binary = gltf_floor.floor_document(*hand_made(), drop_rest=True)
    animation = floor["animations"][0]
    assert [c["target"] for c in animation["channels"]] == [{"node": 0, "path": "rotation"},
                                                            {"node": 0, "path": "translation"}]
    assert len(animation["samplers"]) == 2 and len(floor["accessors"]) == 4
    assert binary == (struct.pack("<f", 0) + struct.pack("<2f", 0, 1) + struct.pack("<4h", *Q)
                      + struct.pack("<6f", 1, 2, 3, 4, 5, 6))

    written = gltf_floor.glb.encode(*gltf_floor.floor_document(*hand_made(), drop_rest=False))
    assert len(written) % 4 == 0 and struct.unpack_from("<I", written, 8)[0] == len(written)


def content(document, binary):
    """What a reader gets: nodes, the mesh, skin and image data, and per motion each channel's keys
    (a held channel as its one value, whatever its times)."""
    source = gltf_floor.Accessors(document, binary)
    def data(index):
        return b"".join(source.elements(index))
    meshes = [[{k: data(v) for k, v in p["attributes"].items()} | {"indices": data(p["indices"])}
               for p in m["primitives"]] for m in document.get("meshes", [])]
    skins = [(s["joints"], data(s["inverseBindMatrices"])) for s in document.get("skins", [])]
    motions = []
    for animation in document.get("animations", []):
        channels = {}
        for c in animation["channels"]:
            sampler = animation["samplers"][c["sampler"]]
            keys = source.elements(sampler["output"])
            held = all(k == keys[0] for k in keys)
            channels[(c["target"]["node"], c["target"]["path"])] = (
                ("held", keys[0]) if held else (data(sampler["input"]), b"".join(keys)))
        motions.append((animation.get("name"), channels))
    return gltf_floor.without_extras(document["nodes"]), meshes, skins, motions


def convert(tmp_path, model, motions):
    meshes = tmp_path / "meshes"
    target = meshes / "models" / model.name
    target.parent.mkdir(parents=True)
    target.write_bytes(model.read_bytes())
    dump = json.loads(subprocess.run([CLI, "dump", str(target)], capture_output=True, text=True, check=True).stdout)
    for ref, motion in zip(dump["motion_refs"]["refs"], motions):
        path = meshes.joinpath(*ref.replace("\\", "/").split("/")).with_suffix(".omf")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(motion.read_bytes())
    out = tmp_path / (model.stem + ".glb")
    subprocess.run([CLI, "convert", "--output=" + str(out), "--", str(target)], check=True)
    return out


MODELS = {
    "example": (SOURCE / "examples" / "wave_arm.ogf", [SOURCE / "examples" / "wave.omf"]),
    "zombi": (SAMPLES / "soc" / "zombi_1.ogf", [SAMPLES / "soc" / "zombi_animation.omf"]),
    "medkit": (SAMPLES / "cop" / "medkit_exo_hud.ogf", [SAMPLES / "cop" / "medkit_exo_anims.omf"]),
}


@pytest.mark.parametrize("name", MODELS)
def test_the_floor_holds_the_same_content(tmp_path, name):
    model, motions = MODELS[name]
    if not model.is_file():
        pytest.skip(f"real sample files not found at {SAMPLES}")
    out = convert(tmp_path, model, motions)
    data = out.read_bytes()
    document, binary = gltf_floor.glb.parse(data)
    floor = gltf_floor.glb.encode(*gltf_floor.floor_document(document, binary, drop_rest=False))
    assert len(floor) < len(data)
    floor_document, floor_binary = gltf_floor.glb.parse(floor)
    assert content(floor_document, floor_binary) == content(document, binary)
    assert floor_document["accessors"][0]["count"] == 1, "held channels share one [0]"

