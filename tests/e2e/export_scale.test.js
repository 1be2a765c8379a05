// tests/e2e/export_scale.test.js -- exports at the size of the largest heaps: a
// snapshot of 2,000,000 sites whose stacks are 60 frames deep (all distinct),
// written in every format by the CLI (read once from a 1 GB snapshot file,
// more than JSON.parse can take) and by a real page in headless Chromium
// (downloadSnapshot(format, snapshot)), with the page's files equal to the
// CLI's. The files are GBs: they go to a temporary folder, removed after.
// Run: node --test tests/e2e/export_scale.test.js (about 5 minutes)
'use strict';

const {describe, test, before, after} = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');
const crypto = require('node:crypto');
const readline = require('node:readline');
const {execFileSync} = require('node:child_process');
const {Profile} = require('pprof-format');

const {bigSnapshot} = require('../../harness/big_snapshot');
const {jsonChunks} = require('../../formats/json_stream');
const {FORMATS} = require('../../formats/index');
const {writeAll} = require('../../output/node_output');
const {persistentPage} = require('../lib/browser');
const {serve} = require('../../harness/serve');
const {startPauseProbe, stopPauseProbe} = require('../../harness/pause_probe');

const SITES = 2000000;
const DEPTH = 60;
const {ROOT} = require('../lib/paths');
const {runCli} = require('../lib/cli');
const NAMES = Object.keys(FORMATS).filter((n) => !FORMATS[n].heap); // the big snapshot has no heap graph
const STEM = 'big';

let dir;
let expected;   // {liveBytes, sites} of the synthetic snapshot

// sha256 of a file, or of its gunzipped content, read as a stream.
function digest(file, gunzip) {
  return new Promise((resolve, reject) => {
    const hash = crypto.createHash('sha256');
    let stream = fs.createReadStream(file, {highWaterMark: 1 << 22});
    if (gunzip) stream = stream.pipe(zlib.createGunzip());
    stream.on('data', (d) => hash.update(d));
    stream.on('end', () => resolve(hash.digest('hex')));
    stream.on('error', reject);
  });
}

const output = (name) => path.join(dir, STEM + FORMATS[name].suffix);

