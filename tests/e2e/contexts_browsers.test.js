// contexts_browsers.test.js -- calling contexts in real headless Chromium
// and Firefox, in a page and in a web worker: the program of
// tests/e2e/contexts.test.js (build/tests/contexts.js) is rewritten as it loads,
// a path seen before takes no JS stack (Firefox gives stack text, not V8's
// call sites: its activations are found in that text), and the checking
// mode finds no context that names another site than its JS stack.
'use strict';

const {describe, test, before, after} = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const {serve} = require('../../harness/serve');
const chromium = require('../lib/browser');
const firefox = require('../lib/firefox');

const {BUILD, SAMPLES} = require('../lib/paths');
const {openSample} = require('../lib/sample_page');

// A page that runs the program, in the page or in a web worker, its
// output on the console.
const PAGE = `<!doctype html><meta charset="utf-8"><body><script>
var query = location.search;
if (/worker=1/.test(query)) {
  var worker = new Worker('worker.js' + query);
  worker.onmessage = function (e) { console.log(String(e.data)); };
} else {
  var Module = {print: function (t) { console.log(t); }, printErr: function (t) { console.warn(t); }};
  var s = document.createElement('script');
  s.src = 'b/contexts.js';
  document.body.appendChild(s);
}
</script>`;
const WORKER = `var Module = {print: function (t) { postMessage(t); }, printErr: function (t) { postMessage(t); },
  locateFile: function (f) { return 'b/' + f; }};
importScripts('b/contexts.js');`;

// The tagged lines the program prints: {ROUND_FIRST, ROUND_SECOND, CONTEXTS}.
async function runIn(open, query) {
  const opened = await open(query);
  try {
    const tagged = {};
    for (let waited = 0; waited < 30000 && !tagged.CONTEXTS; waited += 100) {
      await new Promise((r) => setTimeout(r, 100));
      for (const m of opened.consoleMessages) {
        const match = /^([A-Z_]+) (\{.*\})$/.exec(m.text);
        if (match) tagged[match[1]] = JSON.parse(match[2]);
      }
    }
    assert.ok(tagged.CONTEXTS, opened.consoleMessages.map((m) => m.text).join('\n').slice(0, 2000));
    return tagged;
  } finally {
    await opened.close();
  }
}

function checks(open) {
  for (const where of ['page', 'web worker']) {
    test(`${where}: rewritten, a path seen before takes no JS stack, contexts agree with JS stacks`, async () => {
      const worker = where === 'web worker' ? '&worker=1' : '';
      const on = await runIn(open, `?emheap_contexts=on${worker}`);
      assert.equal(on.CONTEXTS.rewritten, true);
      const again = on.ROUND_SECOND.captures - on.ROUND_FIRST.captures;
      assert.ok(on.ROUND_FIRST.captures > 0 && again <= 2, `${again} JS stacks taken again (two per JS-exception throw)`);
      const verify = await runIn(open, `?emheap_contexts=verify${worker}`);
      assert.equal(verify.CONTEXTS.verify, true);
      assert.ok(verify.CONTEXTS.checked >= 90, `checked ${verify.CONTEXTS.checked}`);
      assert.equal(verify.CONTEXTS.mismatches, 0);
    });
  }
}

let dir;
let server;
before(async () => {
  assert.ok(fs.existsSync(path.join(BUILD, 'contexts.js')), 'build/tests/contexts.js is built by make test');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-contexts-page-'));
  fs.writeFileSync(path.join(dir, 'index.html'), PAGE);
  fs.writeFileSync(path.join(dir, 'worker.js'), WORKER);
  server = await serve({'/b/': BUILD, '/s/': SAMPLES, '/': dir});
});
after(async () => {
  if (server) await server.close();
  if (dir) fs.rmSync(dir, {recursive: true, force: true});
});

describe('calling contexts in headless Chromium', {skip: chromium.CHROMIUM_SKIP}, () => {
  let browser;
  before(async () => { browser = await chromium.launch(); });
  after(async () => { if (browser) await browser.close(); });
  // The default mode, exact, rewrites the module as it loads; the modes
  // that do not use contexts keep Emscripten's own (streaming)
  // instantiation.
  test('the default mode (exact) rewrites the module; sampled and off leave instantiation to Emscripten', async () => {
    for (const [query, hooked] of [['', true], ['?emheap=sampled', false], ['?emheap=off', false]]) {
      const opened = await openSample(browser, `${server.url}/s`, 'leaky-canvas', query);
      try {
        const seen = await opened.page.evaluate(() => ({hook: typeof Module.instantiateWasm === 'function',
          rewritten: Module.emheap.contexts().rewritten}));
        assert.deepEqual(seen, {hook: hooked, rewritten: hooked}, query || 'default');
      } finally {
        await opened.context.close();
      }
    }
  });
  checks(async (query) => {
    const opened = await chromium.newPage(browser);
    await opened.page.goto(`${server.url}/index.html${query}`);
    return {consoleMessages: opened.consoleMessages, close: () => opened.context.close()};
  });
});

describe('calling contexts in headless Firefox', {skip: firefox.haveFirefox() ? false : 'no Firefox'}, () => {
  let browser;
  before(async () => { browser = await firefox.launch(); });
  after(async () => { if (browser) await browser.close(); });
  checks((query) => firefox.openPage(browser, `${server.url}/index.html${query}`));
});
