"""The CLI and the Python module accept and refuse exactly the same convert options and values.

Both are made from one option table (registry/convert_options.h), which the module shows as
boneyard.convert_options(). Every row is given to every conversion, with a value it takes and with
values it refuses, through `boneyard convert` and through boneyard.convert(); the two must agree:
exit 0 and no exception (and the same bytes written), exit 2 and UsageError, exit 1 and
InvalidFile, with the same message. Only a refused value is worded in each front end's own way
(CLI11's "--layout: x not in {ps2,mc}", Python's "layout must be 'ps2' or 'mc', not 'x'"); both
must still name the option and the value.
"""
import math
import os
import pathlib
import shutil
import subprocess

import pytest

import boneyard

SOURCE = pathlib.Path(os.environ["BONEYARD_SOURCE_DIR"])
CLI = os.environ["BONEYARD_CLI"]
ARM = SOURCE / "examples" / "wave_arm.ogf"
WAVE = SOURCE / "examples" / "wave.omf"
ROWS = boneyard.convert_options()


def cli(*args):
    return subprocess.run([CLI, *map(str, args)], capture_output=True, text=True)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    """One input of each format, and the files options name."""
    d = tmp_path_factory.mktemp("inputs")
    shutil.copy(WAVE, d / "wave.omf")
    shutil.copy(ARM, d / "arm.ogf")
    boneyard.convert(ARM, d / "arm.glb")
    boneyard.convert(d / "arm.glb", d / "arm.kms")
    boneyard.convert(d / "arm.glb", d / "arm.evm")
    boneyard.convert(d / "arm.glb", d / "mc.kms", layout="mc")
    boneyard.convert(ARM, d / "arm.object")
    boneyard.convert(ARM, d / "arm.bones")
    (d / "names.txt").write_text("null_msk.bmp\n")
    (d / "textures").mkdir()
    return {"omf": d / "wave.omf", "ogf": d / "arm.ogf", "gltf": d / "arm.glb", "kms": d / "arm.kms",
            "evm": d / "arm.evm", "mc": d / "mc.kms", "cmdl": d / "_win" / "mc.cmdl",
            "object": d / "arm.object", "bones": d / "arm.bones", "dir": d}


def format_of(source):
    """The format of an input: "mc" is a Master Collection .kms (its rewrite takes --cmdl)."""
    return "kms" if source == "mc" else source


def target_of(ext):
    return "gltf" if ext in (".glb", ".gltf") else ext[1:]


def valid_value(row, source, ext, inputs, out_dir):
    """A value the row takes, fitting the conversion where it reads one."""
    name, kind = row["name"], row["kind"]
    if kind == "flag":
        return True
    if kind == "globs":
        return ["wa*"]
    if row["choices"]:
        return ("mc" if source == "mc" else "ps2") if name == "input-layout" else row["choices"][-1]
    if kind == "number":
        return 0.01
    if name == "skeleton":
        return inputs["dir"] / "mc.kms" if source == "cmdl" else inputs["ogf"]
    if name == "template":
        return inputs.get(target_of(ext), inputs["omf"]) if source != "mc" else inputs["mc"]
    if name == "names":
        return inputs["dir"] / "names.txt"
    if name == "bones":
        return inputs["bones"]
    if name == "cmdl":
        return out_dir / "x.cmdl"
    return inputs["dir"] / ("textures" if name == "textures" else ".")


def refused_values(row, inputs):
    """Values the row refuses whatever the conversion."""
    if row["choices"]:
        return ["xbox"]
    if row["kind"] == "number":
        return [0, -1, math.inf, math.nan]
    if row["name"] in ("skeleton", "template"):
        return [inputs["dir"] / "missing.ogf", inputs["dir"]]
    if row["name"] == "names":
        return [inputs["dir"] / "missing.txt"]
    return []


def cli_args(row, value):
    if row["kind"] == "flag":
        return [row["flag"]] if value else []
    if row["kind"] == "globs":
        return [a for v in value for a in (row["flag"], v)]
    return [row["flag"], "nan" if isinstance(value, float) and math.isnan(value) else value]


