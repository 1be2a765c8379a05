// browser.js -- launches Debian's headless Chromium through playwright-core
// (npx playwright install cannot download browsers here; see
// ../shared/TOOLCHAIN.md for the flags).
'use strict';

const {chromium} = require('playwright-core');
const fs = require('fs');

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

module.exports = {launch, newPage, haveChromium, CHROMIUM};
