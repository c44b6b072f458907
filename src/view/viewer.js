// boneyard view: the page's script. An ES module whose imports the page's loader links to the
// three.js modules inlined in the page (nothing is fetched). It shows, for each file, the glTF
// export (meshes when present, the skeleton as bones and joints), its motions with a player,
// the motion params and marks from the animations' extras, the info summary and the findings.
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';

const FPS = 30; // X-Ray motions are sampled at 30 fps; the frame slider counts frames at this rate
const data = JSON.parse(document.getElementById('boneyard-data').textContent);
const $ = (id) => document.getElementById(id);

function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  Object.assign(e, props);
  e.append(...children);
  return e;
}

function bytesFromBase64(b64) {
  const s = atob(b64);
  const a = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) a[i] = s.charCodeAt(i);
  return a;
}

// ---- renderer, scene, camera (the page still shows the panels when WebGL is missing) ----
const canvas = $('view');
let renderer = null;
let webglError = '';
try {
  renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(window.devicePixelRatio);
} catch (e) {
  webglError = String(e?.message ?? e);
}
const scene = new THREE.Scene();
scene.background = new THREE.Color(0x303338);
scene.add(new THREE.HemisphereLight(0xffffff, 0x445566, 2.2));
const sun = new THREE.DirectionalLight(0xffffff, 1.6);
sun.position.set(3, 10, 6);
scene.add(sun);
const camera = new THREE.PerspectiveCamera(45, 1, 0.01, 1000);
const controls = new OrbitControls(camera, canvas);
controls.enableDamping = false; // the image changes only when the user or a motion moves something

function resize() {
  const w = Math.max(1, canvas.clientWidth);
  const h = Math.max(1, canvas.clientHeight);
  camera.aspect = w / h;
  camera.updateProjectionMatrix();
  if (renderer) renderer.setSize(w, h, false);
}
new ResizeObserver(resize).observe(canvas);

// Images a .glb refers to by URI are not in the page: they load as a grey pixel and are listed.
const grey = document.createElement('canvas');
grey.width = grey.height = 1;
grey.getContext('2d').fillStyle = '#999';
grey.getContext('2d').fillRect(0, 0, 1, 1);
const greyPixel = grey.toDataURL('image/png');
let missingImages = [];
const manager = new THREE.LoadingManager();
manager.setURLModifier((url) => {
  if (url.startsWith('data:') || url.startsWith('blob:')) return url;
  missingImages.push(url);
  return greyPixel;
});

// ---- the file shown ----
let cur = null; // { root, mixer, clips, anims, bones, joints, helper, overlay, meshes, action, motion, rest, radius }
let playing = false;
let speed = 1;
let hovered = null;
let selectedBone = null;

function message(text) {
  $('message').hidden = !text;
  $('message').textContent = text || '';
}

function dispose() {
  if (!cur) return;
  cur.mixer.stopAllAction();
  scene.remove(cur.root, cur.overlay);
  cur.overlay.children[0]?.geometry.dispose();
  for (const j of cur.overlay.children) for (const a of j.children) a.dispose();
  if (cur.helper) {
    scene.remove(cur.helper);
    cur.helper.dispose();
  }
  if (cur.grid) scene.remove(cur.grid);
  cur.root.traverse((o) => {
    o.geometry?.dispose();
    for (const m of [o.material].flat()) {
      if (!m) continue;
      for (const v of Object.values(m)) if (v?.isTexture) v.dispose();
      m.dispose();
    }
  });
  cur = null;
}

function fillFindings(file, extra) {
  const list = $('findings');
  list.replaceChildren();
  const all = [...file.warnings, ...file.findings, ...extra];
  for (const f of all) list.append(el('li', { className: f.severity, textContent: f.text }));
  if (all.length === 0) list.append(el('li', { className: 'ok', textContent: 'no findings' }));
  const count = (s) => all.filter((f) => f.severity === s).length;
  $('finding-count').textContent = `(${count('error')} errors, ${count('warning')} warnings, ${count('info')} info)`;
}

function jointName(parser, obj) {
  const index = parser.associations.get(obj)?.nodes;
  const node = index === undefined ? null : parser.json.nodes[index];
  return node?.extras?.xray?.name ?? node?.name ?? obj.name;
}