def take_written(folder):
    """The files a run wrote into `folder` (relative path -> bytes), removed for the next run."""
    files = {p.relative_to(folder): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}
    for p in folder.iterdir():
        shutil.rmtree(p) if p.is_dir() else p.unlink()
    return files


def both(source, output, row, value):
    """The conversion with the option through each front end in turn, into the same (emptied)
    folder, so that the messages name the same files: (exit code, stderr, files) for the CLI,
    (exception or None, warnings, files) for Python."""
    run = cli("convert", source, "-o", output, *cli_args(row, value))
    cli_result = (run.returncode, run.stderr, take_written(output.parent))
    try:
        py_result = (None, boneyard.convert(source, output, **{row["keyword"]: value}), take_written(output.parent))
    except boneyard.Error as e:
        py_result = (e, None, take_written(output.parent))
    return cli_result, py_result


def assert_agree(cli_result, py_result, refused_value=None, row=None):
    code, stderr, cli_files = cli_result
    error, warnings, py_files = py_result
    if code == 0:
        assert error is None, f"the CLI converted, Python raised {error!r}"
        assert cli_files == py_files and cli_files
        assert len(warnings) == len([ln for ln in stderr.splitlines() if ln.strip()])
        return
    assert error is not None, f"the CLI refused (exit {code}: {stderr.strip()}), Python converted"
    expected = boneyard.UsageError if code == 2 else boneyard.InvalidFile
    assert isinstance(error, expected), f"exit {code} but {type(error).__name__}: {error}"
    assert cli_files == py_files == {}, "a refused conversion wrote something"
    lines = stderr.splitlines()
    if refused_value is not None and lines[-1] == "Run with --help for more information.":
        # A value CLI11 refused while parsing: worded by each front end, naming the option and value.
        shown = "nan" if isinstance(refused_value, float) and math.isnan(refused_value) else str(refused_value)
        said = str(error).removeprefix("boneyard: ")
        assert lines[0].startswith(row["flag"] + ": ") and said.startswith(row["keyword"] + " ")
        assert shown in lines[0] and shown in said, (lines[0], said)
        return
    assert str(error) in lines, f"Python said {str(error)!r}, the CLI {stderr!r}"


def conversions(inputs):
    for source in ("omf", "ogf", "gltf", "kms", "evm", "mc", "cmdl", "object"):
        for ext in boneyard.open(inputs[source]).targets:
            if ext != ".gltf":  # the same options as .glb
                yield source, ext


def test_every_row_is_read_by_some_conversion_or_by_all():
    known = {f"{s}>{t}" for s in ("omf", "ogf", "gltf", "kms", "evm", "cmdl", "tree", "object")
             for t in ("omf", "ogf", "gltf", "kms", "evm", "cmdl", "object", "bones")}
    for row in ROWS:
        assert set(row["reads"]) <= known, row
        assert row["keyword"] == row["name"].replace("-", "_") and row["flag"] == "--" + row["name"]


def test_help_lists_every_row():
    text = " ".join(cli("convert", "--help").stdout.split())
    for row in ROWS:
        assert row["flag"] in text and " ".join(row["help"].split()) in text, row["name"]


@pytest.mark.parametrize("row", ROWS, ids=[r["name"] for r in ROWS])
def test_each_value_it_takes_is_taken_or_refused_alike(row, inputs, tmp_path):
    for source, ext in conversions(inputs):
        value = valid_value(row, source, ext, inputs, tmp_path)
        assert_agree(*both(inputs[source], tmp_path / ("out" + ext), row, value))


@pytest.mark.parametrize("row", ROWS, ids=[r["name"] for r in ROWS])
def test_each_value_it_refuses_is_refused_alike(row, inputs, tmp_path):
    reading = [c for c in conversions(inputs) if f"{format_of(c[0])}>{target_of(c[1])}" in row["reads"]] or \
        list(conversions(inputs))[:1]
    for value in refused_values(row, inputs):
        for source, ext in reading:
            cli_result, py_result = both(inputs[source], tmp_path / ("out" + ext), row, value)
            assert cli_result[0] == 2, (row["name"], value, cli_result[1])
            assert_agree(cli_result, py_result, refused_value=value, row=row)
