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
import re
import shutil
import subprocess

import struct

import pytest

import boneyard

SOURCE = pathlib.Path(os.environ["BONEYARD_SOURCE_DIR"])
CLI = os.environ["BONEYARD_CLI"]
ARM = SOURCE / "examples" / "wave_arm.ogf"
WAVE = SOURCE / "examples" / "wave.omf"
ROWS = boneyard.convert_options()


def cli(*args):
    return subprocess.run([CLI, *map(str, args)], capture_output=True, text=True)


def one_motion_mar():
    """A PS2 .mar of one motion of one joint over one frame (docs/mgs2-mar.md): a translation
    stream (initial value, one record) and a rotation stream (one identity key), LSB first."""
    translation = (b"\0" * 6 + b"\1" + b"\0" * 12).ljust(20, b"\0")
    rotation = bytes([1, 0, 0, 0, 0, 0xF0, 0x7F]) + b"\0" * 7
    archive = translation + rotation
    mtcm = struct.pack("<11I", 0x2972FC, 0, 0, 1, 0x30, len(archive), 1, len(archive) // 2, 0, 0, 0) + struct.pack("<I", 10)
    mtcm += b"\0" * (0x30 - len(mtcm)) + archive
    head = struct.pack("<4I", 0x6152414D, 1, 1, 0x20) + struct.pack("<II", 0, len(mtcm))
    data = head.ljust(0x20, b"\0") + mtcm
    return data + b"\0" * (-len(data) % 16)


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
    (d / "anim.mar").write_bytes(one_motion_mar())
    boneyard.convert(d / "wave.omf", d / "wave.skls")
    boneyard.convert(d / "wave.omf", d / "wave.glb", skeleton=d / "arm.ogf")
    (d / "camera_effects").mkdir()
    boneyard.convert(d / "wave.glb", d / "camera_effects" / "shot.anm")
    return {"omf": d / "wave.omf", "ogf": d / "arm.ogf", "gltf": d / "arm.glb", "kms": d / "arm.kms",
            "evm": d / "arm.evm", "mc": d / "mc.kms", "cmdl": d / "_win" / "mc.cmdl", "mar": d / "anim.mar",
            "skls": d / "wave.skls", "anm": d / "camera_effects" / "shot.anm",
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
        return inputs["dir"] / "mc.kms" if source in ("cmdl", "mar") else inputs["ogf"]
    if name == "mar":
        return inputs["mar"]
    if name == "parts":
        return inputs["omf"]  # the .omf the .skls came from
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
    if row["name"] in ("skeleton", "template", "mar", "parts"):
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
    for source in ("omf", "ogf", "gltf", "kms", "evm", "mc", "cmdl", "mar", "object", "skls", "anm"):
        for ext in boneyard.open(inputs[source]).targets:
            if ext != ".gltf":  # the same options as .glb
                yield source, ext


def test_every_row_is_read_by_some_conversion_or_by_all(inputs):
    formats = ("omf", "ogf", "gltf", "kms", "evm", "cmdl", "mar", "skl", "skls", "anm", "object", "bones")
    known = {f"{s}>{t}" for s in (*formats, "tree") for t in formats}
    read = {f"{format_of(s)}>{target_of(ext)}" for s, ext in conversions(inputs)}
    for row in ROWS:
        assert set(row["reads"]) <= known, row
        assert row["keyword"] == row["name"].replace("-", "_") and row["flag"] == "--" + row["name"]
        # The SDK's motions are inputs of the tests below: every row they read is tried on them.
        assert {r for r in row["reads"] if r.split(">")[0] in ("skls", "anm")} <= read, row


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


# ---------------------------------------------------------------------------------------------
# The batch: `boneyard convert --recursive IN -o OUT` and boneyard.convert_tree(IN, OUT), with the
# option table's tree>gltf rows (and the rows every conversion reads) taken, every other row refused
# alike, and --jobs / jobs= on both.

TREE_TARGET = "tree>gltf"


def reads_tree(row):
    return TREE_TARGET in row["reads"] or not row["reads"]


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    """A game folder: a model with its motions, a motion file no model refers to, a broken model
    (it fails alone) and an empty textures folder."""
    d = tmp_path_factory.mktemp("tree")
    meshes = d / "gamedata" / "meshes"
    (meshes / "actors").mkdir(parents=True)
    shutil.copy(ARM, meshes / "actors" / "arm.ogf")
    shutil.copy(WAVE, meshes / "wave.omf")                  # the model's ref (looked up under meshes/)
    shutil.copy(WAVE, meshes / "actors" / "loose.omf")      # referenced by nothing: its own .glb
    (meshes / "actors" / "broken.ogf").write_bytes(ARM.read_bytes()[:100])
    (d / "gamedata" / "textures").mkdir()
    return d / "gamedata"


def tree_value(row, tree, inputs, out_dir):
    if row["name"] == "meshes":
        return tree / "meshes"
    if row["name"] == "textures":
        return tree / "textures"
    return valid_value(row, "ogf", ".glb", inputs, out_dir)


def cli_tree(source, output, *args):
    run = cli("convert", "--recursive", source, "-o", output, *args)
    progress = {}
    for line in run.stderr.splitlines():
        m = re.fullmatch(r"\[(\d+)/(\d+)\] (.*): (ok|warnings|FAILED)", line)
        if m:
            progress[m.group(3)] = {"ok": "converted", "warnings": "warnings", "FAILED": "failed"}[m.group(4)]
    return run, progress


def both_tree(source, output, keywords, args):
    """The batch through each front end into the same (emptied) folder: (exit code, stdout, stderr,
    per-file status, files) for the CLI, (exception or TreeResult, files) for Python."""
    run, progress = cli_tree(source, output, *args)
    cli_result = (run.returncode, run.stdout, run.stderr, progress, take_written(output))
    try:
        py_result = (boneyard.convert_tree(source, output, **keywords), take_written(output))
    except boneyard.Error as e:
        py_result = (e, take_written(output))
    return cli_result, py_result


def assert_tree_agree(cli_result, py_result):
    code, stdout, stderr, progress, cli_files = cli_result
    result, py_files = py_result
    if code == 2:
        assert isinstance(result, boneyard.UsageError), f"the CLI refused ({stderr.strip()}), Python gave {result!r}"
        assert stderr.splitlines() == [str(result)]
        assert cli_files == py_files == {}
        return
    assert isinstance(result, boneyard.TreeResult), f"the CLI converted (exit {code}), Python raised {result!r}"
    assert code == (1 if result.failed else 0)
    assert stdout.splitlines()[0] == (f"{result.converted} converted, {result.with_warnings} with warnings, "
                                      f"{result.failed} failed (of {len(result.items)})")
    assert progress == {item.input: item.status for item in result.items}
    # Each file's findings, in the batch's order, as the CLI prints them (str(f) is the line without the file).
    assert [ln for ln in stderr.splitlines() if not ln.startswith("[")] == \
        [item.input + str(f) for item in result.items for f in item.findings]
    assert cli_files == py_files and cli_files
    assert not result.interrupted and result.not_converted == 0


@pytest.mark.parametrize("row", ROWS, ids=[r["name"] for r in ROWS])
def test_the_batch_takes_and_refuses_each_row_alike(row, tree, inputs, tmp_path):
    value = tree_value(row, tree, inputs, tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    cli_result, py_result = both_tree(tree, out, {row["keyword"]: value, "jobs": 2},
                                      [*cli_args(row, value), "-j", "2"])
    if reads_tree(row):
        assert cli_result[0] != 2, (row["name"], cli_result[2])
    else:
        assert cli_result[0] == 2 and "does not apply with --recursive" in cli_result[2], (row["name"], cli_result[2])
    assert_tree_agree(cli_result, py_result)


def test_the_batch_without_options_and_with_one_job(tree, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    cli_result, py_result = both_tree(tree, out, {"jobs": 1}, ["-j", "1"])
    assert_tree_agree(cli_result, py_result)
    result = py_result[0]
    statuses = {pathlib.Path(item.input).name: item.status for item in result.items}
    # The model warns of its texture (the folder is empty), the loose motion of its flat armature.
    assert statuses == {"arm.ogf": "warnings", "broken.ogf": "failed", "loose.omf": "warnings"}
    broken = next(item for item in result.items if item.status == "failed")
    assert broken.error is not None and str(broken.error) == str(broken.findings[0])
    assert all(item.error is None for item in result.items if item.status != "failed")
    assert pathlib.Path(broken.output).name == "broken.glb" and not pathlib.Path(broken.output).exists()


def test_the_batch_keywords_are_the_tree_rows_and_jobs():
    doc = boneyard.convert_tree.__doc__
    listed = doc[doc.index("Options: ") + len("Options: "):doc.index(" (motions")].split(", ")
    assert listed == [r["keyword"] for r in ROWS if reads_tree(r)]
    assert "jobs=0" in doc and "progress=None" in doc


def test_the_batch_refuses_an_input_that_is_not_a_folder_alike(inputs, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    for source in (inputs["ogf"], tmp_path / "missing"):
        cli_result, py_result = both_tree(source, out, {}, [])
        assert cli_result[0] == 2 and "not a folder" in cli_result[2]
        assert_tree_agree(cli_result, py_result)


def test_an_unknown_batch_keyword_is_a_type_error(tree, tmp_path):
    with pytest.raises(TypeError, match="recursive"):
        boneyard.convert_tree(tree, tmp_path / "out", recursive=True)
    with pytest.raises(TypeError):
        boneyard.convert_tree(tree, tmp_path / "out", jobs=-1)
    assert not (tmp_path / "out").exists()
# ---- `boneyard texture` and boneyard.texture(), `boneyard mc-register` and boneyard.mc_register() ----
#
# Both run one registry request each (registry/texture_request.h, registry/mc_register.h): every
# option, through the CLI and through Python into the same (emptied) folder, must give the same
# files, byte for byte, and the same outcome: exit 0 and a result, exit 2 and UsageError, exit 1
# and InvalidFile (a request) or failed items (a texture of a folder or a .tri failing alone), with
# the CLI's message.

TRI_SEEDS = SOURCE / "tests" / "fuzz_seeds" / "fuzz_tri"


def texture_cli_args(options):
    args = []
    for key, value in options.items():
        flag = "--" + key.replace("_", "-")
        if value is True:
            args.append(flag)
        elif value not in (False, None):
            args += ["-j" if key == "jobs" else flag, value]
    return args


def both_texture(inputs, output, options, folder):
    """(exit, stdout, stderr, files) of `boneyard texture`, (exception or result, files) of boneyard.texture()."""
    inputs = inputs if isinstance(inputs, list) else [inputs]
    run = cli("texture", *inputs, "-o", output, *texture_cli_args(options))
    cli_result = (run.returncode, run.stdout, run.stderr, take_written(folder))
    try:
        py_result = (boneyard.texture(inputs, output, **options), take_written(folder))
    except boneyard.Error as e:
        py_result = (e, take_written(folder))
    return cli_result, py_result


def assert_texture_agree(cli_result, py_result):
    code, stdout, stderr, cli_files = cli_result
    outcome, py_files = py_result
    assert cli_files == py_files, (sorted(cli_files), sorted(py_files))
    if isinstance(outcome, boneyard.Error):
        assert code != 0 and cli_files == {}, f"Python raised {outcome!r}, the CLI exited {code}: {stderr}"
        assert isinstance(outcome, boneyard.UsageError if code == 2 else boneyard.InvalidFile), (code, outcome)
        assert stderr.splitlines()[-1] == str(outcome), (stderr, str(outcome))
        return
    assert code == (1 if outcome["failed"] else 0), (code, stderr, outcome)
    for item in outcome["items"]:
        if not item["ok"]:
            assert item["message"] in stderr.splitlines(), (item["message"], stderr)
    if outcome["conversion"] in ("tri_to_pngs", "several"):
        written = len(outcome["items"]) - outcome["failed"]
        assert stdout.splitlines()[-1] == f"{written} written, {outcome['failed']} failed (of {len(outcome['items'])})"
    else:
        assert [f"wrote {p}" for p in outcome["written"]] == stdout.splitlines()


@pytest.fixture(scope="module")
def texture_inputs(tmp_path_factory):
    """A .tri of each layout, the PNGs of one (to go back), a folder holding both .tri files and a
    .dds, a names list and a bad .tri."""
    d = tmp_path_factory.mktemp("texture_inputs")
    tri = d / "tiny_ps2.tri"
    # The seed with its first texture's id (+0x10 of the 0xA0-byte entry at 0x20) made null_msk.bmp's.
    data = bytearray((TRI_SEEDS / "tiny_ps2.tri").read_bytes())
    struct.pack_into("<I", data, 0x30, 0xB7E31E)
    tri.write_bytes(bytes(data))
    assert cli("texture", tri, "-o", d / "pngs").returncode == 0
    (d / "names.txt").write_text("null_msk.bmp\n")
    folder = d / "folder"
    (folder / "sub").mkdir(parents=True)
    shutil.copy(tri, folder / "a.tri")
    shutil.copy(TRI_SEEDS / "tiny_mc.tri", folder / "sub" / "A.tri")
    dds = next((SOURCE / "tests" / "fuzz_seeds" / "fuzz_dds").glob("*.dds"))
    shutil.copy(dds, folder / "a.dds")
    (folder / "broken.tri").write_bytes(b"\0" * 10)
    return {"tri": tri, "pngs": d / "pngs", "names": d / "names.txt", "folder": folder, "dds": folder / "a.dds"}


TEXTURE_CASES = [
    # (name, inputs, output, options)
    ("tri-to-pngs", "tri", "out", {}),
    ("tri-to-pngs-scaled-names", "tri", "out", {"alpha": "scaled", "names": "names", "jobs": 1}),
    ("tri-layout", "tri", "out", {"layout": "ps2"}),
    ("tri-wrong-layout", "tri", "out", {"layout": "mc"}),
    ("tri-to-a-png", "tri", "out.png", {}),
    ("tri-with-mip", "tri", "out", {"mip": 1}),
    ("tri-with-template", "tri", "out", {"template": "tri"}),
    ("pngs-back", "pngs", "out.tri", {"template": "tri"}),
    ("pngs-back-scaled", "pngs", "out.tri", {"template": "tri", "alpha": "scaled"}),
    ("pngs-without-template", "pngs", "out.tri", {}),
    ("folder-with-tri", "folder", "out", {}),
    ("folder-with-tri-scaled", "folder", "out", {"alpha": "scaled", "names": "names"}),
    ("dds-to-png", "dds", "out.png", {}),
    ("dds-with-alpha", "dds", "out.png", {"alpha": "raw"}),
    ("dds-with-template", "dds", "out.png", {"template": "tri"}),
]


@pytest.mark.parametrize("case", TEXTURE_CASES, ids=[c[0] for c in TEXTURE_CASES])
def test_texture_alike(case, texture_inputs, tmp_path):
    _, source, output, options = case
    options = {k: (texture_inputs[v] if isinstance(v, str) and v in texture_inputs else v) for k, v in options.items()}
    assert_texture_agree(*both_texture(texture_inputs[source], tmp_path / output, options, tmp_path))


def test_texture_values_refused_alike(texture_inputs, tmp_path):
    for key, value in (("alpha", "half"), ("layout", "xbox"), ("format", "dxt9")):
        run = cli("texture", texture_inputs["tri"], "-o", tmp_path / "out", "--" + key, value)
        assert run.returncode == 2 and "--" + key in run.stderr and value in run.stderr, run.stderr
        with pytest.raises(boneyard.UsageError) as e:
            boneyard.texture(texture_inputs["tri"], tmp_path / "out", **{key: value})
        assert str(e.value).startswith(f"boneyard: {key} must be ") and value in str(e.value)
        assert take_written(tmp_path) == {}


def test_texture_results_are_data(texture_inputs, tmp_path):
    r = boneyard.texture(texture_inputs["tri"], tmp_path / "out", alpha="scaled")
    assert r["conversion"] == "tri_to_pngs" and r["failed"] == 0
    assert [pathlib.Path(p).parent for p in r["written"]] == [tmp_path / "out"] * len(r["items"])
    r = boneyard.texture(texture_inputs["tri"], tmp_path / "named", names=texture_inputs["names"])
    assert sorted(pathlib.Path(p).name for p in r["written"]) == ["00cafe.png", "null_msk.png"]
    r = boneyard.texture(texture_inputs["pngs"], tmp_path / "back.tri", template=texture_inputs["tri"])
    assert r["conversion"] == "pngs_to_tri" and r["written"] == [str(tmp_path / "back.tri")]
    assert (tmp_path / "back.tri").read_bytes() == texture_inputs["tri"].read_bytes()
    assert all(n.severity == "info" or "unchanged" in n.message for n in r["notes"]), r["notes"]
    r = boneyard.texture(texture_inputs["folder"], tmp_path / "all")
    assert r["conversion"] == "several" and r["failed"] == 1
    broken = [i for i in r["items"] if not i["ok"]]
    assert [pathlib.Path(i["input"]).name for i in broken] == ["broken.tri"]
    assert isinstance(broken[0]["error"], boneyard.Finding)
    # a.tri and sub/A.tri go to folders of their own, apart from the .dds's PNG.
    outputs = {pathlib.Path(i["output"]).relative_to(tmp_path / "all").parts[0] for i in r["items"] if i["ok"]}
    assert outputs == {"a", "a.png", "sub"}


# ---- mc-register ----

@pytest.fixture(scope="module")
def mc_inputs(inputs, tmp_path_factory):
    """The Master Collection model of `inputs` (mc.kms with _win/mc.cmdl), .ctxr files named by its
    texture ids, a names list and a game folder whose w24c lists the model."""
    d = tmp_path_factory.mktemp("mc_inputs")
    shutil.copy(inputs["mc"], d / "mc.kms")
    (d / "_win").mkdir()
    shutil.copy(inputs["cmdl"], d / "_win" / "mc.cmdl")
    dump = boneyard.open(d / "mc.kms").dump()
    ids = sorted({t for u in dump["units"] for p in u["packets"] for t in p["tex_ids"] if t})
    assert ids == [0xBFA8CB]  # StrCode24("act_arm.bmp"): the arm's texture act\act_arm
    (d / "ctxr").mkdir()
    for i in ids:
        (d / "ctxr" / f"{i:08x}.ctxr").write_bytes(b"\1")
    (d / "some" / "a").mkdir(parents=True)
    (d / "some" / "act_arm.bmp.ctxr").write_bytes(b"\1")
    (d / "some" / "a" / "act_arm.bmp_0123456789abcdef0123456789abcdef.ctxr").write_bytes(b"\1")
    (d / "empty").mkdir()
    (d / "names.txt").write_text("act_arm.bmp\n")
    stage = d / "game" / "eu" / "stage" / "w24c"
    stage.mkdir(parents=True)
    (stage / "manifest.txt").write_bytes(b"assets/kms/us/mc.kms,us/stage/w24c/cache/00000001.kms,cache/00000001.kms\r\r\n")
    (stage / "bp_assets.txt").write_bytes(b"")
    return {"model": d / "mc.kms", "ctxr": d / "ctxr", "some": d / "some", "empty": d / "empty", "names": d / "names.txt",
            "game": d / "game"}


MC_CASES = [
    ("stage", {"stages": "w24c"}),
    ("two-stages-one-lang", {"stages": ["w24c", "r_plt0"], "langs": "eu"}),
    ("region-tri", {"stages": "w24c", "region": "jp", "tri": "other"}),
    ("no-tri", {"stages": "w24c", "no_tri": True}),
    ("tri-and-no-tri", {"stages": "w24c", "tri": "x", "no_tri": True}),
    ("missing-textures", {"stages": "w24c", "textures": "empty"}),
    ("names", {"stages": "w24c", "textures": "empty", "names": "names"}),
    ("several-ctxr-for-one-id", {"stages": "w24c", "textures": "some"}),
    ("game", {"game": "game", "langs": "eu"}),
    ("dry-run", {"stages": "w24c", "dry_run": True}),
    ("no-stage", {}),
    ("bad-mod", {"stages": "w24c", "mod": "../x"}),
    ("cmdl-missing", {"stages": "w24c", "cmdl": "names"}),
]


def mc_cli_args(options):
    args = []
    for key, value in options.items():
        flag = {"stages": "--stage", "langs": "--lang"}.get(key, "--" + key.replace("_", "-"))
        if value is True:
            args.append(flag)
        elif isinstance(value, list):
            for v in value:
                args += [flag, v]
        else:
            args += [flag, value]
    return args


@pytest.mark.parametrize("case", MC_CASES, ids=[c[0] for c in MC_CASES])
def test_mc_register_alike(case, mc_inputs, tmp_path):
    _, options = case
    options = {k: (mc_inputs[v] if isinstance(v, str) and v in mc_inputs else v) for k, v in options.items()}
    options.setdefault("textures", mc_inputs["ctxr"])
    options.setdefault("mod", "fix")
    out = tmp_path / "out"
    run = cli("mc-register", mc_inputs["model"], "-o", out, *mc_cli_args(options))
    cli_files = take_written(tmp_path)
    try:
        result = boneyard.mc_register(mc_inputs["model"], output=out, **options)
    except boneyard.Error as e:
        result = e
    py_files = take_written(tmp_path)
    assert cli_files == py_files
    if isinstance(result, boneyard.Error):
        assert run.returncode == (2 if isinstance(result, boneyard.UsageError) else 1), (run.returncode, result)
        lines = run.stderr.splitlines()
        if lines[-1] == "Run with --help for more information.":
            # Refused by CLI11 while parsing (--tri excludes --no-tri): worded by each front end, naming both.
            assert all(flag in lines[0] and flag in str(result) for flag in ("--tri", "--no-tri")), (lines, str(result))
        else:
            assert lines[-1] == str(result), (run.stderr, str(result))
        assert cli_files == {}
        return
    assert run.returncode == 0, run.stderr
    # The CLI prints the notes, then each file and its lines: the same as the result's data.
    lines = [f"{(n.path + ': ') if n.path else ''}{n.message}" for n in result["notes"]]
    for f in result["files"]:
        count = len(f["lines"])
        lines.append(f"{'would write' if options.get('dry_run') else 'wrote'} {f['path']} ({count} line{'' if count == 1 else 's'})")
        lines += ["  " + line for line in f["lines"]]
        assert f["text"] == b"".join(line.encode() + b"\r\r\n" for line in f["lines"])
        if not options.get("dry_run"):
            assert py_files[pathlib.Path(f["path"]).relative_to(tmp_path)] == f["text"]
    if not result["files"]:
        lines.append(f"{mc_inputs['model']}: nothing to register (the game's indices hold every line)")
    assert run.stdout.splitlines() == lines
    assert result["written"] == (bool(result["files"]) and not options.get("dry_run"))
    if case[0] == "several-ctxr-for-one-id":
        assert any("2 .ctxr files could be it; registered act_arm.bmp.ctxr" in n.message for n in result["notes"])
        assert any(line.startswith("textures/flatlist/act_arm.bmp.ctxr,") for f in result["files"] for line in f["lines"])
