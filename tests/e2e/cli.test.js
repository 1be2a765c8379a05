// tests/e2e/cli.test.js: the emheap command line (cli/emheap.js) run as a
// subprocess, as a user or CI runs it: on files built from snapshot fixtures,
// on a simulated session whose per-site growth is known (diff), on every
// kind of bad input (one "emheap: " line on stderr, exit 2, no stack trace),
// and on files downloaded from the real sample page in headless Chromium
// (skipped without Chromium or without `make samples`).
// Run: node --test tests/e2e/cli.test.js
'use strict';

const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');
const { spawnSync } = require('node:child_process');

const { makeSnapshot, summary } = require('../lib/fixtures');
const { toSpeedscope } = require('../../formats/speedscope');
const { toPerfView } = require('../../formats/perfview');
const { formatByName } = require('../../formats/index');
const { formatBytes } = require('../../output/node_output');
const toPprof = (snap) => formatBytes(zlib, formatByName('pprof'), snap);
const { toCollapsed } = require('../../formats/collapsed');
const { toChromeTrace } = require('../../formats/chrome_trace');
const { validateSpeedscope, validatePerfView, validateChromeTrace, validateSnapshot } = require('../lib/schemas');

const {ROOT, CLI, SAMPLES} = require('../lib/paths');
const { runCli } = require('../lib/cli');
const clone = (o) => JSON.parse(JSON.stringify(o));

