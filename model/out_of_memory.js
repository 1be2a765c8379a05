// out_of_memory.js -- what filled the memory when it ran out: the lines the
// page prints on its console at an out-of-memory (capture/out_of_memory_moment.js)
// and `emheap top` prints for a snapshot taken then, the same words in both.
//
// snapshot.outOfMemory (set only on a snapshot taken at that moment):
//   how               'abort': Emscripten aborted the program because the
//                     wasm memory could not grow (ABORTING_MALLOC, its
//                     default without ALLOW_MEMORY_GROWTH); 'null': the
//                     allocator returned NULL (ABORTING_MALLOC=0)
//   requestedBytes    the request that failed ('null'; 0 where unknown)
//   alignment         its alignment, for an aligned request ('null'; else 0)
//   neededMemoryBytes the memory size sbrk asked for ('abort'; 0 where unknown)
//   memoryBytes       the wasm memory then
//   memoryLimitBytes  the most it could grow to
//   stack             frame indices of the failed allocation, leaf first
'use strict';

const { formatBytes, formatCount, plural } = require('./numbers');
const { topSites, shortStackText } = require('./sites');
const { memoryBreakdown, breakdownText } = require('./memory_breakdown');
const { groupSnapshot, DEFAULT_GROUPING, rowWord } = require('./grouping');

const TOP_SITES = 5;
const STACK_FRAMES = 4;

// -> the lines (no prefix, no newline) for a snapshot taken at an
// out-of-memory, or [] for any other snapshot; its rows grouped `by`
// (model/grouping.js; by function unless given).
function outOfMemoryLines(snapshot, by) {
  const oom = snapshot.outOfMemory;
  if (!oom) return [];
  const s = snapshot.summary;
  const lines = [];
  const limit = oom.memoryLimitBytes > oom.memoryBytes ? `, its limit ${formatBytes(oom.memoryLimitBytes)}`
    : ', its limit';
  if (oom.how === 'abort') {
    lines.push(`out of memory: the wasm memory (${formatBytes(oom.memoryBytes)}${limit}) could not grow` +
      (oom.neededMemoryBytes ? ` to ${formatBytes(oom.neededMemoryBytes)}` : '') + ': Emscripten aborted the program');
  } else {
    const aligned = oom.alignment ? ` aligned to ${formatCount(oom.alignment)}` : '';
    lines.push(`out of memory: a request of ${formatCount(oom.requestedBytes)} bytes${aligned} returned NULL ` +
      `(wasm memory ${formatBytes(oom.memoryBytes)}${limit})`);
  }
  lines.push(`  the allocation: ${oom.stack && oom.stack.length ? shortStackText(snapshot, oom.stack, STACK_FRAMES) : '(no stack could be taken)'}`);
  const breakdown = memoryBreakdown(snapshot);
  if (breakdown) lines.push(`  ${breakdownText(breakdown)}`);
  // the rows as every view groups them (by function unless the snapshot
  // is grouped already: `emheap top --by`)
  const view = snapshot.groupedBy ? snapshot : groupSnapshot(snapshot, by || DEFAULT_GROUPING);
  const word = rowWord(view);
  const top = topSites(view, { sort: 'bytes', top: TOP_SITES });
  if (top.sites.length && s.liveBytes > 0) {
    lines.push(`  top ${word}s by live bytes (${plural(top.totalSites, word)}):`);
    for (const row of top.sites) {
      if (row.liveBytes <= 0) break;
      const share = (100 * row.liveBytes / s.liveBytes).toFixed(1).padStart(5);
      const stack = view.sites.find((site) => site.id === row.id).stack;
      // a site with no stack says why by its label ("(unattributed)", or
      // the main thread's sites in a snapshot a worker took)
      lines.push(`    ${share}%  ${formatBytes(row.liveBytes).padStart(10)}  ${stack.length ? shortStackText(view, stack, STACK_FRAMES) : row.label}`);
    }
  }
  return lines;
}

// The line for a request no memory of the program could meet: r {bytes,
// alignment, count (> 0: calloc(count, bytes), whose size overflows),
// limit (the most the memory may grow to), frames, stack (indices into
// frames, leaf first)}.
function impossibleRequestLine(r) {
  const what = r.count ? `calloc(${formatCount(r.count)}, ${formatCount(r.bytes)}), whose size overflows,`
    : `a request of ${formatCount(r.bytes)} bytes${r.alignment ? ` aligned to ${formatCount(r.alignment)}` : ''}, ` +
      `more than the wasm memory can ever hold (${formatBytes(r.limit)}),`;
  const where = r.stack.length ? shortStackText({ frames: r.frames }, r.stack, STACK_FRAMES) : '(no stack could be taken)';
  return `${what} returned NULL at ${where}`;
}

module.exports = { outOfMemoryLines, impossibleRequestLine };
