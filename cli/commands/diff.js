// diff.js: `emheap diff BEFORE AFTER`: what changed between two snapshots
// of one page session, row by row, in the columns of Chrome DevTools' heap
// comparison (model/diff.js matches the rows and makes the numbers).
'use strict';

const units = require('../units');
const { renderTable, clip } = require('../table');
const { readView } = require('../read_view');
const { WRAPPERS, BY, FOCUS, IGNORE, HIDE, TOP, JSON_OUTPUT, sortOrder, topCount } = require('../common_options');
const { KEY_WIDTH, STACK_WIDTH, rowWord, rowTitle, rowsWord } = require('../snapshot_text');
const { stackText } = require('../../model/sites');
const { diffSnapshots, sortDiffRows, diffReport, DIFF_SORTS, DIFF_COLUMNS } = require('../../model/diff');
const { shortName } = require('../../model/names');

const SORT = {
  name: 'sort', kind: 'value', arg: Object.keys(DIFF_SORTS).join('|'),
  help: 'bytes: by size delta (default); count: by # delta; allocs: by # new (largest first)',
};

// two columns a line
const COLUMNS_NOTE = "Columns, as in Chrome DevTools' heap comparison:" + DIFF_COLUMNS.map((col, i) =>
  (i % 2 ? col.title.padEnd(12) + col.about : `\n  ${col.title.padEnd(13)}${col.about.padEnd(33)}`)).join('');

// How each column's numbers are printed.
const COLUMN_TEXT = {
  newAllocs: units.formatCount, freedBlocks: units.formatCount, countDelta: units.formatCountDelta,
  allocBytes: units.formatBytes, freedBytes: units.formatBytes, sizeDelta: units.formatBytesDelta,
};

// Both snapshots had the heap graph: the blocks themselves, matched by id
// (model/diff.js blockChanges), per shown row its largest new and deleted.
function blockChangesText(blocks, shown) {
  const b = units.formatBytes;
  let text = `\nblocks (heap graphs, matched by block id): ${units.formatCount(blocks.new)} new (${b(blocks.newBytes)}), ` +
    `${units.formatCount(blocks.deleted)} deleted (${b(blocks.deletedBytes)})\n`;
  shown.forEach((r, i) => {
    if (!r.blocks || !r.blocks.instances.length) return;
    text += `#${i + 1} ${clip(shortName(r.label), KEY_WIDTH)}: ${r.blocks.new} new, ${r.blocks.deleted} deleted\n`;
    for (const x of r.blocks.instances) {
      text += `  ${x.change === 'new' ? '+' : '-'} 0x${x.address.toString(16)}  ${units.formatBytesExact(x.size)}  id @${x.id}\n`;
    }
  });
  return text;
}

function run({ args, opts }, out) {
  const sort = sortOrder(opts, DIFF_SORTS);
  const top = topCount(opts);
  const before = readView(args[0], opts, { printable: true });
  const after = readView(args[1], opts, { printable: true });
  if (opts.json) {
    out(JSON.stringify(diffReport(before, after, { sort, top, files: args }), null, 2) + '\n');
    return 0;
  }
  const diff = diffSnapshots(before, after);
  const ranked = sortDiffRows(diff.rows, sort);
  const shown = top > 0 ? ranked.slice(0, top) : ranked;
  const t = diff.totals;
  const b = units.formatBytes;
  const c = units.formatCount;
  let text = `BEFORE ${args[0]} (captured ${before.capturedAt})\nAFTER  ${args[1]} (captured ${after.capturedAt})\n\n`;
  text += renderTable(
    [{ title: 'totals (exact)', align: 'left' }, { title: 'before', align: 'right' }, { title: 'after', align: 'right' }, { title: 'delta', align: 'right' }],
    [
      ['live bytes', b(t.liveBytes.before), b(t.liveBytes.after), units.formatBytesDelta(t.liveBytes.delta)],
      ['live blocks', c(t.liveBlocks.before), c(t.liveBlocks.after), units.formatCountDelta(t.liveBlocks.delta)],
      ['bytes allocated ever', b(t.totalBytes.before), b(t.totalBytes.after), units.formatBytesDelta(t.totalBytes.delta)],
      ['allocation calls', c(t.allocCalls.before), c(t.allocCalls.after), units.formatCountDelta(t.allocCalls.delta)],
      ['free calls', c(t.freeCalls.before), c(t.freeCalls.after), units.formatCountDelta(t.freeCalls.delta)],
      ['sites', c(t.sites.before), c(t.sites.after), units.formatCountDelta(t.sites.delta)],
    ]);
  text += '\n';
  if (shown.length === 0) {
    text += `no ${rowWord(after)} changed\n`;
  } else {
    const columns = [
      ...DIFF_COLUMNS.map((col) => ({ title: col.title, align: 'right' })),
      { title: rowTitle(after), align: 'left' }, { title: 'stack (leaf first)', align: 'left' },
    ];
    const row = (r, label, stack) => [...DIFF_COLUMNS.map((col) => COLUMN_TEXT[col.key](r[col.key])), label, stack];
    const rows = shown.map((r) => row(r, clip(shortName(r.label), KEY_WIDTH) + (r.status === 'both' ? '' : ` (${r.status})`),
      clip(stackText(r.stack.map(shortName)), STACK_WIDTH)));
    rows.push(row(diff.sum, `total of ${c(ranked.length)} changed ${rowsWord(after)}`, ''));
    text += renderTable(columns, rows);
    text += `\n${shown.length} of ${ranked.length} changed ${rowsWord(after)}, sorted by ${DIFF_SORTS[sort].title}` +
      (shown.length < ranked.length ? ' (--top 0 shows all)' : '') + '\n';
    if (diff.blocks) text += blockChangesText(diff.blocks, shown);
  }
  for (const note of diff.notes) text += `note: ${note}\n`;
  out(text);
  return 0;
}

module.exports = {
  name: 'diff',
  summary: 'What changed between two snapshots of one page session (BEFORE taken first). Rows are grouped by --by, as in ' +
    'emheap top (default: by function), and matched by their key, and by full stack where keys collide.',
  positional: ['BEFORE', 'AFTER'],
  options: [BY, FOCUS, IGNORE, HIDE, SORT, TOP, JSON_OUTPUT, WRAPPERS],
  notes: COLUMNS_NOTE,
  run,
};
