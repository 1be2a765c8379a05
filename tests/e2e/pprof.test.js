// tests/e2e/pprof.test.js: formats/pprof.js, the gzip-compressed pprof heap
// profile, read back three ways: by the npm package pprof-format (after
// node's own gunzip, which checks the CRC), by the real `go tool pprof`
// (Debian golang-go; skipped without `go`), and by the real speedscope web
// app's pprof importer in headless Chromium (skipped without Chromium).
// Run: node --test tests/e2e/pprof.test.js
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');
const { execFileSync, spawnSync } = require('node:child_process');
const { Profile } = require('pprof-format');

const { encodeProfile } = require('../../formats/pprof');
const { formatByName } = require('../../formats/index');
const { formatBytes, GzipChunks, crc32 } = require('../../output/node_output');

// The file as the CLI and the runtime under node write it.
const toPprof = (snap) => formatBytes(zlib, formatByName('pprof'), snap);

// A gzip member made by the writer's chunked gzip from these pieces.
function gzipPieces(pieces) {
  const gz = new GzipChunks(zlib);
  return Buffer.concat([gz.header(), ...pieces.map((p) => gz.deflate(p)), gz.trailer()]);
}
const { makeSnapshot, emptySnapshot } = require('../lib/fixtures');

const {ROOT} = require('../lib/paths');
const SPEEDSCOPE_APP = path.join(ROOT, 'node_modules', 'speedscope', 'dist', 'release');

const clone = (o) => JSON.parse(JSON.stringify(o));
const num = (v) => Number(v);   // pprof-format gives numbers or bigints

function decode(bytes) {
  assert.ok(bytes instanceof Uint8Array);
  return Profile.decode(zlib.gunzipSync(bytes));
}

// The profile as plain data: names instead of string indices, stacks as names.
function readable(profile) {
  const s = profile.stringTable.strings;
  const fns = new Map(profile.function.map((f) => [num(f.id), { name: s[num(f.name)], system: s[num(f.systemName)], file: s[num(f.filename)] }]));
  const locs = new Map(profile.location.map((l) => [num(l.id), l]));
  return {
    strings: s,
    sampleTypes: profile.sampleType.map((t) => `${s[num(t.type)]}/${s[num(t.unit)]}`),
    defaultSampleType: s[num(profile.defaultSampleType)],
    periodType: profile.periodType ? `${s[num(profile.periodType.type)]}/${s[num(profile.periodType.unit)]}` : null,
    period: num(profile.period),
    timeNanos: BigInt(profile.timeNanos),
    comments: profile.comment.map((c) => s[num(c)]),
    functions: fns,
    locations: locs,
    samples: profile.sample.map((smp) => ({
      values: smp.value.map(num),
      stack: smp.locationId.map((id) => {
        const loc = locs.get(num(id));
        assert.ok(loc, `sample refers to missing location ${id}`);
        assert.equal(loc.line.length, 1);
        const fn = fns.get(num(loc.line[0].functionId));
        assert.ok(fn, `location ${id} refers to a missing function`);
        return { name: fn.name, file: fn.file, line: num(loc.line[0].line), address: num(loc.address) };
      }),
    })),
  };
}

test('pprof: one gzip member from separately deflated chunks; CRC32 right', () => {
  assert.equal(crc32(Buffer.from('123456789')), 0xcbf43926);
  assert.equal(crc32(Buffer.from('6789'), crc32(Buffer.from('12345'))), 0xcbf43926, 'crc32 continues');
  assert.equal(crc32(Buffer.alloc(0)), 0);
  const data = Buffer.alloc(300000);
  for (let i = 0; i < data.length; i++) data[i] = (i * 7919) % 251 < 40 ? (i * 31) & 255 : 65;
  for (const cuts of [[], [0], [1], [65536, 200000], [100, 101, 299999]]) {
    const pieces = [];
    let at = 0;
    for (const c of cuts.concat(data.length)) {
      pieces.push(data.subarray(at, c));
      at = c;
    }
    const gz = gzipPieces(pieces);
    assert.deepEqual([...gz.subarray(0, 3)], [0x1f, 0x8b, 8]);
    assert.deepEqual(zlib.gunzipSync(gz), data, `cuts ${cuts}`);
    assert.ok(gz.length < data.length / 2, `really compressed: ${gz.length} bytes for ${data.length}`);
  }
  // a flipped payload byte is caught (CRC or deflate)
  const gz = gzipPieces([Buffer.from('hello pprof, hello pprof, hello pprof')]);
  gz[gz.length - 9] ^= 1;
  assert.throws(() => zlib.gunzipSync(gz), /check|crc|invalid/i);
});

