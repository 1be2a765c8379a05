#!/usr/bin/env node
// take-report-screenshot.js -- the README's picture of `emheap report`: the
// report of a snapshot file, opened from disk in headless Chromium at
// 1280x900, as a person first sees it (the header and the two charts).
//
//   node docs/take-report-screenshot.js [SNAPSHOT.json] [OUT.png]
//
// Defaults: tests/fixtures/report/game.snapshot.json and docs/report.png.
// (The other pictures come from docs/take-screenshots.js, which runs the
// samples; this one needs only a snapshot.)
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { launch } = require('../tests/lib/browser');
const { reportCommand } = require('../cli/report');

const ROOT = path.join(__dirname, '..');

async function main() {
  const input = process.argv[2] || path.join(ROOT, 'tests', 'fixtures', 'report', 'game.snapshot.json');
  const out = process.argv[3] || path.join(__dirname, 'report.png');
  const snapshot = JSON.parse(fs.readFileSync(input, 'utf8'));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-report-shot-'));
  const html = path.join(tmp, 'report.html');
  fs.writeFileSync(html, reportCommand(snapshot, { file: path.basename(input) }));
  const browser = await launch();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
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
