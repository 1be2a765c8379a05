// page.test.js -- jslib/page.js, the code inside the profiled program, run
// from the very bundle the --js-library carries (jslib/bundle.js), in a
// bare realm with a fake host: no emcc, no program. Checked here: the
// bundle needs nothing but the language's globals to load; the page, node
// and a worker each save where they should; attach writes the settings
// into the runtime's state; pause() before attach is kept; the leak report
// is made once at exit. The same code in real programs and browsers is
// checked by the end-to-end tests (runtime, browser, firefox...).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const vm = require('node:vm');
const zlib = require('node:zlib');
const {bundle} = require('../jslib/bundle');
const layout = require('../capture/layout');
const {FORMATS} = require('../formats/index');
const {makeSnapshot} = require('./lib/fixtures');
const {fakeDocument, nthDownload} = require('./lib/fake_document');

const SOURCE = bundle().source;

// The bundle evaluated in a new realm holding only `globals`.
function loadPage(globals) {
  return vm.runInNewContext(SOURCE, globals);
}

// A runtime state in fake linear memory: the layout's magic and version
// at `ptr`, the rest zero (exact mode, nothing recorded).
function fakeMemory() {
  const buffer = new ArrayBuffer(1 << 16);
  const view = new DataView(buffer);
  const ptr = 1024;
  view.setUint32(ptr, 0x50484d45, true);
  view.setUint32(ptr + 4, layout.LAYOUT_VERSION, true);
  return {buffer, view, ptr};
}

// What library_emheap.js hands over, for a program whose runtime has not
// attached (state 0) unless told.
function fakeHost(over) {
  const memory = fakeMemory();
  const host = {
    Module: {}, onWorker: false, require: null, memory, state: 0, exits: [], errs: [],
    buffer: () => memory.buffer,
    stateAddress: () => host.state,
    rootsNow: () => 0,
    pthreads: () => ({structSize: 0, threads: []}),
    wasmBinary: () => undefined,
    wasmBinaryFile: () => '',
    runtimeInitialized: () => true,
    addOnExit: (fn) => host.exits.push(fn),
    err: (text) => host.errs.push(text),
  };
  return Object.assign(host, over);
}

// A console that keeps what it is told.
function quietConsole() {
  const said = [];
  const keep = (...a) => said.push(a.join(' '));
  return {said, log: keep, warn: keep, error: keep, table: () => {}};
}

test('the bundle loads with nothing but the language\'s globals, and its API carries every format', () => {
  const page = loadPage({});
  const p = page.createProfiler(fakeHost(), {});
  assert.equal(p.env.node, false);
  assert.equal(p.env.page, false);
  assert.deepEqual(Array.from(p.api.formats), Object.keys(FORMATS));
  const snap = makeSnapshot();
  assert.equal(JSON.stringify(p.api.toSpeedscope(snap)), JSON.stringify(FORMATS.speedscope.object(snap)));
  assert.equal(JSON.stringify(p.api.toPerfView(snap)), JSON.stringify(FORMATS.perfview.object(snap)));
});

test('a worker (no document, not node) refuses to save, says why, and returns null', () => {
  const c = quietConsole();
  // its module's debug info still on the way (a fetch that never answers):
  // the heap now is refused at once too, not named and dropped later
  const g = {console: c, fetch: () => new Promise(() => {}), location: {href: 'http://localhost/app.js', search: ''}};
  const page = loadPage(g);
  const p = page.createProfiler(fakeHost({wasmBinaryFile: () => 'app.wasm'}), g);
  assert.equal(p.api.downloadSnapshot('speedscope', makeSnapshot()), null);
  assert.equal(p.api.downloadSnapshot('speedscope'), null);
  const said = c.said.join('\n');
  assert.equal(said.split('emheap: cannot save a file here: this program runs in a Web Worker').length - 1, 2, said);
  assert.match(said, /take emheap\.snapshot\(\) \(or emheap\.toSpeedscope\(\)\) and post it to the page/);
});

