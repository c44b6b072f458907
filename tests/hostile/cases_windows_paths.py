"""glTF buffer URIs written the Windows way (issue 28, docs/safety.md "glTF URIs and Windows
paths"): a backslash separates folders, and drive letters, colons, UNC and \\\\?\\ paths are refused,
on Linux as on Windows (the wine tier, tests/windows, runs these cases on both)."""
from cases_files import gltf_in, motion_buffer, no_target_size, outside_layout, skeleton
from hostile_case import case

LEAVES = r"external buffer refused: the path leaves the glTF's folder"
ABSOLUTE = r"external buffer refused: an absolute path"
WINDOWS = r"external buffer refused: a drive letter or a colon \(a Windows path\)"


@case("gltf_uri_dotdot_backslash", why="..\\outside.bin leaves the folder on Windows: refused everywhere",
      exit=1, one_line=True, stderr=LEAVES, check=no_target_size)
def _(d):
    outside_layout(d)
    return ["convert", gltf_in(d, "..\\outside.bin"), "-o", "a.omf"]


@case("gltf_uri_inner_dotdot_backslash", why="sub\\..\\..\\outside.bin leaves through a subfolder: refused",
      exit=1, one_line=True, stderr=LEAVES, check=no_target_size)
def _(d):
    outside_layout(d)
    path = gltf_in(d, "sub\\..\\..\\outside.bin")
    (d / "model" / "sub").mkdir()
    return ["info", path]


@case("gltf_uri_percent_backslash_dotdot", why="%2e%2e%5C is ..\\ after percent-decoding: refused",
      exit=1, one_line=True, stderr=LEAVES, check=no_target_size)
def _(d):
    outside_layout(d)
    return ["info", gltf_in(d, "%2e%2e%5Coutside.bin")]


@case("gltf_uri_backslash_inside_works", why="sub\\m.bin is sub/m.bin inside the folder: read on every system",
      exit=0, creates=[r"model/a\.omf"], creates_required=[r"model/a\.omf"])
def _(d):
    path = gltf_in(d, "sub\\m.bin")
    (d / "model" / "sub").mkdir()
    (d / "model" / "sub" / "m.bin").write_bytes(motion_buffer())
    return ["convert", path, "-o", "model/a.omf", "--skeleton", skeleton(d)]


@case("gltf_uri_drive_letter", why="C:\\outside.bin names another drive: a URI scheme, never read",
      exit=1, one_line=True, stderr=r"buffer 0: external buffer URI scheme not supported")
def _(d):
    outside_layout(d)
    return ["info", gltf_in(d, "C:\\outside.bin")]


@case("gltf_uri_drive_letter_encoded", why="C%3A%5Coutside.bin is C:\\outside.bin after percent-decoding: refused",
      exit=1, one_line=True, stderr=WINDOWS, check=no_target_size)
def _(d):
    outside_layout(d)
    return ["convert", gltf_in(d, "C%3A%5Coutside.bin"), "-o", "a.omf"]


@case("gltf_uri_drive_relative_encoded", why="C%3Aoutside.bin (C:outside.bin, the current folder of drive C:): refused",
      exit=1, one_line=True, stderr=WINDOWS)
def _(d):
    return ["info", gltf_in(d, "C%3Aoutside.bin")]


@case("gltf_uri_stream", why="a.bin%3As (an NTFS stream of a.bin): a colon is never part of a name on Windows",
      exit=1, one_line=True, stderr=WINDOWS)
def _(d):
    return ["info", gltf_in(d, "a.bin%3As")]


@case("gltf_uri_unc", why="\\\\server\\share\\x.bin (a network path): refused as absolute",
      exit=1, one_line=True, stderr=ABSOLUTE)
def _(d):
    return ["info", gltf_in(d, "\\\\server\\share\\outside.bin")]


@case("gltf_uri_unc_encoded", why="%5C%5Cserver%5Cshare (a UNC path after percent-decoding): refused as absolute",
      exit=1, one_line=True, stderr=ABSOLUTE)
def _(d):
    return ["info", gltf_in(d, "%5C%5Cserver%5Cshare%5Coutside.bin")]


@case("gltf_uri_long_path_prefix", why="\\\\?\\C:\\x.bin (Windows' long-path prefix): refused as absolute",
      exit=1, one_line=True, stderr=ABSOLUTE)
def _(d):
    return ["info", gltf_in(d, "\\\\?\\C:\\outside.bin")]


@case("gltf_uri_root_backslash", why="\\outside.bin (the root of the current drive): refused as absolute",
      exit=1, one_line=True, stderr=ABSOLUTE)
def _(d):
    outside_layout(d)
    return ["info", gltf_in(d, "\\outside.bin")]


@case("gltf_uri_dots_and_spaces", why="...\\x.bin: Windows drops trailing dots, so a name of dots is refused",
      exit=1, one_line=True, stderr=LEAVES)
def _(d):
    outside_layout(d)
    return ["info", gltf_in(d, "...\\outside.bin")]


@case("gltf_uri_dotdot_backslash_allowed", why="--allow-outside-uris reads ..\\outside.bin (the backslash still "
      "separates folders)", exit=0, creates=[r"a\.omf"], creates_required=[r"a\.omf"])
def _(d):
    outside_layout(d)
    return ["convert", gltf_in(d, "..\\outside.bin"), "-o", "a.omf", "--allow-outside-uris", "--skeleton", skeleton(d)]
