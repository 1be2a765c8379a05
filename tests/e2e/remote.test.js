// remote.test.js -- the heap of a device without devtools: `emheap serve`
// (cli/collector.js) as a real HTTP server on 127.0.0.1, and pages in
// headless Chromium (and Firefox) opened with ?emheap_remote= (output/remote_sink.js,
// jslib/remote.js), and C programs under node with EMHEAP_REMOTE. Ctrl+Shift+H, a mark, a timer and an out-of-memory abort
// each make a file arrive in the collector's folder that `emheap top` reads,
// and the collector's own page shows the newest; a wrong token, a body over
// the limit and bodies that are not a snapshot are refused with their
// status and one line on the collector's console, nothing written.
'use strict';

const {describe, test, before, after} = require('node:test');
const assert = require('node:assert/strict');
const {spawn} = require('node:child_process');
const http = require('node:http');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');

const {CLI, SAMPLES, BUILD} = require('../lib/paths');
const {runCli} = require('../lib/cli');
const {makeSnapshot} = require('../lib/fixtures');
const {newPage, servedChromium, servedProgramPage, CHROMIUM_SKIP} = require('../lib/browser');
const firefox = require('../lib/firefox');
const {clickLeak} = require('../lib/sample_page');
const {serve} = require('../../harness/serve');
const {runWasmProgram} = require('../lib/run_wasm');

const TOKEN = 'remote-test-token-0123456789';

// `emheap serve` in a scratch folder, as a user starts it. -> {url (with
// the token), dir, lines() (its console so far), stop()}.
async function startCollector(extra = [], where) {
  const cwd = where || fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-serve-'));
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--dir', 'kept', '--token', TOKEN, ...extra],
    {cwd, stdio: ['ignore', 'pipe', 'pipe']});
  let out = '';
  child.stdout.on('data', (d) => { out += d; });
  child.stderr.on('data', (d) => { out += d; });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL from emheap serve: ${out}`)), 10000);
    const look = () => {
      const m = /\?emheap_remote=(http:\/\/127\.0\.0\.1:\d+\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      } else setTimeout(look, 20);
    };
    look();
    child.on('exit', (code) => reject(new Error(`emheap serve exited (${code}): ${out}`)));
  });
  return {
    url, dir: path.join(cwd, 'kept'),
    lines: () => out.split('\n').filter((l) => /^\d\d:\d\d:\d\d /.test(l)).map((l) => l.slice(9)),
    cwd,
    stop: ({keep = false} = {}) => {
      child.kill();
      if (!keep) fs.rmSync(cwd, {recursive: true, force: true});
    },
  };
}

// Waits until a file whose name matches `pattern` is in dir. -> its path.
async function arrival(dir, pattern, ms = 30000) {
  const end = Date.now() + ms;
  for (;;) {
    const found = fs.readdirSync(dir).find((f) => pattern.test(f));
    if (found) return path.join(dir, found);
    if (Date.now() > end) throw new Error(`no file like ${pattern} in ${dir}: ${fs.readdirSync(dir).join(', ')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const topRows = (file) => {
  const run = runCli(['top', file, '--json']);
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout).sites;
};

const post = (url, body, type = 'application/gzip') => fetch(`${url}/snapshots?name=x.speedscope.json`,
  {method: 'POST', body, headers: {'Content-Type': type}});

