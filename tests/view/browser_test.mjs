// `boneyard view` in a real browser: headless Chromium driven by playwright-core.
// For each case it writes a page with the CLI, opens it from file:// and checks that
//  * it loads with no console error, no page error and no request outside the page;
//  * the motion list (names, frames) and the marks match `boneyard dump` of the motion file;
//  * the bones and meshes match the .glb that `boneyard convert` writes; info matches `info`;
//  * the canvas is not blank, is stable while paused, and playing a motion changes it;
//  * hovering a joint shows its name; the file switcher swaps the file shown;
//  * a model with its game texture draws it: the image arrives at its size, and the rendered
//    frame's model pixels have the texture's colour balance (not the grey of an untextured model).
// Usage: node browser_test.mjs BONEYARD_CLI SOURCE_DIR [SAMPLES_DIR [WRITE_MGS2_FIXTURES]]
// Exit 0 passed, 1 failed, 77 skipped (no chromium, no playwright-core, or a build without three.js).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

const [cli, src, samplesRoot, mgs2Writer] = process.argv.slice(2);
if (!cli || !src) {
  console.error('usage: browser_test.mjs BONEYARD_CLI SOURCE_DIR [SAMPLES_DIR]');
  process.exit(2);
}
const CHROMIUM = process.env.BONEYARD_CHROMIUM || '/usr/bin/chromium';
const skip = (why) => {
  console.log(`SKIP: ${why}`);
  process.exit(77);
};
if (!fs.existsSync(CHROMIUM)) skip(`${CHROMIUM} not found; install the Debian package 'chromium' (scripts/setup.sh tries)`);
let chromium;
try {
  ({ chromium } = await import(path.join(src, 'node_modules/playwright-core/index.mjs')));
} catch (e) {
  skip(`playwright-core is not installed; run 'npm ci' in ${src} (${e.message})`);
}
const probe = spawnSync(cli, ['view', '--help'], { encoding: 'utf8' });
if (probe.status !== 0) throw new Error(`boneyard view --help failed: ${probe.stderr}`);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'boneyard-view-'));
process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));
const run = (args) => spawnSync(cli, args, { encoding: 'utf8', maxBuffer: 1 << 28 });

