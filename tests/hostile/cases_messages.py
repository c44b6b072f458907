"""Scopes 8 and 10 of the hostile-input issue: interrupted and failed writes leave nothing; options
that do not apply are errors naming them; messages that said the wrong thing."""
import re
import signal
import struct

from craft import example, gltf_buffers, gltf_json, kms_ps2, omf_static
from hostile_case import Run, case

# ---------------------------------------------------------------------------------------------
# Builders

# The smallest .kms boneyard reads: a PS2 DG_DEF header (NORM, texture id 1 at 0x0C) with no units.
KMS_EMPTY = kms_ps2([], texture=1, bbox=(0,) * 6)


def gltf_minimal():
    """A glTF with one node and nothing else: it opens, and converts nowhere useful."""
    return {"asset": {"version": "2.0"}, "nodes": [{"name": "a"}], "scenes": [{"nodes": [0]}], "scene": 0}


def glb(doc, bin_chunk=b""):
    """A binary glTF container around `doc` (and an optional BIN chunk)."""
    js = gltf_json(doc)
    js += b" " * (-len(js) % 4)
    body = struct.pack("<I4s", len(js), b"JSON") + js
    if bin_chunk:
        bin_chunk += b"\0" * (-len(bin_chunk) % 4)
        body += struct.pack("<I4s", len(bin_chunk), b"BIN\0") + bin_chunk
    return struct.pack("<4sII", b"glTF", 2, 12 + len(body)) + body


def gltf_triangle(view_offset, view_length):
    """A .gltf whose one triangle reads 36 bytes of positions through buffer view 0 (`view_offset`,
    `view_length`) of a 36-byte data: buffer."""
    return gltf_json(**gltf_buffers(struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0),
                                    [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                                      "min": [0, 0, 0], "max": [1, 1, 0]}],
                                    views=[{"buffer": 0, "byteOffset": view_offset, "byteLength": view_length}]),
                     meshes=[{"primitives": [{"attributes": {"POSITION": 0}}]}],
                     nodes=[{"name": "m", "mesh": 0}], scenes=[{"nodes": [0]}], scene=0)


def batch_folder(d, copies=300):
    """`copies` models and motions from examples/: more progress lines than the runner's one-page
    stderr pipe holds, so the batch cannot finish before the signal (hostile_case.Run.signal)."""
    src = d / "in"
    src.mkdir()
    ogf, omf_bytes = example("wave_arm.ogf"), example("wave.omf")
    for i in range(copies):
        (src / f"m{i}.ogf").write_bytes(ogf)
        (src / f"w{i}.omf").write_bytes(omf_bytes)
    return src


# ---------------------------------------------------------------------------------------------
# Scope 8: interrupted and failed writes

# Finished outputs may stay; a temporary (".m1.glb.123.tmp") or anything else may not.
BATCH_OUTPUTS = [r"out", r"out/[mw]\d+(_omf)?\.glb"]
SUMMARY = r"\d+ converted, \d+ with warnings, \d+ failed \(of 600\)\ninterrupted by {}: [1-9]\d* not converted"
# The signal is sent once the first file is done (its progress line is on stderr): the handlers
# are installed and the batch is under way. The runner reads no more until it has sent the signal;
# the batch blocks on its full stderr pipe well before its last file.
FIRST_DONE = r"^\[1/600\] "


def stopped_after_files_in_progress(d, code, out, err):
    """The summary adds up to 600, every file it counts as done has its output and its progress
    line, and no other output exists: the files being converted when the signal came left nothing."""
    counts = re.search(r"(\d+) converted, (\d+) with warnings, (\d+) failed \(of 600\)\n"
                       r"interrupted by \w+: (\d+) not converted", out)
    if not counts:
        return "no summary"
    converted, warned, failed, left = map(int, counts.groups())
    if converted + warned + failed + left != 600:
        return f"the summary does not add up to 600: {counts.group(0)!r}"
    outputs = len(list((d / "out").rglob("*.glb"))) if (d / "out").exists() else 0
    if outputs != converted + warned:
        return f"{outputs} outputs for {converted + warned} files converted"
    progress = len(re.findall(r"^\[\d+/600\] ", err, re.M))
    if progress != converted + warned + failed:
        return f"{progress} progress lines for {converted + warned + failed} files done"
    return None


@case("interrupt_sigint_recursive", why="SIGINT during convert --recursive: summary so far, exit 130, no .tmp left",
      exit=130, stdout=SUMMARY.format("SIGINT"), creates=BATCH_OUTPUTS, timeout=120,
      check=stopped_after_files_in_progress)
def _(d):
    batch_folder(d)
    return Run(argv=["convert", "--recursive", "in", "-o", "out", "-j", "2"], signal=(signal.SIGINT, FIRST_DONE))


@case("interrupt_sigterm_recursive", why="SIGTERM during convert --recursive: summary so far, exit 143, no .tmp left",
      exit=143, stdout=SUMMARY.format("SIGTERM"), creates=BATCH_OUTPUTS, timeout=120,
      check=stopped_after_files_in_progress)
