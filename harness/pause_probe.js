// pause_probe.js -- the longest time a page stops running its timers: a
// 10 ms interval notes the largest gap between its ticks. Used around page
// exports by tests/e2e/export_scale.test.js and bench/run-bench.js.
'use strict';

async function startPauseProbe(page) {
  await page.evaluate(() => {
    window.__emheapGap = 0;
    let last = performance.now();
    window.__emheapTicker = setInterval(() => {
      const now = performance.now();
      window.__emheapGap = Math.max(window.__emheapGap, now - last);
      last = now;
    }, 10);
  });
}

// -> the longest gap in ms since startPauseProbe
async function stopPauseProbe(page) {
  return page.evaluate(() => {
    clearInterval(window.__emheapTicker);
    return window.__emheapGap;
  });
}

module.exports = {startPauseProbe, stopPauseProbe};
