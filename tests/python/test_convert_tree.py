"""boneyard.convert_tree beyond what the parity test compares with the CLI: the progress callback,
and Ctrl-C (a real SIGINT) or an exception from the callback stopping the batch after the files in
progress, leaving no temporary file, with the result so far on the exception.

The signal is sent from the progress callback when the first file is done: the batch's workers
wait for the callback, so the point of interruption does not depend on the machine's speed."""
import json
import os
import pathlib
import shutil
import signal
import subprocess

import pytest

import boneyard

SOURCE = pathlib.Path(os.environ["BONEYARD_SOURCE_DIR"])
ARM = SOURCE / "examples" / "wave_arm.ogf"
WAVE = SOURCE / "examples" / "wave.omf"
COPIES = 20  # models and as many motion files: 40 items, 2 workers


@pytest.fixture()
def folder(tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    for i in range(COPIES):
        shutil.copy(ARM, src / f"m{i}.ogf")
        shutil.copy(WAVE, src / f"w{i}.omf")
    return src


def written(out):
    return sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) if out.exists() else []


def assert_stopped_cleanly(result, out, total=2 * COPIES, jobs=2):
    assert result.interrupted
    done = result.converted + result.with_warnings + result.failed
    assert done + result.not_converted == total == len(result.items)
    # The worker that finished first waited for the callback; the others finish (or abandon) the
    # file they had and take no other.
    assert 1 <= done <= jobs and result.not_converted >= total - jobs
    statuses = [item.status for item in result.items]
    assert statuses.count("interrupted") == result.not_converted
    # Finished outputs stay, nothing else is there: no temporary file, nothing of the abandoned files.
    assert written(out) == sorted(pathlib.Path(item.output).relative_to(out).as_posix() for item in result.items
                                  if item.status in ("converted", "warnings"))


def test_progress_sees_every_file_in_order(folder, tmp_path):
    seen = []
    result = boneyard.convert_tree(folder, tmp_path / "out", jobs=2,
                                   progress=lambda done, total, item: seen.append((done, total, item.input, item.status)))
    assert [s[0] for s in seen] == list(range(1, 2 * COPIES + 1))
    assert {s[1] for s in seen} == {2 * COPIES}
    assert sorted((s[2], s[3]) for s in seen) == sorted((i.input, i.status) for i in result.items)
    assert not result.interrupted and result.not_converted == 0
    assert len(written(tmp_path / "out")) == 2 * COPIES
    assert repr(result) == (f"<boneyard.TreeResult {result.converted} converted, {result.with_warnings} with warnings, "
                            f"0 failed (of {2 * COPIES})>")


def test_ctrl_c_stops_after_the_files_in_progress(folder, tmp_path):
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    calls = []

    def progress(done, total, item):
        calls.append(done)
        if done == 1:
            os.kill(os.getpid(), signal.SIGINT)  # as Ctrl-C in the terminal would

    out = tmp_path / "out"
    with pytest.raises(KeyboardInterrupt) as stopped:
        boneyard.convert_tree(folder, out, jobs=2, progress=progress)
    assert calls == [1]  # not called again once the batch is stopping
    assert_stopped_cleanly(stopped.value.result, out)

    # The stop was this call's: the next batch (and any conversion) runs to the end.
    again = boneyard.convert_tree(folder, tmp_path / "again", jobs=2)
    assert not again.interrupted and again.not_converted == 0 and len(written(tmp_path / "again")) == 2 * COPIES
    assert boneyard.convert(ARM, tmp_path / "one.glb") is not None


def test_an_exception_from_progress_stops_the_batch_alike(folder, tmp_path):
    def progress(done, total, item):
        raise ValueError(f"stop at {item.input}")

    out = tmp_path / "out"
    with pytest.raises(ValueError, match="stop at") as stopped:
        boneyard.convert_tree(folder, out, jobs=2, progress=progress)
    assert_stopped_cleanly(stopped.value.result, out)


