"""The `boneyard` Python module against the CLI it mirrors, on the examples shipped in the repo."""
import os
import pathlib
import shutil
import subprocess
import sys
import warnings

import pytest

import boneyard

SOURCE = pathlib.Path(os.environ["BONEYARD_SOURCE_DIR"])
CLI = os.environ["BONEYARD_CLI"]
ARM = SOURCE / "examples" / "wave_arm.ogf"
WAVE = SOURCE / "examples" / "wave.omf"


def cli(*args, check=True):
    return subprocess.run([CLI, *map(str, args)], capture_output=True, text=True, check=check)


def test_open_reports_what_the_cli_reports():
    doc = boneyard.open(ARM)
    assert doc.format == "ogf"
    assert doc.file == str(ARM)
    assert doc.targets == [".omf", ".ogf", ".object", ".bones", ".glb", ".gltf"]
    assert f"{ARM}\n{doc.info()}" == cli("info", ARM).stdout
    assert [str(f) for f in doc.validate()] == []
    assert cli("validate", ARM).returncode == 0


def test_dump_is_the_documented_json_as_dicts():
    import json

    dump = boneyard.open(ARM).dump()
    assert dump == json.loads(cli("dump", ARM).stdout)
    assert [b["name"] for b in dump["bones"]] == ["root", "upper_arm", "forearm"]
    raw = boneyard.open(WAVE).dump(raw=True)
    assert raw == json.loads(cli("dump", "--raw", WAVE).stdout)


def test_bytes_are_read_in_place_and_bytearrays_copied():
    data = WAVE.read_bytes()
    expected = boneyard.open(WAVE).dump()
    assert boneyard.open(data, name="wave.omf").dump() == expected
    assert boneyard.open(memoryview(data)).dump() == expected
    mutable = bytearray(data)
    doc = boneyard.open(mutable)
    mutable[:] = b"\0" * len(mutable)  # boneyard copied it: the document does not change
    assert doc.dump() == expected


def test_convert_writes_the_same_bytes_as_the_cli(tmp_path):
    ours, theirs = tmp_path / "py.glb", tmp_path / "cli.glb"
    assert boneyard.convert(ARM, ours) == []
    cli("convert", ARM, "-o", theirs)
    assert ours.read_bytes() == theirs.read_bytes()
    assert ours.read_bytes()[:4] == b"glTF"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cli.glb", "py.glb"]  # no temporary left


def test_gltf_back_to_omf_with_template_is_byte_exact(tmp_path):
    glb, omf = tmp_path / "wave.glb", tmp_path / "wave.omf"
    boneyard.convert(WAVE, glb, skeleton=ARM)
    boneyard.open(glb).convert(omf, template=WAVE)
    assert omf.read_bytes() == WAVE.read_bytes()


def test_options_that_do_not_apply_are_usage_errors(tmp_path):
    out = tmp_path / "x.omf"
    with pytest.raises(boneyard.UsageError) as e:
        boneyard.convert(WAVE, out, layout="mc")
    assert "--layout" in str(e.value)
    assert e.value.finding.usage
    with pytest.raises(boneyard.UsageError, match="cannot convert omf to '.kms'"):
        boneyard.convert(WAVE, tmp_path / "x.kms")
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        boneyard.convert(WAVE, out, colour="red")
    with pytest.raises(boneyard.UsageError, match="positive"):
        boneyard.convert(ARM, tmp_path / "x.glb", scale=0)
    assert list(tmp_path.iterdir()) == []


def test_broken_files_raise_invalid_file_with_the_finding():
    data = WAVE.read_bytes()[:100]
    with pytest.raises(boneyard.InvalidFile) as e:
        boneyard.open(data, name="cut.omf")
    f = e.value.finding
    assert f.severity == "error"
    assert (f.offset, f.path, f.message) == (0, "0xE", "chunk truncated")
    assert (f.expected, f.found) == ("769 bytes", "92 bytes")
    assert str(e.value) == "cut.omf: error at byte 0 (0x0) in 0xE: chunk truncated (expected 769 bytes, found 92 bytes)"
    assert isinstance(e.value, boneyard.Error)


def test_unreadable_paths_are_usage_errors(tmp_path):
    with pytest.raises(boneyard.UsageError) as e:
        boneyard.open(tmp_path / "missing.omf")
    assert e.value.finding.io
    with pytest.raises(boneyard.UsageError, match="directory"):
        boneyard.open(tmp_path)


def test_an_input_with_validation_errors_converts_only_with_force(tmp_path):
    sys.path.insert(0, str(SOURCE / "tests" / "hostile"))
    from craft import omf_static  # the hostile suite's crafted files

    bad = tmp_path / "bad.omf"
    bad.write_bytes(omf_static([("m", 30)], bones=[("root", 0), ("arm", 0)]))  # indices 0, 0: not a permutation
    errors = [f for f in boneyard.open(bad).validate() if f.severity == "error"]
    assert any("permutation" in f.message for f in errors)
    out = tmp_path / "out.omf"
    with pytest.raises(boneyard.InvalidFile) as e:
        boneyard.convert(bad, out)
    assert [str(f) for f in e.value.findings] == [str(f) for f in errors]
    assert not out.exists()
    boneyard.convert(bad, out, force=True)
    assert out.read_bytes() == bad.read_bytes()  # the lossless copy