let tmp;
before(() => { tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-cli-')); });
after(() => { if (tmp) fs.rmSync(tmp, { recursive: true, force: true }); });

function run(...args) {
  const r = runCli(args, { cwd: tmp });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
function runBinary(...args) {
  return runCli(args, { cwd: tmp, encoding: 'buffer' });
}

function write(name, body) {
  const file = path.join(tmp, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof body === 'string' || Buffer.isBuffer(body) || body instanceof Uint8Array ? body : JSON.stringify(body));
  return file;
}

// A bad-input or bad-usage answer: exit 2, nothing on stdout, exactly one
// line on stderr that starts with "emheap: ", and no JS stack trace.
function assertRejected(r, pattern, label = '') {
  assert.equal(r.status, 2, `${label} exit status (stderr: ${r.stderr})`);
  assert.equal(r.stdout, '', `${label} stdout`);
  assert.match(r.stderr, /^emheap: [^\n]+\n$/, `${label} one line: ${JSON.stringify(r.stderr)}`);
  assert.ok(!/\n\s+at |TypeError|SyntaxError|ReferenceError|internal error/.test(r.stderr), `${label} stack trace or crash: ${r.stderr}`);
  if (pattern) assert.match(r.stderr, pattern, label);
}

// ---------------------------------------------------------------- a session with known growth
//
// Sites allocate and free at fixed rates per step of a simulated session;
// a snapshot after `steps` steps holds exactly steps x those rates. Between
// the snapshot after 2 steps and the one after 5, each site changed by 3 steps.
const MODELS = [
  // key, stack (leaf first), allocations per step, frees per step, block size
  { key: 'leak_memory+0x1a2b', stack: ['leak_memory', 'on_click', 'main'], allocs: 64, frees: 0, size: 16388 },
  { key: 'scratch_work+0x300', stack: ['scratch_work', 'render', 'main'], allocs: 60, frees: 60, size: 300 },
  { key: 'cache_put+0x80', stack: ['cache_put', 'load_level', 'main'], allocs: 10, frees: 4, size: 1000 },
  // one call site reached through two stacks: the key collides, the stacks decide
  { key: 'grow+0x10', stack: ['grow', 'caller_a', 'main'], allocs: 2, frees: 0, size: 256 },
  { key: 'grow+0x10', stack: ['grow', 'caller_b', 'main'], allocs: 5, frees: 5, size: 64 },
  { key: '', stack: [], allocs: 3, frees: 1, size: 50 },   // site 0, unattributed
  // appears only after step 3
  { key: 'late_start+0x44', stack: ['late_start', 'main'], allocs: 7, frees: 2, size: 128, from: 3 },
];

function sessionSnapshot(steps, { reverse = false } = {}) {
  const frames = [];
  const frameIndex = new Map();
  const intern = (name) => {
    if (!frameIndex.has(name)) { frameIndex.set(name, frames.length); frames.push({ name, module: 'app.wasm' }); }
    return frameIndex.get(name);
  };
  const sites = [];
  MODELS.forEach((m, i) => {
    const active = Math.max(0, steps - (m.from || 0));
    if (active === 0) return;
    const liveBlocks = active * (m.allocs - m.frees);
    sites.push({
      // ids differ between the two snapshots on purpose: matching must not use them
      id: m.key === '' ? 0 : (reverse ? 100 : 1) + i,
      key: m.key, stack: m.stack.map(intern),
      liveBytes: liveBlocks * m.size, liveBlocks,
      totalAllocs: active * m.allocs, totalBytes: active * m.allocs * m.size,
      peakLiveBytes: liveBlocks * m.size,
    });
  });
  if (reverse) sites.reverse();
  const sum = (k) => sites.reduce((t, s) => t + s[k], 0);
  return {
    format: 'emheap-snapshot', version: 1,
    capturedAt: new Date(Date.UTC(2026, 10, 22, 3, 0, steps)).toISOString(), source: 'http://localhost:8000/leaky-canvas/',
    mode: 'exact-js', samplingInterval: 0,
    summary: summary({
      liveBytes: sum('liveBytes'), liveBlocks: sum('liveBlocks'), peakLiveBytes: sum('liveBytes'), peakLiveBlocks: sum('liveBlocks'),
      totalBytes: sum('totalBytes'), mallocCalls: sum('totalAllocs'),
      freeCalls: sum('totalAllocs') - sum('liveBlocks'), siteCount: sites.length,
    }),
    frames, sites, heapGrowth: [],
  };
}

// What diff must report for model m between step `from` and step `to`.
function expectedRow(m, from, to) {
  const steps = Math.max(0, to - (m.from || 0)) - Math.max(0, from - (m.from || 0));
  return {
    newAllocs: steps * m.allocs, freedBlocks: steps * m.frees, countDelta: steps * (m.allocs - m.frees),
    allocBytes: steps * m.allocs * m.size, freedBytes: steps * m.frees * m.size, sizeDelta: steps * (m.allocs - m.frees) * m.size,
  };
}
const COLS = ['newAllocs', 'freedBlocks', 'countDelta', 'allocBytes', 'freedBytes', 'sizeDelta'];
const pick = (row) => Object.fromEntries(COLS.map((c) => [c, row[c]]));

describe('emheap diff', () => {
  let beforeFile;
  let afterFile;
  before(() => {
    const b = sessionSnapshot(2);
    const a = sessionSnapshot(5, { reverse: true });
    assert.deepEqual(validateSnapshot(b), []);
    assert.deepEqual(validateSnapshot(a), []);
    beforeFile = write('session/before.speedscope.json', toSpeedscope(b));
    afterFile = write('session/after.PerfView.json', toPerfView(a));   // any file emheap writes
  });

  test('--json: every site changed by exactly its known growth', () => {
    const r = run('diff', beforeFile, afterFile, '--by', 'site', '--json', '--top', '0');
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
    const d = JSON.parse(r.stdout);
    // every model changed, so every one has a row
    assert.equal(d.changedSites, MODELS.length);
    assert.equal(d.sites.length, MODELS.length);
    for (const m of MODELS) {
      const rows = d.sites.filter((s) => s.key === m.key && s.stack.join('<') === m.stack.join('<'));
      assert.equal(rows.length, 1, `one row for ${m.key} ${m.stack.join('<')}`);
      assert.deepEqual(pick(rows[0]), expectedRow(m, 2, 5), `${m.key} via ${m.stack[1]}`);
      assert.equal(rows[0].matchedBy, m.key === 'grow+0x10' || m.key === '' ? 'stack' : 'key');
      assert.equal(rows[0].status, m.from ? 'new' : 'both');
    }
    // sorted by size delta, largest growth first
    const deltas = d.sites.map((s) => s.sizeDelta);
    assert.deepEqual(deltas, deltas.slice().sort((x, y) => y - x));
    assert.equal(d.sites[0].key, 'leak_memory+0x1a2b');
    assert.equal(d.sites[0].sizeDelta, 3 * 64 * 16388);

    // totals from the global counters
    const b = sessionSnapshot(2).summary;
    const a = sessionSnapshot(5).summary;
    assert.deepEqual(d.totals.liveBytes, { before: b.liveBytes, after: a.liveBytes, delta: a.liveBytes - b.liveBytes });
    assert.deepEqual(d.totals.liveBlocks, { before: b.liveBlocks, after: a.liveBlocks, delta: a.liveBlocks - b.liveBlocks });
    assert.equal(d.totals.totalBytes.delta, a.totalBytes - b.totalBytes);
    assert.equal(d.totals.freeCalls.delta, a.freeCalls - b.freeCalls);
    assert.deepEqual(d.totals.sites, { before: 6, after: 7, delta: 1 });
    // the column sums agree with the global counters here (exact mode)
    assert.equal(d.sum.sizeDelta, d.totals.liveBytes.delta);
    assert.equal(d.sum.countDelta, d.totals.liveBlocks.delta);
    assert.equal(d.sum.allocBytes, d.totals.totalBytes.delta);
    assert.equal(d.sum.freedBlocks, d.totals.freeCalls.delta);
    assert.deepEqual(d.notes, []);
  });

  test('table: DevTools columns, totals, the growing site first', () => {
    const r = run('diff', beforeFile, afterFile, '--by', 'site');
    assert.equal(r.status, 0, r.stderr);
    for (const h of ['# New', '# Deleted', '# Delta', 'Alloc. Size', 'Freed Size', 'Size Delta', 'totals (exact)', 'before', 'after', 'delta']) {
      assert.ok(r.stdout.includes(h), `missing ${h}:\n${r.stdout}`);
    }
    const lines = r.stdout.split('\n');
    const header = lines.findIndex((l) => l.trimStart().startsWith('# New'));
    // first row: leak_memory, 192 new, 0 deleted, +192, 3.00 MiB allocated
    assert.match(lines[header + 1], /^\s*192\s+0\s+\+192\s+3\.00 MiB\s+0 B\s+\+3\.00 MiB\s+leak_memory\+0x1a2b\s+leak_memory < on_click < main$/);
    assert.match(r.stdout, /late_start\+0x44 \(new\)/);
    assert.match(r.stdout, /total of 7 changed sites/);
    assert.match(r.stdout, /live bytes\s+[\d.]+ \w?i?B\s+[\d.]+ \w?i?B\s+\+[\d.]+ MiB/);
  });

  test('--sort count / allocs and --top', () => {
    const byCount = JSON.parse(run('diff', beforeFile, afterFile, '--by', 'site', '--json', '--sort', 'count').stdout);
    assert.equal(byCount.sites[0].key, 'leak_memory+0x1a2b');
    const counts = byCount.sites.map((s) => s.countDelta);
    assert.deepEqual(counts, counts.slice().sort((x, y) => y - x));
    const byAllocs = JSON.parse(run('diff', beforeFile, afterFile, '--by', 'site', '--json', '--sort=allocs', '--top', '2').stdout);
    assert.equal(byAllocs.sites.length, 2);
    assert.equal(byAllocs.changedSites, MODELS.length);
    assert.deepEqual(byAllocs.sites.map((s) => s.newAllocs), [192, 180]);   // leak 3x64, scratch 3x60
    const text = run('diff', beforeFile, afterFile, '--by', 'site', '--top', '1').stdout;
    assert.match(text, /1 of 7 changed sites, sorted by size delta \(--top 0 shows all\)/);
  });

  test('a snapshot against itself: nothing changed', () => {
    const r = run('diff', beforeFile, beforeFile, '--by', 'site');
    assert.equal(r.status, 0);
    assert.match(r.stdout, /no site changed/);
  });

  test('swapped files are flagged', () => {
    const r = run('diff', afterFile, beforeFile, '--by', 'site', '--json');
    assert.equal(r.status, 0);
    const d = JSON.parse(r.stdout);
    assert.ok(d.notes.some((n) => /swapped/.test(n)), d.notes.join('|'));
    const text = run('diff', afterFile, beforeFile, '--by', 'site').stdout;
    assert.match(text, /^note: .*swapped/m);
  });

  test('sampled snapshots get a note; different modes too', () => {
    const s = sessionSnapshot(5);
    s.mode = 'sampled';
    s.samplingInterval = 65536;
    const file = write('session/sampled.json', s);
    const d = JSON.parse(run('diff', beforeFile, file, '--by', 'site', '--json').stdout);
    assert.ok(d.notes.some((n) => /estimates \(a site of B sampled bytes is off by about \+-sqrt\(65536\/B\)/.test(n)));
    assert.ok(d.notes.some((n) => /different modes/.test(n)));
  });
});

// ---------------------------------------------------------------- top

describe('C++ names in tables', () => {
  // nlohmann/json-sized names: thousands of characters of template arguments.
  const json = 'nlohmann::json_abi_v3_11_2::basic_json<std::map, std::vector, ' +
    'std::__2::basic_string<char, std::__2::char_traits<char>, std::__2::allocator<char> >, bool, long long, '.repeat(25) +
    'void>';
  const ctor = `${json}::basic_json(${json} const&)`;
  const withCpp = () => {
    const s = makeSnapshot();
    s.frames[0].name = ctor;
    s.sites[0].key = ctor + '+0x1a2b';
    return s;
  };

  test('top, diff and check shorten the key and stack columns; --json keeps the full names', () => {
    assert.ok(ctor.length > 3000);
    const file = write('cpp/a.json', withCpp());
    const top = run('top', file);
    assert.equal(top.status, 0, top.stderr);
    assert.match(top.stdout, /nlohmann::json_abi_v3_11_2::basic_json<…>::basic_json\(…\)  /);
    assert.match(run('top', file, '--by', 'site').stdout, /nlohmann::json_abi_v3_11_2::basic_json<…>::basic_json\(…\)\+0x1a2b/);
    for (const line of top.stdout.split('\n')) assert.ok(line.length < 300, `top line of ${line.length} characters`);
    const diff = run('diff', write('cpp/b.json', withCpp()), file);
    assert.equal(diff.status, 0, diff.stderr);
    for (const line of diff.stdout.split('\n')) assert.ok(line.length < 300, `diff line of ${line.length} characters`);
    const check = run('check', file, '--max-site-bytes', '1');
    assert.equal(check.status, 1);
    for (const line of check.stderr.split('\n')) assert.ok(line.length < 300, `check line of ${line.length} characters`);
    const full = JSON.parse(run('top', file, '--json').stdout);
    assert.equal(full.sites[0].label, ctor);
    assert.equal(JSON.parse(run('top', file, '--json', '--by', 'site').stdout).sites[0].label, ctor + '+0x1a2b');
  });
});

describe('emheap top', () => {
  let files;
  before(() => {
    const snap = makeSnapshot();
    files = {
      speedscope: write('memory-profile-X.speedscope.json', toSpeedscope(snap)),
      perfview: write('memory-profile-X.PerfView.json', toPerfView(snap)),
      bare: write('snapshot.json', snap),
      pretty: write('pretty.json', JSON.stringify(snap, null, 2)),
      bom: write('bom.json', '\ufeff' + JSON.stringify(snap)),
    };
  });

  test('reads speedscope, PerfView and bare snapshot files alike', () => {
    const outs = Object.entries(files).map(([kind, file]) => {
      const r = run('top', file, '--json');
      assert.equal(r.status, 0, `${kind}: ${r.stderr}`);
      const j = JSON.parse(r.stdout);
      delete j.file;
      return j;
    });
    for (const o of outs.slice(1)) assert.deepEqual(o, outs[0]);
  });

  test('--json: ranked sites with full stacks', () => {
    const j = JSON.parse(run('top', files.speedscope, '--json').stdout);
    assert.equal(j.mode, 'exact-js');
    assert.equal(j.summary.liveBytes, 5932);
    assert.equal(j.totalSites, 5);
    assert.deepEqual(j.sites.map((s) => s.liveBytes), [4096, 1024, 512, 300, 0]);
    assert.deepEqual(j.sites.map((s) => s.rank), [1, 2, 3, 4, 5]);
    assert.equal(j.by, 'function');
    assert.equal(j.sites[0].label, 'leak_memory');
    assert.equal(j.sites[0].callSites, 1);
    assert.deepEqual(j.sites[0].stack[0], { name: 'leak_memory', file: 'app.c' });
    assert.deepEqual(j.sites[0].stack.map((f) => f.name), ['leak_memory', 'parse_chunk', 'load_level', 'main']);
    assert.equal(j.sites[2].label, '(unattributed)');
    assert.deepEqual(j.sites[2].stack, []);
  });

  test('--sort count / allocs, --top N', () => {
    const count = JSON.parse(run('top', files.bare, '--json', '--sort', 'count').stdout);
    assert.deepEqual(count.sites.map((s) => s.liveBlocks), [4, 3, 2, 1, 0]);
    const allocs = JSON.parse(run('top', files.bare, '--json', '--sort', 'allocs').stdout);
    assert.deepEqual(allocs.sites.map((s) => s.totalAllocs), [6, 5, 4, 3, 2]);
    const two = JSON.parse(run('top', files.bare, '--json', '--top', '2').stdout);
    assert.equal(two.sites.length, 2);
    assert.equal(two.totalSites, 5);
  });

  test('table', () => {
    const r = run('top', files.speedscope);
    assert.equal(r.status, 0);
    assert.equal(r.stderr, '');
    assert.match(r.stdout, /mode exact-js/);
    assert.match(r.stdout, /live \(usable sizes\) 5\.79 KiB \(5,932 B\) in 10 blocks/);
    const lines = r.stdout.split('\n');
    const header = lines.findIndex((l) => /live bytes\s+live blocks\s+allocs/.test(l));
    assert.ok(header > 0, r.stdout);
    assert.match(lines[header - 0], /\sfunction\s+stack \(leaf first\)$/);
    assert.match(lines[header + 1], /^1\s+4\.00 KiB\s+4\s+6\s+4\.10 KiB\s+leak_memory\s+leak_memory < parse_chunk < load_level < main$/);
    assert.match(r.stdout, /5 of 5 functions, sorted by live bytes\n\(5 call sites grouped by function; --by site shows them one by one\)/);
    const bySite = run('top', files.speedscope, '--by', 'site').stdout;
    assert.match(bySite, /\n1\s+4\.00 KiB\s+4\s+6\s+4\.10 KiB\s+leak_memory\+0x1a2b\s+leak_memory < parse_chunk < load_level < main\n/);
    assert.match(bySite, /5 of 5 sites, sorted by live bytes\n/);
    const sampled = makeSnapshot();
    sampled.mode = 'sampled';
    sampled.samplingInterval = 65536;
    const text = run('top', write('sampled.json', sampled)).stdout;
    assert.match(text, /estimates/);
    // Each estimate is marked, with its standard error: 4 KiB at 64 KiB is
    // a quarter of a sampling point, +-100%.
    const row = text.split('\n').find((l) => /^1\s/.test(l));
    assert.match(row, /^1\s+~4\.00 KiB \+-100%\s/);
    // A snapshot whose tables ran out of room says what was not recorded.
    const lost = makeSnapshot();
    Object.assign(lost.summary, {lostAllocs: 12, lostBytes: 4096, lostSites: 3});
    assert.match(run('top', write('lost.json', lost)).stdout,
      /not recorded for want of room \(fixed heap\): 12 allocations \(4096 bytes\) in no site, 3 new stacks/);
  });
});

// ---------------------------------------------------------------- convert

describe('emheap convert', () => {
  const snap = makeSnapshot();
  let input;
  before(() => { input = write('conv/memory-profile-2026-11-22T02-35-18.930Z.speedscope.json', toSpeedscope(snap)); });
  const out = (suffix) => path.join(tmp, 'conv', 'memory-profile-2026-11-22T02-35-18.930Z' + suffix);

  test('every format, default output names, same bytes as formats/', () => {
    let r = run('convert', input, '--to', 'pprof');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^wrote .*memory-profile-2026-11-22T02-35-18\.930Z\.pb\.gz \(pprof, [\d,]+ bytes\)\n$/);
    assert.deepEqual(fs.readFileSync(out('.pb.gz')), Buffer.from(toPprof(snap)));
    zlib.gunzipSync(fs.readFileSync(out('.pb.gz')));

    r = run('convert', input, '--to', 'collapsed');
    assert.equal(r.status, 0, r.stderr);
    assert.equal(fs.readFileSync(out('.collapsed.txt'), 'utf8'), toCollapsed(snap));

    r = run('convert', input, '--to', 'chrome-trace');
    assert.equal(r.status, 0, r.stderr);
    const trace = JSON.parse(fs.readFileSync(out('.trace.json'), 'utf8'));
    assert.deepEqual(validateChromeTrace(trace), []);
    assert.deepEqual(trace, clone(toChromeTrace(snap)));

    r = run('convert', input, '--to', 'perfview');
    assert.equal(r.status, 0, r.stderr);
    const pv = JSON.parse(fs.readFileSync(out('.PerfView.json'), 'utf8'));
    assert.deepEqual(validatePerfView(pv), []);
    assert.deepEqual(pv, clone(toPerfView(snap)));

    // and back: PerfView -> speedscope, the snapshot carried through
    const back = path.join(tmp, 'conv', 'back.speedscope.json');
    r = run('convert', out('.PerfView.json'), '--to', 'speedscope', '-o', back);
    assert.equal(r.status, 0, r.stderr);
    const ss = JSON.parse(fs.readFileSync(back, 'utf8'));
    assert.deepEqual(validateSpeedscope(ss), []);
    assert.deepEqual(ss, clone(toSpeedscope(snap)));
  });

  test('-o - writes to stdout (binary too); --output= works', () => {
    const r = run('convert', input, '--to', 'collapsed', '-o', '-');
    assert.equal(r.status, 0);
    assert.equal(r.stdout, toCollapsed(snap));
    const bin = runBinary('convert', input, '--to=pprof', '-o', '-');
    assert.equal(bin.status, 0);
    assert.deepEqual(bin.stdout, Buffer.from(toPprof(snap)));
    const target = path.join(tmp, 'conv', 'custom name.txt');
    assert.equal(run('convert', input, '--to', 'collapsed', `--output=${target}`).status, 0);
    assert.equal(fs.readFileSync(target, 'utf8'), toCollapsed(snap));
  });

  test('a bare snapshot .json gets the new suffix; never overwrites the input', () => {
    const bare = write('conv/snap.json', snap);
    assert.equal(run('convert', bare, '--to', 'speedscope').status, 0);
    assert.ok(fs.existsSync(path.join(tmp, 'conv', 'snap.speedscope.json')));
    const before = fs.readFileSync(input);
    assertRejected(run('convert', input, '--to', 'speedscope'), /overwrite/);
    assertRejected(run('convert', input, '--to', 'pprof', '-o', input), /overwrite/);
    assert.deepEqual(fs.readFileSync(input), before);
    assertRejected(run('convert', input, '--to', 'pprof', '-o', path.join(tmp, 'no', 'such', 'dir', 'x.pb.gz')), /cannot write .*no such directory/);
  });

  test('the input is found by identity: through a symbolic link, a hard link, another spelling', () => {
    const kept = write('ident/in.speedscope.json', toSpeedscope(snap));
    const before = fs.readFileSync(kept);
    fs.symlinkSync(kept, path.join(tmp, 'ident', 'l.json'));
    fs.linkSync(kept, path.join(tmp, 'ident', 'hard.json'));
    for (const name of ['ident/l.json', 'ident/hard.json', './ident/../ident/in.speedscope.json']) {
      assertRejected(run('convert', kept, '--to', 'collapsed', '-o', name, '--force'), /would overwrite its input/, name);
    }
    assert.deepEqual(fs.readFileSync(kept), before, 'input intact');
    assert.equal(fs.readdirSync(path.join(tmp, 'ident')).filter((f) => /tmp/.test(f)).length, 0, 'no temporary file left');
  });

  test('an existing output is kept unless --force; --force replaces a link, not what it points to', () => {
    const mine = write('force/notes.txt', 'my notes\n');
    assertRejected(run('convert', input, '--to', 'collapsed', '-o', mine), /notes\.txt exists: give another name with -o, or --force/);
    assert.equal(fs.readFileSync(mine, 'utf8'), 'my notes\n');
    const r = run('convert', input, '--to', 'collapsed', '-o', mine, '--force');
    assert.equal(r.status, 0, r.stderr);
    assert.equal(fs.readFileSync(mine, 'utf8'), toCollapsed(snap));
    const other = write('force/other.txt', 'keep me\n');
    const link = path.join(tmp, 'force', 'link.txt');
    fs.symlinkSync(other, link);
    assertRejected(run('convert', input, '--to', 'collapsed', '-o', link), /link\.txt exists \(a link\)/);
    assert.equal(run('convert', input, '--to', 'collapsed', '-o', link, '--force').status, 0);
    assert.equal(fs.readFileSync(other, 'utf8'), 'keep me\n', 'the link target is untouched');
    assert.ok(!fs.lstatSync(link).isSymbolicLink());
    assert.equal(fs.readFileSync(link, 'utf8'), toCollapsed(snap));
    assertRejected(run('convert', input, '--to', 'collapsed', '-o', path.join(tmp, 'force'), '--force'), /is a directory/);
  });

  test('--force replaces only regular files: a device, a FIFO, a link to one are refused', () => {
    const fifo = path.join(tmp, 'force', 'pipe');
    fs.mkdirSync(path.dirname(fifo), { recursive: true });
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    const toFifo = path.join(tmp, 'force', 'to-pipe');
    fs.symlinkSync(fifo, toFifo);
    for (const [target, kind] of [['/dev/null', 'a character device'], [fifo, 'a FIFO'], [toFifo, 'a FIFO']]) {
      for (const force of [[], ['--force']]) {
        assertRejected(run('convert', input, '--to', 'collapsed', '-o', target, ...force), new RegExp(`it is ${kind}.*not a regular file`));
        assertRejected(run('report', input, '-o', target, ...force), new RegExp(`it is ${kind}.*not a regular file`));
      }
    }
    assert.ok(fs.statSync('/dev/null').isCharacterDevice(), '/dev/null is still the device');
    assert.ok(fs.lstatSync(fifo).isFIFO() && fs.lstatSync(toFifo).isSymbolicLink());
  });

  test('names print safely: control characters in frames and marks come out escaped', () => {
    const hostile = clone(snap);
    hostile.frames[hostile.sites[0].stack[0]].name = 'evil\n::error::owned\u001b[31m';
    const file = write('hostile.json', hostile);
    const r = run('top', file);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /evil\\x0a::error::owned\\x1b\[31m/);
    assert.ok(!/^::error::/m.test(r.stdout) && !r.stdout.includes('\u001b'), r.stdout);
    const json = JSON.parse(run('top', file, '--json').stdout);
    assert.ok(JSON.stringify(json).includes('evil\\n::error::owned'), '--json keeps the name as it is, escaped as JSON does');
  });

  // Random damage to a valid snapshot (seeded): every input the CLI accepts
  // gives files that pass their schemas; everything else is one emheap: line.
  test('fuzzed snapshots: accepted ones convert to valid files in every JSON format', () => {
    const { parseSnapshotBuffer } = require('../../cli/read_snapshot');
    let seed = 20261122;
    const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296);
    const pick = (a) => a[Math.floor(random() * a.length)];
    const values = [-1, 0, 1.5, 2 ** 53, 1e300, '', 'x', null, true, [], {}, [1, 'a'], { name: 'n' }, '2026-11-22T00:00:00Z'];
    const paths = (o, at = []) => (o && typeof o === 'object'
      ? [at, ...Object.keys(o).flatMap((k) => paths(o[k], at.concat(k)))] : [at]);
    let accepted = 0;
    for (let i = 0; i < 1500; i++) {
      const doc = clone(makeSnapshot());
      for (let n = 1 + Math.floor(random() * 3); n > 0; n--) {
        const at = pick(paths(doc).filter((p) => p.length));
        const parent = at.slice(0, -1).reduce((o, k) => o[k], doc);
        const key = at[at.length - 1];
        const r = random();
        if (r < 0.6) parent[key] = clone(pick(values));
        else if (r < 0.8 && !Array.isArray(parent)) delete parent[key];
        else if (!Array.isArray(parent)) parent[key + 'X'] = clone(pick(values)); // an unknown field
      }
      let read;
      try {
        read = parseSnapshotBuffer(Buffer.from(JSON.stringify(doc)), 'fuzz').snapshot;
      } catch (e) {
        assert.equal(e.name, 'EmheapError', `input ${i}: ${e.stack}`);
        assert.doesNotMatch(e.message, /\n/);
        continue;
      }
      accepted++;
      assert.deepEqual(validateSnapshot(clone(read)), [], `input ${i}`);
      assert.deepEqual(validateSpeedscope(clone(toSpeedscope(read))), [], `input ${i} speedscope`);
      assert.deepEqual(validatePerfView(clone(toPerfView(read))), [], `input ${i} perfview`);
      assert.deepEqual(validateChromeTrace(clone(toChromeTrace(read))), [], `input ${i} chrome-trace`);
    }
    assert.ok(accepted > 100 && accepted < 1400, `accepted ${accepted} of 1500: the fuzzer should make both kinds`);
  });
});

// ---------------------------------------------------------------- check

describe('emheap check', () => {
  let file;
  before(() => { file = write('check/profile.speedscope.json', toSpeedscope(makeSnapshot())); });   // 5932 live bytes

  test('within budget: one OK line, exit 0', () => {
    for (const args of [['--max-live-bytes', '10KB'], ['--max-live-bytes', '5932'], ['--max-site-bytes', '4KiB'],
      ['--max-live-bytes', '1MiB', '--max-site-bytes', '0.5MB'], ['--max-live-bytes=6_000']]) {
      const r = run('check', file, ...args);
      assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stdout, /^emheap: OK: [^\n]+\n$/, args.join(' '));
      assert.equal(r.stderr, '');
    }
    assert.match(run('check', file, '--max-site-bytes', '4KiB').stdout, /largest function leak_memory 4\.00 KiB \(4,096 B\) <= 4\.00 KiB/);
    assert.match(run('check', file, '--max-site-bytes', '4KiB', '--by', 'site').stdout, /largest site leak_memory\+0x1a2b 4\.00 KiB \(4,096 B\) <= 4\.00 KiB/);
  });

  test('live budget exceeded: exit 1, figures and the biggest sites named', () => {
    const r = run('check', file, '--max-live-bytes', '5KiB');
    assert.equal(r.status, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^emheap: budget exceeded in .*profile\.speedscope\.json:\n/);
    // (a file that does not say what was asked for: usable sizes, said so)
    assert.match(r.stderr, /live bytes 5\.79 KiB \(5,932 B\) \(usable sizes\) > --max-live-bytes 5\.00 KiB \(5,120 B\)/);
    assert.match(r.stderr, /largest functions:\n {4}leak_memory 4\.00 KiB in 4 blocks \(leak_memory < parse_chunk < load_level < main\)/);
    assert.ok(!/\n\s+at /.test(r.stderr));
  });

  test('in exact mode the live budget counts the bytes asked for, as the rows do: passes at their sum, fails one under', () => {
    const snapshot = makeSnapshot();
    const asked = snapshot.sites.reduce((sum, x) => sum + x.liveBytes, 0); // 5932
    Object.assign(snapshot.summary, {liveBytes: asked + 68, requestedLiveBytes: asked, allocatorRoundingBytes: 68});
    const exact = write('check/exact.json', snapshot);
    const ok = run('check', exact, '--max-live-bytes', String(asked));
    assert.equal(ok.status, 0, ok.stderr);
    assert.match(ok.stdout, /^emheap: OK: live 5\.79 KiB \(5,932 B\) <= 5\.79 KiB \(5,932 B\)/);
    const over = run('check', exact, '--max-live-bytes', String(asked - 1));
    assert.equal(over.status, 1);
    assert.match(over.stderr, /live bytes 5\.79 KiB \(5,932 B\) > --max-live-bytes 5\.79 KiB \(5,931 B\), over by 1 B/);
  });

  test('site budget exceeded: exit 1, every site over it named', () => {
    const r = run('check', file, '--max-live-bytes', '1GB', '--max-site-bytes', '1000');
    assert.equal(r.status, 1);
    assert.match(r.stderr, /2 functions over --max-site-bytes 1,000 B:/);
    assert.match(r.stderr, /leak_memory 4\.00 KiB in 4 blocks \(leak_memory < parse_chunk/);
    assert.match(r.stderr, /leak_memory 1\.00 KiB in 1 block \(leak_memory < load_level/);
    assert.ok(!/unattributed/.test(r.stderr), 'a site within budget is not named');
    assert.ok(!/live bytes .* > --max-live-bytes/.test(r.stderr));
  });

  test('bad budgets', () => {
    assertRejected(run('check', file), /needs a budget/);
    assertRejected(run('check', file, '--max-live-bytes', '10XB'), /--max-live-bytes: "10XB" is not a size/);
    assertRejected(run('check', file, '--max-live-bytes', '-5'), /--max-live-bytes/);
    assertRejected(run('check', file, '--max-site-bytes', 'lots'), /--max-site-bytes: "lots" is not a size/);
    assertRejected(run('check', file, '--max-live-bytes'), /--max-live-bytes needs a value/);
  });
});

// ---------------------------------------------------------------- bad input and usage

describe('bad input: one line, exit 2, no stack trace', () => {
  const good = () => toSpeedscope(makeSnapshot());
  const cases = () => {
    const text = JSON.stringify(good());
    const wrongVersion = good();
    wrongVersion.emheap.version = 2;
    const oldVersion = makeSnapshot();
    oldVersion.version = 0;
    const wrongFormat = makeSnapshot();
    wrongFormat.format = 'emheap-snapshot-v9';
    const otherSpeedscope = good();
    delete otherSpeedscope.emheap;
    otherSpeedscope.exporter = 'speedscope@1.25.0';
    const otherPerfView = toPerfView(makeSnapshot());
    delete otherPerfView.emheap;
    const badStack = makeSnapshot();
    badStack.sites[0].stack.push(99);
    const negative = makeSnapshot();
    negative.sites[1].liveBytes = -1;
    const noSummary = good();
    delete noSummary.emheap.summary;
    const badMode = makeSnapshot();
    badMode.mode = 'precise';
    const marked = JSON.parse(fs.readFileSync(path.join(ROOT, 'tests', 'fixtures', 'report', 'game.snapshot.json'), 'utf8'));
    const shortRow = clone(marked);
    const rowSite = shortRow.sites.findIndex((x) => x.liveByMark && x.liveByMark.length >= 8);
    shortRow.sites[rowSite].liveByMark.splice(5, 1);
    const emheapNotObject = good();
    emheapNotObject.emheap = 'yes';
    return [
      ['missing file', [path.join(tmp, 'does-not-exist.json')], /does-not-exist\.json: no such file/],
      ['a directory', [tmp], /is a directory/],
      ['empty file', [write('bad/empty.json', '')], /empty file/],
      ['not JSON (text)', [write('bad/notes.txt', 'hello, world\n')], /not a JSON file/],
      ['not JSON (collapsed output)', [write('bad/x.collapsed.txt', toCollapsed(makeSnapshot()))], /not a JSON file/],
      ['invalid JSON', [write('bad/invalid.json', '{"emheap": {,}}')], /invalid JSON at byte \d+/],
      ['truncated JSON (half)', [write('bad/half.speedscope.json', text.slice(0, text.length >> 1))], /truncated JSON/],
      ['truncated JSON (last byte)', [write('bad/last.speedscope.json', text.slice(0, -1))], /truncated JSON/],
      ['truncated JSON (mid string)', [write('bad/str.speedscope.json', text.slice(0, text.indexOf('leak_memory') + 4))], /truncated JSON/],
      ['pprof (gzip) input', [write('bad/x.pb.gz', Buffer.from(toPprof(makeSnapshot())))], /gzip file \(a pprof profile\?\)/],
      ['newer snapshot version', [write('bad/v2.speedscope.json', wrongVersion)], /snapshot version 2 is newer than this emheap reads \(version 1\): update emheap/],
      ['unknown snapshot version', [write('bad/v0.json', oldVersion)], /unknown snapshot version 0/],
      ['unknown snapshot format', [write('bad/fmt.json', wrongFormat)], /unknown snapshot format "emheap-snapshot-v9"/],
      ['speedscope file from another tool', [write('bad/other.speedscope.json', otherSpeedscope)], /a speedscope file written by speedscope@1\.25\.0, not by emheap: it has no "emheap" field/],
      ['PerfView file from another tool', [write('bad/other.PerfView.json', otherPerfView)], /a PerfView file not written by emheap/],
      ['Chrome trace', [write('bad/x.trace.json', toChromeTrace(makeSnapshot()))], /a Chrome trace/],
      ['other JSON object', [write('bad/package.json', { name: 'x', version: '1.0.0' })], /JSON, but not an emheap file/],
      ['JSON array', [write('bad/array.json', [1, 2])], /the top level is an array/],
      ['JSON null', [write('bad/null.json', 'null')], /the top level is null/],
      ['"emheap" not an object', [write('bad/str.json', emheapNotObject)], /"emheap" field is not a snapshot object/],
      ['stack out of range', [write('bad/stack.json', badStack)], /damaged emheap snapshot: sites\[0\]\.stack refers to frame 99, but there are 7 frames/],
      ['negative count', [write('bad/neg.json', negative)], /damaged emheap snapshot: sites\[1\]\.liveBytes must be >= 0/],
      ['no summary', [write('bad/nosummary.speedscope.json', noSummary)], /damaged emheap snapshot: has no summary/],
      ['a liveByMark row of three numbers', [write('bad/row.json', shortRow)], /damaged emheap snapshot: sites\[\d+\]\.liveByMark has \d+ numbers, not rows of four/],
      ['unknown mode', [write('bad/mode.json', badMode)], /mode must be equal to one of the allowed values \(exact, exact-js, exact-shadow, sampled, off\)/],
    ];
  };

  test('every command rejects every bad file the same way', () => {
    const good1 = write('bad/good.speedscope.json', good());
    for (const [label, [file], pattern] of cases()) {
      for (const args of [['top', file], ['diff', good1, file], ['diff', file, good1], ['convert', file, '--to', 'pprof', '-o', path.join(tmp, 'bad', 'out.pb.gz')],
        ['check', file, '--max-live-bytes', '1MB']]) {
        assertRejected(run(...args), pattern, `${label}: emheap ${args[0]}`);
      }
    }
    assert.ok(!fs.existsSync(path.join(tmp, 'bad', 'out.pb.gz')), 'nothing written from bad input');
  });

  // Files over 256 MB are parsed as a stream (cli/read_snapshot.js); the
  // same bad files must give the same messages through that reader, and a
  // good speedscope file the same snapshot.
  test('the large-file reader rejects every bad file the same way and reads good ones alike', () => {
    const { parseLargeFile, parseSnapshotBuffer } = require('../../cli/read_snapshot');
    const large = (file) => {
      const fd = fs.openSync(file, 'r');
      try {
        return parseLargeFile(fd, file);
      } finally {
        fs.closeSync(fd);
      }
    };
    let checked = 0;
    for (const [label, [file], pattern] of cases()) {
      if (!fs.existsSync(file) || fs.statSync(file).isDirectory() || fs.statSync(file).size === 0) continue;
      if (label === 'JSON null') continue;   // a stream reader sees "not an object" before "null"
      assert.throws(() => large(file), (e) => e.name === 'EmheapError' && pattern.test(e.message) && !/\n/.test(e.message),
        `${label}: large-file reader`);
      checked++;
    }
    assert.ok(checked > 15, `${checked} cases`);
    const good1 = write('bad/good-large.speedscope.json', toSpeedscope(makeSnapshot()));
    assert.deepEqual(large(good1), parseSnapshotBuffer(fs.readFileSync(good1), good1));
    assert.equal(large(good1).container, 'speedscope');
    const pv = write('bad/good-large.PerfView.json', toPerfView(makeSnapshot()));
    assert.deepEqual(large(pv), parseSnapshotBuffer(fs.readFileSync(pv), pv));
  });

  test('every truncation point of a real-size file is reported as truncated', () => {
    const text = JSON.stringify(good());
    for (const cut of [1, 2, 10, 100, 500, text.length - 2]) {
      assertRejected(run('top', write(`bad/cut${cut}.json`, text.slice(0, cut))), /truncated JSON/, `cut at ${cut}`);
    }
  });

  test('usage errors', () => {
    const file = write('usage/p.speedscope.json', good());
    const usage = [
      [[], /no command given/],
      [['frobnicate'], /unknown command "frobnicate"/],
      [['top'], /top needs FILE/],
      [['diff', file], /diff needs AFTER/],
      [['diff'], /diff needs BEFORE and AFTER/],
      [['convert', file], /convert needs --to/],
      [['convert'], /convert needs FILE/],
      [['check'], /check needs FILE/],
      [['top', file, 'extra'], /takes FILE, but got also "extra"/],
      [['top', file, '--bogus'], /unknown option --bogus for "emheap top"/],
      [['top', file, '-x'], /unknown option -x/],
      [['top', file, '-json'], /unknown option -json/],
      [['top', file, '--to', 'pprof'], /unknown option --to for "emheap top"/],
      [['top', file, '--sort'], /--sort needs a value/],
      [['top', file, '--sort', 'size'], /--sort: "size" is not one of bytes, count, allocs/],
      [['top', file, '--top', 'ten'], /--top: "ten" is not a whole number/],
      [['top', file, '--top', '-3'], /--top/],
      [['top', file, '--json=yes'], /--json takes no value/],
      [['top', file, '--top', '--json'], /--top needs a value/],
      [['diff', file, file, '--sort', 'name'], /--sort: "name"/],
      [['convert', file, '--to', 'xml'], /--to: unknown format "xml": use one of speedscope, perfview, pprof, collapsed, chrome-trace/],
      [['convert', file, '--to', 'toString'], /unknown format "toString"/],
      [['convert', file, '--to'], /--to needs a value/],
      [['help', 'frobnicate'], /help: unknown command "frobnicate"/],
    ];
    for (const [args, pattern] of usage) assertRejected(run(...args), pattern, `emheap ${args.join(' ')}`);
  });
});

describe('help and packaging', () => {
  test('--help, help CMD, CMD --help', () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      const r = run(...args);
      assert.equal(r.status, 0);
      assert.equal(r.stderr, '');
      for (const cmd of ['top', 'diff', 'convert', 'check']) assert.match(r.stdout, new RegExp(`emheap ${cmd} `));
    }
    for (const cmd of ['top', 'diff', 'convert', 'check']) {
      for (const args of [['help', cmd], [cmd, '--help'], [cmd, 'FILE', '-h']]) {
        const r = run(...args);
        assert.equal(r.status, 0, args.join(' '));
        assert.match(r.stdout, new RegExp(`^Usage: emheap ${cmd} `), args.join(' '));
      }
    }
    assert.match(run('help', 'check').stdout, /KiB/);
    assert.match(run('--version').stdout, /^\d+\.\d+\.\d+\n$/);
  });

  test('package.json bin; executable with a node shebang', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    assert.deepEqual(pkg.bin, { emheap: 'cli/emheap.js', 'emheap-config': 'bin/emheap-config' });
    for (const file of Object.values(pkg.bin).map((f) => path.join(ROOT, f))) {
      assert.ok(fs.readFileSync(file, 'utf8').startsWith('#!/usr/bin/env node\n'), file);
      assert.ok(fs.statSync(file).mode & 0o111, `${file} is executable`);
    }
    const r = spawnSync(CLI, ['--help'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  });

  // The CLI must run from an npm install without devDependencies.
  test('cli/ and formats/ need nothing but node, each other and the package\'s dependencies', () => {
    const dependencies = Object.keys(require('../../package.json').dependencies || {});
    for (const dir of ['cli', 'formats']) {
      for (const name of fs.readdirSync(path.join(ROOT, dir), { recursive: true }).filter((f) => f.endsWith('.js'))) {
        const src = fs.readFileSync(path.join(ROOT, dir, name), 'utf8');
        for (const m of src.matchAll(/require\(['"]([^'"]+)['"]\)/g)) {
          assert.ok(m[1].startsWith('node:') || m[1].startsWith('.') || dependencies.includes(m[1]),
            `${dir}/${name} requires ${m[1]}`);
        }
        // a header comment says what the file is
        assert.match(src.replace(/^#!.*\n/, ''), /^\/\/ \S+\.js: /, `${dir}/${name} header`);
      }
    }
  });
});

// ---------------------------------------------------------------- the pure modules, directly

describe('cli modules', () => {
  const units = require('../../cli/units');
  const { diffSnapshots } = require('../../model/diff');
  const { checkSnapshot } = require('../../cli/read_snapshot');
  const { renderTable } = require('../../cli/table');

  test('units: sizes, counts, bytes', () => {
    const sizes = {
      '0': 0, '1048576': 1048576, '10MB': 10e6, '10mb': 10e6, '10 MB': 10e6, '512KiB': 524288, '1.5KiB': 1536,
      '2GiB': 2 * 1024 ** 3, '1k': 1000, '3M': 3e6, '100B': 100, '1_000_000': 1e6, '0.5MB': 500000, '1TiB': 1024 ** 4,
    };
    for (const [text, want] of Object.entries(sizes)) assert.equal(units.parseSize(text, '--x'), want, text);
    for (const bad of ['', 'MB', '-1', '10XB', '1e6', '1.', 'ten', '10 M B', '99999999999999999999']) {
      assert.throws(() => units.parseSize(bad, '--x'), (e) => e.name === 'EmheapError' && e.exitCode === 2 && /^--x: /.test(e.message), bad);
    }
    assert.equal(units.parseWhole('20', '--top'), 20);
    assert.throws(() => units.parseWhole('2.5', '--top'), /not a whole number/);
    assert.equal(units.formatCount(1234567), '1,234,567');
    assert.equal(units.formatCount(-1000), '-1,000');
    assert.equal(units.formatBytes(512), '512 B');
    assert.equal(units.formatBytes(3 * 1024 * 1024), '3.00 MiB');
    assert.equal(units.formatBytes(-2048), '-2.00 KiB');
    assert.equal(units.formatBytesDelta(2048), '+2.00 KiB');
    assert.equal(units.formatBytesDelta(0), '0 B');
    assert.equal(units.formatCountDelta(-3), '-3');
    assert.equal(units.formatBytesExact(5932), '5.79 KiB (5,932 B)');
  });

  test('diff: a key that collides in one snapshot only is matched by stack in both', () => {
    const b = sessionSnapshot(2);
    const a = sessionSnapshot(5);
    // before: only the caller_a stack of grow+0x10 exists
    b.sites = b.sites.filter((s) => !(s.key === 'grow+0x10' && b.frames[s.stack[1]].name === 'caller_b'));
    const d = diffSnapshots(b, a);
    const grow = d.rows.filter((r) => r.key === 'grow+0x10');
    assert.deepEqual(grow.map((r) => [r.stack[1], r.status, r.matchedBy]), [['caller_a', 'both', 'stack'], ['caller_b', 'new', 'stack']]);
    assert.equal(grow[0].newAllocs, 3 * 2);
    assert.equal(grow[1].newAllocs, 5 * 5);
    // a site gone from AFTER (two sessions) is reported, not dropped
    const gone = diffSnapshots(a, sessionSnapshot(5, { reverse: true }));
    assert.deepEqual(gone.rows, []);
    const fewer = sessionSnapshot(5);
    fewer.sites = fewer.sites.filter((s) => s.key !== 'cache_put+0x80');
    const g = diffSnapshots(a, fewer).rows.find((r) => r.key === 'cache_put+0x80');
    assert.equal(g.status, 'gone');
    assert.equal(g.sizeDelta, -a.sites.find((s) => s.key === 'cache_put+0x80').liveBytes);
  });

  test('checkSnapshot accepts what the schema accepts, names the first problem otherwise', () => {
    const snap = makeSnapshot();
    assert.equal(checkSnapshot(snap), null);
    snap.timeline = [{ t: 0, liveBytes: 1, liveBlocks: 1 }];
    assert.equal(checkSnapshot(snap), null);
    snap.timeline[0].t = -1;
    assert.match(checkSnapshot(snap), /timeline\[0\]/);
    const noName = makeSnapshot();
    delete noName.frames[2].name;
    assert.equal(checkSnapshot(noName), 'frames[2] has no name');
    const extra = makeSnapshot();
    extra.frames[0].funcIndex = -1;
    assert.equal(checkSnapshot(extra), 'frames[0].funcIndex must be >= 0');
    const unknown = makeSnapshot();
    unknown.sites[0].colour = 'red';
    unknown.summary.newCounter = 5;
    assert.equal(checkSnapshot(unknown), null, 'fields a newer emheap may add are accepted');
    assert.equal(unknown.sites[0].colour, undefined, '... and dropped, so no output carries an unchecked field');
    assert.equal(unknown.summary.newCounter, undefined);
  });

  test('table: right-aligned numbers, no trailing blanks', () => {
    const text = renderTable([{ title: 'n', align: 'right' }, { title: 'name', align: 'left' }], [['1', 'a'], ['100', 'bb']]);
    assert.equal(text, '  n  name\n  1  a\n100  bb\n');
  });
});

// ---------------------------------------------------------------- real files from the sample page

const { haveChromium, CHROMIUM } = require('../lib/browser');
const REAL_SKIP = !haveChromium() ? `no Chromium at ${CHROMIUM}`
  : !fs.existsSync(path.join(SAMPLES, 'leaky-canvas', 'index.html')) ? 'build/samples is missing: run `make samples`' : false;
const LEAK_BLOCKS = 64;
const LEAK_BLOCK_BYTES = 16384 + 4;   // sizeof(leak) + 16 KiB, samples/leaky-canvas/leaky.c

describe('on files downloaded from the sample page', { skip: REAL_SKIP, timeout: 120000 }, () => {
  let dir;
  const files = {};
  before(async () => {
    if (REAL_SKIP) return;
    const { serve } = require('../../harness/serve');
    const { launch, newPage } = require('../lib/browser');
    dir = path.join(tmp, 'real');
    fs.mkdirSync(dir, { recursive: true });
    const server = await serve({ '/': SAMPLES });
    const browser = await launch();
    const download = async (page, name) => {
      const [d] = await Promise.all([page.waitForEvent('download', { timeout: 10000 }), page.keyboard.press('Control+Shift+H')]);
      const file = path.join(dir, name + '-' + d.suggestedFilename());
      await d.saveAs(file);
      return file;
    };
    try {
      for (const mode of ['exact', 'sampled']) {
        const { context, page } = await newPage(browser);
        try {
          // sampled: 2 MiB of leaks at the default 512 KiB interval is ~4
          // samples, and its estimate fell below main()'s exact 650 KB in
          // about 1 run in 10; at 64 KiB, ~32 samples.
          const query = mode === 'sampled' ? 'sampled&emheap_interval=65536' : mode;
          await page.goto(`${server.url}/leaky-canvas/?emheap=${query}`);
          await page.waitForFunction(() => document.title === 'emheap sample: ready', null, { timeout: 20000 });
          await page.evaluate(() => emheap.ready());
          files[mode + 'Before'] = await download(page, mode + '-before');
          // known growth: 3 leaks, free them all, 2 leaks
          for (let i = 0; i < 3; i++) await page.click('#leak');
          await page.click('#free');
          for (let i = 0; i < 2; i++) await page.click('#leak');
          files[mode + 'After'] = await download(page, mode + '-after');
          // a bare snapshot, as a user keeps one from the console
          fs.writeFileSync(path.join(dir, mode + '-bare.json'), JSON.stringify(await page.evaluate(() => emheap.snapshot())));
          files[mode + 'Bare'] = path.join(dir, mode + '-bare.json');
        } finally {
          await context.close();
        }
      }
    } finally {
      await browser.close();
      await server.close();
    }
  });

  test('top names leak_memory first (exact and sampled downloads)', () => {
    for (const mode of ['exact', 'sampled']) {
      const r = run('top', files[mode + 'After'], '--json');
      assert.equal(r.status, 0, r.stderr);
      const j = JSON.parse(r.stdout);
      assert.equal(j.mode, mode === 'exact' ? 'exact' : 'sampled');
      assert.equal(j.sites[0].stack[0].name, 'leak_memory', JSON.stringify(j.sites[0]));
      if (mode === 'exact') assert.equal(j.sites[0].liveBytes, 2 * LEAK_BLOCKS * LEAK_BLOCK_BYTES);
      const text = run('top', files[mode + 'After']);
      assert.equal(text.status, 0);
      assert.match(text.stdout, /leak_memory/);
    }
  });

  test('diff of the exact downloads: leak_memory grew by exactly what was done', () => {
    const r = run('diff', files.exactBefore, files.exactAfter, '--json', '--top', '0');
    assert.equal(r.status, 0, r.stderr);
    const d = JSON.parse(r.stdout);
    const leak = d.sites.filter((s) => s.stack[0] === 'leak_memory');
    assert.ok(leak.length >= 1, JSON.stringify(d.sites.map((s) => s.label)));
    const sum = (k) => leak.reduce((t, s) => t + s[k], 0);
    assert.equal(sum('newAllocs'), 5 * LEAK_BLOCKS);
    assert.equal(sum('freedBlocks'), 3 * LEAK_BLOCKS);
    assert.equal(sum('countDelta'), 2 * LEAK_BLOCKS);
    assert.equal(sum('allocBytes'), 5 * LEAK_BLOCKS * LEAK_BLOCK_BYTES);
    assert.equal(sum('freedBytes'), 3 * LEAK_BLOCKS * LEAK_BLOCK_BYTES);
    assert.equal(sum('sizeDelta'), 2 * LEAK_BLOCKS * LEAK_BLOCK_BYTES);
    assert.equal(d.sites[0].stack[0], 'leak_memory', 'the largest growth comes first');
    assert.ok(d.totals.liveBytes.delta >= 2 * LEAK_BLOCKS * LEAK_BLOCK_BYTES);
    // the bare snapshot taken after reads the same as the download
    const bare = JSON.parse(run('diff', files.exactBefore, files.exactBare, '--json', '--top', '0').stdout);
    assert.equal(bare.sites.filter((s) => s.stack[0] === 'leak_memory').reduce((t, s) => t + s.sizeDelta, 0), 2 * LEAK_BLOCKS * LEAK_BLOCK_BYTES);
    const text = run('diff', files.sampledBefore, files.sampledAfter);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /note: sampled blocks: per-site numbers that hold them are estimates/);
  });

  test('check and convert on a downloaded file', () => {
    const f = files.exactAfter;
    assert.equal(run('check', f, '--max-live-bytes', '64MiB').status, 0);
    const r = run('check', f, '--max-live-bytes', '64MiB', '--max-site-bytes', '1MiB');
    assert.equal(r.status, 1);
    assert.match(r.stderr, /leak_memory/);
    for (const to of ['pprof', 'collapsed', 'chrome-trace', 'perfview', 'speedscope']) {
      const target = path.join(dir, `converted.${to}`);
      const c = run('convert', f, '--to', to, '-o', target);
      assert.equal(c.status, 0, `${to}: ${c.stderr}`);
      assert.ok(fs.statSync(target).size > 0);
    }
    assert.match(fs.readFileSync(path.join(dir, 'converted.collapsed'), 'utf8').split('\n')[0], /;leak_memory \d+$/);
    assert.deepEqual(validateChromeTrace(JSON.parse(fs.readFileSync(path.join(dir, 'converted.chrome-trace'), 'utf8'))), []);
    assert.deepEqual(validatePerfView(JSON.parse(fs.readFileSync(path.join(dir, 'converted.perfview'), 'utf8'))), []);
    // the default name of a downloaded file
    const c = run('convert', f, '--to', 'pprof');
    assert.equal(c.status, 0);
    assert.ok(fs.existsSync(f.replace(/\.speedscope\.json$/, '.pb.gz')));
    const go = spawnSync('go', ['tool', 'pprof', '-top', '-sample_index=inuse_space', f.replace(/\.speedscope\.json$/, '.pb.gz')], { encoding: 'utf8' });
    if (go.status === 0) assert.match(go.stdout, /flat%[^\n]*\n\s*\S+\s+[\d.]+%\s+[\d.]+%\s+\S+\s+[\d.]+%\s+leak_memory/);
  });
});
