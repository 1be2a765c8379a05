// tests/e2e/speedscope_app.test.js: a speedscope file downloaded from the sample
// page (Ctrl+Shift+H, as a user would) opened in the REAL speedscope web app
// (node_modules/speedscope/dist/release) in headless Chromium, plus negative
// controls showing that the same check fails on files speedscope rejects.
//
// speedscope, when it loads a profile from #profileURL=..., sets the title to
// "<file name field> - speedscope"; on an import that throws it shows
// "Something went wrong."; on a file it does not recognize it alerts
// "Unrecognized format!" and stays on the welcome page.
//
// Needs `make samples` and Debian's chromium (skipped without /usr/bin/chromium).
// Writes screenshots to test-results/ (git-ignored).
// Run: node --test tests/e2e/speedscope_app.test.js
'use strict';

const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { serve } = require('../../harness/serve');
const { launch, newPage, nextFrames, appOutcome, haveChromium, CHROMIUM } = require('../lib/browser');
const { validateSpeedscope } = require('../lib/schemas');

const {ROOT, SAMPLES} = require('../lib/paths');
const SPEEDSCOPE_APP = path.join(ROOT, 'node_modules', 'speedscope', 'dist', 'release');
const RESULTS = path.join(ROOT, 'test-results');
const SKIP = haveChromium() ? false
  : `no Chromium at ${CHROMIUM} (apt-get install chromium; CI installs it)`;

const LEAK_BYTES = 64 * 16384;
const LOADED_SUFFIX = ' - speedscope';
const FAILED_TEXT = 'Something went wrong';

let server;
let browser;
let profilesDir;
let leakFile;        // {name, json}: the file the sample page downloaded

// Opens /profiles/<file> in the speedscope app and waits (up to 20 s) until it
// either loaded the profile (title "... - speedscope"), showed its error page,
// or raised an alert. The caller closes `context`.
async function openInSpeedscope(file) {
  const opened = await newPage(browser);
  const { page } = opened;
  const dialogs = [];
  page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss().catch(() => {}); });
  await page.goto(`${server.url}/speedscope/index.html#profileURL=${encodeURIComponent('/profiles/' + file)}`);
  const { title, text } = await appOutcome(page, dialogs, LOADED_SUFFIX, FAILED_TEXT);
  return Object.assign(opened, { title, text, dialogs });
}

function writeProfile(name, body) {
  fs.writeFileSync(path.join(profilesDir, name), typeof body === 'string' ? body : JSON.stringify(body));
  return name;
}