def test_progress_must_be_callable(folder, tmp_path):
    with pytest.raises(TypeError, match="progress"):
        boneyard.convert_tree(folder, tmp_path / "out", progress=3)
    assert not (tmp_path / "out").exists()


def test_the_sdks_motion_files_are_converted_on_their_own(tmp_path):
    """--recursive picks up .skls, .skl and .anm (issue 38): each becomes its own .glb (the skeletal
    motions on a flat armature of their bones, an object motion as a node, a camera one under
    camera_effects/ with a camera), a name that clashes with a model's output gets the format's
    suffix, a broken one fails alone; the CLI's batch writes the same files."""
    src = tmp_path / "in"
    (src / "camera_effects").mkdir(parents=True)
    shutil.copy(ARM, src / "arm.ogf")
    shutil.copy(WAVE, src / "arm.omf")  # the model has no refs: a loose motion file
    boneyard.convert(WAVE, src / "arm.skls")  # beside arm.ogf: arm_skls.glb
    subprocess.run([os.environ["BONEYARD_CLI"], "skls", "extract", src / "arm.skls", "-o", src / "one.skl", "wave"],
                   check=True, capture_output=True)
    boneyard.convert(WAVE, tmp_path / "wave.glb", skeleton=ARM)
    boneyard.convert(tmp_path / "wave.glb", src / "camera_effects" / "shot.anm")
    (src / "broken.skls").write_bytes((src / "arm.skls").read_bytes()[:30])
    result = boneyard.convert_tree(src, tmp_path / "out", jobs=2)
    by_name = {pathlib.Path(i.input).relative_to(src).as_posix(): i for i in result.items}
    assert sorted(by_name) == ["arm.ogf", "arm.omf", "arm.skls", "broken.skls", "camera_effects/shot.anm", "one.skl"]
    outputs = {k: pathlib.Path(i.output).relative_to(tmp_path / "out").as_posix() for k, i in by_name.items()}
    assert outputs["arm.ogf"] == "arm.glb" and outputs["arm.omf"] == "arm_omf.glb"
    assert outputs["arm.skls"] == "arm_skls.glb" and outputs["one.skl"] == "one.glb"
    assert outputs["camera_effects/shot.anm"] == "camera_effects/shot.glb"
    assert by_name["broken.skls"].status == "failed" and not (tmp_path / "out" / "broken.glb").exists()
    assert result.failed == 1 and result.converted + result.with_warnings == 5
    for name in ("arm.skls", "one.skl", "camera_effects/shot.anm"):
        assert by_name[name].status in ("converted", "warnings"), (name, [str(f) for f in by_name[name].findings])
        glb = boneyard.open(tmp_path / "out" / outputs[name])
        assert glb.format == "gltf"
    # The .skls's motions and the .anm's camera are in their .glb: they convert back.
    boneyard.convert(tmp_path / "out" / "arm_skls.glb", tmp_path / "back.skls")
    assert [m["name"] for m in boneyard.open(tmp_path / "back.skls").dump()["motions"]] == \
        [m["name"] for m in boneyard.open(src / "arm.skls").dump()["motions"]]
    glb = (tmp_path / "out" / "camera_effects" / "shot.glb").read_bytes()
    shot = json.loads(glb[20:20 + int.from_bytes(glb[12:16], "little")])
    assert len(shot["cameras"]) == 1 and shot["cameras"][0]["type"] == "perspective"
    # The CLI's batch writes the same files.
    run = subprocess.run([os.environ["BONEYARD_CLI"], "convert", "--recursive", src, "-o", tmp_path / "cli"],
                         capture_output=True, text=True)
    assert run.returncode == 1, run.stderr
    assert written(tmp_path / "cli") == written(tmp_path / "out")
    for name in written(tmp_path / "out"):
        assert (tmp_path / "cli" / name).read_bytes() == (tmp_path / "out" / name).read_bytes(), name
