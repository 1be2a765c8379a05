#!/usr/bin/env node
// emheap.js: the emheap command line (see cli/README.md): the list of
// commands, the main usage, and dispatch. Each command is a file of
// cli/commands/ (its options, its help, its work); options.js reads the
// command line against a command's options and makes its help from them.
//
// Exit codes: 0 done, 1 `check` found a budget exceeded, 2 bad usage or bad
// input (one "emheap: ..." line on stderr, never a stack trace).
'use strict';

const { EmheapError } = require('./errors');
const { printable } = require('./table');
const { wrappedSynopsis, optionsHelp, commandHelp, parseOptions } = require('./options');
const { defaultOutput } = require('./output_file');
const { snapshotSuffixes } = require('../formats/index');

// In the order the main usage lists them.
const COMMANDS = [
  require('./commands/top'),
  require('./commands/analyze'),
  require('./commands/diff'),
  require('./commands/convert'),
  require('./commands/report'),
  require('./commands/check'),
  require('./commands/serve'),
];
const commandNamed = (name) => COMMANDS.find((c) => c.name === name);
const commandNames = () => COMMANDS.map((c) => c.name).join(', ');

// The options every command that reads a file takes (--wrappers), described
// once here.
function sharedOptions() {
  const readers = COMMANDS.filter((c) => c.positional.length > 0);
  return readers[0].options.filter((option) => readers.every((c) => c.options.includes(option)));
}

function mainUsage() {
  return `emheap: read the heap profiles emheap writes (Ctrl+Shift+H in the page)

Usage:
${COMMANDS.map((c) => wrappedSynopsis(c, '  ')).join('\n')}
  emheap help COMMAND

FILE is a ${snapshotSuffixes().map((suffix) => `*${suffix}`).join(' or ')} file emheap wrote, a bare
snapshot JSON (emheap.snapshot() in the page), or a heap dump
(emheap.dumpHeap(): *.emheapdump.gz, scanned again here). Exit status: 0 ok, 1 budget
exceeded (check), 2 bad usage or unreadable input.

Every command that reads a FILE takes:
${optionsHelp(sharedOptions())}`;
}

// argv -> {cmd, args: [positional], opts: {name: value}} or {help: text}
function parseArgs(argv) {
  if (argv.length === 0) throw new EmheapError('no command given; run "emheap --help" for usage');
  const [cmd, ...rest] = argv;
  if (cmd === '--help' || cmd === '-h') return { help: mainUsage() };
  if (cmd === '--version' || cmd === '-V') return { help: require('../package.json').version + '\n' };
  if (cmd === 'help') {
    if (rest.length === 0) return { help: mainUsage() };
    if (!commandNamed(rest[0]) || rest.length > 1) {
      throw new EmheapError(`help: unknown command "${rest.join(' ')}" (commands: ${commandNames()})`);
    }
    return { help: commandHelp(commandNamed(rest[0])) };
  }
  const command = commandNamed(cmd);
  if (!command) throw new EmheapError(`unknown command "${cmd}" (commands: ${commandNames()}, help)`);
  const parsed = parseOptions(command, rest);
  return parsed.help !== undefined ? parsed : { cmd, args: parsed.args, opts: parsed.opts };
}

function main(argv) {
  // what a program named (frames, files, marks) reaches the terminal or a
  // CI log only as text: no control character but the lines' own breaks
  const out = (text) => process.stdout.write(printable(text, '\n'));
  const err = (text) => process.stderr.write(printable(text, '\n'));
  // `emheap top x | head`: a closed pipe is not an error
  process.stdout.on('error', (e) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode || 0);
  });
  try {
    const parsed = parseArgs(argv);
    if (parsed.help !== undefined) {
      out(parsed.help);
      return 0;
    }
    return commandNamed(parsed.cmd).run(parsed, out, err);
  } catch (e) {
    const known = e instanceof EmheapError;
    const message = known ? e.message : `internal error: ${e && e.message || e} (please report it)`;
    err(`emheap: ${String(message).replace(/\s*\n\s*/g, ' ')}\n`);
    return known ? e.exitCode : 2;
  }
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));

module.exports = { main, parseArgs, defaultOutput, COMMANDS };