// ---- PNG decoding (8-bit RGB/RGBA, as Chromium writes screenshots) ----
function decodePng(buf) {
  let pos = 8;
  let width = 0, height = 0, channels = 0;
  const idat = [];
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos);
    const type = buf.toString('latin1', pos + 4, pos + 8);
    const body = buf.subarray(pos + 8, pos + 8 + len);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      if (body[8] !== 8 || (body[9] !== 2 && body[9] !== 6) || body[12] !== 0) throw new Error('unsupported PNG');
      channels = body[9] === 6 ? 4 : 3;
    } else if (type === 'IDAT') {
      idat.push(body);
    }
    pos += 12 + len;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const px = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? px[y * stride + x - channels] : 0;
      const b = y > 0 ? px[(y - 1) * stride + x] : 0;
      const c = x >= channels && y > 0 ? px[(y - 1) * stride + x - channels] : 0;
      let v = line[x];
      if (f === 1) v += a;
      else if (f === 2) v += b;
      else if (f === 3) v += (a + b) >> 1;
      else if (f === 4) {
        const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      px[y * stride + x] = v & 255;
    }
  }
  return { width, height, channels, px };
}
// Pixels that differ from the most common colour (the background), and the number of colours.
function imageStats(png) {
  const { px, channels } = decodePng(png);
  const counts = new Map();
  for (let i = 0; i < px.length; i += channels) {
    const k = (px[i] << 16) | (px[i + 1] << 8) | px[i + 2];
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const background = Math.max(...counts.values());
  return { pixels: px.length / channels, foreground: px.length / channels - background, colours: counts.size };
}
// Mean chromaticity (r, g, b shares of r + g + b) of the pixels that are not the background.
function foregroundBalance(png) {
  const { px, channels } = decodePng(png);
  const counts = new Map();
  for (let i = 0; i < px.length; i += channels) {
    const k = (px[i] << 16) | (px[i + 1] << 8) | px[i + 2];
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const background = [...counts.entries()].reduce((a, b) => (b[1] > a[1] ? b : a))[0];
  const sum = [0, 0, 0];
  let n = 0;
  for (let i = 0; i < px.length; i += channels) {
    const k = (px[i] << 16) | (px[i + 1] << 8) | px[i + 2];
    const total = px[i] + px[i + 1] + px[i + 2];
    if (k === background || total < 30) continue;  // background, and nearly black pixels (edges, shadow)
    for (let c = 0; c < 3; c++) sum[c] += px[i + c] / total;
    n++;
  }
  return { pixels: n, balance: sum.map((v) => v / Math.max(n, 1)) };
}
function imageBalance(png) {
  const { px, channels } = decodePng(png);
  const sum = [0, 0, 0];
  for (let i = 0; i < px.length; i += channels) for (let c = 0; c < 3; c++) sum[c] += px[i + c];
  const total = sum[0] + sum[1] + sum[2];
  return sum.map((v) => v / total);
}
function pixelDiff(a, b) {
  const A = decodePng(a), B = decodePng(b);
  if (A.width !== B.width || A.height !== B.height) return Infinity;
  let n = 0;
  for (let i = 0; i < A.px.length; i += A.channels)
    if (A.px[i] !== B.px[i] || A.px[i + 1] !== B.px[i + 1] || A.px[i + 2] !== B.px[i + 2]) n++;
  return n;
}

// ---- expectations from the CLI (independent of the page) ----
function expectedMotions(motionFile) {
  const dump = JSON.parse(execFileSync(cli, ['dump', motionFile], { encoding: 'utf8', maxBuffer: 1 << 28 }));
  const motions = dump.format === 'ogf' ? dump.motions?.motions ?? [] : dump.motions;
  const seen = new Set();
  return motions.filter((m) => m && !seen.has(m.name) && seen.add(m.name));
}
function glbJson(file) {
  const b = fs.readFileSync(file);
  return JSON.parse(b.toString('utf8', 20, 20 + b.readUInt32LE(12)));
}

// An .anm (docs/xray-sdk.md): chunk 0x1100 holding "shot", frames 0-60 at 30 fps, version 5 and six
// v2 envelopes (behaviours constant), channel c going from c to 10 c over 2 s with TCB keys.
function anmFile() {
  const parts = [Buffer.from('shot\0', 'latin1')];
  const head = Buffer.alloc(14);
  head.writeInt32LE(0, 0);
  head.writeInt32LE(60, 4);
  head.writeFloatLE(30, 8);
  head.writeUInt16LE(5, 12);
  parts.push(head);
  for (let c = 0; c < 6; c++) {
    const env = Buffer.alloc(4 + 2 * 23);
    env.writeUInt8(1, 0);
    env.writeUInt8(1, 1);
    env.writeUInt16LE(2, 2);
    [[0, c * 0.1], [2, c * 0.5 + 0.2]].forEach(([time, value], k) => {
      const at = 4 + k * 23;
      env.writeFloatLE(value, at);
      env.writeFloatLE(time, at + 4);
      env.writeUInt8(0, at + 8);  // TCB, its seven parameters 0 (stored 32768)
      for (let q = 0; q < 7; q++) env.writeUInt16LE(32768, at + 9 + 2 * q);
    });
    parts.push(env);
  }
  const body = Buffer.concat(parts);
  const chunk = Buffer.alloc(8);
  chunk.writeUInt32LE(0x1100, 0);
  chunk.writeUInt32LE(body.length, 4);
  return Buffer.concat([chunk, body]);
}

let failures = 0;
const check = (ok, what) => {
  if (!ok) failures++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
};

const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
});

