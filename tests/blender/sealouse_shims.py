"""What the SeaLouse interop tests share: the skip when no SeaLouse checkout is at hand, the
fixture writer's run, and shims giving Debian's Blender 3.4 the 3.5+/3.6+ calls SeaLouse makes
(Mesh.from_pydata's shade_flat, MeshUVLoopLayer.uv). The shims change no value SeaLouse reads."""
import os
import subprocess
import sys

import bpy

import blender_common as bc


def _from_pydata_36(self, vertices, edges, faces, shade_flat=True):
    _from_pydata(self, vertices, edges, faces)
    if not shade_flat:
        for p in self.polygons:
            p.use_smooth = True


_from_pydata = bpy.types.Mesh.from_pydata


class _UvLoop:
    def __init__(self, loop):
        self.vector = loop.uv


class _UvLoops:
    """Blender 3.5's MeshUVLoopLayer.uv[i].vector, read from 3.4's data[i].uv."""

    def __init__(self, layer):
        self.layer = layer

    def __getitem__(self, i):
        return _UvLoop(self.layer.data[i])


def prepare(args, needed, uv_layers=False):
    """Skips unless SeaLouse/<needed> is in the peers folder (args.extra[1]), writes the fixtures
    (args.extra[0] into args.scratch), installs the shims and puts SeaLouse on the import path."""
    writer, peers = args.extra[0], args.extra[1]
    if not os.path.isfile(os.path.join(peers, "SeaLouse", needed)):
        bc.skip("no SeaLouse checkout in %s (git clone https://github.com/Jacky720/SeaLouse there to run this test)" % peers)
    subprocess.run([writer, args.scratch], check=True)
    bpy.types.Mesh.from_pydata = _from_pydata_36
    if uv_layers:
        bpy.types.MeshUVLoopLayer.uv = property(_UvLoops)
    sys.path.insert(0, peers)
