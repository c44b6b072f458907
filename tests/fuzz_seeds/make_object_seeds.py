#!/usr/bin/env python3
"""Writes the crafted seeds of fuzz_object and fuzz_bones (laid out from
../shared/docs/sdk-formats.md sections 1.1-1.2, as tests/xray_object/object_fixture.h does):
a skinned quad in each smoothing style with bones, parts and refs, a static object with two UV
maps, and a .bones file. The compressed body comes from the samples (test_fmt_old.object, seeded
by scripts/test.sh). Usage: make_object_seeds.py OUT_DIR"""
import os
import struct
import sys


def chunk(cid, payload):
    return struct.pack('<II', cid, len(payload)) + payload


def sz(s):
    return s.encode('cp1251') + b'\0'


def vmaps(maps):
    out = struct.pack('<I', len(maps))
    for name, dim, poly, typ, values, points, faces in maps:
        out += sz(name) + bytes([dim, poly, typ]) + struct.pack('<I', len(points))
        out += struct.pack('<%df' % len(values), *values) + struct.pack('<%di' % len(points), *points)
        if poly:
            out += struct.pack('<%di' % len(faces), *faces)
    return out


def mesh(groups, weights, second_uv=False):
    pts = [(-1, 0, -1), (1, 0, -1), (-1, 0, 1), (1, 0, 1)]
    faces = [(0, 0, 2, 1, 1, 2), (1, 3, 2, 4, 3, 5)]
    entry_point = [0, 2, 1, 1, 2, 3]
    maps = [('Texture', 2, 1, 0, [0, 1, 0, 0, 1, 1, 1, 1, 0, 0, 1, 0], entry_point, [0, 0, 0, 1, 1, 1])]
    refs = [[(0, i)] for i in range(6)]
    if second_uv:
        maps.append(('Lightmap', 2, 0, 0, [0, 0, 1, 0, 0, 1, 1, 1], [0, 1, 2, 3], []))
        for i in range(6):
            refs[i].append((1, entry_point[i]))
    if weights:
        maps.append(('root', 1, 0, 1, [1, 0.5, 1, 1], [0, 1, 2, 3], []))
        maps.append(('child', 1, 0, 1, [0.5], [1], []))
        for i in range(6):
            refs[i].append((len(maps) - 2, entry_point[i]))
            if entry_point[i] == 1:
                refs[i].append((len(maps) - 1, 0))
    box = struct.pack('<6f', -1, 0, -1, 1, 0, 1)
    body = chunk(0x1000, struct.pack('<H', 0x11)) + chunk(0x1001, sz('quad')) + chunk(0x1004, box)
    body += chunk(0x1002, b'\x01') + chunk(0x1010, struct.pack('<II', 0, 0))
    body += chunk(0x1005, struct.pack('<I', 4) + b''.join(struct.pack('<3f', *p) for p in pts))
    body += chunk(0x1006, struct.pack('<I', 2) + b''.join(struct.pack('<6I', *f) for f in faces))
    body += chunk(0x1013, struct.pack('<2I', *groups))
    vr = struct.pack('<I', len(refs))
    for r in refs:
        vr += bytes([len(r)]) + b''.join(struct.pack('<ii', *e) for e in r)
    body += chunk(0x1008, vr)
    body += chunk(0x1009, struct.pack('<H', 1) + sz('surface') + struct.pack('<3I', 2, 0, 1))
    body += chunk(0x1012, vmaps(maps))
    return body


def bone_data(name, full=False, parent=''):
    out = b''
    if full:
        out += chunk(1, struct.pack('<H', 2)) + chunk(2, sz(name) + sz(parent) + sz(name))
        out += chunk(3, struct.pack('<7f', 0, 0.5 if parent else 0, 0, 0, 0.3, 0, 0.1))
    out += chunk(2, sz(name)) + chunk(4, sz('default_object'))
    shape = struct.pack('<HH', 1, 0) + struct.pack('<9f', 1, 0, 0, 0, 1, 0, 0, 0, 1) + struct.pack('<6f', 0, 0, 0, .1, .1, .1)
    shape += struct.pack('<4f', 0, 0, 0, .1) + struct.pack('<8f', 0, 0, 0, 0, 1, 0, .2, .1)
    out += chunk(5, shape) + chunk(8, struct.pack('<I', 0))
    out += chunk(6, struct.pack('<I', 2) + struct.pack('<12f', -1, 1, 1, 1, -.5, .5, 1, 1, 0, 0, 1, 1) + struct.pack('<2f', 1, 1))
    out += chunk(9, struct.pack('<2f', 0, 0)) + chunk(0x10, struct.pack('<f', 0.2)) + chunk(7, struct.pack('<4f', 10, 0, 0, 0))
    return out


def parts():
    return chunk(0x923, struct.pack('<I', 1) + sz('default') + struct.pack('<I', 2) + sz('root') + sz('child'))


def obj(groups, skinned, soc_refs, second_uv=False):
    body = chunk(0x900, struct.pack('<H', 0x10)) + chunk(0x912, sz('')) + chunk(0x925, sz(''))
    body += chunk(0x903, struct.pack('<I', 1 if skinned else 0))
    body += chunk(0x910, chunk(0, mesh(groups, skinned, second_uv)))
    surf = struct.pack('<I', 1) + sz('surface') + sz('models\\model') + sz('default') + sz('default_object')
    surf += sz('wpn\\wpn_test') + sz('Texture') + struct.pack('<3I', 0, 0x112, 1)
    body += chunk(0x907, surf)
    if skinned:
        body += chunk(0x921, chunk(0, bone_data('root', True)) + chunk(1, bone_data('child', True, 'root')))
        if soc_refs:
            body += chunk(0x924, sz('anims\\a,anims\\b'))
        else:
            body += chunk(0x926, struct.pack('<I', 2) + sz('anims\\a') + sz('anims\\b'))
        body += parts() + chunk(0x920, struct.pack('<6f', 0, 0, 0, 0, 0, 0))
    body += chunk(0x922, sz('seed') + struct.pack('<I', 0) + sz('') + struct.pack('<I', 0))
    return chunk(0x7777, body)


def main():
    out = sys.argv[1]
    os.makedirs(os.path.join(out, 'fuzz_object'), exist_ok=True)
    os.makedirs(os.path.join(out, 'fuzz_bones'), exist_ok=True)
    seeds = {
        'skinned_soc_ids.object': obj([0, 17], True, True),
        'skinned_cscop_flags.object': obj([2, 1], True, False),
        'static_two_uv_maps.object': obj([0xFFFFFFFF, 0], False, True, second_uv=True),
    }
    for name, data in seeds.items():
        with open(os.path.join(out, 'fuzz_object', name), 'wb') as f:
            f.write(data)
    with open(os.path.join(out, 'fuzz_bones', 'two_bones_parts.bones'), 'wb') as f:
        f.write(chunk(0, bone_data('root')) + chunk(1, bone_data('child')) + parts())


if __name__ == '__main__':
    main()