// A page for `files` (+ extra CLI args); `cases` describe each file of the page, in order.
async function testPage(label, files, extra, cases) {
  console.log(`== ${label}`);
  const page = path.join(tmp, label.replace(/\W+/g, '_') + '.html');
  const r = run(['view', ...files, '-o', page, ...extra]);
  if (r.status === 2 && /built without three\.js/.test(r.stderr)) skip(r.stderr.trim());
  check(r.status === 0 && fs.existsSync(page), `boneyard view ${files.join(' ')} ${extra.join(' ')} (exit ${r.status}) ${r.stderr.trim()}`);
  if (!fs.existsSync(page)) return;
  const html = fs.readFileSync(page, 'utf8');
  check(!/<(script|link|img)[^>]+(src|href)=/i.test(html), 'no script, style or image is loaded from a URL');

  const tab = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = [];
  const requests = [];
  tab.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  tab.on('pageerror', (e) => errors.push(String(e)));
  tab.on('request', (q) => !/^(data|blob):/.test(q.url()) && requests.push(q.url()));
  await tab.goto('file://' + page);
  await tab.waitForSelector('body[data-state="ready"], body[data-state="error"]', { timeout: 120000 });
  check((await tab.getAttribute('body', 'data-state')) === 'ready', 'the page starts');

  for (let k = 0; k < cases.length; k++) {
    const c = cases[k];
    if (k > 0) {
      await tab.selectOption('#file', String(k));
      await tab.waitForFunction((i) => document.body.dataset.state === 'ready' && document.querySelector('#file').value === String(i), k);
    }
    console.log(`-- ${c.file}`);
    const info = execFileSync(cli, ['info', c.file], { encoding: 'utf8' }).split('\n').slice(1).join('\n');
    check((await tab.textContent('#info')).trim() === info.trim(), 'info panel = boneyard info');
    const validate = run(['validate', '--info', c.file]).stdout.split('\n').filter((l) => l && !l.startsWith(c.file + ': ok') && !l.startsWith(c.file + ': FAIL'));
    const findings = await tab.$$eval('#findings li', (ls) => ls.map((l) => l.textContent));
    check(validate.every((l) => findings.includes(l)), `findings panel lists the validator's ${validate.length} finding(s)`);

    const glbFile = path.join(tmp, 'model.glb');
    const converted = run(['convert', c.file, '-o', glbFile, ...(c.convertArgs ?? [])]);
    if (converted.status !== 0) {
      // A format without a glTF export (yet): the page shows the summary, findings and why.
      check(/cannot convert/.test(converted.stderr) && /no glTF export/.test(await tab.textContent('#message')),
        `says there is no glTF export (${(await tab.textContent('#message')).trim()})`);
      continue;
    }
    const gltf = glbJson(glbFile);
    const joints = new Set((gltf.skins ?? []).flatMap((s) => s.joints)).size;
    const meshNodes = (gltf.nodes ?? []).filter((n) => n.mesh !== undefined).length;
    check((await tab.evaluate(() => window.boneyardView.bones().length)) === joints, `bones shown = ${joints} joints in the .glb`);
    check((await tab.$$('#bones span')).length === joints, 'bone tree lists every joint');
    const meshes = await tab.evaluate(() => window.boneyardView.meshes());
    check(meshNodes === 0 ? meshes === 0 : meshes > 0, `meshes shown (${meshes}) match the .glb (${meshNodes} mesh nodes)`);

    // Without a motion file to compare with (refs that cannot be resolved here), the list is only printed.
    const expected = c.motionsFrom ? expectedMotions(c.motionsFrom) : [];
    const names = await tab.$$eval('#motions li .name', (ls) => ls.map((l) => l.textContent));
    const listed = `${names.slice(0, 6).join(', ')}${names.length > 6 ? ', ...' : ''}`;
    if (c.motionsFrom) {
      check(JSON.stringify(names) === JSON.stringify(expected.map((m) => m.name)),
        `motion list = the ${expected.length} motion(s) of ${path.basename(c.motionsFrom)}: ${listed}`);
      const notes = await tab.$$eval('#motions li small', (ls) => ls.map((l) => l.textContent));
      check(expected.every((m, i) => notes[i]?.startsWith(`${m.frames} f`)), 'frame counts match');
    } else {
      console.log(`     motions: ${names.length} (${listed})`);
    }

    const canvas = await tab.$('#view');
    const shot = () => canvas.screenshot();
    const rest = await shot();
    const stats = imageStats(rest);
    check(stats.foreground > stats.pixels * 0.001 && stats.colours > 2,
      `canvas is not blank (${stats.foreground} of ${stats.pixels} pixels drawn, ${stats.colours} colours)`);
    if (c.texture) {
      // The texture as boneyard decodes it; the frame must show its colour balance.
      const png = path.join(tmp, 'texture.png');
      execFileSync(cli, ['texture', c.texture, '-o', png]);
      const want = imageBalance(fs.readFileSync(png));
      const { width, height } = decodePng(fs.readFileSync(png));
      const shown = await tab.evaluate(() => window.boneyardView.textures());
      check(shown.length === 1 && shown[0][0] === width && shown[0][1] === height,
        `the texture is drawn at its size (${JSON.stringify(shown)}, ${width}x${height} in the file)`);
      // Lighting desaturates the texture (measured 0.39:0.33:0.28 for the zombie), so the frame must
      // order the channels as the texture does, stay within 0.1 of it, and be clearly not grey
      // (an untextured model renders at 0.333 each).
      const got = foregroundBalance(rest);
      const [r, g, b] = got.balance;
      const ordered = (r > g) === (want[0] > want[1]) && (g > b) === (want[1] > want[2]);
      const close = got.balance.every((v, k) => Math.abs(v - want[k]) < 0.1);
      check(got.pixels > 500 && ordered && close && Math.abs(r - 1 / 3) > 0.03 && Math.abs(b - 1 / 3) > 0.03,
        `model pixels have the texture's colours: r:g:b ${got.balance.map((v) => v.toFixed(3)).join(':')} over ${got.pixels} ` +
        `pixels, texture ${want.map((v) => v.toFixed(3)).join(':')}`);
    }

    if (joints > 0) {
      const all = await tab.evaluate((n) => [...Array(n).keys()].map((i) => window.boneyardView.jointScreen(i)), joints);
      const boneNames = await tab.evaluate(() => window.boneyardView.bones());
      const i = all.length - 1;
      const accepted = boneNames.filter((_, j) => Math.hypot(all[j].x - all[i].x, all[j].y - all[i].y) < 2);
      await tab.mouse.move(all[i].x, all[i].y);
      await tab.waitForTimeout(100);
      const tip = (await tab.isVisible('#tooltip')) ? await tab.textContent('#tooltip') : '';
      check(accepted.includes(tip), `hovering joint ${i} shows its name ("${tip}")`);
      await tab.mouse.move(5, 5);
    }

    if (c.anm) {
      // An object or camera motion: one animated node shown with axes (a camera as a frustum),
      // one motion, and playing it moves what is drawn.
      check((await tab.evaluate(() => window.boneyardView.motions().length)) === 1, 'one motion listed');
      const drawn = await tab.evaluate(() => window.boneyardView.bones().length + window.boneyardView.movers());
      check(drawn === 1, `the moving node is drawn with axes (as a joint or a node: ${drawn})`);
      check((await tab.evaluate(() => window.boneyardView.cameras())) === (c.camera ? 1 : 0),
        c.camera ? 'the camera is drawn as a frustum' : 'no camera drawn');
      await tab.click('#motions li:nth-child(1)');
      await tab.waitForTimeout(200);
      const start = await shot();
      await tab.fill('#frame', String(c.frame));
      await tab.dispatchEvent('#frame', 'input');
      await tab.waitForTimeout(200);
      check(pixelDiff(start, await shot()) > 0, `frame ${c.frame} differs from frame 0`);
    }

    if (expected.length > 0) {
      // The longest motion; its marks (seconds) are drawn under the slider.
      const m = expected.reduce((best, x, j) => (x.frames > expected[best].frames ? j : best), 0);
      await tab.click(`#motions li:nth-child(${m + 1})`);
      await tab.waitForTimeout(200);
      const paused = await shot();
      await tab.waitForTimeout(300);
      check(pixelDiff(paused, await shot()) === 0, 'the image is stable while paused');
      const intervals = (expected[m].marks ?? []).reduce((n, mk) => n + mk.intervals.length, 0);
      check((await tab.$$('#mark-track div')).length === intervals, `${intervals} mark interval(s) drawn for ${expected[m].name}`);
      const params = await tab.$$eval('#params tr', (rows) => Object.fromEntries(rows.map((r) => [r.cells[0].textContent, r.cells[1].textContent])));
      const near = (k) => Math.abs(Number(params[k]) - expected[m][k]) < 1e-5;
      check(['speed', 'power', 'accrue', 'falloff'].every(near) && Number(params.frames) === expected[m].frames,
        `motion params shown (speed ${params.speed}, power ${params.power}, accrue ${params.accrue}, falloff ${params.falloff})`);
      // Looked at while it plays, for up to 5 s: where playback stands when it is paused depends on
      // the machine's speed, and a cyclic motion passes poses equal to frame 0's (the example's
      // wave is at frame 15 of 31).
      await tab.click('#play');
      let diff = 0;
      for (let tries = 0; tries < 50 && diff === 0; ++tries) {
        await tab.waitForTimeout(100);
        diff = pixelDiff(paused, await shot());
      }
      await tab.click('#play');
      const frame = Number(await tab.inputValue('#frame'));
      check(diff > 0, `playing ${expected[m].name} moves it (${diff} pixels changed while playing; paused at frame ${frame})`);
      await tab.fill('#frame', '0');
      await tab.dispatchEvent('#frame', 'input');
      await tab.waitForTimeout(200);
      check(pixelDiff(paused, await shot()) === 0, 'the frame slider goes back to frame 0');
    }
  }
  check(errors.length === 0, `no console errors${errors.length ? ': ' + errors.join(' | ') : ''}`);
  check(requests.every((u) => u === 'file://' + page), `no request outside the page${requests.length > 1 ? ': ' + requests.join(' ') : ''}`);
  await tab.close();
}

