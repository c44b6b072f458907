"""The add-on's skimmed read of a .glb (blender/boneyard_io/glb.py, plain Python) gives what a full
parse gives: the scenes, and each animation's name, extras and set of sampler interpolations, for
boneyard's own compact output and for other writers' layouts (spaces, members in another order,
STEP samplers, extras on a channel, nested arrays: the fallback parses those arrays whole)."""
import importlib.util
import json
import os
import pathlib
import struct
import subprocess

import pytest

SOURCE = pathlib.Path(os.environ["BONEYARD_SOURCE_DIR"])
CLI = os.environ["BONEYARD_CLI"]
_spec = importlib.util.spec_from_file_location("addon_glb", SOURCE / "blender" / "boneyard_io" / "glb.py")
glb = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(glb)


def expected(document):
    animations = []
    for animation in document.get("animations", []):
        head = {"interpolations": {s.get("interpolation", "LINEAR") for s in animation.get("samplers", [])}}
        for key in ("name", "extras"):
            if key in animation:
                head[key] = animation[key]
        animations.append(head)
    return document.get("scenes", []), animations


def write_text(path, text, binary=b""):
    data = text.encode() + b" " * (-len(text.encode()) % 4)
    chunks = struct.pack("<II", len(data), 0x4E4F534A) + data
    if binary:
        chunks += struct.pack("<II", len(binary), 0x004E4942) + binary
    path.write_bytes(struct.pack("<III", 0x46546C67, 2, 12 + len(chunks)) + chunks)


@pytest.fixture(scope="module")
def wave(tmp_path_factory):
    out = tmp_path_factory.mktemp("glb") / "wave.glb"
    subprocess.run([CLI, "convert", "--output=" + str(out), "--", str(SOURCE / "examples" / "wave.omf")], check=True)
    document, binary = glb.read(str(out))
    assert document["animations"], "the example has motions"
    return out, document, binary


def test_boneyard_output(wave):
    path, document, _ = wave
    assert glb.read_scenes_and_animations(str(path)) == expected(document)


@pytest.mark.parametrize("layout", ["indented", "reordered", "step_and_extras", "nested_arrays"])
def test_other_layouts(wave, tmp_path, layout):
    _, document, binary = wave
    document = json.loads(json.dumps(document))
    text = None
    if layout == "indented":
        text = json.dumps(document, indent=3)
    elif layout == "reordered":
        text = json.dumps({"animations": document["animations"], **{k: v for k, v in document.items() if k != "animations"}})
    elif layout == "step_and_extras":
        animation = document["animations"][0]
        animation["samplers"][0]["interpolation"] = "STEP"
        animation["channels"][0]["extras"] = {"note": "a ] and a [ in a string"}
        if len(document["animations"]) > 1:
            for sampler in document["animations"][1]["samplers"]:
                sampler["interpolation"] = "CUBICSPLINE"
    else:
        document["animations"][0]["samplers"][0]["extensions"] = {"x": {"list": [1, [2, 3]]}}
        document["animations"][0]["channels"][-1]["target"]["extras"] = [["]"]]
    path = tmp_path / "variant.glb"
    write_text(path, text if text is not None else json.dumps(document, separators=(",", ":")), bytes(binary))
    assert glb.read_scenes_and_animations(str(path)) == expected(json.loads(text) if text else document)


def test_broken_json_is_one_error(tmp_path):
    path = tmp_path / "broken.glb"
    write_text(path, '{"scenes":[{}],"animations":[{"name":"a","samplers":[{"input":0')
    with pytest.raises(glb.GlbError, match="does not read"):
        glb.read_scenes_and_animations(str(path))
