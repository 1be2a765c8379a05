// sinks.test.js -- output/sinks.js: node writes new files and never one
// the user has; a page downloads, gzipped with CompressionStream where
// there is one; a worker saves nothing and says why.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');
const sinks = require('../output/sinks');
const {fakeDocument, nthDownload} = require('./lib/fake_document');

const TEXT_FORMAT = {chunks: function* (s) { yield 'a'; yield ''; yield s.text; }, mime: 'text/plain', gzip: false};
const GZIP_FORMAT = {chunks: function* (s) { yield new Uint8Array([1, 2]); yield s.text; }, mime: 'application/gzip', gzip: true};

test('node: a new file for each save, the user\'s file left alone, gzip where the format says', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-sinks-'));
  const cwd = process.cwd();
  process.chdir(dir);
  t.after(() => { process.chdir(cwd); fs.rmSync(dir, {recursive: true, force: true}); });
  fs.writeFileSync('mine.txt', 'the user\'s');
  const logs = [];
  const sink = sinks.nodeSink({fs, zlib, log: (m) => logs.push(m), error: (m) => logs.push('error ' + m)});
  assert.equal(sink.saveSnapshot('mine.txt', TEXT_FORMAT, {text: 'b'}), 'mine-1.txt');
  assert.equal(fs.readFileSync('mine.txt', 'utf8'), 'the user\'s');
  assert.equal(fs.readFileSync('mine-1.txt', 'utf8'), 'ab');
  assert.equal(sink.saveSnapshot('p.pb.gz', GZIP_FORMAT, {text: 'c'}), 'p.pb.gz');
  assert.deepEqual(Array.from(zlib.gunzipSync(fs.readFileSync('p.pb.gz'))), [1, 2, 99]);
  assert.equal(sink.saveText('d.json', '{"x":1}'), 'd.json');
  assert.equal(fs.readFileSync('d.json', 'utf8'), '{"x":1}');
  assert.deepEqual(logs, ['emheap: saved mine-1.txt', 'emheap: saved p.pb.gz', 'emheap: saved d.json']);
});

// A page whose clicks hand over the Blob behind the link (tests/lib/fake_document.js).
function fakePage(over) {
  const {document, URL, saved} = fakeDocument();
  const host = Object.assign({
    Blob, Response, CompressionStream, storage: null, setTimeout: () => 0, sliceMs: 30, nextTask: (fn) => setTimeout(fn, 0),
    URL, document, log: () => {}, warn: () => {}, reportError: (e) => { throw e; },
  }, over);
  return {sink: sinks.pageSink(host), saved};
}

test('a page: the file built in slices, then downloaded; gzip through CompressionStream', async () => {
  const {sink, saved} = fakePage();
  assert.equal(sink.saveSnapshot('m.txt', TEXT_FORMAT, {text: 'b'}), 'm.txt');
  await nthDownload(saved, 1);
  assert.equal(await saved[0].blob.text(), 'ab');
  assert.equal(sink.saveSnapshot('p.pb.gz', GZIP_FORMAT, {text: 'c'}), 'p.pb.gz');
  await nthDownload(saved, 2);
  assert.equal(saved[1].name, 'p.pb.gz');
  assert.deepEqual(Array.from(zlib.gunzipSync(Buffer.from(await saved[1].blob.arrayBuffer()))), [1, 2, 99]);
  assert.equal(sink.saveText('d.json', '{}', 'application/json'), 'd.json');
  assert.equal(saved[2].blob.type, 'application/json');
});

test('a page without CompressionStream saves the profile uncompressed, named for it', async () => {
  const {sink, saved} = fakePage({CompressionStream: undefined});
  assert.equal(sink.saveSnapshot('p.pb.gz', GZIP_FORMAT, {text: 'c'}), 'p.pb.gz');
  await nthDownload(saved, 1);
  assert.equal(saved[0].name, 'p.pb');
  assert.deepEqual(Array.from(new Uint8Array(await saved[0].blob.arrayBuffer())), [1, 2, 99]);
});

test('a format that fails while the page builds it is reported, and nothing is downloaded', async () => {
  const errors = [];
  const {sink, saved} = fakePage({reportError: (e) => { errors.push(e.message); return null; }});
  const failing = {chunks: function* () { yield 'a'; throw new Error('bad snapshot'); }, mime: 'text/plain'};
  sink.saveSnapshot('x.txt', failing, {});
  for (let i = 0; i < 100 && !errors.length; i++) await new Promise((r) => setTimeout(r, 5));
  assert.deepEqual(errors, ['bad snapshot']);
  assert.equal(saved.length, 0);
});

test('nowhere to save: null, and the reason reported', () => {
  const errors = [];
  const sink = sinks.noSink((e) => { errors.push(e.message); return null; });
  assert.equal(sink.saveSnapshot('x', TEXT_FORMAT, {}), null);
  assert.match(errors[0], /this program runs in a Web Worker, which has no document/);
});
