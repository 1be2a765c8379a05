// cli.js -- runs the `emheap` command (cli/emheap.js) as a user would: a
// node process of its own, in the folder given (where it writes its
// files), its output as text.
'use strict';

const {spawnSync} = require('child_process');
const {CLI} = require('./paths');

// args: the command line after `emheap`; options: spawnSync's (cwd, env,
// input...). {status, stdout, stderr}.
function runCli(args, options = {}) {
  return spawnSync(process.execPath, [CLI, ...args], Object.assign({encoding: 'utf8'}, options));
}

module.exports = {runCli};
