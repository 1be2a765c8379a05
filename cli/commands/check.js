// check.js: `emheap check FILE --max-live-bytes N --max-site-bytes N`:
// memory budgets for CI; exit 0 and one OK line within budget, exit 1 and
// the rows responsible when over (cli/budget.js checks them).
'use strict';

const { EmheapError } = require('../errors');
const units = require('../units');
const { clip } = require('../table');
const { readView } = require('../read_view');
const { synopsis } = require('../options');
const { WRAPPERS, BY, FOCUS, IGNORE, HIDE, AT } = require('../common_options');
const { checkBudgets } = require('../budget');
const { STACK_WIDTH, rowWord, rowsWord } = require('../snapshot_text');
const { plural } = units;
const { stackText } = require('../../model/sites');
const { hasSampledBlocks } = require('../../model/estimates');
const { shortName } = require('../../model/names');

const MAX_LIVE_BYTES = {
  name: 'max-live-bytes', kind: 'value', arg: 'N',
  help: 'budget for all live bytes: as the program asked for them in exact mode, as the rows count them; usable sizes ' +
    'where not every block is recorded (sampled mode), said so; exact either way',
};
const MAX_SITE_BYTES = {
  name: 'max-site-bytes', kind: 'value', arg: 'N',
  help: "budget for the live bytes of any one row of emheap top (--by: a function's stack by default, or a line, or a call site)",
};

function run({ args, opts }, out, err) {
  const budgets = {};
  if (opts['max-live-bytes'] !== undefined) budgets.maxLiveBytes = units.parseSize(opts['max-live-bytes'], '--max-live-bytes');
  if (opts['max-site-bytes'] !== undefined) budgets.maxSiteBytes = units.parseSize(opts['max-site-bytes'], '--max-site-bytes');
  if (Object.keys(budgets).length === 0) {
    throw new EmheapError(`check needs a budget: --max-live-bytes N and/or --max-site-bytes N (usage: ${synopsis(check)})`);
  }
  const snapshot = readView(args[0], opts, { printable: true });
  const result = checkBudgets(snapshot, budgets);
  const ex = units.formatBytesExact;
  const liveText = (n) => ex(n) + (result.live.requested ? '' : ' (usable sizes)');
  const site = (s) => `${shortName(s.label)} ${units.formatBytes(s.liveBytes)} in ${plural(s.liveBlocks, 'block')}` +
    (s.stack.length ? ` (${clip(stackText(s.stack.map(shortName)), STACK_WIDTH)})` : '');
  if (result.ok) {
    const parts = [];
    if (budgets.maxLiveBytes !== undefined) parts.push(`live ${liveText(result.live.bytes)} <= ${ex(budgets.maxLiveBytes)}`);
    if (snapshot.view === 'peak') parts.push('at the peak of live bytes');
    if (budgets.maxSiteBytes !== undefined) {
      parts.push(result.largestSite
        ? `largest ${rowWord(snapshot)} ${result.largestSite.label} ${ex(result.largestSite.liveBytes)} <= ${ex(budgets.maxSiteBytes)}`
        : `no live ${rowWord(snapshot)}`);
    }
    out(`emheap: OK: ${parts.join('; ')} (${args[0]})\n`);
    return 0;
  }
  const lines = [`emheap: budget exceeded in ${args[0]}${snapshot.view === 'peak' ? ' at the peak of live bytes' : ''}:`];
  for (const f of result.failures) {
    if (f.kind === 'live') {
      lines.push(`  live bytes ${liveText(f.value)} > --max-live-bytes ${ex(f.limit)}, over by ${units.formatBytes(f.value - f.limit)}; largest ${rowsWord(snapshot)}:`);
    } else {
      lines.push(`  ${plural(f.sites.length, rowWord(snapshot))} over --max-site-bytes ${ex(f.limit)}:`);
    }
    for (const s of f.sites) lines.push(`    ${site(s)}`);
  }
  if (hasSampledBlocks(snapshot) && result.failures.some((f) => f.kind === 'site')) {
    lines.push('  (sampled blocks: per-site bytes marked ~ are estimates; take the profile with ?emheap=exact, and room ' +
      'for emheap\'s tables, for exact ones)');
  }
  err(lines.join('\n') + '\n');
  return 1;
}

const check = {
  name: 'check',
  summary: 'Check memory budgets, for CI: exit 0 and print OK when within budget, exit 1 naming the rows when a budget ' +
    'is exceeded. At least one budget is needed.',
  positional: ['FILE'],
  options: [MAX_LIVE_BYTES, MAX_SITE_BYTES, BY, AT, WRAPPERS],
  notes: `N is ${units.SIZE_HELP}.`,
  run,
};

module.exports = check;
