// run.js -- runs one bench binary once, under node or in a headless browser
// (Chromium through playwright-core, Firefox through puppeteer-core), and
// returns what it printed: {result, summary} or {error}. `result` is the
// workload's JSON line ({"workload":..,"ns_per_op":..}); `summary` is
// emheap's counters (the EMHEAP_SUMMARY line of bench/bench-pre.js), or null
// for a build without emheap. Also a paired run (bench/paired/): several
// builds of one workload side by side, in one node process or one page.
'use strict';

const fs = require('fs');
const path = require('path');
const {spawnSync} = require('child_process');

// V8 flags for both node and Chromium. --no-liftoff compiles the wasm with
// the optimizing tier up front: otherwise the first second or so of a large
// module (SQLite) runs in the baseline tier while the optimized code is
// compiled in the background, and a short run measures the compiler.
const V8_FLAGS = (process.env.BENCH_V8_FLAGS !== undefined ? process.env.BENCH_V8_FLAGS
  : '--no-liftoff --no-wasm-lazy-compilation')
  .split(/\s+/).filter(Boolean);

function lastLines(text, n = 3) {
  return String(text || '').split('\n').map((l) => l.trim()).filter(Boolean).slice(-n).join(' | ').slice(0, 400);
}

function parseOutput(stdout) {
  let result = null;
  let summary = null;
  for (const line of String(stdout).split('\n')) {
    if (line.startsWith('EMHEAP_SUMMARY ')) {
      try { summary = JSON.parse(line.slice(15)); } catch (e) { summary = {error: line}; }
    } else if (line.startsWith('{"workload"')) {
      try { result = JSON.parse(line); } catch (e) { /* reported as missing below */ }
    }
  }
  return {result, summary};
}

// node --no-experimental-fetch (Emscripten 3.1.6 output under node 20).
// `prefix` (a taskset command, lib/cpu.js) goes in front of node.
function runNode(js, args, {env = {}, timeoutMs = 300000, prefix = []} = {}) {
  const argv = [...prefix, process.execPath, '--no-experimental-fetch', ...V8_FLAGS, js, ...args.map(String)];
  const r = spawnSync(argv[0], argv.slice(1), {
    encoding: 'utf8', env: {...process.env, ...env}, timeout: timeoutMs, maxBuffer: 64 << 20,
  });
  if (r.error && r.error.code === 'ETIMEDOUT') return {error: `timeout after ${timeoutMs / 1000} s`};
  if (r.error) return {error: String(r.error.message || r.error)};
  const {result, summary} = parseOutput(r.stdout);
  if (r.status !== 0) return {error: `exit ${r.status}${r.signal ? ' ' + r.signal : ''}: ${lastLines(r.stderr || r.stdout)}`};
  if (!result) return {error: `no result line: ${lastLines(r.stderr || r.stdout)}`};
  return {result, summary};
}

// A paired run under node (bench/paired/node.js): spec = {rounds,
// reference, builds: [{js, args, env}]}. -> driver.js's runPaired result
// ({builds: [{lines, error}], sequence}) or {error}.
const PAIRED_NODE = path.join(__dirname, '..', 'paired', 'node.js');
function runPairedNode(spec, specFile, {timeoutMs = 900000, prefix = []} = {}) {
  fs.writeFileSync(specFile, JSON.stringify(spec));
  const argv = [...prefix, process.execPath, '--no-experimental-fetch', ...V8_FLAGS, PAIRED_NODE, specFile];
  const r = spawnSync(argv[0], argv.slice(1), {encoding: 'utf8', timeout: timeoutMs, maxBuffer: 256 << 20});
  if (r.error && r.error.code === 'ETIMEDOUT') return {error: `timeout after ${timeoutMs / 1000} s`};
  if (r.error) return {error: String(r.error.message || r.error)};
  const line = String(r.stdout).split('\n').find((l) => l.startsWith('PAIRED '));
  if (r.status !== 0 || !line) return {error: `paired run: exit ${r.status}: ${lastLines(r.stderr || r.stdout)}`};
  return JSON.parse(line.slice(7));
}

// An engine = {name, browser, driver}: the two drivers differ in how a
// context is made and how a page function is waited for.
const PLAYWRIGHT = {
  newContext: (browser) => browser.newContext(),
  waitFor: (page, fn, timeout) => page.waitForFunction(fn, null, {timeout, polling: 200}),
};
const PUPPETEER = {
  newContext: (browser) => browser.createBrowserContext(),
  waitFor: (page, fn, timeout) => page.waitForFunction(fn, {timeout, polling: 200}),
};

