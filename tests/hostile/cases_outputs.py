"""Issue 27 scopes 2-4: one output plan per command, checked before anything is put in place (an
output never replaces an input, a template, another output of the run or a non-regular file;
colliding batch outputs get distinct names and say so), and names are data (a file named like an
option, `--`, options an input cannot honour)."""
import os
import subprocess
import sys

from cases_textures import dds, png
from craft import example, kms_ps2, omf_one_bone
from hostile_case import case

ONE_LINE_USAGE = dict(exit=2, one_line=True)


def cube_dds():
    """A 4x4 DXT1 cube map with all six faces (8 bytes each)."""
    return dds(4, 4, bytes(8) * 6, caps2=0x200 | 0xFC00)


# ---- single conversions -----------------------------------------------------------------------

@case("cube_face_named_like_the_input", why="a cube map read from sky_posx.png would write its +X face over itself",
      stderr=r"sky_posx\.png: refusing to overwrite the input file", **ONE_LINE_USAGE)
def _(d):
    (d / "sky_posx.png").write_bytes(cube_dds())
    return ["texture", "sky_posx.png", "-o", "sky.png"]


@case("gltf_buffer_named_like_the_input", why="convert w.bin -o w.gltf would replace the input with the .gltf's buffer",
      stderr=r"w\.bin: refusing to overwrite the input file", **ONE_LINE_USAGE)
def _(d):
    (d / "w.bin").write_bytes(example("wave_arm.ogf"))
    return ["convert", "w.bin", "-o", "w.gltf"]


@case("output_differs_from_input_only_in_case", why="W.OGF and w.ogf are one file where most users work",
      stderr=r"refusing to overwrite the input file w\.omf", **ONE_LINE_USAGE)
def _(d):
    (d / "w.omf").write_bytes(omf_one_bone())
    return ["convert", "w.omf", "-o", "W.OMF"]


@case("output_is_a_link_to_the_input", why="an output reached through a symlink is the input it points to",
      stderr=r"refusing to overwrite the input file", **ONE_LINE_USAGE)
def _(d):
    (d / "w.omf").write_bytes(omf_one_bone())
    os.symlink("w.omf", d / "link.omf")
    return ["convert", "w.omf", "-o", "link.omf"]


@case("output_is_a_fifo", why="an output that is a FIFO is refused, not replaced or written into", timeout=10,
      stderr=r"out\.glb: refusing to write over a FIFO", **ONE_LINE_USAGE)
def _(d):
    (d / "w.omf").write_bytes(omf_one_bone())
    os.mkfifo(d / "out.glb")
    return ["convert", "w.omf", "-o", "out.glb"]


@case("output_is_a_folder", why="an output whose name is a folder is refused before any work",
      stderr=r"out\.glb: refusing to write over a folder", **ONE_LINE_USAGE)
def _(d):
    (d / "w.omf").write_bytes(omf_one_bone())
    (d / "out.glb").mkdir()
    return ["convert", "w.omf", "-o", "out.glb"]


@case("output_is_dev_null_through_a_link", why="an output linking to a device is refused (as root, the node "
      "would be replaced)", stderr=r"out\.glb: refusing to write over a device", **ONE_LINE_USAGE)
def _(d):
    (d / "w.omf").write_bytes(omf_one_bone())
    os.symlink("/dev/null", d / "out.glb")
    return ["convert", "w.omf", "-o", "out.glb"]


def run_cli(d, *argv):
    """Runs the Linux CLI of the run (hostile.py's --cli, the wine tier's --linux) in `d` to make an
    input the way boneyard writes it."""
    flag = next(f for f in ("--cli", "--linux") if f in sys.argv)
    cli = os.path.abspath(sys.argv[sys.argv.index(flag) + 1])
    subprocess.run([cli, *argv], cwd=d, check=True, capture_output=True)


def mc_template(d):
    """a.glb and a Master Collection template tpl.kms with its _win/tpl.cmdl."""
    (d / "a.kms").write_bytes(kms_ps2(packet_unit=0))
    run_cli(d, "convert", "a.kms", "--layout", "mc", "-o", "tpl.kms")
    run_cli(d, "convert", "a.kms", "-o", "a.glb")
    (d / "a.kms").unlink()


@case("cmdl_names_the_template", why="--cmdl naming the --template model would overwrite the template",
      stderr=r"refusing to overwrite the --template file tpl\.kms", **ONE_LINE_USAGE)
def _(d):
    mc_template(d)
    return ["convert", "a.glb", "--template", "tpl.kms", "--layout", "mc", "-o", "out.kms", "--cmdl", "tpl.kms"]


@case("cmdl_names_the_templates_cmdl", why="--cmdl naming the template's own .cmdl (read to derive the new one) "
      "would overwrite it", stderr=r"refusing to overwrite the template's \.cmdl", **ONE_LINE_USAGE)
def _(d):
    mc_template(d)
    return ["convert", "a.glb", "--template", "tpl.kms", "--layout", "mc", "-o", "out.kms", "--cmdl", "_win/tpl.cmdl"]


@case("cmdl_names_a_device", why="--cmdl naming a device node is refused; nothing is written",
      stderr=r"/dev/null: refusing to write over a device", **ONE_LINE_USAGE)