test('an app in a Web Worker says once how the page reaches it; a pthread worker says nothing', async () => {
  const c = quietConsole();
  const host = fakeHost();
  const worker = {console: c, importScripts: () => {}};
  loadPage(worker).createProfiler(host, worker);
  assert.equal(host.errs.length, 1);
  assert.match(host.errs[0], /this program runs in a Web Worker without BroadcastChannel: the page's keys \(Ctrl\+Shift\+H\.\.\.\) do not reach it/);
  const thread = fakeHost({onWorker: true});
  loadPage(worker).createProfiler(thread, worker);
  assert.deepEqual(thread.errs, []);
  const bare = fakeHost(); // neither page, node nor worker (a JS shell): nothing said
  loadPage({console: c}).createProfiler(bare, {console: c});
  assert.deepEqual(bare.errs, []);

  // with BroadcastChannel: its files go to the page (output/worker_channel.js)
  const posted = [];
  class Channel {
    postMessage(m) { posted.push(m); }
    close() {}
  }
  const timers = [];
  const withChannel = {console: c, importScripts: () => {}, BroadcastChannel: Channel, Blob, clearTimeout,
    setTimeout: (fn, ms) => (ms >= 1000 ? timers.push(fn) : setTimeout(fn, ms)), setInterval: () => 0};
  const app = fakeHost();
  const p = loadPage(withChannel).createProfiler(app, withChannel);
  assert.deepEqual(app.errs, [], 'nothing to say while a page may still answer');
  assert.equal(JSON.stringify(posted), '[{"emheap":"hello"}]', 'a worker app says hello to the page');
  timers.splice(0).forEach((fn) => fn()); // no page answered
  assert.match(c.said.join('\n'), /this program runs in a Web Worker, and no page with emheap's page code answered: .*load emheap_page\.js/);
  const name = p.api.downloadSnapshot('collapsed', makeSnapshot());
  assert.match(name, /^memory-profile-.*\.collapsed\.txt$/);
  for (let i = 0; i < 20 && posted.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  const file = posted[1];
  assert.equal(file.emheap, 'file');
  assert.equal(file.name, name);
  assert.equal(await file.blob.text(), Array.from(FORMATS.collapsed.chunks(makeSnapshot())).join(''));
});

test("emheap.top gives what emheap top --json gives for the same file, by function, line and site", (t) => {
  const {runCli} = require('./lib/cli');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-page-top-'));
  t.after(() => fs.rmSync(dir, {recursive: true, force: true}));
  const snap = makeSnapshot();
  const file = path.join(dir, 'snap.json');
  fs.writeFileSync(file, JSON.stringify(snap));
  const p = loadPage({}).createProfiler(fakeHost(), {});
  for (const by of ['function', 'line', 'site']) {
    const inPage = JSON.parse(JSON.stringify(p.api.top({by}, snap)));
    const r = runCli(['top', file, '--json', '--top', '0', '--by', by]);
    assert.equal(r.status, 0, r.stderr);
    const cli = JSON.parse(r.stdout);
    assert.equal(inPage.by, by);
    assert.deepEqual(inPage.sites, cli.sites, by);
  }
  assert.throws(() => p.api.top({sort: 'size'}, snap), /emheap.top: sort "size" is not one of bytes/);
});

// A page: its document downloads (tests/lib/fake_document.js).
function fakePage() {
  const {document, URL, saved} = fakeDocument();
  const c = quietConsole();
  const g = {
    console: c, Blob, Response, setTimeout, setInterval: () => 0, URL, document,
    location: {href: 'http://localhost/app.html', search: ''},
    navigator: {},
  };
  return {g, saved, console: c};
}

test('a page downloads every format as the formats write it; without CompressionStream, pprof uncompressed', async () => {
  const {g, saved, console: c} = fakePage();
  const page = loadPage(g);
  const p = page.createProfiler(fakeHost(), g);
  assert.equal(p.env.page, true);
  const snap = makeSnapshot();
  let files = 0;
  let refused = 0;
  for (const name of Object.keys(FORMATS).filter((f) => !FORMATS[f].heap)) {
    const entry = FORMATS[name];
    let want;
    try {
      want = Buffer.concat(Array.from(entry.chunks(snap), (chunk) => Buffer.from(chunk)));
    } catch (e) {
      // a format that refuses this snapshot (dhat: no totals at the peak)
      // refuses it in the page too, on the console, and saves nothing
      const said = c.said.length;
      p.api.downloadSnapshot(name, snap);
      for (let i = 0; i < 100 && c.said.length === said; i++) await new Promise((r) => setTimeout(r, 5));
      assert.equal(c.said.slice(said).join('\n'), 'emheap: ' + e.message, name);
      refused++;
      continue;
    }
    const returned = p.api.downloadSnapshot(name, snap);
    const file = await nthDownload(saved, ++files);
    assert.equal(file.name, entry.gzip ? returned.replace(/\.gz$/, '') : returned, name);
    assert.ok(file.name.startsWith('memory-profile-' + snap.capturedAt.replace(/:/g, '-')), file.name);
    assert.ok(Buffer.from(await file.blob.arrayBuffer()).equals(want), name);
  }
  assert.ok(files >= 5 && refused <= 1, `${files} saved, ${refused} refused`);
  assert.equal(saved.length, files);
});

test("emheap.diff prints its rows in a console table under the CLI's column titles", () => {
  const {g, console: c} = fakePage();
  const tables = [];
  c.table = (rows) => tables.push(rows);
  const p = loadPage(g).createProfiler(fakeHost(), g);
  const before = makeSnapshot();
  const after = makeSnapshot();
  after.sites[0].liveBytes += 100;
  after.sites[0].totalBytes += 100;
  after.sites[0].totalAllocs += 1;
  after.sites[0].liveBlocks += 1;
  const result = p.api.diff(before, after, {by: 'site'});
  assert.equal(result.rows.length, 1);
  assert.equal(tables.length, 1);
  const {DIFF_COLUMNS} = require('../model/diff');
  assert.deepEqual(Object.keys(tables[0][0]), ['site', ...DIFF_COLUMNS.map((col) => col.title), 'stack (leaf first)']);
  assert.equal(tables[0][0]['Size Delta'], 100);
});

test('under node a file is written in the working directory, never over one that is there', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-page-'));
  const cwd = process.cwd();
  process.chdir(dir);
  t.after(() => { process.chdir(cwd); fs.rmSync(dir, {recursive: true, force: true}); });
  const c = quietConsole();
  const g = {process: {versions: {node: process.versions.node}, env: {}, argv: [], stderr: process.stderr, on() {}}, console: c};
  const p = loadPage({console: c, Buffer}).createProfiler(fakeHost({require}), g);
  assert.equal(p.env.node, true);
  const snap = makeSnapshot();
  const first = p.api.downloadSnapshot('pprof', snap);
  const second = p.api.downloadSnapshot('pprof', snap);
  assert.notEqual(first, second);
  const want = Buffer.concat(Array.from(FORMATS.pprof.chunks(snap), (ch) => Buffer.from(ch)));
  for (const name of [first, second]) assert.ok(zlib.gunzipSync(fs.readFileSync(path.join(dir, name))).equals(want), name);
  // the diff, saved as `emheap diff --json` writes it
  const diffName = p.api.downloadDiff(snap, snap);
  const body = JSON.parse(fs.readFileSync(path.join(dir, diffName), 'utf8'));
  assert.equal(body.totals.liveBytes.delta, 0);
});

test('attach writes the settings into the state, keeps a pause asked for before it, and settles the mode', () => {
  const host = fakeHost();
  const c = quietConsole();
  host.Module.emheapOptions = {mode: 'sampled', samplingInterval: 4096, seed: 7, timeline: false};
  const p = loadPage({console: c}).createProfiler(host, {console: c});
  p.api.pause();
  const {view, ptr} = host.memory;
  host.state = ptr;
  const mode = p.attach(ptr);
  assert.equal(mode.mode, 'sampled');
  assert.equal(mode.samplingInterval, 4096);
  assert.equal(layout.readMode(view, ptr).mode, 'sampled');
  assert.equal(view.getUint32(ptr + layout.STATE.paused, true), 1, 'paused');
  p.api.resume();
  assert.equal(view.getUint32(ptr + layout.STATE.paused, true), 0, 'resumed');
  assert.equal(p.api.snapshot().summary.liveBytes, 0);
  assert.deepEqual(c.said, []);
});

test('exact mode chosen by nobody, without contexts, falls back to sampled and says why', () => {
  const host = fakeHost();
  const c = quietConsole();
  const p = loadPage({console: c}).createProfiler(host, {console: c});
  host.state = host.memory.ptr;
  const mode = p.attach(host.memory.ptr);
  assert.equal(mode.mode, 'sampled');
  assert.match(c.said.join('\n'), /emheap: sampled mode .*exact stacks need the module rewritten/);
});

test('memory that is not a state is said on the console, not thrown into wasm', () => {
  const host = fakeHost();
  const c = quietConsole();
  const p = loadPage({console: c}).createProfiler(host, {console: c});
  host.memory.view.setUint32(host.memory.ptr + 4, layout.LAYOUT_VERSION + 1, true);
  host.state = host.memory.ptr;
  assert.doesNotThrow(() => p.attach(host.memory.ptr));
  assert.match(c.said.join('\n'), /rebuild/);
});

test('the leak report is made once, at the first exit event, through Emscripten\'s err', () => {
  const host = fakeHost();
  const c = quietConsole();
  host.Module.emheapOptions = {leakReport: true, timeline: false};
  const p = loadPage({console: c}).createProfiler(host, {console: c});
  assert.equal(host.exits.length, 1, 'an addOnExit callback');
  host.state = host.memory.ptr;
  p.attach(host.memory.ptr);
  host.exits[0]();
  host.exits[0]();
  assert.equal(host.errs.length, 1, host.errs.join('\n'));
  assert.match(host.errs[0], /emheap: no leaks|0 bytes/);
});