describe('emheap serve refuses what it must not keep', () => {
  let collector;
  before(async () => { collector = await startCollector(['--max-size', '64KiB']); });
  after(() => collector.stop());

  test('wrong token 403, over the limit 413, not a snapshot 400: a line each, nothing written', async () => {
    const good = zlib.gzipSync(JSON.stringify(makeSnapshot()));
    const wrong = collector.url.replace(TOKEN, TOKEN.replace('0123', '9999'));
    const cases = [
      [await post(wrong, good), 403, /a path without the collector's token/],
      [await fetch(`${wrong}/files.json`), 403, /a path without the collector's token/],
      [await post(collector.url, Buffer.alloc(100 * 1024, 32), 'application/json'), 413, /over the limit of 64\.00 KiB/],
      // a gzip bomb: 70 KiB of spaces that unzip past the limit
      [await post(collector.url, zlib.gzipSync(Buffer.alloc(70 * 1024, 32))), 413, /unzips to over 64\.00 KiB/],
      [await post(collector.url, '{"a": nope}', 'application/json'), 400, /invalid JSON/],
      [await post(collector.url, Buffer.from([0x1f, 0x8b, 1, 2, 3])), 400, /a damaged gzip body/],
      [await post(collector.url, zlib.gzipSync('{"traceEvents": []}')), 400, /a Chrome trace .*: it carries no emheap snapshot/],
    ];
    for (const [response, status, said] of cases) {
      assert.equal(response.status, status, await response.text());
    }
    const lines = collector.lines();
    assert.equal(lines.length, cases.length, lines.join('\n'));
    cases.forEach(([, status, said], i) => {
      assert.match(lines[i], new RegExp(`^refused \\w+ from \\S+: ${status} `));
      assert.match(lines[i], said);
      assert.match(lines[i], /nothing written$/);
    });
    assert.deepEqual(fs.readdirSync(collector.dir), []);
  });

  test('a snapshot is kept under its name, a second of that name beside it, never over it', async () => {
    const body = zlib.gzipSync(JSON.stringify(makeSnapshot()));
    const first = await post(collector.url, body);
    const second = await post(collector.url, body);
    assert.equal(first.status, 201);
    assert.equal(second.status, 201);
    assert.deepEqual((await first.json()).file, 'x.speedscope.json');
    assert.deepEqual((await second.json()).file, 'x-2.speedscope.json');
    assert.deepEqual(fs.readdirSync(collector.dir).sort(), ['x-2.speedscope.json', 'x.speedscope.json']);
    assert.match(topRows(path.join(collector.dir, 'x.speedscope.json'))[0].label, /leak_memory/);
    const listed = await (await fetch(`${collector.url}/files.json`)).json();
    assert.deepEqual(listed.map((f) => f.name), ['x-2.speedscope.json', 'x.speedscope.json']);
    const report = await fetch(`${collector.url}/report/x.speedscope.json`);
    assert.equal(report.status, 200);
    assert.match(await report.text(), /leak_memory/);

    // a collector started again on the folder lists what it kept before
    const again = await startCollector([], collector.cwd);
    try {
      const before = await (await fetch(`${again.url}/files.json`)).json();
      assert.deepEqual(before.map((f) => f.name).sort(), ['x-2.speedscope.json', 'x.speedscope.json']);
      for (const f of before) {
        assert.deepEqual([f.from, f.bytes], ['(kept before)', fs.statSync(path.join(collector.dir, f.name)).size], f.name);
      }
    } finally {
      again.stop({keep: true});
    }
  });
});

test('emheap serve: bad options and a port in use end it with status 2 and one line', async () => {
  const bad = [
    [['--token', 'short'], /--token: give 16 to 64 letters, digits, - or _/],
    [['--port', '70000'], /--port: 70000 is not a TCP port/],
    [['--max-size', '1GiB'], /--max-size: from 1 byte to 256\.00 MiB/],
  ];
  for (const [args, said] of bad) {
    const run = runCli(['serve', ...args]);
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, said);
    assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
  }
  const first = await startCollector();
  try {
    const port = new URL(first.url).port;
    const second = runCli(['serve', '--port', port, '--dir', first.dir], {timeout: 10000});
    assert.equal(second.status, 2, second.stderr + second.stdout);
    assert.match(second.stderr, new RegExp(`^emheap: serve: cannot listen on 127\\.0\\.0\\.1:${port} \\(EADDRINUSE\\): another collector runs there\\? give --port\\n$`));
  } finally {
    first.stop();
  }
});

// A C program under node, run as Emscripten 3.1.6 output must be (node
// --no-experimental-fetch: no fetch() at all), with EMHEAP_REMOTE: its
// marks send through node's http (output/collector_post.js).
// tests/runtime/marks_rounds.c marks "warm" after load_assets kept 25
// blocks of 4 KiB, then 12 rounds: grow_list keeps 16 blocks of 4 KiB a
// round, cache_put keeps the newest 24 of 8 a round; it frees nothing after.
test('a node program without fetch() sends its marks\' snapshots to emheap serve through node\'s http', async () => {
  const collector = await startCollector();
  try {
    const run = runWasmProgram(path.join(BUILD, 'marks_rounds.dlmalloc.js'), {env: {EMHEAP_REMOTE: collector.url}});
    assert.equal(run.status, 0, run.stderr);
    assert.doesNotMatch(run.stderr, /cannot send|could not send/);
    assert.ok(!run.stderr.includes(TOKEN), 'the token is never said');
    // the program's process ends once what it sent has arrived: the first
    // mark's, and the newest waiting when that one was through
    const kept = fs.readdirSync(collector.dir).sort();
    assert.match(kept[0], /-mark1\.speedscope\.json$/);
    assert.match(kept[kept.length - 1], /-mark13\.speedscope\.json$/);
    const rows = (file) => new Map(topRows(path.join(collector.dir, file)).map((r) => [r.label.split('+')[0], [r.liveBlocks, r.liveBytes]]));
    const block = 4096;
    const warm = rows(kept[0]);
    assert.deepEqual(warm.get('load_assets'), [25, 25 * block]);
    assert.equal(warm.get('grow_list'), undefined);
    const last = rows(kept[kept.length - 1]);
    assert.deepEqual(last.get('load_assets'), [25, 25 * block]);
    assert.deepEqual(last.get('grow_list'), [12 * 16, 12 * 16 * block]);
    assert.deepEqual(last.get('cache_put'), [24, 24 * block]);
    assert.match(run.stderr, new RegExp(`emheap: sent ${kept[kept.length - 1].replace(/\./g, '\\.')} \\(\\d+ KiB\\) to the collector at http://127\\.0\\.0\\.1:\\d+`));
  } finally {
    collector.stop();
  }
});

// The same program with EMHEAP_REMOTE at a port where nothing listens: each
// send fails with one line that says what to check (the first mark's, and
// the newest waiting then, as above), and the program runs to its end as
// without a collector: its own snapshot holds every round's blocks.
test('a node program whose collector is not running says so and runs to its end', async () => {
  const probe = http.createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = probe.address().port;
  await new Promise((resolve) => probe.close(resolve));
  const origin = `http://127.0.0.1:${port}`;
  const run = runWasmProgram(path.join(BUILD, 'marks_rounds.dlmalloc.js'), {env: {EMHEAP_REMOTE: `${origin}/${TOKEN}`}});
  assert.equal(run.status, 0, run.stderr);
  assert.ok(!run.stderr.includes(TOKEN), 'the token is never said');
  const failures = run.stderr.split('\n').filter((l) => l.includes('could not send'));
  assert.deepEqual(failures.map((l) => /-mark(\d+)\.speedscope\.json /.exec(l)?.[1]), ['1', '13'], run.stderr);
  const escaped = origin.replace(/\./g, '\\.');
  for (const line of failures) {
    assert.match(line, new RegExp(`^emheap: could not send memory-profile-\\S+ to the collector at ${escaped}: ` +
      `connect ECONNREFUSED 127\\.0\\.0\\.1:${port}: is \`emheap serve\` running, and can this machine reach ${escaped}\\?$`));
  }
  const snapshot = run.tagged.SNAPSHOT;
  assert.ok(snapshot, 'the program printed its snapshot at its end');
  assert.equal(snapshot.marks.length, 13);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-remote-down-'));
  try {
    const file = path.join(dir, 'end.json');
    fs.writeFileSync(file, JSON.stringify(snapshot));
    const rows = new Map(topRows(file).map((r) => [r.label.split('+')[0], [r.liveBlocks, r.liveBytes]]));
    const block = 4096;
    assert.deepEqual(rows.get('load_assets'), [25, 25 * block]);
    assert.deepEqual(rows.get('grow_list'), [12 * 16, 12 * 16 * block]);
    assert.deepEqual(rows.get('cache_put'), [24, 24 * block]);
  } finally {
    fs.rmSync(dir, {recursive: true, force: true});
  }
});

// The same program with -pthread and -sEXIT_RUNTIME (marks_rounds.threads):
// main's return ends node, with the last mark's file still to send.
// Emscripten 3.1.x ends node at once and the file never arrives; 6.x's
// exit lets it go out first. Either it arrived, or the program says it
// did not: never lost unsaid.
test('a node program that ends with a snapshot on its way: it arrives, or the program says it did not', async () => {
  const collector = await startCollector();
  try {
    const run = runWasmProgram(path.join(BUILD, 'marks_rounds.threads.js'), {env: {EMHEAP_REMOTE: collector.url}});
    assert.equal(run.status, 0, run.stderr);
    const said = /emheap: the program ended while a snapshot was on its way to the collector: it did not arrive \(a program built with -sEXIT_RUNTIME/;
    if (fs.readdirSync(collector.dir).some((f) => /-mark13\./.test(f))) assert.doesNotMatch(run.stderr, said);
    else assert.match(run.stderr, said);
  } finally {
    collector.stop();
  }
});

// tests/runtime/save_snapshot.c with a collector: its emheap_save_snapshot
// calls send, a speedscope file when keep_block holds 40 blocks of 1,000
// bytes and one of 24, a PerfView file after every other 1,000-byte block
// went; the snapshot at exit (EMHEAP_SNAPSHOT_AT_EXIT) is written into the
// program's folder, as nothing sent while node ends would arrive.
test('a C program\'s emheap_save_snapshot sends to emheap serve; its snapshot at exit stays in its folder', async (t) => {
  const collector = await startCollector();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-save-'));
  t.after(() => fs.rmSync(dir, {recursive: true, force: true}));
  try {
    const run = runWasmProgram(path.join(BUILD, 'save_snapshot.default.js'), {cwd: dir,
      env: {EMHEAP_REMOTE: collector.url, EMHEAP_SNAPSHOT_AT_EXIT: '1'}});
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(run.stdout.split('\n').filter((l) => /^[A-Z]+ -?\d+$/.test(l)), ['SAVE 0', 'BAD -1', 'PERFVIEW 0']);
    assert.doesNotMatch(run.stderr, /cannot send|could not send|did not arrive/);
    const keepBlock = (file) => {
      const row = topRows(file).find((r) => r.label === 'keep_block');
      assert.ok(row, `${file}: no keep_block row`);
      return [row.liveBlocks, row.liveBytes];
    };
    const sent = fs.readdirSync(collector.dir);
    assert.equal(sent.length, 2, sent.join(', '));
    const speedscope = sent.find((f) => /^memory-profile-.*\.speedscope\.json$/.test(f));
    const perfview = sent.find((f) => /^memory-profile-.*\.PerfView\.json$/.test(f));
    assert.ok(speedscope && perfview, sent.join(', '));
    assert.deepEqual(keepBlock(path.join(collector.dir, speedscope)), [41, 40 * 1000 + 24]);
    assert.deepEqual(keepBlock(path.join(collector.dir, perfview)), [21, 20 * 1000 + 24]);
    const atExit = fs.readdirSync(dir);
    assert.equal(atExit.length, 1, atExit.join(', '));
    assert.match(atExit[0], /^memory-profile-.*\.speedscope\.json$/);
    assert.deepEqual(keepBlock(path.join(dir, atExit[0])), [21, 20 * 1000 + 24]);
    assert.match(run.stderr, new RegExp(`emheap: saved ${atExit[0].replace(/\./g, '\\.')}`));
  } finally {
    collector.stop();
  }
});

describe('a page sends its snapshots to emheap serve', {skip: CHROMIUM_SKIP}, () => {
  const chrome = servedChromium({'/': SAMPLES});
  let collector;
  before(async () => { collector = await startCollector(); });
  after(() => collector.stop());

  test('Ctrl+Shift+H, a mark and a timer each send one; `emheap top` reads them; the collector\'s page shows the newest',
    async () => {
      const {context, page, consoleMessages} = await newPage(chrome.browser);
      const downloads = [];
      page.on('download', (d) => downloads.push(d.suggestedFilename()));
      try {
        const remote = encodeURIComponent(collector.url);
        await page.goto(`${chrome.server.url}/leaky-canvas/?emheap=exact&emheap_remote=${remote}&emheap_remote_every=2`);
        await page.waitForFunction(() => document.title === 'emheap sample: ready');
        await page.click('#leak');

        await page.keyboard.press('Control+Shift+H');
        const keyed = await arrival(collector.dir, /^memory-profile-[^-]+.*Z\.speedscope\.json$/);
        assert.match(topRows(keyed)[0].label, /^leak_memory/);

        const mark = await page.evaluate(() => emheap.mark('after the leak').number);
        const marked = await arrival(collector.dir, new RegExp(`-mark${mark}\\.speedscope\\.json$`));
        const snapshot = JSON.parse(fs.readFileSync(marked, 'utf8')).emheap;
        assert.ok(snapshot.marks.some((m) => m.name === 'after the leak'), JSON.stringify(snapshot.marks));
        assert.match(topRows(marked)[0].label, /^leak_memory/);

        const every = await arrival(collector.dir, /-every\.speedscope\.json$/);
        assert.match(topRows(every)[0].label, /^leak_memory/, 'the timer\'s file holds the leak too');
        const said = consoleMessages.map((m) => m.text).join('\n');
        assert.match(said, /emheap: sent memory-profile-.*\.speedscope\.json \(\d+ KiB\) to the collector at http:\/\/127\.0\.0\.1:\d+/);
        assert.ok(!said.includes(TOKEN), 'the console never shows the token');
        assert.deepEqual(downloads, [], 'nothing downloaded on the device');
        assert.deepEqual(consoleMessages.filter((m) => m.type === 'error' || m.type === 'pageerror'), []);

        // the collector's page: the newest file's report in its frame, and the list.
        // The page still sends one every 2 s: wait for the state where the
        // page's list, its frame and the collector's own list all name one
        // newest file (a new arrival between reads only delays it)
        const viewer = await context.newPage();
        await viewer.goto(`${collector.url}/`);
        const newest = await (await viewer.waitForFunction(async () => {
          const listed = await (await fetch('files.json', {cache: 'no-store'})).json();
          const first = document.querySelector('#files li');
          const shown = document.querySelector('iframe');
          const name = listed.length >= 3 && first && first.dataset.name;
          return name === listed[0].name && shown && shown.getAttribute('src') === 'report/' + encodeURIComponent(name)
            ? name : null;
        }, null, {polling: 100})).jsonValue();
        assert.match(newest, /\.speedscope\.json$/);
        // (its report: of that file, or of one newer still, every one of which ranks the leak)
        const iframe = await viewer.waitForSelector('iframe');
        const frame = await iframe.contentFrame();
        await frame.waitForFunction(() => document.body && /leak_memory/.test(document.body.innerText), null, {timeout: 20000});
      } finally {
        await context.close();
      }
    });
});

describe('a page that runs out of memory sends its snapshot before the abort', {skip: CHROMIUM_SKIP}, () => {
  const {served} = servedProgramPage(path.join(BUILD, 'out_of_memory.dlmalloc.js'));
  let collector;
  before(async () => { collector = await startCollector(); });
  after(() => collector.stop());

  test('the -oom file arrives and ranks the leak first', async () => {
    const {context, page, consoleMessages} = await newPage(served.browser);
    try {
      await page.goto(`${served.server.url}/index.html?emheap_remote=${encodeURIComponent(collector.url)}`);
      const file = await arrival(collector.dir, /-oom\.speedscope\.json$/);
      assert.match(consoleMessages.map((m) => m.text).join('\n'), /Aborted\(OOM\)/);
      const run = runCli(['top', file, '--json']);
      assert.equal(run.status, 0, run.stderr);
      const ranked = JSON.parse(run.stdout);
      assert.match(ranked.sites[0].label, /^leak_entry/);
      assert.equal(ranked.outOfMemory.how, 'abort');
    } finally {
      await context.close();
    }
  });
});

describe('headless Firefox sends to emheap serve too', {skip: firefox.haveFirefox() ? false : `no Firefox at ${firefox.FIREFOX}`}, () => {
  let server;
  let browser;
  let collector;
  before(async () => {
    server = await serve({'/': SAMPLES});
    browser = await firefox.launch();
    collector = await startCollector();
  });
  after(async () => {
    if (browser) await browser.close();
    if (server) await server.close();
    if (collector) collector.stop();
  });

  test('Ctrl+Shift+H: the file arrives, gzip\'d on the way, and nothing is downloaded', async () => {
    const opened = await firefox.openSample(browser, server.url, 'leaky-canvas',
      `?emheap=exact&emheap_remote=${encodeURIComponent(collector.url)}`);
    try {
      await clickLeak(opened.page, 2);
      await firefox.pressHotkey(opened.page);
      const file = await arrival(collector.dir, /\.speedscope\.json$/);
      assert.match(topRows(file)[0].label, /^leak_memory/);
      assert.match(collector.lines().join('\n'), /received \S+ \([\d.]+ KiB, [\d.]+ (KiB|B) sent\) from/);
      const sent = /received \S+ \(([\d.]+) KiB, ([\d.]+) (KiB|B) sent\)/.exec(collector.lines().join('\n'));
      assert.ok(Number(sent[2]) * (sent[3] === 'B' ? 1 / 1024 : 1) < Number(sent[1]) / 2, `compressed: ${sent[0]}`);
      assert.deepEqual(fs.readdirSync(opened.downloadDir), []);
    } finally {
      await opened.close();
    }
  });
});
