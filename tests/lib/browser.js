// browser.js -- launches Debian's headless Chromium through playwright-core
// (npx playwright install cannot download browsers here; see
// ../shared/TOOLCHAIN.md for the flags).
'use strict';

const {chromium} = require('playwright-core');
const fs = require('fs');
const {before, after} = require('node:test');
const {serve} = require('./serve');

const CHROMIUM = process.env.EMHEAP_CHROMIUM || '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--no-first-run'];

function haveChromium() {
  return fs.existsSync(CHROMIUM);
}

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

module.exports = {launch, newPage, servedChromium, haveChromium, CHROMIUM};
