#!/usr/bin/env python3
"""The Windows tier: the Windows build (boneyard.exe, cross-built with mingw-w64) runs under
Debian's wine64 on the same inputs as the Linux build, and every result must be the same, byte for
byte: the files written (.glb, .gltf/.bin, .omf, .kms/.evm/.cmdl, .png, .dds, .ctxr, .html,
backups), stdout (dump JSON, info, validate, lists), stderr and the exit code. Text may differ only
in path separators and in how the case folder's absolute path is spelt (Z:\\... under wine); the
report says which cases needed that.

    wine_tier.py --linux build/boneyard --exe build-windows/build/boneyard.exe --source . \\
                 [--samples ../shared/samples] [--fixture-writer PROGRAM]... [--work DIR] [-j N]

Inputs: every sample in SAMPLES/xray, the examples, the fuzz seeds (small files of every format),
the MGS2 fixtures that the test programs write (--fixture-writer PROGRAM OUT_DIR), the hostile
suite's crafted inputs (tests/hostile: each case's command on both systems), and cases of the
Windows issue: a Cyrillic folder and file names, spaces, a read-only file for `omf --in-place`,
glTF URIs that try to leave their folder with `..\\`, drive letters, UNC and \\\\?\\ paths, drive
letters and backslashes on the command line, an output name that differs only by case, and
`convert --recursive -j 2`.

Every case runs in a folder of its own, made twice from the same inputs (linux/ and windows/ under
the work folder); the folders are compared after each run. Exit code 0 when every case matched.
"""
import argparse
import concurrent.futures
import dataclasses
import hashlib
import os
import pathlib
import re
import shutil
import stat
import subprocess
import sys
import time
import typing

import wine_batch
from wine_expected import EXPECTED, skip_reasons

HERE = pathlib.Path(__file__).resolve().parent


@dataclasses.dataclass
class Case:
    name: str
    # After the program: a list (paths relative to the case folder, the same on both systems), or
    # argv(side, folder) for a command line that names the folder itself ("linux" or "windows").
    argv: typing.Union[list, typing.Callable]
    # setup(folder) writes the case's inputs (run once per side); it may return a dict with "argv",
    # "stdin", "env" and "skip" (a reason) for the command (the hostile cases).
    setup: typing.Optional[typing.Callable] = None
    stdin: typing.Optional[bytes] = None
    env: dict = dataclasses.field(default_factory=dict)
    # Known, intended difference (Windows' own behaviour): check(linux, windows) -> error or None,
    # instead of requiring identical results.
    check: typing.Optional[typing.Callable] = None
    skip: typing.Optional[str] = None
    parallel: bool = False          # a parallel batch: its report lines may come in any order


@dataclasses.dataclass
class Outcome:
    code: int
    out: bytes
    err: bytes
    files: dict          # relative path -> sha256 / "dir" / "link:..." after the run
    seconds: float


# ---- inputs ----------------------------------------------------------------------------------------

def copy_tree(src, dst):
    shutil.copytree(src, dst, symlinks=True, dirs_exist_ok=True)


def snapshot(root):
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in sorted(dirnames + filenames):
            p = pathlib.Path(dirpath) / name
            rel = p.relative_to(root).as_posix()
            st = os.lstat(p)
            if stat.S_ISLNK(st.st_mode):
                out[rel] = "link:" + os.readlink(p).replace(str(root), "<folder>")
            elif stat.S_ISDIR(st.st_mode):
                out[rel] = "dir"
            elif stat.S_ISREG(st.st_mode):
                out[rel] = hashlib.sha256(p.read_bytes()).hexdigest()[:16] + " %o" % (st.st_mode & 0o777)
            else:
                out[rel] = "special"
    return out


def file_kind(name):
    return name.rsplit(".", 1)[-1].lower() if "." in name else ""


# ---- running ---------------------------------------------------------------------------------------

class Runner:
    def __init__(self, args):
        self.args = args
        self.source = pathlib.Path(args.source).resolve()
        self.linux = pathlib.Path(args.linux).resolve()
        self.exe = pathlib.Path(args.exe).resolve()
        self.wine = self.source / "scripts" / "wine.sh"
        self.work = pathlib.Path(args.work).resolve()

    def windows_path(self, p):
        """How Windows (wine's Z: drive) names the Linux path p."""
        return "Z:" + str(pathlib.Path(p).resolve()).replace("/", "\\")

    def run(self, side, case, folder):
        argv = case.argv(side, folder) if callable(case.argv) else case.argv
        prefix = [str(self.linux)] if side == "linux" or self.args.harness_check else [str(self.wine), str(self.exe)]
        cmd = prefix + [str(a) for a in argv]
        env = dict(os.environ)
        env.update(case.env)
        t0 = time.monotonic()
        p = subprocess.run(cmd, cwd=folder, input=case.stdin,
                           stdin=None if case.stdin is not None else subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=600)
        seconds = time.monotonic() - t0
        return Outcome(p.returncode, p.stdout, p.stderr, snapshot(folder), seconds)