def test_omf_edits_match_the_cli(tmp_path):
    omf = boneyard.Omf(WAVE)
    assert omf.names == ["wave", "idle"]
    assert omf.rename("wave", "hello") == ['renamed "wave" to "hello"']
    omf.set("idle", speed=2, flags="fx,stop_at_end")
    omf.set("hel*", add_marks=[("Right", 0.1, 0.2)])
    ours = tmp_path / "py.omf"
    assert omf.save(ours) is None
    step = tmp_path / "step.omf"
    cli("omf", "rename", WAVE, "wave", "hello", "-o", step)
    theirs = tmp_path / "cli.omf"
    step2 = tmp_path / "step2.omf"
    cli("omf", "set", step, "idle", "--speed", "2", "--flags", "fx,stop_at_end", "-o", step2)
    cli("omf", "set", step2, "hel*", "--add-mark", "Right", "0.1", "0.2", "-o", theirs)
    assert ours.read_bytes() == theirs.read_bytes()
    hello, idle = boneyard.Omf(ours).motions
    assert idle["speed"] == 2 and idle["fx"] and "stop_at_end" in idle["flags"]
    assert hello["marks"][-1] == {"name": "Right", "intervals": [pytest.approx((0.1, 0.2))]}


def test_a_refused_edit_changes_nothing():
    omf = boneyard.Omf(WAVE)
    before = omf.to_bytes()
    with pytest.raises(boneyard.UsageError, match="speed must be a finite number >= 0"):
        omf.set("*", speed=float("nan"))
    with pytest.raises(boneyard.InvalidFile, match="no motion matches"):
        omf.delete(["wave", "nothing*"])
    with pytest.raises(boneyard.InvalidFile):
        omf.set("wave", add_marks=[("M", -5, 500)])
    assert omf.to_bytes() == before == WAVE.read_bytes()


def test_extract_delete_and_merge():
    omf = boneyard.Omf(WAVE)
    idle = omf.extract("idle")
    assert idle.names == ["idle"]
    omf.delete("idle")
    assert omf.names == ["wave"]
    both = boneyard.merge([omf, idle])
    assert both.names == ["wave", "idle"]
    with pytest.raises(boneyard.InvalidFile):
        boneyard.merge([both, idle])
    assert boneyard.merge([both, idle], rename_clashes=True).names == ["wave", "idle", "idle_2"]
    with pytest.raises(boneyard.UsageError):
        boneyard.merge([omf])


def test_save_in_place_keeps_every_backup(tmp_path):
    path = tmp_path / "wave.omf"
    shutil.copy(WAVE, path)
    path.chmod(0o640)
    omf = boneyard.Omf(path)
    omf.rename("wave", "first")
    assert omf.save() == str(path) + ".bak"
    omf = boneyard.Omf(path)
    omf.rename("first", "second")
    assert omf.save() == str(path) + ".bak.1"
    assert (tmp_path / "wave.omf.bak").read_bytes() == WAVE.read_bytes()
    assert boneyard.Omf(tmp_path / "wave.omf.bak.1").names == ["first", "idle"]
    assert boneyard.Omf(path).names == ["second", "idle"]
    assert path.stat().st_mode & 0o777 == 0o640
    with pytest.raises(boneyard.UsageError, match="not read from a file"):
        boneyard.Omf(WAVE.read_bytes()).save()
    with pytest.raises(boneyard.UsageError, match="refusing to overwrite"):
        boneyard.Omf(path).save(path)


def test_edit_warnings_use_the_warnings_module():
    omf = boneyard.Omf(WAVE)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        omf.retarget(params_version=3)  # version 3 has no marks: the marks are dropped, with a warning
    assert any(issubclass(w.category, boneyard.EditWarning) and "mark" in str(w.message) for w in seen)
    assert all(m["marks"] == [] for m in omf.motions)


def test_the_readme_script_renames_in_a_folder(tmp_path):
    (tmp_path / "a").mkdir()
    shutil.copy(WAVE, tmp_path / "a" / "one.omf")
    shutil.copy(WAVE, tmp_path / "two.omf")
    run = subprocess.run([sys.executable, SOURCE / "examples" / "rename_motions.py", tmp_path, "wave", "greet"],
                         capture_output=True, text=True, env=os.environ, check=True)
    assert run.stdout.count("renamed, original kept as") == 2
    for p in (tmp_path / "a" / "one.omf", tmp_path / "two.omf"):
        assert boneyard.Omf(p).names == ["greet", "idle"]
        assert pathlib.Path(str(p) + ".bak").read_bytes() == WAVE.read_bytes()