def _(d):
    batch_folder(d)
    return Run(argv=["convert", "--recursive", "in", "-o", "out", "-j", "2"], signal=(signal.SIGTERM, FIRST_DONE))


@case("gltf_write_failure_removes_bin", why="a .gltf whose name is taken by a folder is refused before its .bin is "
      "written (the output plan): no .bin stays", exit=2, stderr=r"x\.gltf: refusing to write over a folder", one_line=True)
def _(d):
    (d / "wave_arm.ogf").write_bytes(example("wave_arm.ogf"))
    (d / "wave.omf").write_bytes(example("wave.omf"))  # its motion ref: no warning besides the error
    (d / "x.gltf").mkdir()  # once, the rename onto it failed after x.bin was written
    return ["convert", "wave_arm.ogf", "-o", "x.gltf"]


# ---------------------------------------------------------------------------------------------
# Scope 10: options that do not apply to the chosen conversion (exit 2, naming the option)


def inapplicable(name, why, option_regex, files, argv):
    @case(name, why=why, exit=2, stderr=option_regex, one_line=True)
    def _(d):
        for fname, data in files().items():
            (d / fname).write_bytes(data)
        return argv


inapplicable("option_template_omf_for_kms", "--template X.omf when converting to .kms",
             r"--template wave\.omf holds omf data: converting to \.kms",
             lambda: {"a.gltf": gltf_json(gltf_minimal()), "wave.omf": example("wave.omf")},
             ["convert", "a.gltf", "-o", "a.kms", "--template", "wave.omf"])
inapplicable("option_template_kms_for_omf", "a .kms template when converting to .omf",
             r"--template t\.kms holds kms data: converting to \.omf",
             lambda: {"a.gltf": gltf_json(gltf_minimal()), "t.kms": KMS_EMPTY},
             ["convert", "a.gltf", "-o", "a.omf", "--template", "t.kms"])
inapplicable("option_template_omf_for_evm", "--template X.omf when converting to .evm",
             r"--template wave\.omf holds omf data: converting to \.evm",
             lambda: {"a.gltf": gltf_json(gltf_minimal()), "wave.omf": example("wave.omf")},
             ["convert", "a.gltf", "-o", "a.evm", "--template", "wave.omf"])
inapplicable("option_hq_for_mgs2", "--hq (X-Ray .omf keys) when converting to .kms",
             r"--hq does not apply when converting gltf to \.kms",
             lambda: {"a.gltf": gltf_json(gltf_minimal())}, ["convert", "a.gltf", "-o", "a.kms", "--hq"])
inapplicable("option_layout_for_omf", "--layout for an .omf rewrite", r"--layout does not apply when converting omf to \.omf",
             lambda: {"wave.omf": example("wave.omf")}, ["convert", "wave.omf", "-o", "b.omf", "--layout", "mc"])
inapplicable("option_layout_for_gltf_output", "--layout when the output is glTF",
             r"--layout does not apply when converting kms to \.glb",
             lambda: {"z.kms": KMS_EMPTY}, ["convert", "z.kms", "-o", "z.glb", "--layout", "mc"])
inapplicable("option_layout_for_gltf_to_omf", "--layout for glTF to .omf", r"--layout does not apply when converting gltf to \.omf",
             lambda: {"a.gltf": gltf_json(gltf_minimal())}, ["convert", "a.gltf", "-o", "a.omf", "--layout", "ps2"])
inapplicable("option_skeleton_with_recursive", "--skeleton with --recursive", r"--skeleton does not apply with --recursive",
             lambda: {"wave_arm.ogf": example("wave_arm.ogf")},
             ["convert", "--recursive", ".", "-o", "out", "--skeleton", "wave_arm.ogf"])
inapplicable("option_scale_for_xray", "--scale (MGS2 units) for an X-Ray conversion",
             r"--scale does not apply when converting omf to \.glb",
             lambda: {"wave.omf": example("wave.omf")}, ["convert", "wave.omf", "-o", "w.glb", "--scale", "2"])
inapplicable("option_keep_going_for_mgs2", "--keep-going (X-Ray meshes) for an MGS2 model",
             r"--keep-going does not apply when converting kms to \.glb",
             lambda: {"z.kms": KMS_EMPTY}, ["convert", "z.kms", "-o", "z.glb", "--keep-going"])
inapplicable("option_skeleton_for_ogf", "--skeleton for an .ogf (it is its own skeleton)",
             r"--skeleton does not apply when converting ogf to \.glb",
             lambda: {"wave_arm.ogf": example("wave_arm.ogf")},
             ["convert", "wave_arm.ogf", "-o", "a.glb", "--skeleton", "wave_arm.ogf"])
inapplicable("option_input_layout_for_xray", "--input-layout (MGS2) for an .omf",
             r"--input-layout does not apply when converting omf to \.glb",
             lambda: {"wave.omf": example("wave.omf")}, ["convert", "wave.omf", "-o", "w.glb", "--input-layout", "ps2"])