def normalize(text, folder, windows_folder):
    """Text with the side's folders spelt alike: the case folder as <case>, the side's root (the
    folder above cases/) as <root>, backslashes (also JSON-escaped ones) as slashes, and the random
    part of temporary names as N. Windows' absolute paths have their ".." resolved (GetFullPathName)
    where Linux keeps them, so <case>/../../ is <root>/."""
    folder = pathlib.Path(folder)
    root = folder.parent.parent
    win_root = windows_folder.rsplit("\\", 2)[0]
    t = text
    for spelling, token in ((windows_folder, "<case>"), (win_root, "<root>")):
        for s in (spelling.replace("\\", "\\\\"), spelling, spelling.replace("\\", "/")):
            t = t.replace(s.encode(), token.encode())
    t = t.replace(str(folder).encode(), b"<case>").replace(str(root).encode(), b"<root>")
    t = t.replace(b"\\\\", b"/").replace(b"\\", b"/")
    t = t.replace(b"<case>/../../", b"<root>/")
    t = re.sub(rb"\.(\d+)\.tmp", b".N.tmp", t)
    return t


def unordered(text):
    """The lines of a parallel batch's report in a fixed order, without their [i/N] counters."""
    return sorted(re.sub(rb"^\[\d+/\d+\] ", b"", line) for line in text.split(b"\n"))


TEXT_OUTPUTS = (".html", ".gltf", ".txt", ".json")


def show(b, limit=600):
    s = b.decode("utf-8", "replace")
    return s if len(s) <= limit else s[:limit] + "..."


def compare(case, lin, win, lfolder, wfolder, runner):
    """(status, problems): status "identical", "separators" (identical once path separators and the
    case folder's spelling are aside) or "different"."""
    problems = []
    status = "identical"
    if lin.code != win.code:
        problems.append(f"exit code: linux {lin.code}, windows {win.code}")
    for what, a, b in (("stdout", lin.out, win.out), ("stderr", lin.err, win.err)):
        if a == b:
            continue
        na = normalize(a, lfolder, runner.windows_path(lfolder))
        nb = normalize(b, wfolder, runner.windows_path(wfolder))
        if na == nb or (case.parallel and unordered(na) == unordered(nb)):
            status = "separators"
        else:
            problems.append(f"{what} differs:\n      linux:   {show(na)!r}\n      windows: {show(nb)!r}")
    if lin.files != win.files:
        for p in sorted(set(lin.files) | set(win.files)):
            a, b = lin.files.get(p), win.files.get(p)
            if a == b:
                continue
            if a and b and p.lower().endswith(TEXT_OUTPUTS) and not a.startswith(("dir", "link")):
                # A page or JSON that shows paths: the same once the paths are spelt alike.
                ta = normalize((lfolder / p).read_bytes(), lfolder, runner.windows_path(lfolder))
                tb = normalize((wfolder / p).read_bytes(), wfolder, runner.windows_path(wfolder))
                if ta == tb and a.split()[-1] == b.split()[-1]:
                    status = "separators" if status == "identical" else status
                    continue
            problems.append(f"file {p}: linux {a or 'absent'}, windows {b or 'absent'}")
    if problems:
        status = "different"
    return status, problems


# ---- the cases -------------------------------------------------------------------------------------

def sample_files(inputs):
    root = inputs / "xray"
    return sorted(p.relative_to(inputs).as_posix() for p in root.rglob("*") if p.is_file() and p.suffix.lower() != ".md")


