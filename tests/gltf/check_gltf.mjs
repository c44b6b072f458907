// External checks of a .glb/.gltf written by boneyard:
//  1. the Khronos glTF validator (npm gltf-validator) must report 0 errors and 0 warnings;
//  2. three.js GLTFLoader (an independent consumer) must load it; joints, animations, mesh vertices
//     and triangles (summed over every mesh three.js builds) are counted.
//  3. with --images I: the file holds I images, each a PNG the validator read a size from, and every
//     textured material's alphaMode is one glTF knows.
// Usage: node tests/gltf/check_gltf.mjs FILE [--joints N] [--animations M] [--vertices V] [--triangles T] [--images I]
// Prints one JSON line; exit 0 when everything holds, 1 otherwise, 2 on usage errors.
import fs from 'node:fs';
import path from 'node:path';
import validator from 'gltf-validator';
import { Texture } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';

// three.js reports loading progress with the browser's ProgressEvent, which node lacks.
globalThis.ProgressEvent ??= class ProgressEvent extends Event {
  constructor(type, init = {}) {
    super(type);
    Object.assign(this, init);
  }
};

const args = process.argv.slice(2);
if (args.length < 1) {
  console.error('usage: check_gltf.mjs FILE [--joints N] [--animations M] [--vertices V] [--triangles T] [--images I]');
  process.exit(2);
}
const file = args[0];
const expect = {};
for (let i = 1; i + 1 < args.length; i += 2) expect[args[i].replace(/^--/, '')] = Number(args[i + 1]);

const bytes = new Uint8Array(fs.readFileSync(file));
const dir = path.dirname(file);
const report = await validator.validateBytes(bytes, {
  uri: path.basename(file),
  maxIssues: 50,
  externalResourceFunction: (uri) =>
    new Promise((resolve, reject) => {
      try {
        resolve(new Uint8Array(fs.readFileSync(path.join(dir, decodeURIComponent(uri)))));
      } catch (e) {
        reject(e.toString());
      }
    }),
});

// three.js fetches external buffers over the network; under node we inline the .bin as a data URI.
let input;
if (file.toLowerCase().endsWith('.gltf')) {
  const json = JSON.parse(Buffer.from(bytes).toString('utf8'));
  for (const b of json.buffers ?? []) {
    if (b.uri && !b.uri.startsWith('data:')) {
      const bin = fs.readFileSync(path.join(dir, decodeURIComponent(b.uri)));
      b.uri = 'data:application/octet-stream;base64,' + bin.toString('base64');
    }
  }
  input = JSON.stringify(json);
} else {
  input = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
}
// Images cannot be decoded under node (no DOM, no createImageBitmap); the validator has checked
// them, so three.js gets a blank texture for each.
const loader = new GLTFLoader().register(() => ({
  name: 'boneyard_blank_textures',
  loadTexture: () => Promise.resolve(new Texture()),
}));
const gltf = await new Promise((resolve, reject) => loader.parse(input, '', resolve, reject)).catch(
  (e) => ({ error: String(e?.message ?? e) }),
);

let joints = 0;
let bones = 0;
let vertices = 0;
let triangles = 0;
let skinned = 0;
if (gltf.parser) {
  const skins = gltf.parser.json.skins ?? [];
  joints = skins.reduce((n, s) => n + s.joints.length, 0);
  gltf.scene.traverse((o) => {
    if (o.isBone) bones += 1;
    if (o.isMesh) {
      const g = o.geometry;
      vertices += g.attributes.position.count;
      triangles += (g.index ? g.index.count : g.attributes.position.count) / 3;
      if (o.isSkinnedMesh) skinned += 1;
    }
  });
}
const result = {
  file,
  errors: report.issues.numErrors,
  warnings: report.issues.numWarnings,
  infos: report.issues.numInfos,
  messages: report.issues.messages.filter((m) => m.severity <= 1).map((m) => `${m.code}: ${m.message} ${m.pointer ?? ''}`),
  three_loaded: !gltf.error,
  three_error: gltf.error,
  joints,
  three_bones: bones,
  animations: gltf.animations ? gltf.animations.length : 0,
  vertices,
  triangles,
  skinned_meshes: skinned,
  tracks: gltf.animations ? gltf.animations.reduce((n, a) => n + a.tracks.length, 0) : 0,
  images: (report.info?.resources ?? []).filter((r) => r.pointer?.startsWith('/images/'))
    .map((r) => `${r.mimeType} ${r.image?.width}x${r.image?.height}`),
  textured_materials: gltf.parser ? (gltf.parser.json.materials ?? []).filter((m) => m.pbrMetallicRoughness?.baseColorTexture).length : 0,
};
let ok = result.errors === 0 && result.warnings === 0 && result.three_loaded;
if (expect.joints !== undefined && (expect.joints !== result.joints || expect.joints !== result.three_bones)) ok = false;
if (expect.animations !== undefined && expect.animations !== result.animations) ok = false;
if (expect.vertices !== undefined && expect.vertices !== result.vertices) ok = false;
if (expect.triangles !== undefined && expect.triangles !== result.triangles) ok = false;
if (expect.images !== undefined) {
  const pngs = result.images.filter((i) => /^image\/png [1-9]\d*x[1-9]\d*$/.test(i)).length;
  const modes = (gltf.parser?.json.materials ?? []).every((m) => [undefined, 'OPAQUE', 'MASK', 'BLEND'].includes(m.alphaMode));
  if (result.images.length !== expect.images || pngs !== expect.images || !modes) ok = false;
  if (expect.images > 0 && result.textured_materials === 0) ok = false;
}
result.ok = ok;
console.log(JSON.stringify(result));
process.exit(ok ? 0 : 1);