def _(d):
    (d / "a.kms").write_bytes(kms_ps2(packet_unit=0))
    return ["convert", "a.kms", "--layout", "mc", "-o", "out.kms", "--cmdl", "/dev/null"]


# ---- batches ----------------------------------------------------------------------------------

@case("texture_folder_output_is_an_input", why="texture d/a.png d/b.dds -o d would rewrite a.png: the whole "
      "command is refused before anything is written", stderr=r"refusing to overwrite the input file", **ONE_LINE_USAGE)
def _(d):
    (d / "d").mkdir()
    (d / "d" / "a.png").write_bytes(png(2, 2))
    (d / "d" / "b.dds").write_bytes(dds(4, 4, bytes(8)))
    return ["texture", "d/a.png", "d/b.dds", "-o", "d"]


def two_pngs(d, code, stdout, stderr):
    outputs = sorted(p.name for p in (d / "out").iterdir())
    if outputs != ["x.png", "x_ctxr.png"]:
        return f"expected x.png and x_ctxr.png, found {outputs}"
    return None


@case("texture_batch_same_stem_two_formats", why="x.dds and x.ctxr into one folder: both written, the second "
      "under a distinct name that a warning gives", exit=0, stdout=r"2 written, 0 failed \(of 2\)",
      stderr=r"written as x_ctxr\.png", creates=[r"out", r"out/x\.png", r"out/x_ctxr\.png"], check=two_pngs)
def _(d):
    from cases_textures import ctxr
    (d / "x.dds").write_bytes(dds(4, 4, bytes(8)))
    (d / "x.ctxr").write_bytes(ctxr(4, 4))
    return ["texture", "x.dds", "x.ctxr", "-o", "out"]


@case("texture_batch_same_name_two_folders", why="d1/x.dds and d2/x.dds into one folder: two files, never one "
      "reported twice", exit=0, stdout=r"2 written, 0 failed \(of 2\)", stderr=r"written as x_dds\.png",
      creates=[r"out", r"out/x\.png", r"out/x_dds\.png"], creates_required=[r"out/x\.png", r"out/x_dds\.png"])
def _(d):
    for sub in ("d1", "d2"):
        (d / sub).mkdir()
        (d / sub / "x.dds").write_bytes(dds(4, 4, bytes(8)))
    return ["texture", "d1/x.dds", "d2/x.dds", "-o", "out"]


@case("recursive_names_differing_in_case", why="m.ogf and m.OGF would both become m.glb: three inputs, three "
      "outputs, each renamed one named", exit=0, stdout=r"0 converted, 3 with warnings, 0 failed \(of 3\)",
      stderr=r"written as m_ogf\.glb", creates=[r"o", r"o/.*\.glb"],
      creates_required=[r"o/M\.glb", r"o/m_ogf\.glb", r"o/m_omf\.glb"])
def _(d):
    (d / "t").mkdir()
    (d / "t" / "m.ogf").write_bytes(example("wave_arm.ogf"))
    (d / "t" / "M.OGF").write_bytes(example("wave_arm.ogf"))
    (d / "t" / "m.omf").write_bytes(omf_one_bone())
    return ["convert", "--recursive", "t", "-o", "o", "-j", "2"]


# ---- names are data ---------------------------------------------------------------------------

@case("file_named_like_help", why="validate -h.omf must not print help and exit 0: the name goes after --",
      stderr=r"'-h\.omf' is a file name, not an option: put names that start with '-' after '--'", **ONE_LINE_USAGE)
def _(d):
    (d / "-h.omf").write_bytes(omf_one_bone())
    return ["validate", "-h.omf"]


@case("file_named_like_an_option_after_dashes", why="after --, a name starting with '-' is a file", exit=0,
      stdout=r"-h\.omf: ok \(omf\)")
def _(d):
    (d / "-h.omf").write_bytes(omf_one_bone())
    return ["validate", "--", "-h.omf"]


@case("motion_renamed_to_a_dash_name", why="the add-on's rename of a motion to -walk: the name after -- is data",
      exit=0, stdout=r'renamed "m" to "-walk"', creates=[r"out\.omf"], creates_required=[r"out\.omf"])
def _(d):
    (d / "a.omf").write_bytes(omf_one_bone())
    return ["omf", "rename", "--output=out.omf", "--", "a.omf", "m", "-walk"]


@case("motion_renamed_with_a_nul", why="a name the engine would cut at its NUL is refused at the edit",
      exit=1, one_line=True, stderr=r"new name holds a NUL, CR or LF")
def _(d):
    (d / "a.omf").write_bytes(omf_one_bone())
    return ["omf", "rename", "a.omf", "m", "a\x01b".replace("\x01", "\n"), "-o", "out.omf"]


@case("no_mips_for_a_ctxr_rebuilt_whole", why="--no-mips cannot apply to a PNG that rebuilds its original CTXR "
      "(levels included): an error naming it, nothing written", stderr=r"--no-mips cannot apply: the PNG carries "
      r"its original CTXR \(3 levels\)", **ONE_LINE_USAGE)
def _(d):
    from cases_textures import ctxr
    (d / "a.ctxr").write_bytes(ctxr(4, 4, mips=3))
    run_cli(d, "texture", "a.ctxr", "-o", "a.png")  # the PNG as boneyard writes it, with its ctXr chunk
    (d / "a.ctxr").unlink()
    return ["texture", "a.png", "-o", "b.ctxr", "--no-mips"]