def per_file_cases(inputs, rel, group, textures=None):
    """info, validate, dump, dump --raw and the conversions that fit the file's extension."""
    src = "../../in/" + rel
    kind = file_kind(rel)
    stem = pathlib.PurePosixPath(rel).stem
    key = re.sub(r"[^A-Za-z0-9_.-]", "_", rel)
    cases = [
        Case(f"{group}:{key}:validate", ["validate", "--info", src]),
        Case(f"{group}:{key}:dump", ["dump", src]),
        Case(f"{group}:{key}:dump-raw", ["dump", "--raw", src]),
    ]
    targets = {
        "omf": [".glb", ".gltf", ".omf", ".skls"],
        "ogf": [".glb", ".gltf", ".omf", ".object", ".bones"],
        "object": [".glb", ".gltf", ".object", ".ogf", ".bones", ".skls"],
        "bones": [".bones"],
        "skls": [".skls", ".omf", ".glb"],
        "skl": [".skl", ".skls", ".omf", ".glb"],
        "anm": [".anm", ".glb", ".gltf"],
        "kms": [".glb", ".gltf", ".kms"],
        "evm": [".glb", ".gltf", ".evm"],
        "cmdl": [".cmdl", ".glb"],
        "dds": [".png", ".dds"],
        "ctxr": [".png"],
        "tri": [".tri"],
        "mar": [".mar", ".glb"],
        "txt": [".txt"],
        "png": [".dds", ".ctxr"],
        "glb": [".omf", ".kms", ".evm", ".gltf"],
        "gltf": [".omf", ".kms", ".glb"],
    }.get(kind, [])
    for ext in targets:
        extra = []
        if kind == "ogf" and ext in (".glb", ".gltf") and textures:
            extra = ["--textures", "../../in/" + textures]
        # An index file keeps its kind by its name (manifest*.txt, bp_assets*.txt).
        out = (stem + "_copy" if kind == "txt" else stem) + ext
        cases.append(Case(f"{group}:{key}:to{ext}", ["convert", src, "-o", out] + extra))
    if kind == "mar":
        cases.append(Case(f"{group}:{key}:to-mc", ["convert", src, "-o", stem + "_mc.mar", "--layout", "mc"]))
        cases.append(Case(f"{group}:{key}:to-ps2", ["convert", src, "-o", stem + "_ps2.mar", "--layout", "ps2"]))
    if kind in ("kms", "evm"):
        cases.append(Case(f"{group}:{key}:to-mc", ["convert", src, "-o", stem + "_mc." + kind, "--layout", "mc"]))
    if kind in ("dds", "ctxr"):
        cases.append(Case(f"{group}:{key}:texture", ["texture", src, "-o", stem + ".png"]))
    if kind == "tri":
        # Every texture to a folder of PNGs (named by id, then by name with a collision), and back.
        cases.append(Case(f"{group}:{key}:texture", ["texture", src, "-o", stem + "_png", "--alpha", "scaled"]))

        def tri_setup(d, src_path=inputs / rel, stem=stem):
            (d / "names.txt").write_text("Cafe.bmp\ncafe.bmp\n")
            subprocess.run([RUNNER.linux, "texture", str(src_path), "-o", str(d / "png")],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        cases.append(Case(f"{group}:{key}:texture-back", ["texture", "png", "-o", "back.tri", "--template", src],
                          setup=tri_setup))
        cases.append(Case(f"{group}:{key}:texture-names", ["texture", src, "-o", "named", "--names", "names.txt"],
                          setup=tri_setup))
    if kind == "omf":
        cases.append(Case(f"{group}:{key}:omf-list", ["omf", "list", src]))
    return cases


def fixture_cases(inputs):
    cases = []
    rels = sorted(p.relative_to(inputs).as_posix() for p in (inputs / "fixtures").rglob("*") if p.is_file())
    for rel in rels:
        if file_kind(rel) in ("txt", "") and not rel.startswith(("fixtures/seeds/fuzz_cmdl", "fixtures/seeds/fuzz_mc_index")):
            continue
        cases += per_file_cases(inputs, rel, "fixture")
    kms_evm = [r for r in rels if file_kind(r) in ("kms", "evm")]
    # glTF made by boneyard back to the model (byte-identical on Linux; must be on Windows too).
    for rel in kms_evm[:6]:
        stem = pathlib.PurePosixPath(rel).stem
        kind = file_kind(rel)
        key = re.sub(r"[^A-Za-z0-9_.-]", "_", rel)

        def setup(d, rel=rel, stem=stem):
            subprocess.run([RUNNER.linux, "convert", str(inputs / rel), "-o", str(d / (stem + ".glb"))],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        cases.append(Case(f"fixture:{key}:roundtrip", ["convert", stem + ".glb", "-o", "back." + kind, "--template",
                                                        "../../in/" + rel], setup=setup))
    return cases


def mgs2_cases(inputs):
    """Issue 40 on Windows: models textured from their .tri and playing a .mar, .tri files in a
    texture folder (each into a folder of its own, names planned apart), PNGs back into a .tri,
    the Master Collection's index files (lines ended "\r\r\n") and mc-register writing a mod's own,
    a "_WIN" folder found in any case as Windows finds it."""
    fx = inputs / "fixtures" / "write_mgs2_blender_fixtures"
    if not fx.is_dir():
        return []
    f = "../../in/fixtures/write_mgs2_blender_fixtures/"
    seeds = "../../in/fixtures/seeds/"
    cases = [
        Case("mgs2:kms-with-mar", ["convert", f + "branching.kms", "--mar", f + "motions/branching.mar", "--names",
                                   f + "motions/motions.txt", "-o", "m.glb"]),
        Case("mgs2:evm-with-mar-gltf", ["convert", f + "branching.evm", "--mar", f + "motions/branching.mar",
                                        "--motions", "1*", "-o", "m.gltf"]),
        Case("mgs2:mar-on-skeleton", ["convert", f + "motions/branching.mar", "--skeleton", f + "branching.kms", "-o", "s.glb"]),
        Case("mgs2:mar-validate-skeleton", ["validate", f + "motions/branching.mar", "--skeleton", f + "branching.evm"]),
        Case("mgs2:mar-info-names", ["info", f + "motions/branching.mar", "--names", f + "motions/motions.txt"]),
        Case("mgs2:kms-textured-from-tri", ["convert", f + "textured/branching.kms", "-o", "t.glb"]),
        Case("mgs2:evm-textured-gltf", ["convert", f + "textured/branching.evm", "-o", "t.gltf"]),
        Case("mgs2:textures-folder-tri", ["convert", f + "branching.kms", "--textures", f + "textured", "-o", "t.glb"]),
        Case("mgs2:texture-folder-with-tri-j2", ["texture", f, seeds + "fuzz_tri", "-o", "png", "-j", "2", "--alpha", "scaled"],
             parallel=True),
        Case("mgs2:index-info-all", ["info", seeds + "fuzz_mc_index/manifest.txt", seeds + "fuzz_mc_index/bp_assets.txt"]),
    ]

    # Texture folder outputs that would collide: a .tri's folder beside a PNG of the same name, and
    # a .tri whose folder another output is in; names that differ only by case inside one .tri.
    tri = (fx / "textured" / "branching.tri").read_bytes()

    def collisions(d):
        put(d, "in/a.png.tri", tri)
        put(d, "in/a.dds", (inputs / "fixtures" / "seeds" / "fuzz_dds").joinpath(
            sorted(p.name for p in (inputs / "fixtures" / "seeds" / "fuzz_dds").glob("*.dds"))[0]).read_bytes())
        put(d, "in/x.tri", tri)
        put(d, "in/x/y.dds", (d / "in" / "a.dds").read_bytes())
        put(d, "names.txt", b"Body.bmp\nbody.bmp\n")
    cases.append(Case("mgs2:texture-folder-collisions", ["texture", "in", "-o", "out", "--names", "names.txt"],
                      setup=collisions))

    # PNGs back into the .tri, from a folder whose names came from a names list.
    def tri_back(d):
        subprocess.run([RUNNER.linux, "texture", str(fx / "textured" / "branching.tri"), "-o", str(d / "named"), "--names",
                        str(fx / "textures.txt")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    cases.append(Case("mgs2:pngs-named-back-into-tri", ["texture", "named", "-o", "back.tri", "--template",
                                                        f + "textured/branching.tri", "--names", f + "textures.txt"],
                      setup=tri_back))

    # The Master Collection: a model with its .cmdl in "_WIN" (as copied from a Windows game folder),
    # .ctxr files by every name form, the game's own index files ended "\r\r\n".
    def master_collection(d):
        put(d, "mod/standard_mc.kms", (fx / "standard_mc.kms").read_bytes())
        put(d, "mod/_WIN/standard_mc.cmdl", (fx / "_win" / "standard_mc.cmdl").read_bytes())
        put(d, "tex/null_msk.bmp.ctxr", b"\1")
        put(d, "tex/00123456.ctxr", b"\1")
        put(d, "tex/sub/null_msk.bmp_0123456789abcdef0123456789abcdef.ctxr", b"\1")
        put(d, "game/eu/stage/w24c/manifest.txt",
            b"assets/kms/us/standard_mc.kms,us/stage/w24c/cache/00000001.kms,cache/00000001.kms\r\r\n")
        put(d, "game/eu/stage/w24c/bp_assets.txt",
            b"textures/flatlist/null_msk.bmp.ctxr,stage/w24c/cache/null_msk.bmp.ctxr,eu/stage/w24c/cache/0088d878/00b7e31e.ctxr\r\r\n")
        put(d, "game/textures/flatlist/null_msk.bmp.ctxr", b"\1")
        put(d, "out2/_WIN/keep.txt", b"a folder of the output's, in capitals")
    cases += [
        Case("mgs2:mc-register", ["mc-register", "mod/standard_mc.kms", "--stage", "w24c", "--stage", "r_plt0", "--mod",
                                  "fix", "-o", "out", "--textures", "tex", "--tri", "standard"], setup=master_collection),
        Case("mgs2:mc-register-game", ["mc-register", "mod/standard_mc.kms", "--game", "game", "--lang", "eu", "--mod", "fix",
                                       "-o", "out", "--textures", "tex", "--no-tri"], setup=master_collection),
        Case("mgs2:mc-register-dry-run", ["mc-register", "mod/standard_mc.kms", "--stage", "w24c", "--mod", "fix",
                                          "--dry-run", "--textures", "tex", "--no-tri"], setup=master_collection),
        Case("mgs2:mc-register-missing-texture", ["mc-register", "mod/standard_mc.kms", "--stage", "w24c", "--mod", "fix",
                                                  "-o", "out", "--no-tri"], setup=master_collection),
        Case("mgs2:index-validate-game", ["validate", "game/eu/stage/w24c/manifest.txt", "game/eu/stage/w24c/bp_assets.txt"],
             setup=master_collection),
        Case("mgs2:index-rewrite-game", ["convert", "game/eu/stage/w24c/bp_assets.txt", "-o", "bp_assets_copy.txt"],
             setup=master_collection),
        Case("mgs2:mc-model-cmdl-in-capitals", ["validate", "mod/standard_mc.kms", "--cmdl", "mod/_WIN/standard_mc.cmdl"],
             setup=master_collection),
        Case("mgs2:mc-model-rewrite-into-capitals", ["convert", "mod/standard_mc.kms", "-o", "out2/standard_mc.kms"],
             setup=master_collection),
        Case("mgs2:mc-model-glb-finds-cmdl", ["convert", "mod/standard_mc.kms", "-o", "m.glb"], setup=master_collection),
    ]
    return cases


def sample_cases(inputs):
    cases = []
    files = sample_files(inputs)
    if not files:
        return cases
    # Several files in one run: info and validate of every sample.
    cases.append(Case("samples:info-all", ["info"] + ["../../in/" + f for f in files]))
    cases.append(Case("samples:validate-all", ["validate"] + ["../../in/" + f for f in files]))
    for rel in files:
        cases += per_file_cases(inputs, rel, "samples", textures="xray/textures")
    cases.append(Case("samples:texture-folder-j2", ["texture", "../../in/xray/textures", "-o", "png", "-j", "2"],
                      parallel=True))
    cases.append(Case("samples:convert-recursive-j2", ["convert", "--recursive", "../../in/xray", "-o", "out", "-j", "2",
                                                       "--textures", "../../in/xray/textures"], parallel=True))
    cases.append(Case("samples:view", ["view", "../../in/xray/soc/zombi_1.ogf", "../../in/xray/cop/medkit_exo_anims.omf",
                                       "--skeleton", "../../in/xray/cop/medkit_exo_hud.ogf", "-o", "page.html",
                                       "--textures", "../../in/xray/textures"]))
    return cases


def example_cases(inputs):
    ex = "../../in/examples/"
    cases = []
    for name in ("wave.omf", "wave_arm.ogf"):
        cases += per_file_cases(inputs, "examples/" + name, "examples")
    cases += [
        Case("examples:info-both", ["info", ex + "wave.omf", ex + "wave_arm.ogf"]),
        Case("examples:omf-on-skeleton", ["convert", ex + "wave.omf", "--skeleton", ex + "wave_arm.ogf", "-o", "w.glb"]),
        Case("examples:omf-rename", ["omf", "rename", ex + "wave.omf", "wave", "hello", "-o", "r.omf"]),
        Case("examples:omf-merge", ["omf", "merge", ex + "wave.omf", ex + "wave.omf", "--rename-clashes", "-o", "m.omf"]),
        Case("examples:omf-extract", ["omf", "extract", ex + "wave.omf", "-o", "x.omf", "wa*"]),
        Case("examples:omf-delete", ["omf", "delete", ex + "wave.omf", "idle", "-o", "d.omf"]),
        Case("examples:omf-set", ["omf", "set", ex + "wave.omf", "wave", "--speed", "2", "--flags", "fx",
                                  "--add-mark", "Step", "0", "0.5", "-o", "s.omf"]),
        Case("examples:omf-repair", ["omf", "repair", ex + "wave.omf", "-o", "rep.omf"]),
        Case("examples:omf-retarget", ["omf", "retarget", ex + "wave.omf", "--game", "soc", "-o", "soc.omf"]),
        Case("examples:view", ["view", ex + "wave.omf", "--skeleton", ex + "wave_arm.ogf", "-o", "wave.html"]),
        Case("examples:strcode", ["strcode", "null_msk.bmp", "pl_body.bmp"]),
    ]
    # The SDK's motions (issue 38): made from the example by the Linux build, then converted both
    # ways, edited and viewed on each side.

    def sdk_motions(d):
        subprocess.run([RUNNER.linux, "convert", str(inputs / "examples" / "wave.omf"), "-o", str(d / "wave.skls")],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        subprocess.run([RUNNER.linux, "convert", str(inputs / "examples" / "wave.omf"), "--skeleton",
                        str(inputs / "examples" / "wave_arm.ogf"), "-o", str(d / "wave.glb")],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        (d / "camera_effects").mkdir()
        subprocess.run([RUNNER.linux, "convert", str(d / "wave.glb"), "-o", str(d / "camera_effects" / "shot.anm")],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    cases += [
        Case("examples:sdk-omf-to-skls", ["convert", ex + "wave.omf", "-o", "w.skls"]),
        Case("examples:sdk-omf-to-skl", ["convert", ex + "wave.omf", "-o", "w.skl"]),
        Case("examples:sdk-skls-info", ["info", "wave.skls", "camera_effects/shot.anm"], setup=sdk_motions),
        Case("examples:sdk-skls-to-omf", ["convert", "wave.skls", "-o", "back.omf", "--parts", ex + "wave.omf",
                                          "--skeleton", ex + "wave_arm.ogf"], setup=sdk_motions),
        Case("examples:sdk-skls-to-omf-soc", ["convert", "wave.skls", "-o", "soc.omf", "--game", "soc"],
             setup=sdk_motions),
        Case("examples:sdk-skls-to-glb", ["convert", "wave.skls", "--skeleton", ex + "wave_arm.ogf", "-o", "s.glb"],
             setup=sdk_motions),
        Case("examples:sdk-glb-to-skls", ["convert", "wave.glb", "-o", "g.skls"], setup=sdk_motions),
        Case("examples:sdk-anm-to-glb", ["convert", "camera_effects/shot.anm", "-o", "shot.glb"], setup=sdk_motions),
        Case("examples:sdk-glb-to-anm", ["convert", "wave.glb", "-o", "w.anm"], setup=sdk_motions),
        Case("examples:sdk-skls-set", ["skls", "set", "wave.skls", "wave", "--speed", "2", "--add-mark", "Step", "0",
                                       "0.5", "-o", "set.skls"], setup=sdk_motions),
        Case("examples:sdk-skls-extract", ["skls", "extract", "wave.skls", "-o", "one.skl", "wave"], setup=sdk_motions),
        Case("examples:sdk-anm-rename-in-place", ["anm", "rename", "camera_effects/shot.anm", "wave", "shot",
                                                  "--in-place"], setup=sdk_motions),
        Case("examples:sdk-view-anm", ["view", "camera_effects/shot.anm", "-o", "shot.html"], setup=sdk_motions),
        Case("examples:sdk-recursive", ["convert", "--recursive", "motions", "-o", "out"],
             setup=lambda d: sdk_motions(d / "motions") if (d / "motions").mkdir() is None else None, parallel=True),
        Case("examples:refuse-overwrite", ["convert", ex + "wave.omf", "-o", ex + "wave.omf"]),
        Case("examples:missing-file", ["info", "missing.omf"]),
        Case("examples:folder-as-file", ["info", "."]),
        Case("examples:unknown-target", ["convert", ex + "wave.omf", "-o", "x.kms"]),
    ]
    return cases


def put(d, rel, data):
    p = d / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(data)
    return p


def windows_cases(inputs):
    """The cases of the Windows issue: names, read-only files, URIs, drive letters."""
    ex = inputs / "examples"
    samples = inputs / "xray"
    cases = []

    # A Cyrillic mod folder: model, its motions (found through the motion ref under the nearest
    # "meshes"), its texture (the "textures" beside "meshes"), all under Cyrillic names.
    have_zombie = (samples / "soc" / "zombi_1.ogf").is_file()

    def cyrillic(d):
        root = d / "моды" / "gamedata"
        put(d, "моды/волна.omf", (ex / "wave.omf").read_bytes())
        put(d, "моды/скелет руки.ogf", (ex / "wave_arm.ogf").read_bytes())
        if have_zombie:
            put(root, "meshes/monsters/зомби.ogf", (samples / "soc" / "zombi_1.ogf").read_bytes())
            put(root, "meshes/monsters/zombi_animation.omf", (samples / "soc" / "zombi_animation.omf").read_bytes())
            put(root, "textures/act/act_zombie_6.dds", (samples / "textures" / "act" / "act_zombie_6.dds").read_bytes())
    z = "моды/gamedata/meshes/monsters/зомби.ogf"
    cases += [
        Case("windows:cyrillic-info", ["info", "моды/волна.omf", "моды/скелет руки.ogf"], setup=cyrillic),
        Case("windows:cyrillic-dump", ["dump", "моды/волна.omf"], setup=cyrillic),
        Case("windows:cyrillic-to-glb", ["convert", "моды/волна.omf", "--skeleton", "моды/скелет руки.ogf",
                                         "-o", "моды/волна.glb"], setup=cyrillic),
        Case("windows:cyrillic-to-gltf", ["convert", "моды/скелет руки.ogf", "-o", "моды/скелет руки.gltf"],
             setup=cyrillic),
        Case("windows:cyrillic-omf-in-place", ["omf", "rename", "моды/волна.omf", "wave", "волна", "--in-place"],
             setup=cyrillic),
        Case("windows:cyrillic-view", ["view", "моды/волна.omf", "--skeleton", "моды/скелет руки.ogf"], setup=cyrillic),
        Case("windows:cyrillic-recursive-j2", ["convert", "--recursive", "моды", "-o", "выход", "-j", "2"],
             setup=cyrillic, parallel=True),
    ]
    if have_zombie:
        def absolute(side, folder):
            # Drive letter and backslashes on the command line (Windows; Linux gets the same
            # absolute path with slashes).
            if side == "linux":
                return ["convert", str(folder / z), "-o", str(folder / "зомби.glb")]
            w = RUNNER.windows_path(folder)
            return ["convert", w + "\\" + z.replace("/", "\\"), "-o", w + "\\зомби.glb"]
        cases += [
            Case("windows:cyrillic-model-refs-textures", ["convert", z, "-o", "моды/зомби.glb"], setup=cyrillic),
            Case("windows:cyrillic-validate", ["validate", z], setup=cyrillic),
            Case("windows:drive-letter-backslashes", absolute, setup=cyrillic),
        ]

    # Spaces.
    def spaces(d):
        put(d, "with space/wave arm.ogf", (ex / "wave_arm.ogf").read_bytes())
        put(d, "with space/wave motion.omf", (ex / "wave.omf").read_bytes())
    cases += [
        Case("windows:spaces-convert", ["convert", "with space/wave motion.omf", "--skeleton", "with space/wave arm.ogf",
                                        "-o", "with space/out file.glb"], setup=spaces),
        Case("windows:spaces-info", ["info", "with space/wave arm.ogf"], setup=spaces),
    ]

    # In-place edits: a backup, then a second one (.bak.1); a read-only file is refused.
    def writable(d):
        put(d, "w.omf", (ex / "wave.omf").read_bytes())

    def read_only(d):
        p = put(d, "ro.omf", (ex / "wave.omf").read_bytes())
        p.chmod(0o444)
    cases += [
        Case("windows:omf-in-place-backup", ["omf", "set", "w.omf", "wave", "--speed", "1.5", "--in-place"], setup=writable),
        Case("windows:omf-in-place-read-only", ["omf", "set", "ro.omf", "wave", "--speed", "1.5", "--in-place"],
             setup=read_only),
    ]

    def twice(d):
        put(d, "w.omf", (ex / "wave.omf").read_bytes())
        put(d, "w.omf.bak", b"an older backup that must stay")
    cases.append(Case("windows:omf-in-place-keeps-old-backup", ["omf", "repair", "w.omf", "--in-place"], setup=twice))

    # glTF buffer URIs that try to leave their folder the Windows way (..\, drive letters, UNC,
    # \\?\) are hostile cases (tests/hostile/cases_windows_paths.py), run below on both systems.

    # `/abs/path` is a file name, not a Windows-style option (wine reads it on the current drive).
    cases.append(Case("windows:absolute-slash-path", lambda side, folder: ["info", str(folder / "w.omf")],
                      setup=writable))

    # Output names that differ only by case: one file on Windows, so the batch names the .omf's
    # output apart there (Arm.glb and arm_omf.glb); two files on Linux.
    # (The model's motion ref names "wave": the unreferenced "arm.omf" gets an output of its own.)
    def case_names(d):
        put(d, "in/Arm.ogf", (ex / "wave_arm.ogf").read_bytes())
        put(d, "in/arm.omf", (ex / "wave.omf").read_bytes())

    def case_check(lin, win):
        # The output plan folds case on every system (docs/safety.md "Outputs"): both builds name
        # the .omf's output apart, and say so.
        lnames = {p for p in lin.files if p.startswith("out/")}
        wnames = {p for p in win.files if p.startswith("out/")}
        for system, names in (("linux", lnames), ("windows", wnames)):
            if names != {"out/Arm.glb", "out/arm_omf.glb"}:
                return f"{system} wrote {sorted(names)}, expected out/Arm.glb and out/arm_omf.glb"
        if any(lin.files[p] != win.files[p] for p in lnames):
            return "the outputs' bytes differ"
        if lin.code != win.code:
            return f"exit codes {lin.code} and {win.code}"
        return None
    cases.append(Case("windows:output-names-differing-by-case", ["convert", "--recursive", "in", "-o", "out"],
                      setup=case_names, check=case_check))
    return cases


def hostile_cases():
    """Every hostile-input case's inputs and command line, run on both systems."""
    sys.path.insert(0, str(RUNNER.source / "tests" / "hostile"))
    import hostile  # noqa: E402 (tests/hostile/hostile.py)
    from hostile_case import Run  # noqa: E402
    out = []
    for name, c in hostile.load_cases().items():
        def setup(d, c=c):
            spec = c.fn(d)
            spec = spec if isinstance(spec, Run) else Run(argv=list(spec))
            return {"argv": [str(a) for a in spec.argv], "stdin": spec.stdin, "env": spec.env,
                    "skip": "it sends a signal (Ctrl-C cannot be sent under wine)" if spec.signal else None}
        out.append(Case(f"hostile:{name}", [], setup=setup))
    return out


RUNNER = None


def main():
    global RUNNER
    ap = argparse.ArgumentParser()
    ap.add_argument("--linux", required=True)
    ap.add_argument("--exe", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--samples")
    ap.add_argument("--fixture-writer", action="append", default=[])
    ap.add_argument("--work", required=True)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--only", help="regex: run only the cases whose name matches")
    ap.add_argument("--no-hostile", action="store_true")
    ap.add_argument("--harness-check", action="store_true",
                    help="run the Linux build on both sides (checks this script: every case must match)")
    a = ap.parse_args()
    RUNNER = Runner(a)

    work = RUNNER.work
    if work.exists():
        for p in work.rglob("*"):
            if not p.is_symlink():
                try:
                    p.chmod(0o755 if p.is_dir() else 0o644)
                except OSError:
                    pass
        shutil.rmtree(work)
    inputs = work / "in"
    (inputs / "examples").mkdir(parents=True)
    for name in ("wave.omf", "wave_arm.ogf"):
        shutil.copy(RUNNER.source / "examples" / name, inputs / "examples" / name)
    copy_tree(RUNNER.source / "tests" / "fuzz_seeds", inputs / "fixtures" / "seeds")
    for i, writer in enumerate(a.fixture_writer):
        d = inputs / "fixtures" / pathlib.Path(writer).name
        d.mkdir(parents=True)
        subprocess.run([writer, str(d)], check=True, stdout=subprocess.DEVNULL)
    samples_note = None
    if a.samples and (pathlib.Path(a.samples) / "xray").is_dir():
        copy_tree(pathlib.Path(a.samples) / "xray", inputs / "xray")
    else:
        samples_note = f"SKIP part: no samples folder {a.samples}/xray: the real-sample cases did not run"

    cases = (example_cases(inputs) + sample_cases(inputs) + fixture_cases(inputs) + mgs2_cases(inputs) +
             windows_cases(inputs))
    if not a.no_hostile:
        cases += hostile_cases()
    if a.only:
        cases = [c for c in cases if re.search(a.only, c.name)]

    # Both sides' case folders, made from the same inputs; the shared inputs are copied for each
    # side (in/ beside cases/) so that neither can touch the other's.
    sides = {}
    for side in ("linux", "windows"):
        root = work / side
        (root / "cases").mkdir(parents=True)
        copy_tree(inputs, root / "in")
        sides[side] = root
    folders = {}
    for i, c in enumerate(cases):
        folder_name = f"{i:04d}"
        for side, root in sides.items():
            d = root / "cases" / folder_name
            d.mkdir()
            spec = c.setup(d) if c.setup else None
            if spec and side == "linux":
                c.argv, c.stdin, c.env, c.skip = spec["argv"], spec["stdin"], spec["env"], spec["skip"]
                c.parallel = "--recursive" in c.argv or "-j" in c.argv
        folders[c.name] = folder_name

    # Linux first (fast), then wine: the cases a .bat can spell in a few wine starts (wine_batch.py),
    # the others one wine start each, a.jobs at a time.
    results = {}
    runnable = [c for c in cases if not c.skip]
    t0 = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max(1, a.jobs)) as pool:
        linux = dict(zip([c.name for c in runnable],
                         pool.map(lambda c: RUNNER.run("linux", c, sides["linux"] / "cases" / folders[c.name]), runnable)))
        batched, single = [], []
        for c in runnable:
            argv = c.argv("windows", sides["windows"] / "cases" / folders[c.name]) if callable(c.argv) else c.argv
            if not a.harness_check and wine_batch.batchable(c, argv):
                batched.append((folders[c.name], sides["windows"] / "cases" / folders[c.name], [str(x) for x in argv]))
            else:
                single.append(c)
        by_folder = {folders[c.name]: c for c in runnable}
        for key, (code, out, err, seconds) in wine_batch.run_batches(RUNNER, batched, work / "batches", pool).items():
            c = by_folder[key]
            if code == 9009 and b"Can't recognize" in err:
                # wine's cmd now and then fails to start a program of a .bat line (exit 9009, the
                # program never ran): that case runs again on its own wine start.
                single.append(c)
                continue
            results[c.name] = (c, linux[c.name], Outcome(code, out, err, snapshot(sides["windows"] / "cases" / key), seconds))
        for c, win in zip(single, pool.map(lambda c: RUNNER.run("windows", c, sides["windows"] / "cases" / folders[c.name]),
                                           single)):
            results[c.name] = (c, linux[c.name], win)
    for c in cases:
        if c.skip:
            results[c.name] = (c, None, None)
    print(f"wine starts: {min(len(batched), max(1, a.jobs))} batches of {len(batched)} cases, {len(single)} single runs")

    counts = {"identical": 0, "separators": 0, "different": 0, "skipped": 0, "expected": 0}
    failed = []
    lines = []
    failure_lines = []
    for c in cases:
        _, lin, win = results[c.name]
        if lin is None:
            counts["skipped"] += 1
            lines.append(f"SKIP {c.name}: {c.skip}")
            continue
        folder_name = folders[c.name]
        lf = sides["linux"] / "cases" / folder_name
        wf = sides["windows"] / "cases" / folder_name
        if c.check:
            problem = c.check(lin, win)
            status, problems = ("expected", []) if problem is None else ("different", [problem])
        else:
            status, problems = compare(c, lin, win, lf, wf, RUNNER)
        if status == "different" and c.name in EXPECTED:
            status = "expected"
            problems = [EXPECTED[c.name]] + problems
        counts[status] += 1
        tag = {"identical": "ok  ", "separators": "ok/ ", "expected": "exp ", "different": "FAIL"}[status]
        lines.append(f"{tag} {c.name}  (exit {lin.code}; {lin.seconds:.2f} s / wine {win.seconds:.2f} s)")
        if status == "different":
            failed.append(c.name)
            shown = c.argv("linux", sides["linux"] / "cases" / folder_name) if callable(c.argv) else c.argv
            block = [lines[-1], f"     command: {' '.join(map(str, shown))}"] + ["     " + p for p in problems]
            lines.extend(block[1:])
            failure_lines.extend(block)
        elif status == "expected" and problems:
            lines.append("     " + problems[0])

    # The shared inputs must be untouched on both sides (no temporary file, no change).
    for side, root in sides.items():
        if snapshot(root / "in") != snapshot(inputs):
            failed.append(f"{side}: in/ changed")
            lines.append(f"FAIL {side}: the shared inputs in/ were changed or got new files")
            failure_lines.append(lines[-1])

    print("\n".join(lines))
    print()
    for r in skip_reasons():
        print("SKIP (not testable under wine): " + r)
    if samples_note:
        print(samples_note)
    if failed:
        # Repeated last: a CI log that keeps only its head and tail still shows what differed.
        print("\ndifferent under wine:\n" + "\n".join(failure_lines))
    print(f"\nwine tier: {len(cases)} cases in {time.monotonic() - t0:.0f} s: {counts['identical']} identical, "
          f"{counts['separators']} identical apart from path separators, {counts['expected']} with the expected "
          f"Windows behaviour, {counts['skipped']} skipped, {counts['different']} different")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
