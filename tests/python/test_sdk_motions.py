"""boneyard.Skls and boneyard.Anm (the X-Ray SDK's motion files) against the CLI they mirror, on
files laid out here, and boneyard.open on them."""
import json
import math
import os
import pathlib
import struct
import subprocess

import pytest

import boneyard

CLI = os.environ["BONEYARD_CLI"]
SAMPLES = pathlib.Path(os.environ.get("BONEYARD_SAMPLES_DIR", "/nonexistent")) / "xray" / "sdk"


def cli(*args, check=True):
    return subprocess.run([CLI, *map(str, args)], capture_output=True, text=True, check=check)


def envelope(keys, stepped=True):
    """A v2 envelope: behaviours constant, keys (time, value), stepped or TCB with zero parameters."""
    out = struct.pack("<BBH", 1, 1, len(keys))
    for time, value in keys:
        if stepped:
            out += struct.pack("<ffB", value, time, 4)
        else:
            out += struct.pack("<ffB7H", value, time, 0, *([32768] * 7))
    return out


def motion(name, version=6, bones=("bip01", "bip01_spine")):
    out = name.encode() + b"\0" + struct.pack("<iifH", 0, 30, 30.0, version)
    out += struct.pack("<BHffffH", 2, 0xFFFF, 1.0, 2.0, 1.0, 1.0, len(bones))
    for bone in bones:
        out += bone.encode() + b"\0" + b"\0"
        for c in range(6):
            out += envelope([(0.0, float(c)), (1.0, c + 0.5)], stepped=c >= 3)
    if version >= 7:
        out += struct.pack("<I", 0)
    return out


def skls(*motions):
    return struct.pack("<I", len(motions)) + b"".join(motions)


def anm(name="camera"):
    body = name.encode() + b"\0" + struct.pack("<iifH", 0, 60, 30.0, 5)
    for c in range(6):
        body += envelope([(0.0, float(c)), (2.0, 10.0 * c)], stepped=False)
    return struct.pack("<II", 0x1100, len(body)) + body


def test_documents_open_validate_dump_and_convert_like_the_cli(tmp_path):
    path = tmp_path / "a.skls"
    path.write_bytes(skls(motion("idle"), motion("walk")))
    doc = boneyard.open(path)
    assert doc.format == "skls"
    assert doc.targets == [".skls", ".skl"]
    assert doc.dump() == json.loads(cli("dump", path).stdout)
    assert [str(f) for f in doc.validate()] == []
    assert boneyard.convert(path, tmp_path / "b.skls") == []
    assert (tmp_path / "b.skls").read_bytes() == path.read_bytes()
    with pytest.raises(boneyard.UsageError, match="a .skl holds one motion"):
        boneyard.convert(path, tmp_path / "b.skl")
    cam = tmp_path / "cam.anm"
    cam.write_bytes(anm())
    assert boneyard.open(cam).format == "anm"
    assert boneyard.open(cam).dump()["channels"]["b"]["keys"][1]["value"] == 50


def test_skls_edits_match_the_cli(tmp_path):
    path = tmp_path / "a.skls"
    path.write_bytes(skls(motion("idle"), motion("walk")))
    s = boneyard.Skls(path)
    assert s.container == "skls"
    assert s.names == ["idle", "walk"]
    assert s.motions[1]["bones"] == ["bip01", "bip01_spine"]
    assert s.rename("walk", "stroll") == ['renamed "walk" to "stroll"']
    changes = s.set("idle", speed=2.0, add_marks=[("step", 0.0, 0.5)])
    assert 'version 6 -> 7 (the version that holds marks)' in " ".join(changes)
    ours = s.to_bytes()
    cli("skls", "rename", path, "walk", "stroll", "-o", tmp_path / "r.skls")
    cli("skls", "set", tmp_path / "r.skls", "idle", "--speed", "2", "--add-mark", "step", "0", "0.5", "-o", tmp_path / "c.skls")
    assert ours == (tmp_path / "c.skls").read_bytes()
    with pytest.raises(boneyard.InvalidFile, match="lies outside motion"):
        s.set("idle", add_marks=[("late", 0.0, 5.0)])
    assert s.to_bytes() == ours  # a refused edit changes nothing
    one = s.extract("stroll", container="skl")
    assert one.container == "skl"
    assert one.to_bytes()[:4] == struct.pack("<I", 0x1200)
    merged = boneyard.merge_skls([s, one], rename_clashes=True)
    assert merged.names == ["idle", "stroll", "stroll_2"]
    assert s.delete("stroll") == ['deleted motion "stroll"']
    backup = pathlib.Path(s.save())
    assert backup.name == "a.skls.bak"
    assert boneyard.Skls(path).names == ["idle"]


def test_anm_rename_and_findings(tmp_path):
    cam = tmp_path / "cam.anm"
    cam.write_bytes(anm())
    a = boneyard.Anm(cam)
    assert (a.name, a.version, a.frames, a.fps) == ("camera", 5, (0, 60), 30.0)
    assert a.rename("camera", "shake") == ['renamed "camera" to "shake"']
    a.save(tmp_path / "shake.anm")
    assert boneyard.Anm(tmp_path / "shake.anm").name == "shake"
    with pytest.raises(boneyard.InvalidFile, match="the motion has another name"):
        a.rename("camera", "x")
    bad = bytearray(anm())
    struct.pack_into("<f", bad, 8 + 7 + 8, math.nan)  # the fps
    findings = boneyard.Anm(bytes(bad)).validate()
    assert [(f.severity, f.path, f.offset) for f in findings] == [("error", "0x1100 fps", 23)]


@pytest.mark.skipif(not SAMPLES.is_dir(), reason="real samples absent (../shared/samples)")
def test_real_samples_round_trip():
    for path in sorted(SAMPLES.rglob("*")):
        ext = path.suffix.lower()
        if ext in (".skl", ".skls"):
            assert boneyard.Skls(path).to_bytes() == path.read_bytes(), path
        elif ext == ".anm":
            assert boneyard.Anm(path).to_bytes() == path.read_bytes(), path
