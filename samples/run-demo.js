#!/usr/bin/env node
// run-demo.js -- what a user does by hand, done headlessly: open the leaky
// canvas sample in Chromium, leak 3 MiB, press Ctrl+Shift+H, and keep the
// downloaded profile in build/demo/. Prints where it is and the top sites.
'use strict';

const fs = require('fs');
const path = require('path');
const {chromium} = require('playwright-core');
const {serve} = require('../harness/serve');
const {CHROMIUM, CHROMIUM_FLAGS} = require('../harness/browsers');
const {siteErrorText} = require('../model/estimates');

const ROOT = path.join(__dirname, '..');
const OUT = path.join(ROOT, 'build', 'demo');

async function main() {
  const server = await serve({'/': path.join(ROOT, 'build', 'samples')});
  const browser = await chromium.launch({executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true});
  try {
    const page = await (await browser.newContext({acceptDownloads: true})).newPage();
    await page.goto(`${server.url}/leaky-canvas/`);
    await page.waitForFunction(() => document.title.includes('ready'));
    for (let i = 0; i < 3; i++) await page.click('#leak');
    const download = page.waitForEvent('download');
    await page.keyboard.press('Control+Shift+H');
    const file = path.join(OUT, (await download).suggestedFilename());
    fs.mkdirSync(OUT, {recursive: true});
    await (await download).saveAs(file);

    const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
    const snap = profile.emheap;
    console.log(`\nemheap demo: pressed Ctrl+Shift+H after leaking 3 MiB in the sample.`);
    console.log(`saved ${path.relative(process.cwd(), file)}`);
    console.log(`mode: ${snap.mode}${snap.samplingInterval ? ` (one sample per ${snap.samplingInterval} bytes on average: per-site numbers are estimates)` : ''}`);
    console.log(`live: ${snap.summary.liveBytes} bytes in ${snap.summary.liveBlocks} blocks (exact), ${snap.sites.length} sites\n`);
    console.log('        live bytes  blocks  call site');
    for (const site of snap.sites.slice(0, 5)) {
      const where = site.stack.map((i) => snap.frames[i].name).join(' < ');
      const error = siteErrorText(snap, site);
      const bytes = error ? `~${site.liveBytes} ${error}` : String(site.liveBytes);
      console.log(`${bytes.padStart(18)}  ${String(site.liveBlocks).padStart(6)}  ${where}`);
    }
    console.log('\nOpen the file at https://www.speedscope.app, or run `make serve` and try the sample yourself.');
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((e) => {
  console.error(`emheap demo failed: ${e && e.message || e}`);
  process.exit(1);
});
