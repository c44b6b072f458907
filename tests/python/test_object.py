"""boneyard.Object and the .object conversions through boneyard.convert, against the CLI they
mirror, on the SDK samples in ../shared/samples (skipped, saying so, when they are absent)."""
import os
import pathlib
import subprocess

import pytest

import boneyard

CLI = os.environ["BONEYARD_CLI"]
SAMPLES = pathlib.Path(os.environ.get("BONEYARD_SAMPLES_DIR", "/nonexistent")) / "xray"

pytestmark = pytest.mark.skipif(not (SAMPLES / "sdk").is_dir(),
                                reason=f"real sample files not found at {SAMPLES / 'sdk'} (../shared/samples)")


def cli(*args):
    return subprocess.run([CLI, *map(str, args)], capture_output=True, text=True)


@pytest.fixture
def handflash(tmp_path):
    p = tmp_path / "handflash_hud.object"
    p.write_bytes((SAMPLES / "sdk" / "mod" / "handflash_hud.object").read_bytes())
    return p


def test_surfaces_match_the_cli_listing(handflash):
    o = boneyard.Object(handflash)
    listing = cli("object", "list", handflash).stdout
    assert [s["name"] for s in o.surfaces] == ["glow_yellow_S", "handflash_S", "lights_cone_handing_lamp_S"]
    for s in o.surfaces:
        assert s["texture"] in listing and s["faces"] > 0
    assert o.surfaces[2]["two_sided"]
    assert o.motion_refs == ["dynamics\\devices\\dev_torch\\handflash_hud_animation"]
    assert [f for f in o.validate() if f.severity == "error"] == []


def test_set_surface_writes_what_the_cli_writes(handflash, tmp_path):
    o = boneyard.Object(handflash)
    assert o.set_surface(["glow*"], shader="models\\model", two_sided=True)
    o.save(tmp_path / "py.object")
    assert cli("object", "set", handflash, "-s", "glow*", "--shader", "models\\model", "--two-sided", "on",
               "-o", tmp_path / "cli.object").returncode == 0
    assert (tmp_path / "py.object").read_bytes() == (tmp_path / "cli.object").read_bytes()


def test_refused_edits_change_nothing(handflash):
    o = boneyard.Object(handflash)
    before = o.to_bytes()
    with pytest.raises(boneyard.Error):
        o.set_surface(["no_such_surface"], texture="x")
    with pytest.raises(boneyard.Error):
        o.set_surface(["0"], texture="\u65e5\u672c")
    with pytest.raises(boneyard.UsageError):
        o.set_surface(["0"])
    assert o.to_bytes() == before == handflash.read_bytes()


def test_convert_both_ways_and_bone_data(handflash, tmp_path):
    glb = tmp_path / "h.glb"
    boneyard.convert(handflash, glb)
    boneyard.convert(glb, tmp_path / "back.object", template=handflash)
    assert (tmp_path / "back.object").read_bytes() == handflash.read_bytes()
    boneyard.convert(glb, tmp_path / "soc.object", game="soc")
    assert "SoC style" in cli("info", tmp_path / "soc.object").stdout
    boneyard.convert(handflash, tmp_path / "h.bones")
    o = boneyard.Object(handflash)
    assert o.load_bones(tmp_path / "h.bones") == []  # its own bone data: nothing changes
    assert o.to_bytes() == handflash.read_bytes()


def test_embedded_motions_through_convert(tmp_path):
    """An .object's embedded motions (0x916) as glTF animations and back, through the registry
    route the CLI takes; --motions is `motions=`."""
    arm = tmp_path / "arm.object"
    arm.write_bytes((SAMPLES / "sdk" / "blender-xray" / "test_fmt_armature.object").read_bytes())
    glb = tmp_path / "arm.glb"
    boneyard.convert(arm, glb)
    assert "1 animations" in boneyard.open(glb).info()
    assert "  11 frames, 4 channels: Action" in boneyard.open(glb).info()
    boneyard.convert(glb, tmp_path / "back.object", template=arm)
    assert (tmp_path / "back.object").read_bytes() == arm.read_bytes()
    boneyard.convert(glb, tmp_path / "new.object")
    assert "embedded motions (0x916): 1" in boneyard.open(tmp_path / "new.object").info()
    boneyard.convert(arm, tmp_path / "none.glb", motions=["walk*"])
    assert "0 animations" in boneyard.open(tmp_path / "none.glb").info()
