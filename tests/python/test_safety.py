"""Issue 27 scope 4: paths and names from Python are data. A NUL in a path is a ValueError (never
a path cut short), os.PathLike and bytes paths work (also names that are not UTF-8, on Linux),
names an edit cannot write are refused at the edit with the CLI's message, and an output that
would replace an input is refused as the CLI refuses it."""
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

import boneyard

SOURCE = pathlib.Path(os.environ["BONEYARD_SOURCE_DIR"])
CLI = os.environ["BONEYARD_CLI"]
WAVE = SOURCE / "examples" / "wave.omf"


def test_nul_in_an_input_path_is_a_value_error(tmp_path):
    shutil.copy(WAVE, tmp_path / "w.omf")
    with pytest.raises(ValueError, match="NUL"):
        boneyard.open(str(tmp_path / "w.omf") + "\0.kms")


def test_nul_in_an_output_path_is_a_value_error_and_nothing_is_written(tmp_path):
    doc = boneyard.open(WAVE)
    with pytest.raises(ValueError, match="NUL"):
        doc.convert(str(tmp_path / "out.glb") + "\0.omf")
    with pytest.raises(ValueError, match="NUL"):
        boneyard.convert(WAVE, output=str(tmp_path / "out.glb") + "\0.omf")
    assert list(tmp_path.iterdir()) == []


def test_pathlike_and_bytes_paths(tmp_path):
    doc = boneyard.open(pathlib.Path(WAVE))
    assert doc.convert(tmp_path / "a.glb") is not None
    assert doc.convert(os.fsencode(tmp_path / "b.glb")) is not None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.glb", "b.glb"]
    assert (tmp_path / "a.glb").read_bytes() == (tmp_path / "b.glb").read_bytes()


@pytest.mark.skipif(sys.platform == "win32", reason="Windows file names are always Unicode")
def test_a_name_that_is_not_utf8(tmp_path):
    raw = os.fsencode(tmp_path) + b"/w\xff.omf"
    shutil.copy(WAVE, raw)
    name = pathlib.Path(os.fsdecode(raw))
    doc = boneyard.open(name)
    assert doc.file == str(name)
    assert "w\\xff.omf" in repr(doc)
    doc.convert(os.fsdecode(os.fsencode(tmp_path) + b"/x\xfe.glb"))
    assert os.path.exists(os.fsencode(tmp_path) + b"/x\xfe.glb")
    with pytest.raises(boneyard.UsageError) as missing:
        boneyard.open(pathlib.Path(os.fsdecode(os.fsencode(tmp_path) + b"/nope\xff.omf")))
    assert missing.value.file.endswith("nope\udcff.omf")


@pytest.mark.parametrize("name", ["a\0b", "a\nb", ""])
def test_motion_names_an_edit_cannot_write_are_refused_like_the_cli(tmp_path, name):
    omf = boneyard.Omf(WAVE) if not hasattr(boneyard.Omf, "open") else boneyard.Omf.open(WAVE)
    with pytest.raises(boneyard.InvalidFile) as refused:
        omf.rename("wave", name)
    if "\0" not in name:  # a NUL cannot reach the CLI through argv
        cli = subprocess.run([CLI, "omf", "rename", "-o", str(tmp_path / "o.omf"), "--", str(WAVE), "wave", name],
                             capture_output=True, text=True)
        assert cli.returncode == 1
        assert refused.value.finding.message in cli.stderr
    assert omf.names[0] == "wave"  # the edit changed nothing


def test_mark_name_with_nul_is_refused():
    omf = boneyard.Omf(WAVE) if not hasattr(boneyard.Omf, "open") else boneyard.Omf.open(WAVE)
    with pytest.raises(boneyard.InvalidFile, match="NUL"):
        omf.set("wave", add_marks=[("a\0b", 0.0, 0.01)])


def test_an_output_that_is_the_input_is_refused(tmp_path):
    shutil.copy(WAVE, tmp_path / "w.omf")
    before = (tmp_path / "w.omf").read_bytes()
    doc = boneyard.open(tmp_path / "w.omf")
    with pytest.raises(boneyard.UsageError, match="refusing to overwrite the input file"):
        doc.convert(tmp_path / "W.OMF")
    assert (tmp_path / "w.omf").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.omf"]