// The tests' flags (harness/browsers.js), plus the V8 flags above.
async function launchChromium() {
  const {chromium} = require('playwright-core');
  const {CHROMIUM, CHROMIUM_FLAGS} = require('../../harness/browsers');
  const args = CHROMIUM_FLAGS.slice();
  if (V8_FLAGS.length) args.push(`--js-flags=${V8_FLAGS.join(' ')}`);
  const browser = await chromium.launch({executablePath: CHROMIUM, args, headless: true});
  return {name: 'chromium', browser, driver: PLAYWRIGHT, version: `Chromium ${browser.version()}`};
}

// Firefox's counterpart of --no-liftoff: wasm compiled by its optimizing
// tier (Ion) only, not first by the baseline compiler. BENCH_FIREFOX_PREFS
// (a JSON object) adds prefs, for probes such as
// {"javascript.options.wasm_direct_inlining": false}.
async function launchFirefox() {
  const puppeteer = (await import('puppeteer-core')).default;
  const {FIREFOX} = require('../../harness/browsers');
  const extra = process.env.BENCH_FIREFOX_PREFS ? JSON.parse(process.env.BENCH_FIREFOX_PREFS) : {};
  const browser = await puppeteer.launch({browser: 'firefox', executablePath: FIREFOX, headless: true,
    extraPrefsFirefox: {'javascript.options.wasm_baselinejit': false, ...extra}});
  return {name: 'firefox', browser, driver: PUPPETEER, version: `Firefox ${(await browser.version()).replace(/^firefox\//i, '')}`};
}

// Opens pageUrl in a fresh context, waits until `until` (a page function)
// is true, then returns read(page, errors): errors are the page's uncaught
// errors so far. {error} on a timeout or a failure of the browser.
async function inFreshPage(engine, pageUrl, until, timeoutMs, read) {
  const context = await engine.driver.newContext(engine.browser);
  try {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e.message || e)));
    page.on('crash', () => errors.push('page crashed'));
    await page.goto(pageUrl);
    try {
      await engine.driver.waitFor(page, until, timeoutMs);
    } catch (e) {
      return {error: errors.length ? errors[0] : `timeout after ${timeoutMs / 1000} s`};
    }
    return await read(page, errors);
  } catch (e) {
    return {error: String(e.message || e).split('\n')[0].slice(0, 300)};
  } finally {
    await context.close().catch(() => {});
  }
}

// Opens bench/page.html?js=..&args=..&<query>, waits for the result line
// (and emheap's summary line when the build has emheap), then runs
// `after(page)` if given; its value is returned as `extra`.
function runBrowser(engine, pageUrl, {timeoutMs = 300000, after} = {}) {
  const until = () => (bench.result && (!globalThis.emheap || bench.summary)) || bench.errors.length > 0;
  return inFreshPage(engine, pageUrl, until, timeoutMs, async (page, errors) => {
    const state = await page.evaluate(() => ({result: bench.result, summary: bench.summary,
      errors: bench.errors, tail: bench.lines.slice(-3)}));
    if (!state.result) {
      return {error: [...state.errors, ...errors].concat(state.tail).join(' | ').slice(0, 400) || 'no result'};
    }
    const out = {result: state.result, summary: state.summary};
    if (after) out.extra = await after(page);
    return out;
  });
}

// A paired run in a browser: bench/paired/page.html?spec=.. (web workers).
// -> as runPairedNode.
function runPairedBrowser(engine, pageUrl, {timeoutMs = 900000} = {}) {
  return inFreshPage(engine, pageUrl, () => paired.done, timeoutMs, async (page, errors) => {
    const state = await page.evaluate(() => paired);
    return state.run || {error: state.error || errors[0] || 'no result'};
  });
}

function chromiumAvailable() {
  try {
    const {haveChromium, CHROMIUM} = require('../../harness/browsers');
    return haveChromium() ? null : `no Chromium at ${CHROMIUM}`;
  } catch (e) {
    return `cannot load playwright-core: ${e.message.split('\n')[0]}`;
  }
}

function firefoxAvailable() {
  const {haveFirefox, FIREFOX} = require('../../harness/browsers');
  return haveFirefox() ? null : `no Firefox at ${FIREFOX}`;
}

module.exports = {runNode, runBrowser, runPairedNode, runPairedBrowser, parseOutput, launchChromium, launchFirefox,
  chromiumAvailable, firefoxAvailable, V8_FLAGS};