test('pprof: heap sample types, one sample per site, leaf-first stacks', () => {
  const snap = makeSnapshot();
  const before = clone(snap);
  const p = readable(decode(toPprof(snap)));
  assert.deepEqual(snap, before, 'snapshot unchanged');
  assert.equal(p.strings[0], '');
  assert.deepEqual(p.sampleTypes, ['alloc_objects/count', 'alloc_space/bytes', 'inuse_objects/count', 'inuse_space/bytes']);
  assert.equal(p.defaultSampleType, 'inuse_space');
  assert.equal(p.periodType, 'space/bytes');
  assert.equal(p.timeNanos, BigInt(Date.parse('2026-11-22T02:22:24.123Z')) * 1000000n);

  // every site has totalAllocs > 0 here, the all-freed one included
  assert.equal(p.samples.length, snap.sites.length);
  snap.sites.forEach((site, i) => {
    assert.deepEqual(p.samples[i].values, [site.totalAllocs, site.totalBytes, site.liveBlocks, site.liveBytes]);
  });
  const names = (i) => p.samples[i].stack.map((f) => f.name);
  assert.deepEqual(names(0), ['leak_memory', 'parse_chunk', 'load_level', 'main']);
  assert.deepEqual(names(1), ['leak_memory', 'load_level', 'main']);
  assert.deepEqual(names(2), ['(unattributed)']);
  assert.deepEqual(names(3), ['wasm-function[7]', 'onClick']);
  assert.deepEqual(names(4), ['parse_chunk', 'load_level', 'main']);
  assert.deepEqual(p.samples[0].stack[0], { name: 'leak_memory', file: 'app.c', line: 42, address: 0x1a2b });
  assert.deepEqual(p.samples[1].stack[0], { name: 'leak_memory', file: 'app.c', line: 42, address: 0x1a40 });
  assert.deepEqual(p.samples[0].stack[2], { name: 'load_level', file: '', line: 0, address: 0x800 });

  // ids nonzero and unique; one Function per (name, file), a Location per frame
  const fnIds = [...p.functions.keys()];
  const locIds = [...p.locations.keys()];
  assert.ok(fnIds.every((id) => id > 0) && locIds.every((id) => id > 0));
  assert.equal(new Set(fnIds).size, fnIds.length);
  assert.equal(new Set(locIds).size, locIds.length);
  const fnNames = [...p.functions.values()].map((f) => f.name);
  assert.equal(fnNames.filter((n) => n === 'leak_memory').length, 1, 'two frames, one function');
  assert.equal(fnNames.length, new Set(fnNames.map((n, i) => n + '\0' + [...p.functions.values()][i].file)).size);
  assert.equal(p.locations.size, snap.frames.length + 1, 'one per frame, plus (unattributed)');
  for (const f of p.functions.values()) assert.equal(f.system, f.name);

  assert.ok(p.comments.some((c) => /exact-js/.test(c)), p.comments.join('|'));
  assert.ok(p.comments.some((c) => /samplingInterval: 0/.test(c)), p.comments.join('|'));
  assert.equal(p.period, 0);
});

test('pprof: sampled mode says so; sites that never allocated are left out', () => {
  const snap = makeSnapshot();
  snap.mode = 'sampled';
  snap.samplingInterval = 65536;
  snap.sites.push({ id: 9, key: 'nothing', stack: [4], liveBytes: 0, liveBlocks: 0, totalAllocs: 0, totalBytes: 0, peakLiveBytes: 0 });
  const p = readable(decode(toPprof(snap)));
  assert.equal(p.samples.length, snap.sites.length - 1);
  assert.equal(p.period, 65536);
  assert.ok(p.comments.some((c) => /sampled/.test(c)));
  assert.ok(p.comments.some((c) => /samplingInterval: 65536/.test(c)));
});

