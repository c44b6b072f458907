"""Scopes 2 and 3 of the hostile-input issue (and "a missing file and a directory both exit 2" of
scope 10): only regular files are read, and a .gltf's buffer URIs stay inside its folder.

Special files are made in the case folder (mkfifo, symlinks to /dev/zero): a FIFO that boneyard
opened for reading would block forever and /dev/zero would be read forever, so the runner's time
limit and memory cap turn either into a failure."""
import os

from craft import example, gltf_buffers, gltf_json, omf_one_bone, rotation_keys
from hostile_case import case

ONE_LINE_IO = dict(exit=2, one_line=True)


# -- builders ---------------------------------------------------------------------------------

def motion_buffer():
    """Times [0, 1/30] and two identity rotations: 8 + 32 bytes."""
    return rotation_keys(1.0 / 30.0)


def animation_gltf(uri, length=40):
    """The smallest glTF that `info` reads and `convert -o x.omf` converts: one node "root" and one
    animation "m" whose sampler reads motion_buffer() from the buffer named by `uri`."""
    return gltf_json(
        scene=0, scenes=[{"nodes": [0]}], nodes=[{"name": "root"}],
        **gltf_buffers(uri=uri, byte_length=length,
                       views=[{"buffer": 0, "byteOffset": 0, "byteLength": 8},
                              {"buffer": 0, "byteOffset": 8, "byteLength": 32}],
                       accessors=[{"bufferView": 0, "componentType": 5126, "count": 2, "type": "SCALAR",
                                   "min": [0], "max": [1.0 / 30.0]},
                                  {"bufferView": 1, "componentType": 5126, "count": 2, "type": "VEC4"}]),
        animations=[{"name": "m", "samplers": [{"input": 0, "output": 1}],
                     "channels": [{"sampler": 0, "target": {"node": 0, "path": "rotation"}}]}])


def gltf_in(d, uri, length=40, folder="model"):
    """`folder/a.gltf` with buffer `uri`; returns its path relative to d (the runner's cwd)."""
    (d / folder).mkdir(exist_ok=True)
    (d / folder / "a.gltf").write_bytes(animation_gltf(uri, length))
    return f"{folder}/a.gltf"


def outside_layout(d, with_target=True):
    """d/model/a.gltf (the glTF's folder) and d/outside.bin beside it (outside that folder).
    The outside file is a valid buffer of a distinctive size (4321 bytes), so that a message that
    leaked its size or its content would show."""
    if with_target:
        (d / "outside.bin").write_bytes(motion_buffer() + b"\0" * (4321 - 40))


def skeleton(d):
    """The example model, whose root bone is the glTF's node "root": the .omf's skeleton source."""
    (d / "wave_arm.ogf").write_bytes(example("wave_arm.ogf"))
    return "wave_arm.ogf"


def fifo(d, name):
    os.mkfifo(d / name)
    return name


def no_target_size(_d, _code, _out, err):
    return "the message reveals the outside file's size" if "4321" in err else None


# -- inputs that are not regular files ----------------------------------------------------------

for command in ("info", "validate", "convert"):
    def argv(name, command=command):
        return [command, name] + (["-o", "out.glb"] if command == "convert" else [])

    @case(f"{command}_fifo_input", why=f"{command} of a FIFO must refuse it at once, not block in open(2)",
          stderr=r"in\.omf: is a FIFO, not a regular file", timeout=10, **ONE_LINE_IO)
    def _(d, argv=argv):
        return argv(fifo(d, "in.omf"))

    @case(f"{command}_dev_zero_input", why=f"{command} of /dev/zero must refuse it, not read it forever",
          stderr=r"/dev/zero: is a character device, not a regular file", timeout=10, **ONE_LINE_IO)
    def _(d, argv=argv):
        return argv("/dev/zero")

    @case(f"{command}_directory_input", why=f"{command} of a directory is an I/O problem: exit 2",
          stderr=r"folder: is a directory, not a file", **ONE_LINE_IO)
    def _(d, argv=argv):
        (d / "folder").mkdir()
        return argv("folder")

    @case(f"{command}_missing_input", why=f"{command} of a missing file: exit 2",
          stderr=r"missing\.omf: cannot open: No such file or directory", **ONE_LINE_IO)
    def _(d, argv=argv):
        return argv("missing.omf")


