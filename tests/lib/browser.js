// browser.js -- launches Debian's headless Chromium through playwright-core
// (npx playwright install cannot download browsers here; see
// ../shared/TOOLCHAIN.md for the flags).
'use strict';

const {chromium} = require('playwright-core');
const fs = require('fs');
const os = require('os');
const path = require('path');
const {before, after} = require('node:test');
const {serve} = require('../../harness/serve');

const {CHROMIUM, CHROMIUM_FLAGS: FLAGS, haveChromium} = require('../../harness/browsers');

async function launch() {
  return chromium.launch({executablePath: CHROMIUM, args: FLAGS, headless: true});
}

// A page that records console messages and page errors for assertions.
async function newPage(browser) {
  const context = await browser.newContext({acceptDownloads: true});
  const page = await context.newPage();
  const consoleMessages = [];
  page.on('console', (m) => consoleMessages.push({type: m.type(), text: m.text()}));
  page.on('pageerror', (e) => consoleMessages.push({type: 'pageerror', text: String(e)}));
  return {context, page, consoleMessages};
}

// A page in a browser profile on disk, as a user's browser has, rather than
// the in-memory (incognito) context of newPage: its origin private file
// system takes the GBs a big export writes (an incognito one refuses 4 GB
// with QuotaExceededError). close() removes the profile.
async function persistentPage() {
  const os = require('os');
  const path = require('path');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-profile-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM, args: FLAGS, headless: true, acceptDownloads: true,
  });
  const page = context.pages()[0] || await context.newPage();
  const consoleMessages = [];
  page.on('console', (m) => consoleMessages.push({type: m.type(), text: m.text()}));
  page.on('pageerror', (e) => consoleMessages.push({type: 'pageerror', text: String(e)}));
  const close = async () => {
    await context.close();
    fs.rmSync(dir, {recursive: true, force: true});
  };
  return {context, page, consoleMessages, close};
}

// The hooks every browser test file needs, for the describe() it is called
// in: serve `routes` and launch Chromium before its tests (after `check`,
// which asserts that what the pages need is built), close both after.
// Returns {server, browser}, filled in by the time the tests run.
function servedChromium(routes, check) {
  const served = {server: null, browser: null};
  before(async () => {
    if (check) check();
    served.server = await serve(routes);
    served.browser = await launch();
  });
  after(async () => {
    if (served.browser) await served.browser.close();
    if (served.server) await served.server.close();
  });
  return served;
}

// servedChromium for an emcc-built program run as a page of its own: its
// console output on the page's console (print as log, printErr as warn),
// served at `${served.server.url}/index.html` from a scratch folder (`dir`,
// where a test may save downloads; removed after) with the program's
// folder at /b/. -> {served, dir}.
function servedProgramPage(programFile) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-page-'));
  fs.writeFileSync(path.join(dir, 'index.html'), `<!doctype html><meta charset="utf-8"><body><script>
var Module = {print: function (t) { console.log(t); }, printErr: function (t) { console.warn(t); }};
</script><script src="b/${path.basename(programFile)}"></script>`);
  after(() => fs.rmSync(dir, {recursive: true, force: true}));
  const served = servedChromium({'/b/': path.dirname(programFile), '/': dir},
    () => { if (!fs.existsSync(programFile)) throw new Error(`${programFile} is missing: run make test`); });
  return {served, dir};
}

// Whether a page's console says it crashed: something thrown, or a wasm
// trap or abort (a worker's shows only as its text).
const crashedIn = (consoleMessages) => consoleMessages.some((m) => m.type === 'pageerror' ||
  /RuntimeError|Aborted/.test(m.text));

// A test's `skip` without Chromium: false where it is, else why not.
const CHROMIUM_SKIP = haveChromium() ? false : `no Chromium at ${CHROMIUM} (apt-get install chromium; CI installs it)`;

// Resolves once the page has drawn `n` more animation frames: what a test
// waits for where the page's render loop must have run (an event, not a
// time).
function nextFrames(page, n) {
  return page.evaluate((k) => new Promise((resolve) => {
    const step = (left) => (left ? requestAnimationFrame(() => step(left - 1)) : resolve());
    step(k);
  }), n);
}

// Waits until a page that loads a profile into an app (speedscope) has
// either loaded it (document.title ends with `loadedSuffix`), shown its
// error page (`failedText` in the body) or raised a dialog (`dialogs`, an
// array the caller's dialog handler fills). -> {title, text}.
async function appOutcome(page, dialogs, loadedSuffix, failedText, timeout = 20000) {
  const shown = page.waitForFunction(([suffix, failed]) => document.title.endsWith(suffix) ||
    (document.body && document.body.innerText.includes(failed)), [loadedSuffix, failedText], {timeout});
  const dialog = page.waitForEvent('dialog', {timeout}).catch(() => null);
  await Promise.race([shown, dialogs.length ? Promise.resolve() : dialog]).catch(() => {});
  return {title: await page.title(), text: await page.evaluate(() => (document.body ? document.body.innerText : ''))};
}

module.exports = {launch, newPage, persistentPage, nextFrames, appOutcome, servedChromium, servedProgramPage, haveChromium, crashedIn, CHROMIUM, CHROMIUM_SKIP};
