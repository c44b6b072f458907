"""Models arrive textured in Blender (issue 15): a sample model converted with its game texture,
as .glb (PNG embedded) and as .gltf (PNG beside it), imports with Blender's default glTF importer
with one image of the texture's size whose pixels are the ones boneyard decoded, used as the base
colour of the model's material. Single-sided materials (the engine culls) import with backface
culling on. Skipped without the samples."""
import os
import struct
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import blender_common as bc  # noqa: E402

import bpy  # noqa: E402

args = bc.Args()
model = args.sample("soc/rat_1.ogf")
textures = os.path.join(args.samples_dir, "xray", "textures")
if model is None or not os.path.isdir(textures):
    bc.skip("real samples not found under %s (rat_1.ogf and textures/)" % args.samples_dir)


def png_pixel(path, x, y):
    """RGB(A) of one pixel of an 8-bit PNG boneyard wrote (no row filter, or sub)."""
    data = open(path, "rb").read()
    pos, idat, width, channels = 8, b"", 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width = struct.unpack(">I", body[:4])[0]
            channels = {2: 3, 6: 4}[body[9]]
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    kind = raw[y * (stride + 1)]
    if kind == 1:
        for i in range(channels, stride):
            line[i] = (line[i] + line[i - channels]) & 255
    elif kind != 0:
        bc.fail("unexpected PNG filter %d" % kind)
    return tuple(line[x * channels:x * channels + 3])


reference = args.out("act_Rat.png")
bc.boneyard(args, "texture", os.path.join(textures, "act", "act_Rat.dds"), "-o", reference)
for name in ("rat.glb", "rat.gltf"):
    out = args.out(name)
    bc.boneyard(args, "convert", model, "-o", out, "--textures", textures)
    if name.endswith(".gltf") and not os.path.isfile(args.out("act_Rat.png")):
        bc.fail("the .gltf's image act_Rat.png was not written beside it")
    bc.reset(fps=30)
    bc.import_gltf(out)
    images = [i for i in bpy.data.images if i.size[0] > 0]
    if len(images) != 1 or tuple(images[0].size) != (256, 256):
        bc.fail("%s: expected one 256x256 image, found %s" % (name, [(i.name, tuple(i.size)) for i in bpy.data.images]))
    image = images[0]
    # Blender stores rows bottom-up as floats 0..1 (sRGB values as they are in the file).
    pixels = image.pixels[:]
    w, h = image.size
    for x, y in ((0, 0), (128, 77), (255, 255)):
        at = ((h - 1 - y) * w + x) * 4
        got = tuple(round(pixels[at + k] * 255) for k in range(3))
        want = png_pixel(reference, x, y)
        if any(abs(a - b) > 1 for a, b in zip(got, want)):
            bc.fail("%s: pixel (%d, %d) is %s in Blender, %s in boneyard's PNG" % (name, x, y, got, want))
    materials = [m for o in bpy.data.objects if o.type == "MESH" for m in o.data.materials if m]
    if not materials:
        bc.fail("%s: the mesh has no material" % name)
    for m in materials:
        tree = m.node_tree
        bsdf = next((n for n in tree.nodes if n.type == "BSDF_PRINCIPLED"), None)
        links = [l for l in tree.links if l.to_node == bsdf and l.to_socket.name == "Base Color"]
        if not links or links[0].from_node.type != "TEX_IMAGE" or links[0].from_node.image != image:
            bc.fail("%s: material %s does not take its base colour from the image" % (name, m.name))
        if not m.use_backface_culling:
            bc.fail("%s: material %s is not single-sided (the engine culls back faces)" % (name, m.name))
print("blender textured import: ok (one 256x256 image, its pixels those of boneyard's PNG, glb and gltf)")