@case("dump_symlink_to_dev_zero", why="a symlink to /dev/zero is followed and refused like /dev/zero",
      stderr=r"zero\.omf: is a character device, not a regular file", timeout=10, **ONE_LINE_IO)
def _(d):
    os.symlink("/dev/zero", d / "zero.omf")
    return ["dump", "zero.omf"]


@case("names_dev_zero", why="--names /dev/zero must be refused, not read forever",
      stderr=r"/dev/zero: cannot read names file: is a character device, not a regular file", timeout=10,
      **ONE_LINE_IO)
def _(d):
    (d / "a.omf").write_bytes(omf_one_bone())
    return ["info", "a.omf", "--names", "/dev/zero"]


@case("names_fifo_said_once", why="--names naming a FIFO: one line even for several input files",
      stderr=r"names\.txt: cannot read names file: is a FIFO, not a regular file", timeout=10, **ONE_LINE_IO)
def _(d):
    (d / "a.omf").write_bytes(omf_one_bone())
    (d / "b.omf").write_bytes(omf_one_bone())
    return ["info", "a.omf", "b.omf", "--names", fifo(d, "names.txt")]


@case("skeleton_fifo", why="--skeleton naming a FIFO is refused before anything is read",
      stderr=r"--skeleton skel\.ogf: is a FIFO, not a regular file", timeout=10, **ONE_LINE_IO)
def _(d):
    (d / "a.omf").write_bytes(omf_one_bone())
    return ["convert", "a.omf", "--skeleton", fifo(d, "skel.ogf"), "-o", "a.glb"]


@case("skeleton_directory", why="--skeleton naming a directory: one line, exit 2",
      stderr=r"--skeleton skel: is a directory, not a file", **ONE_LINE_IO)
def _(d):
    (d / "a.omf").write_bytes(omf_one_bone())
    (d / "skel").mkdir()
    return ["convert", "a.omf", "--skeleton", "skel", "-o", "a.glb"]


@case("view_skeleton_fifo", why="view --skeleton naming a FIFO is refused like convert's",
      stderr=r"--skeleton skel\.ogf: is a FIFO, not a regular file", timeout=10, **ONE_LINE_IO)
def _(d):
    (d / "a.omf").write_bytes(omf_one_bone())
    return ["view", "a.omf", "--skeleton", fifo(d, "skel.ogf"), "-o", "a.html"]


@case("template_fifo", why="--template naming a FIFO is refused before anything is read",
      stderr=r"--template old\.omf: is a FIFO, not a regular file", timeout=10, **ONE_LINE_IO)
def _(d):
    (d / "motion.bin").write_bytes(motion_buffer())
    (d / "a.gltf").write_bytes(animation_gltf("motion.bin"))
    return ["convert", "a.gltf", "--template", fifo(d, "old.omf"), "-o", "a.omf"]


@case("template_directory", why="--template naming a directory: one line, exit 2",
      stderr=r"--template old: is a directory, not a file", **ONE_LINE_IO)
def _(d):
    (d / "motion.bin").write_bytes(motion_buffer())
    (d / "a.gltf").write_bytes(animation_gltf("motion.bin"))
    (d / "old").mkdir()
    return ["convert", "a.gltf", "--template", "old", "-o", "a.omf"]


@case("motion_ref_fifo", why="a motion ref of an .ogf that resolves to a FIFO under --meshes is refused, not opened",
      stderr=r"wave_arm\.ogf: error .* in meshes/wave\.omf: cannot read motion file: is a FIFO, not a regular file", timeout=10,
      **ONE_LINE_IO)
def _(d):
    # wave_arm.ogf refers to the motion file "wave" (0x13); the meshes root holds a FIFO by that name.
    (d / "wave_arm.ogf").write_bytes(example("wave_arm.ogf"))
    (d / "meshes").mkdir()
    fifo(d, "meshes/wave.omf")
    return ["convert", "wave_arm.ogf", "--meshes", "meshes", "-o", "out.glb"]


