"""boneyard.Ogf and glTF -> .ogf through boneyard.convert, against the CLI they mirror, on the real
models in ../shared/samples (skipped, saying so, when they are absent)."""
import os
import pathlib
import subprocess
import warnings

import pytest

import boneyard

CLI = os.environ["BONEYARD_CLI"]
SAMPLES = pathlib.Path(os.environ.get("BONEYARD_SAMPLES_DIR", "/nonexistent")) / "xray"

pytestmark = pytest.mark.skipif(not SAMPLES.is_dir(),
                                reason=f"real sample files not found at {SAMPLES} (../shared/samples)")


def copy(src, dst):
    """A writable copy (the samples are read-only)."""
    dst.write_bytes(src.read_bytes())


def cli(*args):
    return subprocess.run([CLI, *map(str, args)], capture_output=True, text=True)


@pytest.fixture
def bino(tmp_path):
    p = tmp_path / "bino.ogf"
    copy(SAMPLES / "soc" / "wpn_binoculars_hud.ogf", p)
    return p


def test_children_match_the_cli_listing(bino):
    o = boneyard.Ogf(bino)
    listing = cli("ogf", "list", bino).stdout
    assert len(o.children) == 2
    for c in o.children:
        assert c["texture"] in listing and c["vertices"] > 0
    assert o.validate() == []


def test_set_material_writes_what_the_cli_writes(bino, tmp_path):
    o = boneyard.Ogf(bino)
    changes = o.set_material(["0"], texture="wpn\\wpn_new")
    assert changes
    o.save(tmp_path / "py.ogf")
    assert cli("ogf", "set", bino, "--child", "0", "--texture", "wpn\\wpn_new", "-o", tmp_path / "cli.ogf").returncode == 0
    assert (tmp_path / "py.ogf").read_bytes() == (tmp_path / "cli.ogf").read_bytes()
    assert boneyard.Ogf(tmp_path / "py.ogf").children[0]["texture"] == "wpn\\wpn_new"


def test_refused_edits_change_nothing(bino):
    o = boneyard.Ogf(bino)
    before = o.to_bytes()
    with pytest.raises(boneyard.Error):
        o.set_material(["7"], texture="x")
    with pytest.raises(boneyard.Error):
        o.set_material(["0"], texture="a\0b")
    with pytest.raises(boneyard.Error):
        o.set_material(["0"], texture="\u65e5\u672c")
    with pytest.raises(boneyard.Error):
        o.set_user_data("a\0b")
    with pytest.raises(boneyard.UsageError):
        o.set_material(["0"])
    with pytest.raises(boneyard.UsageError):
        o.retarget("xbox")
    assert o.to_bytes() == before == bino.read_bytes()


def test_refs_user_data_retarget_and_save_in_place(tmp_path):
    p = tmp_path / "protein.ogf"
    copy(SAMPLES / "cop" / "protein.ogf", p)
    original = p.read_bytes()
    o = boneyard.Ogf(p)
    o.set_motion_refs(["a_anims", "b_anims"])
    assert o.motion_refs == ["a_anims", "b_anims"]
    o.set_user_data("[collide]\nignore_static")
    assert o.user_data == "[collide]\nignore_static"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        o.retarget("soc")
    backup = o.save()
    assert pathlib.Path(backup).read_bytes() == original
    assert boneyard.Ogf(p).motion_refs == ["a_anims", "b_anims"]
    assert cli("validate", p).returncode == 0


def test_folder_edit_dry_run_then_in_place(tmp_path):
    mod = tmp_path / "mod"
    (mod / "sub").mkdir(parents=True)
    copy(SAMPLES / "soc" / "wpn_binoculars_hud.ogf", mod / "a.ogf")
    copy(SAMPLES / "soc" / "zombi_1.ogf", mod / "sub" / "b.ogf")
    a0 = (mod / "a.ogf").read_bytes()
    items = boneyard.set_material_in_folder(mod, ["r_pop\\*"], texture="r_pop\\renamed", dry_run=True)
    assert [(pathlib.Path(i["file"]).name, i["outcome"]) for i in items] == [("a.ogf", "changed"), ("b.ogf", "not_matched")]
    assert (mod / "a.ogf").read_bytes() == a0
    items = boneyard.set_material_in_folder(mod, ["r_pop\\*"], texture="r_pop\\renamed")
    assert pathlib.Path(items[0]["backup"]).read_bytes() == a0
    assert all(c["texture"] == "r_pop\\renamed" for c in boneyard.Ogf(mod / "a.ogf").children
               if c["texture"].startswith("r_pop\\"))


def test_convert_glb_to_ogf_with_template_and_options(tmp_path):
    src = SAMPLES / "soc" / "zombi_1.ogf"
    boneyard.convert(src, tmp_path / "z.glb")
    boneyard.convert(tmp_path / "z.glb", tmp_path / "back.ogf", template=src)
    assert (tmp_path / "back.ogf").read_bytes() == src.read_bytes()
    boneyard.convert(tmp_path / "z.glb", tmp_path / "cop.ogf", game="cop", motion_refs="stalker_animation")
    assert boneyard.Ogf(tmp_path / "cop.ogf").motion_refs == ["stalker_animation"]
    boneyard.convert(tmp_path / "z.glb", tmp_path / "none.ogf", template=src, motion_refs="")
    assert boneyard.Ogf(tmp_path / "none.ogf").motion_refs == []
    with pytest.raises(boneyard.UsageError):
        boneyard.convert(tmp_path / "z.glb", tmp_path / "x.ogf", game="xbox")
    assert not (tmp_path / "x.ogf").exists()