function buildTree() {
  const panel = $('bones');
  panel.replaceChildren();
  $('bone-count').textContent = cur ? `(${cur.bones.length})` : '';
  if (!cur || cur.bones.length === 0) {
    panel.textContent = 'no skeleton';
    return;
  }
  const item = (bone) => {
    const label = el('span', { textContent: bone.userData.jointName });
    label.dataset.bone = cur.bones.indexOf(bone);
    label.addEventListener('click', () => selectBone(bone));
    label.addEventListener('mouseenter', () => setHover(bone));
    label.addEventListener('mouseleave', () => setHover(null));
    bone.userData.label = label;
    const li = el('li', {}, label);
    const kids = bone.children.filter((c) => c.isBone);
    if (kids.length) li.append(el('ul', {}, ...kids.map(item)));
    return li;
  };
  const roots = cur.bones.filter((b) => !b.parent?.isBone);
  panel.append(el('ul', {}, ...roots.map(item)));
}

function setHover(bone) {
  if (hovered === bone) return;
  if (hovered) {
    hovered.userData.label?.classList.remove('hover');
    hovered.userData.joint.material = hovered === selectedBone ? selectedMaterial : jointMaterial;
  }
  hovered = bone;
  if (bone) {
    bone.userData.label?.classList.add('hover');
    bone.userData.joint.material = hoverMaterial;
  }
}

function selectBone(bone) {
  if (selectedBone) {
    selectedBone.userData.label?.classList.remove('selected');
    selectedBone.userData.joint.material = jointMaterial;
  }
  selectedBone = bone === selectedBone ? null : bone;
  if (selectedBone) {
    selectedBone.userData.label?.classList.add('selected');
    selectedBone.userData.label?.scrollIntoView({ block: 'nearest' });
    selectedBone.userData.joint.material = selectedMaterial;
  }
}

const jointMaterial = new THREE.MeshBasicMaterial({ color: 0xffc94d, depthTest: false, transparent: true });
const hoverMaterial = new THREE.MeshBasicMaterial({ color: 0xff5050, depthTest: false, transparent: true });
const selectedMaterial = new THREE.MeshBasicMaterial({ color: 0x5fd0ff, depthTest: false, transparent: true });

// Frames the camera on the meshes and joints, at rest and at the start and middle of the first
// motions (a flat armature has every joint at the origin at rest); sizes the grid and joints.
function frameModel() {
  const box = new THREE.Box3();
  const p = new THREE.Vector3();
  const addPose = () => {
    cur.root.updateMatrixWorld(true);
    for (const b of cur.bones) box.expandByPoint(b.getWorldPosition(p));
    for (const o of cur.movers) box.expandByPoint(o.getWorldPosition(p));
  };
  cur.root.updateMatrixWorld(true);
  for (const m of cur.meshes) box.expandByObject(m);
  addPose();
  for (const clip of cur.clips.slice(0, 16)) {
    const action = cur.mixer.clipAction(clip).play();
    for (const t of [0, clip.duration / 2]) {
      action.time = t;
      cur.mixer.update(0);
      addPose();
    }
    action.stop();
  }
  restorePose();
  cur.root.updateMatrixWorld(true);
  if (box.isEmpty()) box.set(new THREE.Vector3(-0.5, 0, -0.5), new THREE.Vector3(0.5, 1, 0.5));
  const center = box.getCenter(new THREE.Vector3());
  const extent = box.getSize(new THREE.Vector3()).length() / 2;
  const radius = extent > 1e-6 ? extent : 0.5; // a single point (joints at the origin, no motion)
  cur.radius = radius;
  camera.near = radius / 200;
  camera.far = radius * 200;
  camera.position.copy(center).add(new THREE.Vector3(0.9, 0.55, 1.6).normalize().multiplyScalar(radius * 3.2));
  camera.updateProjectionMatrix();
  controls.target.copy(center);
  controls.update();
  cur.grid = new THREE.GridHelper(radius * 6, 24, 0x777777, 0x4a4a4a);
  cur.grid.position.set(center.x, box.min.y, center.z);
  cur.grid.visible = $('show-grid').checked;
  scene.add(cur.grid);
  const sphere = new THREE.SphereGeometry(radius * 0.018, 12, 8);
  for (const b of cur.bones) {
    b.userData.joint.geometry = sphere;
    b.userData.joint.children[0].scale.setScalar(radius * 0.06);
  }
  for (const o of cur.movers) o.children.find((c) => c.type === 'AxesHelper')?.scale.setScalar(radius * 0.2);
}