# -- glTF buffer URIs ---------------------------------------------------------------------------

@case("gltf_uri_inside_works", why="the baseline: a relative buffer URI inside the folder converts",
      exit=0, creates=[r"model/a\.omf"], creates_required=[r"model/a\.omf"])
def _(d):
    path = gltf_in(d, "sub/m%20b.bin")
    (d / "model" / "sub").mkdir()
    (d / "model" / "sub" / "m b.bin").write_bytes(motion_buffer())
    return ["convert", path, "-o", "model/a.omf", "--skeleton", skeleton(d)]


@case("gltf_uri_dev_zero", why="a buffer uri of /dev/zero (absolute) is refused without reading it",
      exit=1, one_line=True, stderr=r"buffer 0: external buffer refused: an absolute path", timeout=10)
def _(d):
    return ["info", gltf_in(d, "/dev/zero")]


@case("gltf_uri_dev_zero_allowed", why="with --allow-outside-uris, /dev/zero is still not read: not a regular file",
      exit=2, one_line=True, stderr=r"buffer 0: cannot read external buffer \"/dev/zero\": is a character device",
      timeout=10)
def _(d):
    return ["info", gltf_in(d, "/dev/zero"), "--allow-outside-uris"]


@case("gltf_uri_etc_passwd", why="an absolute buffer uri is refused and nothing about the target is said",
      exit=1, one_line=True, stderr=r"external buffer refused: an absolute path", not_in_stderr=r"root:|shorter|\d+ bytes")
def _(d):
    return ["validate", gltf_in(d, "/etc/passwd")]


@case("gltf_uri_proc_environ", why="/proc/self/environ (the environment) is never opened",
      exit=1, one_line=True, stderr=r"external buffer refused: an absolute path")
def _(d):
    return ["convert", gltf_in(d, "/proc/self/environ"), "-o", "a.omf"]


@case("gltf_uri_dotdot_passwd", why="../../../../etc/passwd leaves the folder: refused",
      exit=1, one_line=True, stderr=r"external buffer refused: the path leaves the glTF's folder",
      not_in_stderr=r"root:|shorter")
def _(d):
    return ["info", gltf_in(d, "../../../../etc/passwd")]


@case("gltf_uri_dotdot_outside", why="a .bin beside the glTF's folder is not used", exit=1, one_line=True,
      stderr=r"buffer 0: external buffer refused: the path leaves the glTF's folder; --allow-outside-uris reads it "
             r"\(expected a data: URI or a relative path inside the glTF's folder, found \"\.\./outside\.bin\"\)",
      check=no_target_size)
def _(d):
    outside_layout(d)
    return ["convert", gltf_in(d, "../outside.bin"), "-o", "a.omf"]


@case("gltf_uri_dotdot_outside_missing", why="the same message when the outside target does not exist", exit=1,
      one_line=True,
      stderr=r"buffer 0: external buffer refused: the path leaves the glTF's folder; --allow-outside-uris reads it "
             r"\(expected a data: URI or a relative path inside the glTF's folder, found \"\.\./outside\.bin\"\)",
      not_in_stderr=r"No such|cannot open")
def _(d):
    outside_layout(d, with_target=False)
    return ["convert", gltf_in(d, "../outside.bin"), "-o", "a.omf"]


@case("gltf_uri_dotdot_outside_allowed", why="--allow-outside-uris reads the outside .bin: the conversion works",
      exit=0, creates=[r"a\.omf"], creates_required=[r"a\.omf"])
def _(d):
    outside_layout(d)
    return ["convert", gltf_in(d, "../outside.bin"), "-o", "a.omf", "--allow-outside-uris", "--skeleton", skeleton(d)]


@case("gltf_uri_percent_dotdot", why="%2e%2e/ is .. after percent-decoding: refused", exit=1, one_line=True,
      stderr=r"external buffer refused: the path leaves the glTF's folder", check=no_target_size)
def _(d):
    outside_layout(d)
    return ["info", gltf_in(d, "%2e%2e/outside.bin")]


@case("gltf_uri_percent_slash", why="%2Fetc%2Fpasswd is absolute after percent-decoding: refused", exit=1,
      one_line=True, stderr=r"external buffer refused: an absolute path")
