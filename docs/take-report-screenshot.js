#!/usr/bin/env node
// take-report-screenshot.js -- the README's picture of `emheap report`: the
// report of a real session of the leaky-canvas sample in headless Chromium
// (exact mode): the page runs, "Leak" is pressed six times with a mark
// (Ctrl+Shift+M) after each, a second apart, and the file Ctrl+Shift+H
// saves is made into the report, opened from disk at 1280x1240, as a person
// first sees it (the header and the two charts).
//
//   make samples && node docs/take-report-screenshot.js            (writes docs/report.png)
//   node docs/take-report-screenshot.js SNAPSHOT.json [OUT.png]     (any snapshot's report)
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { launch } = require('../tests/lib/browser');
const { serve } = require('../harness/serve');
const { openSample, downloadFrom } = require('../tests/lib/sample_page');
const { reportCommand } = require('../cli/report');

const ROOT = path.join(__dirname, '..');

const LEAKS = 6;

// The sample's session, as a person would run it: the file Ctrl+Shift+H saved.
async function sampleSession(browser) {
  const server = await serve({ '/': path.join(ROOT, 'build', 'samples') });
  try {
    const { page, context } = await openSample(browser, server.url, 'leaky-canvas');
    await page.waitForTimeout(1000);
    for (let i = 0; i < LEAKS; i++) {
      await page.click('#leak');
      await page.keyboard.press('Control+Shift+M');
      await page.waitForTimeout(1000);
    }
    const saved = await downloadFrom(page, () => page.keyboard.press('Control+Shift+H'));
    await context.close();
    return { name: saved.name, snapshot: saved.json.emheap };
  } finally {
    await server.close();
  }
}

async function main() {
  const out = process.argv[3] || path.join(__dirname, 'report.png');
  const browser = await launch();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-report-shot-'));
  try {
    const input = process.argv[2]
      ? { name: path.basename(process.argv[2]), snapshot: JSON.parse(fs.readFileSync(process.argv[2], 'utf8')) }
      : await sampleSession(browser);
    const html = path.join(tmp, 'report.html');
    fs.writeFileSync(html, reportCommand(input.snapshot.emheap || input.snapshot, { file: input.name }));
    const context = await browser.newContext({ viewport: { width: 1280, height: 1240 } });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await page.goto(pathToFileURL(html).href);
    await page.waitForFunction(() => document.body.hasAttribute('data-charts'), null, { timeout: 10000 });
    if (errors.length) throw new Error(`the report's page: ${errors.join('; ')}`);
    await page.screenshot({ path: out });
    console.log(`wrote ${path.relative(process.cwd(), out)}`);
  } finally {
    await browser.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e.stack || String(e));
  process.exit(1);
});
