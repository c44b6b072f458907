"""OGF v3 models through the Python module, against the CLI it mirrors: the hand-laid v3 models of
tests/fuzz_seeds/fuzz_ogf (every vertex format, IK layout and motion layout) always, blender-xray's
real v3 model when ../shared/samples is there."""
import json
import os
import pathlib
import subprocess

import pytest

import boneyard

SOURCE = pathlib.Path(os.environ["BONEYARD_SOURCE_DIR"])
CLI = os.environ["BONEYARD_CLI"]
FIXTURES = sorted((SOURCE / "tests" / "fuzz_seeds" / "fuzz_ogf").glob("v3_*.ogf"))
SAMPLE = pathlib.Path(os.environ.get("BONEYARD_SAMPLES_DIR", "/nonexistent")) / "xray/sdk/blender-xray/test_fmt_ogf_v3.ogf"


def cli(*args):
    return subprocess.run([CLI, *map(str, args)], capture_output=True, text=True)


def models():
    return FIXTURES + ([SAMPLE] if SAMPLE.is_file() else [])


def test_the_fixtures_are_there():
    assert len(FIXTURES) >= 8


@pytest.mark.parametrize("path", models(), ids=lambda p: p.name)
def test_open_info_dump_validate_match_the_cli(path):
    doc = boneyard.open(path)
    assert doc.format == "ogf"
    assert doc.targets == [".omf", ".ogf", ".glb", ".gltf"]
    assert f"{path}\n{doc.info()}" == cli("info", path).stdout
    dump = doc.dump()
    assert dump["ogf_version"] == 3
    assert dump == json.loads(cli("dump", path).stdout)
    assert doc.dump(raw=True) == json.loads(cli("dump", "--raw", path).stdout)
    assert [f for f in doc.validate() if f.severity == "error"] == []


@pytest.mark.parametrize("path", models(), ids=lambda p: p.name)
def test_convert_writes_what_the_cli_writes(path, tmp_path):
    ours, theirs = tmp_path / "py.glb", tmp_path / "cli.glb"
    boneyard.convert(path, ours)
    assert cli("convert", path, "-o", theirs).returncode == 0
    assert ours.read_bytes() == theirs.read_bytes()
    boneyard.convert(path, tmp_path / "copy.ogf")
    assert (tmp_path / "copy.ogf").read_bytes() == path.read_bytes()


def test_new_layout_motions_extract_as_the_cli_extracts_them(tmp_path):
    model = SOURCE / "tests" / "fuzz_seeds" / "fuzz_ogf" / "v3_anim_8bit.ogf"
    boneyard.convert(model, tmp_path / "py.omf")
    assert cli("convert", model, "-o", tmp_path / "cli.omf").returncode == 0
    assert (tmp_path / "py.omf").read_bytes() == (tmp_path / "cli.omf").read_bytes()
    assert [m["name"] for m in boneyard.open(tmp_path / "py.omf").dump()["motions"]] == ["wave", "nod"]


def test_v4_edits_refuse_a_v3_model_saying_why():
    with pytest.raises(boneyard.Error, match="an OGF v3 model"):
        boneyard.Ogf(FIXTURES[0])