test('pprof: empty heap, non-ASCII names, a profile over 64 KiB', () => {
  const empty = readable(decode(toPprof(emptySnapshot())));
  assert.equal(empty.samples.length, 0);
  assert.equal(empty.sampleTypes.length, 4);

  const snap = emptySnapshot();
  snap.frames = [{ name: 'größe::naïve<€>' }, { name: '😀 emoji' }];
  snap.sites = [{ id: 1, key: 'k', stack: [0, 1], liveBytes: 10, liveBlocks: 1, totalAllocs: 1, totalBytes: 10, peakLiveBytes: 10 }];
  assert.deepEqual(readable(decode(toPprof(snap))).samples[0].stack.map((f) => f.name), ['größe::naïve<€>', '😀 emoji']);

  const big = emptySnapshot();
  for (let i = 0; i < 3000; i++) {
    big.frames.push({ name: `function_number_${i}_with_a_long_name`, file: `src/file_${i}.c`, line: i, offset: i * 16 });
    big.sites.push({ id: i + 1, key: `k${i}`, stack: [i], liveBytes: i + 1, liveBlocks: 1, totalAllocs: 2, totalBytes: 2 * i + 2, peakLiveBytes: i + 1 });
  }
  const bytes = toPprof(big);
  assert.ok(encodeProfile(big).length > 3 * 65535, 'several deflate blocks');
  assert.ok(bytes.length < encodeProfile(big).length / 2, 'compressed');
  const p = readable(decode(bytes));
  assert.equal(p.samples.length, 3000);
  assert.deepEqual(p.samples[2999].values, [2, 6000, 1, 3000]);
  assert.equal(p.samples[2999].stack[0].file, 'src/file_2999.c');
});

// ---------------------------------------------------------------- go tool pprof

const GO = (() => {
  const r = spawnSync('go', ['version'], { encoding: 'utf8' });
  return r.status === 0 ? false : 'no `go` on PATH (apt-get install golang-go): go tool pprof checks skipped';
})();

function goPprof(file, ...flags) {
  return execFileSync('go', ['tool', 'pprof', ...flags, file], {
    encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: Object.assign({}, process.env, { PPROF_TMPDIR: os.tmpdir() }),
  });
}

// `go tool pprof -top` rows: [{flat, name}]; the total from "of N total".
function parseTop(text) {
  const total = /of (\d+)B? total/.exec(text);
  const rows = [];
  let inTable = false;
  for (const line of text.split('\n')) {
    if (/^\s+flat\s+flat%/.test(line)) { inTable = true; continue; }
    const m = inTable && /^\s*(\d+)B?\s+[\d.]+%\s+[\d.]+%\s+(\d+)B?\s+[\d.]+%\s+(.+)$/.exec(line);
    if (m) rows.push({ flat: Number(m[1]), cum: Number(m[2]), name: m[3].trim() });
  }
  return { total: total ? Number(total[1]) : null, rows, type: (/Type: (\S+)/.exec(text) || [])[1] };
}