function motionFrames(i) {
  const x = cur.anims[i]?.extras?.xray;
  return Number.isInteger(x?.frames) && x.frames > 0 ? x.frames : Math.round(cur.clips[i].duration * FPS) + 1;
}

function fillMotions() {
  const list = $('motions');
  list.replaceChildren();
  const n = cur ? cur.clips.length : 0;
  $('motion-count').textContent = `(${n})`;
  for (let i = 0; i < n; i++) {
    const x = cur.anims[i]?.extras?.xray ?? {};
    const note = [`${motionFrames(i)} f`, x.flag_words].filter((w) => w && w !== '-').join(' · ');
    const li = el('li', {}, el('span', { className: 'name', textContent: cur.anims[i]?.name ?? cur.clips[i].name }),
      el('small', { textContent: note }));
    li.addEventListener('click', () => selectMotion(i));
    list.append(li);
  }
  if (n === 0) list.append(el('li', { textContent: cur ? 'no motions' : '-' }));
}

function restorePose() {
  for (const [o, t, q, s] of cur.rest) {
    o.position.copy(t);
    o.quaternion.copy(q);
    o.scale.copy(s);
  }
}

function fillParams(i) {
  const table = $('params');
  const marks = $('marks');
  const track = $('mark-track');
  table.replaceChildren();
  marks.replaceChildren();
  track.replaceChildren();
  if (i < 0) return;
  const anim = cur.anims[i] ?? {};
  const x = anim.extras?.xray ?? anim.extras ?? {};
  const row = (k, v) => table.append(el('tr', {}, el('td', { textContent: k }), el('td', { textContent: v })));
  row('name', anim.name ?? cur.clips[i].name);
  row('duration', `${cur.clips[i].duration.toFixed(3)} s`);
  const sets = cur.sceneExtras?.xray?.motion_sets;
  if (Number.isInteger(x.motion_set) && sets?.[x.motion_set]) row('from', sets[x.motion_set].source ?? '');
  for (const [k, v] of Object.entries(x)) {
    if (k === 'name' || k === 'marks' || k === 'records') continue;
    row(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  const duration = cur.clips[i].duration || 1;
  for (const m of x.marks ?? []) {
    const spans = (m.intervals ?? []).map(([a, b]) => `${a.toFixed(3)}–${b.toFixed(3)} s`).join(', ');
    marks.append(el('div', {}, el('b', { textContent: 'mark ' + m.name }), ': ' + (spans || 'none')));
    for (const [a, b] of m.intervals ?? []) {
      const seg = el('div', { title: `${m.name} ${a.toFixed(3)}–${b.toFixed(3)} s` });
      seg.style.left = `${(100 * Math.max(0, a)) / duration}%`;
      seg.style.width = `${Math.max(0.5, (100 * (Math.min(b, duration) - a)) / duration)}%`;
      track.append(seg);
    }
  }
}

function selectMotion(i) {
  if (cur.action) cur.action.stop();
  restorePose();
  cur.motion = i;
  [...$('motions').children].forEach((li, k) => li.classList.toggle('selected', k === i));
  cur.action = null;
  fillParams(i);
  const slider = $('frame');
  slider.disabled = $('play').disabled = i < 0;
  if (i >= 0) {
    cur.action = cur.mixer.clipAction(cur.clips[i]);
    cur.action.setLoop(THREE.LoopRepeat, Infinity);
    cur.action.play();
    cur.action.paused = !playing;
    cur.mixer.update(0);
    slider.max = String(motionFrames(i) - 1);
  }
  updatePlayer();
}

function updatePlayer() {
  $('play').textContent = playing ? 'Pause' : 'Play';
  if (!cur?.action) {
    $('frame').value = '0';
    $('frame-label').textContent = '-';
    return;
  }
  const t = cur.action.time;
  const frame = Math.min(Math.round(t * FPS), Number($('frame').max));
  $('frame').value = String(frame);
  $('frame-label').textContent = `frame ${frame} / ${$('frame').max}  ${t.toFixed(2)} s`;
}

async function show(index) {
  document.body.dataset.state = 'loading';
  dispose();
  hovered = selectedBone = null;
  playing = false;
  const file = data.files[index];
  $('format').textContent = '.' + file.format;
  $('info').textContent = file.info;
  fillFindings(file, []);
  message('');
  if (!file.glb) {
    buildTree();
    fillMotions();
    fillParams(-1);
    updatePlayer();
    message(file.no_model);
    document.body.dataset.state = 'ready';
    return;
  }
  missingImages = [];
  const bytes = bytesFromBase64(file.glb);
  const gltf = await new Promise((ok, fail) => new GLTFLoader(manager).parse(bytes.buffer, '', ok, fail));
  const root = gltf.scene;
  const bones = [];
  const meshes = [];
  const rest = [];
  root.traverse((o) => {
    if (o.isBone) bones.push(o);
    if (o.isMesh) meshes.push(o);
    rest.push([o, o.position.clone(), o.quaternion.clone(), o.scale.clone()]);
  });
  const overlay = new THREE.Group();
  for (const b of bones) {
    b.userData.jointName = jointName(gltf.parser, b);
    const joint = new THREE.Mesh(undefined, jointMaterial);
    joint.renderOrder = 1000;
    joint.userData.bone = b;
    // Axes show each joint's orientation: a rotation is visible even where no bone line moves.
    const axes = new THREE.AxesHelper(1);
    axes.material.depthTest = false;
    axes.renderOrder = 1001;
    joint.add(axes);
    b.userData.joint = joint;
    overlay.add(joint);
  }
  // Nodes an animation moves that are neither bones nor meshes (an object or camera motion, .anm):
  // axes on each, so that the motion shows; a camera on one is drawn as a small frustum.
  const targets = new Set(gltf.animations.flatMap((c) => c.tracks.map((t) => THREE.PropertyBinding.parseTrackName(t.name).nodeName)));
  const movers = [];
  const frustums = [];
  root.traverse((o) => {
    if (o !== root && !o.isBone && !o.isMesh && !o.isCamera && targets.has(o.name)) {
      const axes = new THREE.AxesHelper(1);
      axes.material.depthTest = false;
      axes.renderOrder = 1001;
      o.add(axes);
      movers.push(o);
    }
    if (!o.isCamera) return;
    o.far = Math.min(o.far, 0.3);
    o.updateProjectionMatrix();
    const frustum = new THREE.CameraHelper(o);
    frustum.material.depthTest = false;
    frustums.push(frustum);
    overlay.add(frustum);
  });
  let helper = null;
  if (bones.length) {
    helper = new THREE.SkeletonHelper(root);
    helper.material.depthTest = false;
    helper.renderOrder = 999;
    scene.add(helper);
  }
  scene.add(root, overlay);
  cur = { root, overlay, helper, bones, meshes, movers, frustums, rest, mixer: new THREE.AnimationMixer(root), clips: gltf.animations,
    anims: gltf.parser.json.animations ?? [], sceneExtras: gltf.parser.json.scenes?.[0]?.extras, action: null, motion: -1 };
  frameModel();
  applyToggles();
  $('show-mesh').disabled = meshes.length === 0;
  buildTree();
  fillMotions();
  selectMotion(-1);
  const extra = [...new Set(missingImages)].map((u) => ({ severity: 'warning', text: `image not in the .glb (shown grey): ${u}` }));
  fillFindings(file, extra);
  if (!renderer) message('WebGL is not available in this browser: ' + webglError);
  document.body.dataset.state = 'ready';
}

function applyToggles() {
  if (cur?.grid) cur.grid.visible = $('show-grid').checked;
  if (!cur) return;
  if (cur.helper) cur.helper.visible = $('show-bones').checked;
  cur.overlay.visible = $('show-bones').checked;
  for (const m of cur.meshes) m.visible = $('show-mesh').checked;
}

// ---- events ----
for (const id of ['show-bones', 'show-mesh', 'show-grid']) $(id).addEventListener('change', applyToggles);
$('play').addEventListener('click', () => {
  playing = !playing;
  if (cur?.action) cur.action.paused = !playing;
  updatePlayer();
});
// Space plays/pauses, arrows step a frame (when no form field has the focus).
document.addEventListener('keydown', (e) => {
  if (!cur?.action || e.target.closest?.('input, select, textarea')) return;
  if (e.key === ' ') $('play').click();
  else if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
    const f = Number($('frame').value) + (e.key === 'ArrowRight' ? 1 : -1);
    $('frame').value = String(Math.max(0, Math.min(f, Number($('frame').max))));
    $('frame').dispatchEvent(new Event('input'));
  } else return;
  e.preventDefault();
});
$('frame').addEventListener('input', () => {
  if (!cur?.action) return;
  cur.action.time = Math.min(Number($('frame').value) / FPS, cur.clips[cur.motion].duration);
  cur.mixer.update(0);
  updatePlayer();
});
$('speed').addEventListener('change', () => {
  speed = Number($('speed').value);
});
const select = $('file');
data.files.forEach((f, i) => select.append(el('option', { value: String(i), textContent: f.name })));
select.disabled = data.files.length < 2;
select.addEventListener('change', () => show(Number(select.value)));

const raycaster = new THREE.Raycaster();
const pointer = new THREE.Vector2();
canvas.addEventListener('pointermove', (e) => {
  if (!cur || !cur.overlay.visible) return;
  pointer.set((e.offsetX / canvas.clientWidth) * 2 - 1, -(e.offsetY / canvas.clientHeight) * 2 + 1);
  raycaster.setFromCamera(pointer, camera);
  const hit = raycaster.intersectObjects(cur.overlay.children, false)[0];
  const bone = hit?.object.userData.bone ?? null;
  setHover(bone);
  const tip = $('tooltip');
  tip.hidden = !bone;
  if (bone) {
    tip.textContent = bone.userData.jointName;
    tip.style.left = `${e.offsetX + 12}px`;
    tip.style.top = `${e.offsetY + 12}px`;
  }
});
canvas.addEventListener('pointerleave', () => {
  setHover(null);
  $('tooltip').hidden = true;
});
canvas.addEventListener('click', () => {
  if (hovered) selectBone(hovered);
});

// ---- the loop ----
let last = performance.now();
function tick(now) {
  const dt = Math.min((now - last) / 1000, 0.1);
  last = now;
  if (cur) {
    if (cur.action && playing) {
      cur.mixer.update(dt * speed);
      updatePlayer();
    }
    for (const b of cur.bones) {
      b.getWorldPosition(b.userData.joint.position);
      b.getWorldQuaternion(b.userData.joint.quaternion);
    }
  }
  if (renderer) renderer.render(scene, camera);
  requestAnimationFrame(tick);
}
requestAnimationFrame(tick);

// For scripts and tests: what the page shows.
window.boneyardView = {
  files: data.files.map((f) => f.name),
  motions: () => (cur ? cur.anims.map((a, i) => a.name ?? cur.clips[i].name) : []),
  bones: () => (cur ? cur.bones.map((b) => b.userData.jointName) : []),
  meshes: () => (cur ? cur.meshes.length : 0),
  // Animated nodes that are not bones (an .anm's object) and cameras drawn as frustums.
  movers: () => (cur ? cur.movers.length : 0),
  cameras: () => (cur ? cur.frustums.length : 0),
  // Base colour textures drawn (decoded images), e.g. [[1024, 1024]].
  textures: () => (cur ? [...new Set(cur.meshes.flatMap((m) => [m.material].flat().map((x) => x?.map?.image)).filter((i) => i?.width))]
    .map((i) => [i.width, i.height]) : []),
  // Where joint `i` is drawn, in page pixels.
  jointScreen: (i) => {
    const v = cur.bones[i].getWorldPosition(new THREE.Vector3()).project(camera);
    const r = canvas.getBoundingClientRect();
    return { x: r.left + ((v.x + 1) / 2) * r.width, y: r.top + ((1 - v.y) / 2) * r.height };
  },
  show,
};
await show(0);
