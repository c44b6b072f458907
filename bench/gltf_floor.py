#!/usr/bin/env python3
"""How small a .glb of the same model and motions can be in core glTF 2.0 (issue 30's output goal).

For each .glb boneyard wrote, builds the smallest document that still gives every node, mesh,
skin and motion the same values key for key, and prints the bytes now against that floor:
  * every `extras` object goes (boneyard's byte-exact re-import needs them: the floor is lower
    than anything lossless can reach), and so do byteOffsets of 0;
  * a held channel (all keys equal) keeps one key, timed by one shared [0] that is accessor 0;
  * the accessors nothing uses any more go, the rest keep their order and are renumbered;
  * with --rest, held channels whose value is the node's own are left out too (gltfpack's default;
    what a fresh pose shows is the same, what blending over another motion shows is not).
What stays is what core glTF requires for each object (channel, sampler, accessor with its
component type, count, type, `normalized` and the inputs' min/max) and the key bytes exactness
requires (16-bit rotations as stored, float translations: core glTF has no integer translations).
Names stay: they are what users pick motions and bones by.

With --keep-extras the extras stay: what boneyard's writer alone could still save.
Usage: gltf_floor.py [--rest] [--keep-extras] [--write DIR] FILE.glb...   (--write keeps each floor .glb, e.g. for
the Khronos validator). Plain Python, no third-party modules."""
import importlib.util
import json
import os
import struct
import sys

# The .glb framing the Blender add-on reads and writes with (plain Python, no bpy).
_spec = importlib.util.spec_from_file_location(
    'boneyard_glb', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'blender', 'boneyard_io', 'glb.py'))
glb = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(glb)

COMPONENT_BYTES = {5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4}
WIDTH = {'SCALAR': 1, 'VEC2': 2, 'VEC3': 3, 'VEC4': 4, 'MAT2': 4, 'MAT3': 9, 'MAT4': 16}
NODE_DEFAULT = {'rotation': [0, 0, 0, 1], 'translation': [0, 0, 0], 'scale': [1, 1, 1]}


def without_extras(value):
    if isinstance(value, dict):
        return {k: without_extras(v) for k, v in value.items() if k != 'extras'}
    if isinstance(value, list):
        return [without_extras(v) for v in value]
    return value


def float32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]


class Accessors:
    def __init__(self, document, binary):
        self.accessors, self.views, self.binary = document['accessors'], document['bufferViews'], binary

    def element_size(self, index):
        a = self.accessors[index]
        return COMPONENT_BYTES[a['componentType']] * WIDTH[a['type']]

    def elements(self, index):
        a = self.accessors[index]
        start = self.views[a['bufferView']].get('byteOffset', 0) + a.get('byteOffset', 0)
        size = self.element_size(index)
        return [self.binary[start + k * size:start + (k + 1) * size] for k in range(a['count'])]

    def value(self, index, element):
        """One element as a reader sees it (normalised SHORT as max(c / 32767, -1))."""
        a = self.accessors[index]
        code = {5126: 'f', 5122: 'h'}[a['componentType']]
        raw = struct.unpack(f'<{WIDTH[a["type"]]}{code}', element)
        return [float32(max(c / 32767.0, -1.0)) for c in raw] if a.get('normalized') else list(raw)