test('go tool pprof reads the profile: top function and totals per sample type', { skip: GO }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-pprof-'));
  try {
    const snap = makeSnapshot();
    const file = path.join(dir, 'heap.pb.gz');
    fs.writeFileSync(file, toPprof(snap));

    // default sample type: inuse_space
    const def = parseTop(goPprof(file, '-top', '-nodefraction=0', '-unit=B'));
    assert.equal(def.type, 'inuse_space');

    const inuse = parseTop(goPprof(file, '-top', '-nodefraction=0', '-unit=B', '-sample_index=inuse_space'));
    assert.equal(inuse.type, 'inuse_space');
    const live = snap.sites.reduce((t, s) => t + s.liveBytes, 0);
    assert.equal(inuse.total, live);
    // the top function is the leaf of the site with most live bytes; the two
    // leak_memory sites are one function in pprof, so it holds both
    const biggest = snap.sites.slice().sort((a, b) => b.liveBytes - a.liveBytes)[0];
    assert.equal(inuse.rows[0].name, snap.frames[biggest.stack[0]].name);
    assert.equal(inuse.rows[0].flat, 4096 + 1024);
    assert.equal(inuse.rows.find((r) => r.name === 'main').cum, 4096 + 1024);

    const sums = {
      alloc_objects: snap.sites.reduce((t, s) => t + s.totalAllocs, 0),
      alloc_space: snap.sites.reduce((t, s) => t + s.totalBytes, 0),
      inuse_objects: snap.sites.reduce((t, s) => t + s.liveBlocks, 0),
    };
    for (const [index, want] of Object.entries(sums)) {
      const top = parseTop(goPprof(file, '-top', '-nodefraction=0', '-unit=B', `-sample_index=${index}`));
      assert.equal(top.type, index);
      assert.equal(top.total, want, index);
    }

    // comments carry the mode; -traces shows leaf-first stacks
    const traces = goPprof(file, '-traces');
    assert.match(traces, /emheap exact-js heap profile/);
    assert.match(traces, /leak_memory\s*\n\s*parse_chunk\s*\n\s*load_level\s*\n\s*main/);
    // no binary to look for: the mapping says the profile is symbolized
    const raw = spawnSync('go', ['tool', 'pprof', '-raw', file], { encoding: 'utf8' });
    assert.equal(raw.status, 0);
    assert.ok(!/binary filename not available/i.test(raw.stdout + raw.stderr), raw.stderr);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('go tool pprof rejects a damaged file (the check above can fail)', { skip: GO }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-pprof-'));
  try {
    const file = path.join(dir, 'broken.pb.gz');
    const gz = toPprof(makeSnapshot());
    fs.writeFileSync(file, gz.subarray(0, gz.length - 40));
    const r = spawnSync('go', ['tool', 'pprof', '-top', file], { encoding: 'utf8' });
    assert.notEqual(r.status, 0);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// ---------------------------------------------------------------- speedscope

const { haveChromium, CHROMIUM } = require('../lib/browser');
const SPEEDSCOPE_SKIP = !haveChromium() ? `no Chromium at ${CHROMIUM}: speedscope pprof import not checked`
  : !fs.existsSync(path.join(SPEEDSCOPE_APP, 'index.html')) ? 'npm speedscope is not installed' : false;

test('speedscope imports the pprof file', { skip: SPEEDSCOPE_SKIP, timeout: 90000 }, async () => {
  const { serve } = require('../../harness/serve');
  const { launch, newPage, appOutcome } = require('../lib/browser');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-pprof-'));
  const snap = makeSnapshot();
  fs.writeFileSync(path.join(dir, 'heap.pb.gz'), toPprof(snap));
  fs.writeFileSync(path.join(dir, 'garbage.pb.gz'), zlib.gzipSync(Buffer.from('this is not a protobuf at all')));
  const server = await serve({ '/speedscope/': SPEEDSCOPE_APP, '/profiles/': dir });
  const browser = await launch();
  async function open(name) {
    const opened = await newPage(browser);
    const dialogs = [];
    opened.page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss().catch(() => {}); });
    await opened.page.goto(`${server.url}/speedscope/index.html#profileURL=${encodeURIComponent('/profiles/' + name)}`);
    const { title, text } = await appOutcome(opened.page, dialogs, ' - speedscope', 'Something went wrong');
    return Object.assign(opened, { title, text, dialogs });
  }
  try {
    const ok = await open('heap.pb.gz');
    try {
      assert.deepEqual(ok.dialogs, []);
      assert.ok(!ok.text.includes('Something went wrong'), ok.text.slice(0, 300));
      assert.equal(ok.title, 'heap.pb.gz - speedscope');
      assert.ok(ok.consoleMessages.some((m) => m.text === 'Importing as protobuf encoded pprof file'), 'taken as pprof');
      // sandwich view: leak_memory holds 5 KiB of the default (inuse_space) type
      await ok.page.keyboard.press('3');
      // the table's header comes a frame before its rows: wait for a row
      // (a table without leak_memory fails below once the wait is over)
      await ok.page.waitForFunction(() => /Symbol Name\s+\S+ KB/.test(document.body.innerText), null, { timeout: 5000 })
        .catch(() => {});
      const table = await ok.page.evaluate(() => document.body.innerText);
      assert.ok(table.includes('leak_memory'), table);
      // leak_memory first, holding 5 KiB itself (its two call sites, one function)
      assert.match(table, /Symbol Name\s+5\.00 KB \(\d+%\)\s+5\.00 KB \(\d+%\)\s+leak_memory\n/, table.slice(0, 600));
      assert.match(table, /4\.00 KB \(\d+%\)\s+0 B \(<?[\d.]+%\)\s+parse_chunk/, table.slice(0, 600));
    } finally {
      await ok.context.close();
    }
    // negative control: the same check fails on a file that is not pprof
    const bad = await open('garbage.pb.gz');
    try {
      assert.ok(!bad.title.endsWith(' - speedscope'), `garbage loaded: ${bad.title}`);
      assert.match(bad.dialogs.join('|'), /Unrecognized format/);
    } finally {
      await bad.context.close();
    }
  } finally {
    await browser.close();
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