def test_mgs2_conversions_match_the_cli(tmp_path):
    glb = tmp_path / "arm.glb"
    boneyard.convert(ARM, glb)
    (tmp_path / "py").mkdir()
    (tmp_path / "cli").mkdir()
    for ext, options, flags in ((".kms", {}, []), (".evm", {"layout": "mc"}, ["--layout", "mc"]),
                                (".evm", {"n_mats": "sealouse"}, ["--n-mats", "sealouse"])):
        # Same file names: the model's name (the output's stem) is part of what is written.
        ours, theirs = tmp_path / "py" / f"arm{ext}", tmp_path / "cli" / f"arm{ext}"
        boneyard.convert(glb, ours, **options)
        cli("convert", glb, "-o", theirs, *flags)
        assert ours.read_bytes() == theirs.read_bytes()
        doc = boneyard.open(ours)
        assert doc.format == ext[1:]
        assert f"{ours}\n{doc.info()}" == cli("info", ours).stdout
        assert [f for f in doc.validate() if f.severity == "error"] == []
    # Master Collection models come with their .cmdl, as from the CLI; cmdl= and no_cmdl= like --cmdl, --no-cmdl.
    assert (tmp_path / "py" / "_win" / "arm.cmdl").read_bytes() == (tmp_path / "cli" / "_win" / "arm.cmdl").read_bytes()
    boneyard.convert(glb, tmp_path / "py" / "solo.kms", layout="mc", no_cmdl=True)
    assert not (tmp_path / "py" / "_win" / "solo.cmdl").exists()
    boneyard.convert(glb, tmp_path / "py" / "there.kms", layout="mc", cmdl=tmp_path / "there.cmdl")
    pair = cli("validate", tmp_path / "py" / "there.kms", "--cmdl", tmp_path / "there.cmdl")
    assert pair.stdout.endswith(": 0 errors, 0 warnings, 0 info\n") and "ok (cmdl with" in pair.stdout
    model, companion = boneyard.open(tmp_path / "py" / "there.kms"), boneyard.open(tmp_path / "there.cmdl")
    assert companion.format == "cmdl" and model.check_pair(companion) == []
    other = boneyard.open(tmp_path / "py" / "_win" / "arm.cmdl")  # the .evm's: other packets, other vertices
    assert [f for f in model.check_pair(other) if f.severity == "error"] != []
    with pytest.raises(boneyard.UsageError, match="a pair to check is a .kms or .evm and its .cmdl"):
        model.check_pair(model)
    with pytest.raises(boneyard.UsageError, match="--cmdl does not apply: .* is written in the PS2 layout"):
        boneyard.convert(glb, tmp_path / "ps2.kms", cmdl=tmp_path / "ps2.cmdl")
    with pytest.raises(boneyard.UsageError, match="cmdl and no_cmdl exclude each other"):
        boneyard.convert(glb, tmp_path / "x.kms", layout="mc", cmdl=tmp_path / "x.cmdl", no_cmdl=True)
    assert not (tmp_path / "ps2.kms").exists() and not (tmp_path / "ps2.cmdl").exists()
    mc, back = tmp_path / "mc.kms", tmp_path / "back.kms"
    boneyard.convert(tmp_path / "py" / "arm.kms", mc, layout="mc")
    boneyard.convert(mc, back, layout="ps2", input_layout="mc")
    assert back.read_bytes() == (tmp_path / "py" / "arm.kms").read_bytes()
    with pytest.raises(boneyard.UsageError, match="--hq"):
        boneyard.convert(mc, tmp_path / "x.glb", hq=True)
    with pytest.raises(boneyard.UsageError, match="--n-mats"):
        boneyard.convert(glb, tmp_path / "x.kms", n_mats="sealouse")
    with pytest.raises(boneyard.UsageError, match="n_mats must be 'spec' or 'sealouse'"):
        boneyard.convert(glb, tmp_path / "x.evm", n_mats="four")
    with pytest.raises(boneyard.UsageError, match="input_layout must be 'ps2' or 'mc'"):
        boneyard.open(mc, input_layout="xbox")


def test_xray_gltf_options_match_the_cli(tmp_path):
    for options, flags in (({"float_rotations": True}, ["--float-rotations"]), ({"motions": ["wa*"]}, ["--motions", "wa*"])):
        ours, theirs = tmp_path / "py.glb", tmp_path / "cli.glb"
        boneyard.convert(ARM, ours, **options)
        cli("convert", ARM, "-o", theirs, *flags)
        assert ours.read_bytes() == theirs.read_bytes()
    boneyard.convert(ARM, tmp_path / "all.glb")
    assert len(ours.read_bytes()) < len((tmp_path / "all.glb").read_bytes())  # one of the two motions left out
    with pytest.raises(boneyard.UsageError, match="--float-rotations"):
        boneyard.convert(WAVE, tmp_path / "x.omf", float_rotations=True)
