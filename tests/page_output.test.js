// page_output.test.js -- output/page_output.js with an in-memory stand-in for
// the origin private file system: a file moves there once it passes the
// spill size, its bytes come back whole and in order, the entry is removed
// when released, stale entries of closed pages are removed, and a browser
// that refuses (no API, createWritable throwing, a write failing) keeps
// every part in memory. The real OPFS is exercised by the 1-4 GB page
// downloads of tests/e2e/export_scale.test.js in Chromium.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const {pageFile, writeInSlices} = require('../output/page_output');

// An OPFS directory in memory: {storage, files: Map(name -> Blob)}.
function fakeStorage({refuseWritable = false, failWriteAfter = Infinity} = {}) {
  const files = new Map();
  let writes = 0;
  const root = {
    getFileHandle: async (name) => {
      if (!files.has(name)) files.set(name, new Blob([]));
      return {
        createWritable: async () => {
          if (refuseWritable) throw new Error('NotAllowedError');
          const parts = [];
          return {
            write: async (blob) => {
              if (++writes > failWriteAfter) throw new Error('QuotaExceededError');
              parts.push(blob);
            },
            close: async () => { files.set(name, new Blob(parts)); },
            abort: async () => {},
          };
        },
        getFile: async () => files.get(name),
      };
    },
    removeEntry: async (name) => { files.delete(name); },
    entries: () => {
      const list = [...files.entries()];
      return {next: async () => (list.length ? {done: false, value: list.shift()} : {done: true})};
    },
  };
  return {storage: {getDirectory: async () => root}, files};
}

async function write(out, pieces) {
  for (const p of pieces) await out.add([p, '', new TextEncoder().encode('')]);
  return out.finish('application/json');
}

const PIECES = Array.from({length: 20}, (_, i) => String(i).padStart(3, '0') + 'x'.repeat(97));
const WHOLE = PIECES.join('');

test('small files stay Blob parts; no storage is touched', async () => {
  const {storage, files} = fakeStorage();
  const warnings = [];
  const blob = await write(pageFile(storage, (w) => warnings.push(w), {spillBytes: 1e6}), PIECES);
  assert.equal(await blob.text(), WHOLE);
  assert.equal(blob.type, 'application/json');
  assert.equal(files.size, 0);
  assert.deepEqual(warnings, []);
});

test('past the spill size the file moves to OPFS, whole and in order, and release removes it', async () => {
  const {storage, files} = fakeStorage();
  files.set('emheap-export-' + (Date.now() - 2 * 3600e3) + '-1.tmp', new Blob(['left by a closed page']));
  files.set('emheap-export-' + Date.now() + '-2.tmp', new Blob(['another tab, saving now']));
  files.set('app-data', new Blob(['the app own file']));
  const blob = await write(pageFile(storage, () => {}, {spillBytes: 700}), PIECES);
  assert.equal(await blob.text(), WHOLE);
  assert.equal(blob.type, 'application/json');
  const ours = [...files.keys()].filter((k) => /^emheap-export-\d+-\d+\.tmp$/.test(k));
  assert.equal(ours.length, 2, 'the stale file is gone, the fresh one and ours stay: ' + [...files.keys()]);
  assert.ok(files.has('app-data'));
  assert.equal(typeof blob.release, 'function');
  await blob.release();
  assert.equal([...files.keys()].filter((k) => k.startsWith('emheap-export-')).length, 1);
});

test('a browser that refuses OPFS keeps every part in memory, and says so when the file is large', async () => {
  for (const storage of [null, {}, fakeStorage({refuseWritable: true}).storage]) {
    const warnings = [];
    const blob = await write(pageFile(storage, (w) => warnings.push(w), {spillBytes: 700, blobLimitBytes: 1500}), PIECES);
    assert.equal(await blob.text(), WHOLE);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /cannot write files to its storage .* 0 MB held in memory may fail to save/);
  }
  // The first write into OPFS fails (quota): the parts it held come back.
  const quota = fakeStorage({failWriteAfter: 0});
  const blob = await write(pageFile(quota.storage, () => {}, {spillBytes: 700}), PIECES);
  assert.equal(await blob.text(), WHOLE);
  assert.equal(quota.files.size, 0, 'the half-made file is removed');
});

test('a write that fails after the move rejects, and discard removes the file', async () => {
  const {storage, files} = fakeStorage({failWriteAfter: 3});
  const out = pageFile(storage, () => {}, {spillBytes: 700});
  await assert.rejects(async () => { for (const p of PIECES) await out.add([p]); },
    /storage refused the file after 0 MB \(Error: QuotaExceededError\); a private window/);
  await out.discard();
  assert.equal(files.size, 0);
});

test('writeInSlices: every chunk in order, in several tasks; an error discards the file and rejects', async () => {
  function* chunks(n, failAt = -1) {
    for (let i = 0; i < n; i++) {
      if (i === failAt) throw new Error('format failed at ' + i);
      const until = Date.now() + 1;
      while (Date.now() < until) { /* making the text takes time */ }
      yield `chunk ${i};`;
    }
  }
  let tasks = 0;
  const nextTask = (fn) => { tasks++; setImmediate(fn); };
  const out = pageFile(null, () => {});
  const blob = await writeInSlices(chunks(40), out, 'text/plain', 5, nextTask);
  assert.equal(await blob.text(), Array.from({length: 40}, (_, i) => `chunk ${i};`).join(''));
  assert.equal(blob.type, 'text/plain');
  assert.ok(tasks >= 4, `${tasks} tasks for 40 ms of chunks in 5 ms slices`);
  let discarded = 0;
  const failing = Object.assign(pageFile(null, () => {}), {discard: () => { discarded++; }});
  await assert.rejects(writeInSlices(chunks(10, 3), failing, 'text/plain', 5, nextTask), /format failed at 3/);
  assert.equal(discarded, 1);
});