def _(d):
    return ["info", gltf_in(d, "%2Fetc%2Fpasswd")]


@case("gltf_uri_inner_dotdot", why="sub/../../outside.bin leaves the folder through a subfolder: refused", exit=1,
      one_line=True, stderr=r"external buffer refused: the path leaves the glTF's folder", check=no_target_size)
def _(d):
    outside_layout(d)
    path = gltf_in(d, "sub/../../outside.bin")
    (d / "model" / "sub").mkdir()
    return ["info", path]


@case("gltf_uri_file_scheme", why="file:///etc/passwd: schemes are not read", exit=1, one_line=True,
      stderr=r"buffer 0: external buffer URI scheme not supported", not_in_stderr=r"root:")
def _(d):
    return ["info", gltf_in(d, "file:///etc/passwd")]


@case("gltf_uri_http_scheme", why="http://example.com/x.bin: nothing is fetched", exit=1, one_line=True,
      stderr=r"buffer 0: external buffer URI scheme not supported")
def _(d):
    return ["convert", gltf_in(d, "http://example.com/x.bin"), "-o", "a.omf", "--allow-outside-uris"]


@case("gltf_uri_dot", why="a buffer uri of '.' names the folder: one line, exit 2 (it used to abort)",
      stderr=r"buffer 0: cannot read external buffer \"\.\": is a directory, not a file", **ONE_LINE_IO)
def _(d):
    return ["info", gltf_in(d, ".")]


@case("gltf_uri_fifo", why="a buffer uri naming a FIFO inside the folder: refused at once, exit 2",
      stderr=r"buffer 0: cannot read external buffer \"pipe\.bin\": is a FIFO, not a regular file", timeout=10,
      **ONE_LINE_IO)
def _(d):
    path = gltf_in(d, "pipe.bin")
    fifo(d, "model/pipe.bin")
    return ["validate", path]


@case("gltf_uri_symlink_outside", why="a symlink inside the folder that points outside is refused",
      exit=1, one_line=True, stderr=r"external buffer refused: the path leaves the glTF's folder", check=no_target_size)
def _(d):
    outside_layout(d)
    path = gltf_in(d, "link.bin")
    os.symlink(d / "outside.bin", d / "model" / "link.bin")
    return ["convert", path, "-o", "a.omf"]


@case("gltf_uri_symlink_outside_relative", why="a relative symlink (../outside.bin) inside the folder is refused, "
      "target missing or not", exit=1, one_line=True, stderr=r"external buffer refused: the path leaves the glTF's folder")
def _(d):
    path = gltf_in(d, "link.bin")
    os.symlink("../outside.bin", d / "model" / "link.bin")  # dangling: outside.bin does not exist
    return ["info", path]


@case("gltf_uri_symlinked_folder_outside", why="a symlinked subfolder that leads outside is refused",
      exit=1, one_line=True, stderr=r"external buffer refused: the path leaves the glTF's folder", check=no_target_size)
def _(d):
    outside_layout(d)
    path = gltf_in(d, "up/outside.bin")
    os.symlink("..", d / "model" / "up")
    return ["info", path]


@case("gltf_uri_symlink_inside_works", why="a symlink that stays inside the folder is followed", exit=0)
def _(d):
    path = gltf_in(d, "link.bin")
    (d / "model" / "data").mkdir()
    (d / "model" / "data" / "m.bin").write_bytes(motion_buffer())
    os.symlink("data/m.bin", d / "model" / "link.bin")
    return ["info", path]


@case("gltf_uri_symlink_loop", why="a symlink loop is refused, not followed forever", exit=1, one_line=True,
      stderr=r"external buffer refused")
def _(d):
    path = gltf_in(d, "a.bin")
    os.symlink("b.bin", d / "model" / "a.bin")
    os.symlink("a.bin", d / "model" / "b.bin")
    return ["info", path]


@case("gltf_uri_control_bytes_one_line", why="a URI with a newline is shown escaped: still one line", exit=1,
      one_line=True, stderr=r"\\x0A")
def _(d):
    return ["info", gltf_in(d, "../x\ny.bin")]
