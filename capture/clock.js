// clock.js -- emheap's one clock, in milliseconds: the timeline's points
// and the runtime's growths (runtime/state.c, through emheap_js_now) are
// timed on it. performance.timeOrigin + performance.now() reads the same on
// the main thread and on every worker (each realm's performance.now()
// counts from its own start, so a worker's alone would not); where there is
// no performance (old node), Date.now().
'use strict';

function now() {
  if (typeof performance !== 'undefined' && performance.now) {
    return (typeof performance.timeOrigin === 'number' ? performance.timeOrigin : 0) + performance.now();
  }
  return Date.now();
}

module.exports = {now: now};