const ex = path.join(src, 'examples');
const arm = path.join(ex, 'wave_arm.ogf');
const wave = path.join(ex, 'wave.omf');
try {
  await testPage('example ogf', [arm], [], [{ file: arm, motionsFrom: wave }]);
  await testPage('example omf on skeleton', [wave], ['--skeleton', arm], [{ file: wave, motionsFrom: wave, convertArgs: ['--skeleton', arm] }]);
  await testPage('two files', [arm, wave], [], [{ file: arm, motionsFrom: wave }, { file: wave, motionsFrom: wave }]);
  // The SDK's object and camera motions (.anm), under camera_effects/ (a camera motion) and not.
  fs.mkdirSync(path.join(tmp, 'camera_effects'));
  const shotAnm = path.join(tmp, 'camera_effects', 'shot.anm');
  const objectAnm = path.join(tmp, 'object.anm');
  fs.writeFileSync(shotAnm, anmFile());
  fs.copyFileSync(shotAnm, objectAnm);
  await testPage('anm camera', [shotAnm], [], [{ file: shotAnm, anm: true, camera: true, frame: 20 }]);
  await testPage('anm object', [objectAnm], [], [{ file: objectAnm, anm: true, camera: false, frame: 20 }]);
  if (mgs2Writer) {
    execFileSync(mgs2Writer, [tmp]);
    const kms = path.join(tmp, 'fixture.kms');
    const evm = path.join(tmp, 'fixture.evm');
    await testPage('mgs2 fixtures', [kms, evm], [], [{ file: kms }, { file: evm }]);
  }
  const soc = path.join(samplesRoot ?? '', 'xray/soc');
  if (samplesRoot && fs.existsSync(soc)) {
    const zombi = path.join(soc, 'zombi_1.ogf');
    const anims = path.join(soc, 'zombi_animation.omf');
    await testPage('zombi', [anims], ['--skeleton', zombi], [{ file: anims, motionsFrom: anims, convertArgs: ['--skeleton', zombi] }]);
    await testPage('rat model', [path.join(soc, 'rat_1.ogf')], [], [{ file: path.join(soc, 'rat_1.ogf') }]);
    // The zombie's texture is markedly red-brown (r:g:b about 0.48:0.30:0.21), far from grey.
    const textures = path.join(samplesRoot, 'xray/textures');
    const zombiModel = path.join(soc, 'zombi_1.ogf');
    await testPage('textured zombi', [zombiModel], ['--textures', textures],
      [{ file: zombiModel, convertArgs: ['--textures', textures], texture: path.join(textures, 'act/act_zombie_6.dds') }]);
  } else {
    console.log('(real samples not found: only the examples were checked)');
  }
} finally {
  await browser.close();
}
console.log(failures === 0 ? 'browser test: all checks passed' : `browser test: ${failures} check(s) failed`);
process.exit(failures === 0 ? 0 : 1);