describe('exports of 2M sites x 60 frames', () => {
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-scale-'));
    const snap = bigSnapshot(SITES, DEPTH);
    expected = {liveBytes: snap.summary.liveBytes, sites: snap.sites.length};
    const fd = fs.openSync(path.join(dir, STEM + '.json'), 'w');
    for (const chunk of jsonChunks(snap)) writeAll(fs, fd, chunk);
    fs.closeSync(fd);
  });
  after(() => { if (dir) fs.rmSync(dir, {recursive: true, force: true}); });

  test('the CLI reads the 1 GB snapshot once and writes every format', {timeout: 2400000}, async () => {
    const input = path.join(dir, STEM + '.json');
    assert.ok(fs.statSync(input).size > 2 ** 29, 'the input is longer than any string V8 can make');
    const r = runCli(['convert', input, '--to', NAMES.join(',')], {cwd: dir});
    assert.equal(r.status, 0, r.stderr);
    for (const name of NAMES) assert.match(r.stdout, new RegExp(`wrote .*${STEM}${FORMATS[name].suffix.replace(/\./g, '\\.')} \\(${name}, `));

    // collapsed: one line per site, the live bytes all there
    let lines = 0;
    let bytes = 0;
    for await (const line of readline.createInterface({input: fs.createReadStream(output('collapsed'))})) {
      lines++;
      bytes += Number(line.slice(line.lastIndexOf(' ') + 1));
      if (lines === 1) assert.equal(line.split(';').length, DEPTH);
    }
    assert.equal(lines, SITES);
    assert.equal(bytes, expected.liveBytes);

    // pprof: compressed, and pprof-format reads every sample and stack
    const raw = zlib.gunzipSync(fs.readFileSync(output('pprof')));
    assert.ok(fs.statSync(output('pprof')).size < raw.length / 4, 'gzip compresses');
    const profile = Profile.decode(raw);
    assert.equal(profile.sample.length, SITES);
    assert.equal(profile.sample[SITES - 1].locationId.length, DEPTH);
    assert.equal(profile.sample.reduce((t, s) => t + Number(s.value[3]), 0), expected.liveBytes);

    // speedscope: the CLI reads its own 1 GB file back (the snapshot it carries)
    const top = runCli(['top', output('speedscope'), '--top', '1'], {cwd: dir});
    assert.equal(top.status, 0, top.stderr);
    assert.match(top.stdout, /2,000,000 functions/); // (each site its own chain of functions)

    // PerfView (4 GB: a full parse is minutes): its ends, and its size as
    // the sum of its parts
    const pv = output('perfview');
    const fd = fs.openSync(pv, 'r');
    const head = Buffer.alloc(128);
    fs.readSync(fd, head, 0, 128, 0);
    const tail = Buffer.alloc(64);
    fs.readSync(fd, tail, 0, 64, fs.fstatSync(fd).size - 64);
    fs.closeSync(fd);
    assert.match(head.toString(), /^\{"StackSource":\{"Samples":\[\{"Time":0,"Metric":\d+,"Stack":\["big\.wasm!f0_/);
    assert.match(tail.toString(), /\]\}\}$/);
    assert.ok(fs.statSync(pv).size > 2 ** 31, "more than 2 GB, past what readFileSync takes");

    // DHAT: one program point per site, each with its 60 frames; the frame
    // table whole (counted in a stream: the file is over 1 GB)
    let points = 0;
    let lastFs = null;
    let ftbl = false;
    const dh = fs.createReadStream(output('dhat'), {encoding: 'utf8', highWaterMark: 1 << 20});
    let carry = '';
    for await (const chunk of dh) {
      const text = carry + chunk;
      const re = /"fs":\[([\d,]+)\]/g;
      let m;
      let end = 0;
      while ((m = re.exec(text))) { points++; lastFs = m[1]; end = re.lastIndex; }
      if (text.includes('"ftbl":["[root]"')) ftbl = true;
      carry = text.slice(Math.max(end, text.length - 4096));
    }
    assert.equal(points, SITES);
    assert.equal(lastFs.split(',').length, DEPTH);
    assert.ok(ftbl, 'the frame table starts with [root]');

    // chrome-trace is small: parse it
    const trace = JSON.parse(fs.readFileSync(output('chrome-trace'), 'utf8'));
    assert.equal(trace.traceEvents.find((e) => e.name === 'emheap snapshot').args.sites, SITES);
  });

  // Chromium cannot read back a Blob over ~500 MB made in the page: past
  // 256 MB the file goes to the origin private file system
  // (output/page_output.js), which is what this part checks at GB sizes.
  // A browser profile on disk, as a user's: an incognito context keeps the
  // origin private file system in memory and refuses the 4 GB PerfView file.
  describe('in a page', () => {
    let server;
    before(async () => { server = await serve({'/': path.join(ROOT, 'build', 'samples')}); });
    after(async () => { if (server) await server.close(); });

    test('downloadSnapshot(format, snapshot) saves the same files as the CLI, and the page keeps running', {timeout: 2400000}, async () => {
      const {page, consoleMessages, close} = await persistentPage();
      try {
        await page.goto(`${server.url}/leaky-canvas/?emheap=exact`);
        await page.waitForFunction(() => document.title === 'emheap sample: ready');
        await page.evaluate(`window.__big = (${bigSnapshot.toString()})(${SITES}, ${DEPTH}); 0`);   // return nothing: 2M sites do not cross to node
        for (const name of NAMES) {
          await startPauseProbe(page);   // the longest stop of the page while the file is made
          const started = Date.now();
          const [download] = await Promise.all([
            page.waitForEvent('download', {timeout: 600000}).catch((e) => {
              throw new Error(`${name}: ${e.message}; the page said: ${consoleMessages.map((m) => m.text).join(' | ')}`);
            }),
            page.evaluate((f) => { window.__name = downloadSnapshot(f, window.__big); }, name),
          ]);
          const file = await download.path();
          const gap = await stopPauseProbe(page);
          const ms = Date.now() - started;
          const size = fs.statSync(file).size;
          const [got, want] = await Promise.all([digest(file, FORMATS[name].gzip), digest(output(name), FORMATS[name].gzip)]);
          fs.rmSync(file, {force: true});
          assert.equal(download.suggestedFilename(), 'memory-profile-2026-11-23T00-00-00.000Z' + FORMATS[name].suffix);
          assert.equal(got, want, `${name}: the page's file (${size} bytes) equals the CLI's`);
          console.log(`# page ${name}: ${(size / 1e6).toFixed(0)} MB in ${ms} ms, longest pause ${gap.toFixed(0)} ms`);
          assert.ok(gap < 2000, `${name}: the page stopped for ${gap.toFixed(0)} ms`);
        }
        assert.deepEqual(consoleMessages.filter((m) => m.type === 'error' || m.type === 'pageerror'), []);
      } finally {
        await close();
      }
    });
  });
});
