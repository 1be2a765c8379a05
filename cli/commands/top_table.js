// top_table.js: `emheap top`'s default view (and `emheap analyze`'s): the
// rows of a snapshot by live bytes or another order, with, when the heap
// graph is there, what they retain and each row's blocks that retain the
// most; or all of it as JSON.
'use strict';

const units = require('../units');
const { renderTable, clip } = require('../table');
const { needHeapGraph } = require('../read_view');
const { sortOrder, topCount } = require('../common_options');
const { KEY_WIDTH, STACK_WIDTH, rowTitle, rowsWord, partsNote, snapshotHeader } = require('../snapshot_text');
const { SORTS, topSites, stackText } = require('../../model/sites');
const growth = require('../../model/growth');
const { siteErrorText, hasSampledBlocks } = require('../../model/estimates');
const { shortName } = require('../../model/names');
const { memoryBreakdown } = require('../../model/memory_breakdown');

// The growths with their sites as text (model/growth.js), for --json.
function growthsNamed(snapshot) {
  const textOf = (id) => growth.siteText(snapshot, id);
  return (snapshot.heapGrowth || []).map((g) => Object.assign({}, g, {
    site: textOf(g.siteId),
    top: (g.top || []).map((t) => Object.assign({}, t, { site: textOf(t.siteId) })),
  }));
}

// The snapshot already read (args[0] names it) -> exit code.
function printTop(args, opts, snapshot, out) {
  const sort = sortOrder(opts, SORTS);
  const top = topCount(opts);
  if (SORTS[sort].heap) needHeapGraph(snapshot, args[0], `--sort ${sort}`);
  const instances = opts.instances !== undefined ? units.parseWhole(opts.instances, '--instances') : opts.json ? 5 : 0;
  if (instances > 0 && opts.instances !== undefined) needHeapGraph(snapshot, args[0], '--instances');
  const result = topSites(snapshot, { sort, top, instances });
  if (opts.json) {
    out(JSON.stringify(Object.assign({
      file: args[0], capturedAt: snapshot.capturedAt, source: snapshot.source, by: snapshot.groupedBy || 'site',
      mode: snapshot.mode, samplingInterval: snapshot.samplingInterval, summary: snapshot.summary,
      wrappers: snapshot.wrappers, memory: memoryBreakdown(snapshot), heapGrowth: growthsNamed(snapshot),
    }, snapshot.pools ? { pools: snapshot.pools } : {},
    snapshot.outOfMemory ? { outOfMemory: snapshot.outOfMemory } : {}, snapshot.focus ? { focus: snapshot.focus } : {},
    result), null, 2) + '\n');
    return 0;
  }
  let text = snapshotHeader(args[0], snapshot) + '\n';
  if (result.sites.length === 0) {
    text += `no ${rowsWord(snapshot)}\n`;
  } else {
    const columns = [
      { title: '#', align: 'right' }, { title: 'live bytes', align: 'right' }, { title: 'live blocks', align: 'right' },
      { title: 'allocs', align: 'right' }, { title: 'alloc bytes', align: 'right' }, { title: rowTitle(snapshot), align: 'left' },
      { title: 'stack (leaf first)', align: 'left' },
    ];
    // Estimates (sampled blocks) marked "~" with their standard error.
    const live = (s) => (s.estimatedLiveBytes > 0
      ? `~${units.formatBytes(s.liveBytes)} ${siteErrorText(snapshot, s)}` : units.formatBytes(s.liveBytes));
    // a row's allocations where blocks were sampled: estimates too, held
    // to the exact totals (model/estimates.js boundedTotals)
    const made = hasSampledBlocks(snapshot) ? '~' : '';
    const heap = !!snapshot.heap;
    if (heap) {
      // the heap graph's columns before the site: retained, and leaks by class
      columns.splice(5, 0, { title: 'retained', align: 'right' }, { title: 'leaked direct/indirect', align: 'right' });
    }
    const rows = result.sites.map((s) => [
      s.rank, live(s), units.formatCount(s.liveBlocks), made + units.formatCount(Math.round(s.totalAllocs)),
      made + units.formatBytes(s.totalBytes),
      ...(heap ? [units.formatBytes(s.retainedBytes || 0), `${s.directBlocks || 0}/${s.indirectBlocks || 0}`] : []),
      clip(shortName(s.label), KEY_WIDTH),
      clip(stackText(s.stack.map((f) => shortName(f.name))), STACK_WIDTH),
    ]);
    text += renderTable(columns, rows);
    for (const site of result.sites) {
      if (!site.instances || !site.instances.length) continue;
      text += `\n#${site.rank} ${clip(shortName(site.label), KEY_WIDTH)}: blocks that retain the most\n`;
      for (const b of site.instances) {
        text += `  0x${b.address.toString(16)}  ${units.formatBytes(b.size)}, retains ${units.formatBytes(b.retained)}, ${b.state}\n`;
      }
    }
    text += `\n${result.sites.length} of ${result.totalSites} ${rowsWord(snapshot)}, sorted by ${SORTS[sort].title}` +
      (result.sites.length < result.totalSites ? ' (--top 0 shows all)' : '') + '\n' + partsNote(snapshot);
  }
  out(text);
  return 0;
}

module.exports = { printTop };