describe('emheap files in the real speedscope app', { skip: SKIP }, () => {
  before(async () => {
    if (SKIP) return;
    assert.ok(fs.existsSync(path.join(SAMPLES, 'leaky-canvas', 'index.html')),
      'build/samples/leaky-canvas/index.html is missing: run `make samples` first');
    assert.ok(fs.existsSync(path.join(SPEEDSCOPE_APP, 'index.html')), 'npm speedscope is not installed');
    profilesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-speedscope-'));
    fs.mkdirSync(RESULTS, { recursive: true });
    // one origin for the sample, the app and the profiles: speedscope fetches
    // #profileURL with fetch(), so it must be same-origin
    server = await serve({ '/samples/': SAMPLES, '/speedscope/': SPEEDSCOPE_APP, '/profiles/': profilesDir });
    browser = await launch();

    // Drive the sample as a user: leak 3 MiB, press Ctrl+Shift+H, keep the download.
    const { context, page, consoleMessages } = await newPage(browser);
    try {
      await page.goto(`${server.url}/samples/leaky-canvas/?emheap=exact`);
      await page.waitForFunction(() => document.title === 'emheap sample: ready', null, { timeout: 20000 });
      for (let i = 0; i < 3; i++) await page.click('#leak');
      const [download] = await Promise.all([
        page.waitForEvent('download', { timeout: 10000 }),
        page.keyboard.press('Control+Shift+H'),
      ]);
      const name = download.suggestedFilename();
      await download.saveAs(path.join(profilesDir, name));
      leakFile = { name, json: JSON.parse(fs.readFileSync(path.join(profilesDir, name), 'utf8')) };
      assert.deepEqual(consoleMessages.filter((m) => m.type === 'error' || m.type === 'pageerror'), []);
    } finally {
      await context.close();
    }
  });

  after(async () => {
    if (browser) await browser.close();
    if (server) await server.close();
    if (profilesDir) fs.rmSync(profilesDir, { recursive: true, force: true });
  });

  test('the downloaded file opens and draws leak_memory', async () => {
    assert.match(leakFile.name, /\.speedscope\.json$/);
    assert.deepEqual(validateSpeedscope(leakFile.json), []);
    const opened = await openInSpeedscope(leakFile.name);
    const { context, page } = opened;
    try {
      assert.deepEqual(opened.dialogs, [], 'speedscope raised an alert');
      assert.ok(!opened.text.includes(FAILED_TEXT), `speedscope failed: ${opened.text.slice(0, 300)}`);
      assert.equal(opened.title, `${leakFile.json.name}${LOADED_SUFFIX}`, 'title carries the name the file set');
      assert.ok(opened.title.startsWith('emheap live bytes '), opened.title);
      assert.ok(opened.text.includes(leakFile.json.profiles[0].name), 'profile name shown in the toolbar');
      assert.ok(opened.consoleMessages.some((m) => m.text === 'Importing as speedscope json file'),
        'speedscope took it as its own format');

      // The flame chart is drawn on a canvas: check one exists and has a size,
      // and keep a screenshot for a human.
      const canvas = await page.evaluate(() => {
        const c = [...document.querySelectorAll('canvas')].map((e) => e.getBoundingClientRect());
        return { count: c.length, maxArea: Math.max(0, ...c.map((r) => r.width * r.height)) };
      });
      assert.ok(canvas.count > 0 && canvas.maxArea > 10000, `no flame graph canvas: ${JSON.stringify(canvas)}`);
      await nextFrames(page, 2);   // the WebGL frame drawn before the screenshot
      await page.screenshot({ path: path.join(RESULTS, 'speedscope.png') });

      // The sandwich view (key "3") lists functions as DOM text: leak_memory
      // must be there with its 3 MiB, and above the other functions.
      await page.keyboard.press('3');
      // the table's header comes a frame before its rows: wait for a row
      // (a table without leak_memory fails below once the wait is over)
      await page.waitForFunction(() => /Symbol Name\s+\S+ [KMG]?B/.test(document.body.innerText), null, { timeout: 5000 })
        .catch(() => {});
      const table = await page.evaluate(() => document.body.innerText);
      await page.screenshot({ path: path.join(RESULTS, 'speedscope-sandwich.png') });
      assert.ok(table.includes('leak_memory'), `sandwich view lacks leak_memory: ${table}`);
      assert.match(table, /3\.00 MB \(\d+%\)\s+3\.00 MB \(\d+%\)\s+leak_memory/, 'leak_memory holds 3 MB itself');
      assert.ok(leakFile.json.profiles[0].weights[0] >= 3 * LEAK_BYTES);
      assert.ok(table.indexOf('leak_memory') < table.indexOf('main'), 'leak_memory is the heaviest function');
      assert.deepEqual(opened.consoleMessages.filter((m) => m.type === 'error' || m.type === 'pageerror'), []);
    } finally {
      await context.close();
    }
  });

  test('a file with little or nothing live still opens', async (t) => {
    // built in the page, by the same code as the download
    const { context, page } = await newPage(browser);
    let early;
    let empty;
    try {
      await page.goto(`${server.url}/samples/leaky-canvas/?emheap=exact`);
      await page.waitForFunction(() => document.title === 'emheap sample: ready', null, { timeout: 20000 });
      early = await page.evaluate(() => emheap.toSpeedscope());
      empty = await page.evaluate(() => emheap.toSpeedscope(Object.assign(emheap.snapshot(), { sites: [] })));
    } finally {
      await context.close();
    }
    assert.equal(empty.profiles[0].samples.length, 0);
    for (const [label, file] of [['right after load', early], ['no live sites', empty]]) {
      await t.test(label, async () => {
        assert.deepEqual(validateSpeedscope(file), []);
        const opened = await openInSpeedscope(writeProfile(`${label.replace(/\W+/g, '-')}.speedscope.json`, file));
        try {
          assert.deepEqual(opened.dialogs, []);
          assert.ok(!opened.text.includes(FAILED_TEXT), opened.text.slice(0, 300));
          assert.equal(opened.title, `${file.name}${LOADED_SUFFIX}`);
        } finally {
          await opened.context.close();
        }
      });
    }
  });

  // Negative controls: the checks above can fail.
  test('a file that is not a profile is rejected', async () => {
    const opened = await openInSpeedscope(writeProfile('not-a-profile.json', '{"not":"a profile"}'));
    try {
      assert.ok(!opened.title.endsWith(LOADED_SUFFIX), `loaded anyway: ${opened.title}`);
      assert.equal(opened.dialogs.length, 1, 'speedscope alerts');
      assert.match(opened.dialogs[0], /Unrecognized format/);
    } finally {
      await opened.context.close();
    }
  });

  test('a broken speedscope file shows speedscope\'s error page', async () => {
    const broken = JSON.parse(JSON.stringify(leakFile.json));
    broken.profiles[0].samples[0] = [broken.shared.frames.length + 100];   // no such frame
    assert.notDeepEqual(validateSpeedscope(broken), [], 'our validator catches it too');
    const opened = await openInSpeedscope(writeProfile('broken.speedscope.json', broken));
    try {
      assert.ok(!opened.title.endsWith(LOADED_SUFFIX), `loaded anyway: ${opened.title}`);
      assert.ok(opened.text.includes(FAILED_TEXT), `no error text: ${opened.text.slice(0, 300)}`);
    } finally {
      await opened.context.close();
    }
  });
});
