// firefox.js -- drives Debian's Firefox ESR headless through puppeteer-core,
// which speaks WebDriver BiDi to a stock Firefox (playwright needs its own
// patched Firefox build, which cannot be downloaded here). Mirrors
// browser.js + sample_page.js for the Firefox tests.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {READY_TITLE} = require('./sample_page');

const {FIREFOX, haveFirefox} = require('../../harness/browsers');


async function launch() {
  // puppeteer-core is an ES module; import() loads it from CommonJS on every node.
  const puppeteer = (await import('puppeteer-core')).default;
  return puppeteer.launch({browser: 'firefox', executablePath: FIREFOX, headless: true});
}

// Opens `url` in a fresh context whose downloads go to a new folder, with
// its console collected; waits for ready(page) when given.
async function openPage(browser, url, ready) {
  const downloadDir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-firefox-'));
  const context = await browser.createBrowserContext({downloadBehavior: {policy: 'allow', downloadPath: downloadDir}});
  const page = await context.newPage();
  const consoleMessages = [];
  page.on('console', (m) => consoleMessages.push({type: m.type(), text: m.text()}));
  page.on('pageerror', (e) => consoleMessages.push({type: 'pageerror', text: String(e)}));
  const close = async () => {
    await context.close();
    fs.rmSync(downloadDir, {recursive: true, force: true});
  };
  try {
    await page.goto(url);
    if (ready) await ready(page);
  } catch (e) {
    await close();
    throw e;
  }
  return {context, page, consoleMessages, downloadDir, close};
}

// Opens build/samples/<name>/<query>; waits until the sample's runtime is up.
function openSample(browser, serverUrl, name, query = '?emheap=exact') {
  return openPage(browser, `${serverUrl}/${name}/${query}`,
    (page) => page.waitForFunction((t) => document.title === t, {timeout: 20000}, READY_TITLE));
}

// Runs `action` and returns the one file it downloads, read and parsed
// once it is complete (Firefox writes NAME.part first, then renames it).
async function downloadFrom(opened, action) {
  const before = new Set(fs.readdirSync(opened.downloadDir));
  await action();
  const deadline = Date.now() + 10000;
  while (Date.now() < deadline) {
    const fresh = fs.readdirSync(opened.downloadDir).filter((f) => !before.has(f));
    const done = fresh.filter((f) => !f.endsWith('.part'));
    if (done.length && fresh.length === done.length) {
      assert.equal(done.length, 1, `one download expected, got ${done.join(', ')}`);
      let text = null;
      try {
        text = fs.readFileSync(path.join(opened.downloadDir, done[0]), 'utf8');
      } catch (e) {
        // renamed between the listing and the read (the download moves its
        // file as it completes): list again
        if (e.code !== 'ENOENT') throw e;
      }
      try {
        if (text !== null) return {name: done[0], text, json: JSON.parse(text)};
      } catch (e) {
        // not complete yet: wait for the rest
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`no complete download in ${opened.downloadDir} within 10 s`);
}

// Ctrl+Shift+H, key by key as a user presses it.
async function pressHotkey(page) {
  await page.keyboard.down('Control');
  await page.keyboard.down('Shift');
  await page.keyboard.press('H');
  await page.keyboard.up('Shift');
  await page.keyboard.up('Control');
}

module.exports = {FIREFOX, haveFirefox, launch, openPage, openSample, downloadFrom, pressHotkey};
