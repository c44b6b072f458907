#!/usr/bin/env python3
"""The release archives of scripts/package.sh: one version everywhere, the expected files in each,
and the Windows add-on zip's executable a PE x64 program that wine64 runs.

    package_test.py DIST VERSION LINUX_BONEYARD SOURCE_DIR

Exit 77 (skipped, with the reason) for the Windows part alone when its archives or wine64 are
absent; the Linux part always runs.
"""
import ast
import io
import os
import struct
import subprocess
import sys
import tarfile
import tempfile
import zipfile

dist, version, linux, source = sys.argv[1:5]
failures = []
skipped = []


def check(ok, message):
    if not ok:
        failures.append(message)


def bl_info_version():
    tree = ast.parse(open(os.path.join(source, "blender", "boneyard_io", "__init__.py"), encoding="utf-8").read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "bl_info":
            info = ast.literal_eval(node.value)
            return ".".join(map(str, info["version"]))
    return None


# One version: the CMake project's, `boneyard --version`, bl_info.
shown = subprocess.run([linux, "--version"], capture_output=True, text=True).stdout.strip()
check(shown == "boneyard " + version, "boneyard --version says %r, the CMake project is %s" % (shown, version))
check(bl_info_version() == version, "bl_info version %s, the CMake project is %s" % (bl_info_version(), version))

# Linux: the program, README and licences; the add-on zip with the program in boneyard_io/bin/.
tgz = os.path.join(dist, "boneyard-%s-linux-x64.tar.gz" % version)
top = "boneyard-%s-linux-x64/" % version
with tarfile.open(tgz) as t:
    names = set(t.getnames())
    for need in ("boneyard", "README.txt", "licences/README.txt", "licences/CLI11.txt", "licences/nlohmann-json.txt"):
        check(top + need in names, "%s lacks %s" % (tgz, top + need))
    check(t.getmember(top + "boneyard").mode & 0o111 != 0, "%s: boneyard is not executable" % tgz)
    # A static program (BONEYARD_STATIC_CLI) carries the libraries it contains' licences.
    dynamic = subprocess.run(["readelf", "-d", linux], capture_output=True, text=True).stdout
    if "(NEEDED)" not in dynamic:
        for lib in ("libpng", "libdeflate", "libsquish", "zlib", "glibc", "gcc-runtime", "libgomp"):
            check(top + "licences/%s.txt" % lib in names, "%s lacks the licence of %s" % (tgz, lib))


def addon_members(path, exe):
    with zipfile.ZipFile(path) as z:
        names = set(z.namelist())
        for need in ("boneyard_io/__init__.py", "boneyard_io/cli.py", "boneyard_io/bin/" + exe,
                     "boneyard_io/bin/licences/README.txt"):
            check(need in names, "%s lacks %s" % (path, need))
        return z.read("boneyard_io/bin/" + exe) if "boneyard_io/bin/" + exe in names else b""


addon_members(os.path.join(dist, "boneyard_io-%s-linux-x64.zip" % version), "boneyard")

# Windows: the zips exist when the Windows build did.
winzip = os.path.join(dist, "boneyard-%s-windows-x64.zip" % version)
addon_win = os.path.join(dist, "boneyard_io-%s-windows-x64.zip" % version)
if not os.path.isfile(winzip):
    skipped.append("no Windows build, so no Windows archives (scripts/build-windows-deps.sh, cmake --preset windows)")
else:
    top = "boneyard-%s-windows-x64/" % version
    with zipfile.ZipFile(winzip) as z:
        names = set(z.namelist())
        for lib in ("libpng", "libdeflate", "libsquish", "zlib", "CLI11", "nlohmann-json", "gcc-runtime",
                    "mingw-w64-runtime-and-winpthreads"):
            check(top + "licences/%s.txt" % lib in names, "%s lacks the licence of %s" % (winzip, lib))
        check(top + "boneyard.exe" in names and top + "README.txt" in names, "%s lacks boneyard.exe or README" % winzip)
    exe = addon_members(addon_win, "boneyard.exe")
    # PE: "MZ", the PE header's offset at 0x3c, "PE\0\0", machine 0x8664 (x86-64).
    pe = struct.unpack_from("<I", exe, 0x3C)[0] if len(exe) > 0x40 else 0
    check(exe[:2] == b"MZ" and exe[pe:pe + 4] == b"PE\0\0" and struct.unpack_from("<H", exe, pe + 4)[0] == 0x8664,
          "%s: boneyard_io/bin/boneyard.exe is not a PE x64 program" % addon_win)
    wine = os.path.join(source, "scripts", "wine.sh")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "boneyard.exe")
        with open(path, "wb") as f:
            f.write(exe)
        run = subprocess.run([wine, path, "--version"], capture_output=True, text=True, timeout=240)
        if run.returncode == 127:
            skipped.append("wine64 is not installed: the Windows add-on's executable was not run")
        else:
            check(run.stdout.strip() == "boneyard " + version,
                  "wine64 boneyard.exe --version: exit %d, %r %r" % (run.returncode, run.stdout, run.stderr[-300:]))

for f in failures:
    print("FAIL: " + f)
if failures:
    sys.exit(1)
print("release archives of %s: ok (version, contents%s)" % (version, "" if skipped else ", the Windows add-on's exe under wine64"))
if skipped:
    print("SKIP: " + "; ".join(skipped))
    sys.exit(77)