def floor_document(document, binary, drop_rest, keep_extras=False):
    """The floor document and its binary chunk."""
    source = Accessors(document, binary)
    floor = json.loads(json.dumps(document)) if keep_extras else without_extras(document)
    one_key = 'one key'            # stands for the shared [0] until the renumbering
    held = set()                   # output accessors cut to their first key
    for animation in floor.get('animations', []):
        channels = []
        for channel in animation['channels']:
            sampler = animation['samplers'][channel['sampler']]
            keys = source.elements(sampler['output'])
            if len(keys) > 1 and all(k == keys[0] for k in keys):
                target = channel['target']
                rest = [float32(x) for x in floor['nodes'][target['node']].get(target['path'], NODE_DEFAULT[target['path']])]
                if drop_rest and source.value(sampler['output'], keys[0]) == rest:
                    continue
                held.add(sampler['output'])
                sampler['input'] = one_key
            channels.append(channel)
        kept = sorted({c['sampler'] for c in channels})
        renumber = {old: new for new, old in enumerate(kept)}
        animation['samplers'] = [animation['samplers'][i] for i in kept]
        for channel in channels:
            channel['sampler'] = renumber[channel['sampler']]
        animation['channels'] = channels
    floor['animations'] = [a for a in floor.get('animations', []) if a['channels']]
    if not floor['animations']:
        del floor['animations']

    references = []                # (object, key) pairs that name an accessor
    for mesh in floor.get('meshes', []):
        for primitive in mesh['primitives']:
            references += [(primitive['attributes'], k) for k in primitive['attributes']]
            if 'indices' in primitive:
                references.append((primitive, 'indices'))
            for target in primitive.get('targets', []):
                references += [(target, k) for k in target]
    references += [(s, 'inverseBindMatrices') for s in floor.get('skins', []) if 'inverseBindMatrices' in s]
    for animation in floor.get('animations', []):
        for sampler in animation['samplers']:
            references += [(sampler, 'input'), (sampler, 'output')]
    used = sorted({o[k] for o, k in references if o[k] != one_key})
    first = 1 if held else 0
    number = {old: first + new for new, old in enumerate(used)}
    number[one_key] = 0
    for owner, key in references:
        owner[key] = number[owner[key]]

    # The kept accessors packed view by view (in the original views' order, each view's accessors in
    # their order), one bufferView per original view that keeps data; boneyard writes no byteStride.
    packed, views, accessors = bytearray(), [], []
    if held:
        packed += struct.pack('<f', 0.0)
        views.append({'buffer': 0, 'byteLength': 4})
        accessors.append({'bufferView': 0, 'componentType': 5126, 'count': 1, 'type': 'SCALAR', 'min': [0], 'max': [0]})
    by_view = {}
    for old in used:
        by_view.setdefault(floor['accessors'][old]['bufferView'], []).append(old)
    placed = {}
    for original_view in sorted(by_view):
        view = {'buffer': 0}
        for old in by_view[original_view]:
            accessor = dict(floor['accessors'][old])
            keys = source.elements(old)
            if old in held:
                keys, accessor['count'] = keys[:1], 1
            packed.extend(b'\0' * (-len(packed) % COMPONENT_BYTES[accessor['componentType']]))
            view.setdefault('byteOffset', len(packed))
            accessor['bufferView'] = len(views)
            accessor.pop('byteOffset', None)
            if len(packed) > view['byteOffset']:
                accessor['byteOffset'] = len(packed) - view['byteOffset']
            packed.extend(b''.join(keys))
            placed[number[old]] = accessor
        view['byteLength'] = len(packed) - view['byteOffset']
        view.update({k: v for k, v in floor['bufferViews'][original_view].items() if k == 'target'})
        views.append(view)
    accessors += [placed[n] for n in range(first, first + len(used))]
    for image in floor.get('images', []):      # embedded textures, as they are
        if 'bufferView' in image:
            original = document['bufferViews'][image['bufferView']]
            start = original.get('byteOffset', 0)
            packed.extend(b'\0' * (-len(packed) % 4))
            views.append({'buffer': 0, 'byteOffset': len(packed), 'byteLength': original['byteLength']})
            packed.extend(binary[start:start + original['byteLength']])
            image['bufferView'] = len(views) - 1
    packed.extend(b'\0' * (-len(packed) % 4))
    floor['accessors'] = accessors
    floor['bufferViews'] = views
    floor['buffers'] = [{'byteLength': len(packed)}]
    return floor, bytes(packed)


def main(argv):
    drop_rest, keep_extras = '--rest' in argv, '--keep-extras' in argv
    argv = [a for a in argv if a not in ('--rest', '--keep-extras')]
    write_to = None
    if argv[:1] == ['--write']:
        write_to, argv = argv[1], argv[2:]
        os.makedirs(write_to, exist_ok=True)
    if not argv:
        sys.exit(__doc__)
    now = low = 0
    for path in argv:
        with open(path, 'rb') as file:
            data = file.read()
        floor = glb.encode(*floor_document(*glb.parse(data, path), drop_rest, keep_extras))
        now, low = now + len(data), low + len(floor)
        if write_to:
            with open(os.path.join(write_to, os.path.basename(path)), 'wb') as out:
                out.write(floor)
    kind = (', held channels equal to the rest pose left out' if drop_rest else '') + (', extras kept' if keep_extras else '')
    print(f'{len(argv)} files: {now} bytes now, floor {low} bytes ({low / now:.3f}x{kind})')


if __name__ == '__main__':
    main(sys.argv[1:])