inapplicable("option_names_for_kms_rewrite", "--names for a .kms rewrite (ids are written, not names)",
             r"--names does not apply when converting kms to \.kms",
             lambda: {"z.kms": KMS_EMPTY, "names.txt": b"null_msk.bmp\n"},
             ["convert", "z.kms", "-o", "y.kms", "--names", "names.txt"])
inapplicable("option_jobs_without_recursive", "--jobs without --recursive", r"--jobs applies only with --recursive",
             lambda: {"wave.omf": example("wave.omf")}, ["convert", "wave.omf", "-o", "w.glb", "-j", "2"])


# ---------------------------------------------------------------------------------------------
# Scope 10: messages that said the wrong thing


@case("gltf_self_child_node", why="a node listing itself as a child is a cycle, not an index out of range",
      exit=1, stderr=r"node 0 \(\"a\"\): node is its own child .*found 0", not_in_stderr=r"out of range", one_line=True)
def _(d):
    doc = gltf_minimal()
    doc["nodes"][0]["children"] = [0]
    (d / "self.gltf").write_bytes(gltf_json(doc))
    return ["info", "self.gltf"]


@case("gltf_view_past_buffer", why="a view that fits its accessor but not its buffer: no 'expected <= 36, found 36'",
      exit=1, stderr=r"buffer view 0 runs past the end of buffer 0 \(expected byteOffset \+ byteLength <= 36 bytes, found 12 \+ 36\)",
      one_line=True)
def _(d):
    (d / "t.gltf").write_bytes(gltf_triangle(12, 36))
    return ["info", "t.gltf"]


@case("gltf_huge_buffer_view", why="a 1 TB buffer view: expected is the buffer size, found the view's length (not swapped)",
      exit=1, stderr=r"expected byteOffset \+ byteLength <= 36 bytes, found 0 \+ 1000000000000\)", one_line=True)
def _(d):
    (d / "t.gltf").write_bytes(gltf_triangle(0, 10**12))
    return ["info", "t.gltf"]


@case("view_glb_is_shown", why="view x.glb shows the .glb itself, not 'no glTF export for .gltf files'",
      exit=0, stdout=r"wrote x\.glb\.html", not_in_stderr=r"no glTF export", creates=[r"x\.glb\.html"],
      creates_required=[r"x\.glb\.html"], rss_bound=False,
      check=lambda d, code, out, err: None if '"glb":"Z2xURg' in (d / "x.glb.html").read_text() else "the page has no .glb")
def _(d):
    (d / "x.glb").write_bytes(glb(gltf_minimal()))
    return ["view", "x.glb"]


@case("scale_zero_short_message", why="--scale 0: one short reason, not CLI11's 300-digit range",
      exit=2, stderr=r"--scale: must be a positive number of metres per model unit.*found 0", not_in_stderr=r"\d{20}")
def _(d):
    (d / "z.kms").write_bytes(KMS_EMPTY)
    return ["convert", "z.kms", "-o", "z.glb", "--scale", "0"]


@case("merge_params_versions_differ", why="merging a version 4 and a version 3 file names the versions, not 'bone parts'",
      exit=1, stderr=r"params versions differ .*expected version 4, found version 3", not_in_stderr=r"bone parts differ",
      one_line=True)
def _(d):
    (d / "a.omf").write_bytes(omf_static([("run", 30)], version=4, bone_or_part=0))
    (d / "b.omf").write_bytes(omf_static([("walk", 30)], version=3, bone_or_part=0))
    return ["omf", "merge", "a.omf", "b.omf", "-o", "c.omf"]


def same_columns(d, code, out, err):
    cols = {line.index(" frames") for line in out.splitlines() if " frames" in line}
    return None if len(cols) == 1 else f"'frames' column at {sorted(cols)} characters: names padded by bytes"


@case("omf_list_cyrillic_columns", why="cp1251 names printed as UTF-8 are padded by characters, so the columns line up",
      exit=0, stdout=r"бег", check=same_columns)
def _(d):
    names = ["бег".encode("cp1251"), b"walk", "стойка_idle".encode("cp1251")]  # raw cp1251, as the game writes
    (d / "a.omf").write_bytes(omf_static([(name, 30) for name in names], bone_or_part=0))
    return ["omf", "list", "a.omf"]


@case("view_default_name_keeps_extension", why="view wave.omf writes wave.omf.html next to it (README)",
      exit=0, stdout=r"wrote wave\.omf\.html", creates=[r"wave\.omf\.html"], creates_required=[r"wave\.omf\.html"],
      rss_bound=False)
def _(d):
    (d / "wave.omf").write_bytes(example("wave.omf"))
    return ["view", "wave.omf"]


@case("view_refuses_non_html_output", why="view -o page.txt is refused (exit 2), nothing written",
      exit=2, stderr=r"page\.txt: the page must be an \.html file", one_line=True)
def _(d):
    (d / "wave.omf").write_bytes(example("wave.omf"))
    return ["view", "wave.omf", "-o", "page.txt"]


@case("merge_help_two_or_more", why="omf merge --help says it takes two or more inputs",
      exit=0, stdout=r"(?i)two or more.*inputs TEXT \.\.\. REQUIRED")
def _(d):
    return ["omf", "merge", "--help"]
