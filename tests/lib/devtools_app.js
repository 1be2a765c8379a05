// devtools_app.js -- the DevTools that ship inside Chromium
// (devtools://devtools/bundled/devtools_app.html), opened headless with
// puppeteer-core and ready to use: what devtools_panel.js (the Memory
// panel) and devtools_trace.js (the trace engine) drive.
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {CHROMIUM} = require('./browser');

// Runs use(page, pageErrors) in a fresh headless Chromium on its bundled
// DevTools, once DevTools is ready; closes the browser and removes its
// profile after. pageErrors: the page's uncaught errors, as strings.
async function withDevtoolsApp(use) {
  const puppeteer = require('puppeteer-core');
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-devtools-'));
  const browser = await puppeteer.launch({executablePath: CHROMIUM, headless: true,
    args: ['--no-sandbox', '--disable-gpu', `--user-data-dir=${profile}`]});
  try {
    const page = await browser.newPage();
    const pageErrors = [];
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    await page.goto('devtools://devtools/bundled/devtools_app.html', {waitUntil: 'load'});
    // DevTools is ready once its UI strings have loaded (asynchronously,
    // after 'load'): until then its views throw "No locale data registered"
    await page.waitForFunction(async () => {
      try {
        const i18n = await import('./core/i18n/i18n.js');
        i18n.i18n.getLocalizedString(i18n.i18n.registerUIStrings('emheap', {x: 'x'}), 'x');
        return true;
      } catch (e) {
        return false;
      }
    }, {timeout: 30000, polling: 100});
    return await use(page, pageErrors);
  } finally {
    await browser.close();
    fs.rmSync(profile, {recursive: true, force: true});
  }
}

module.exports = {withDevtoolsApp};
