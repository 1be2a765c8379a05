// cli_help.test.js -- the CLI's help is made from the tables the parser
// reads (cli/options.js, cli/commands/*.js): every option a command
// accepts is in `emheap help COMMAND` and in its usage line, every format
// of formats/index.js is in `emheap help convert`, and the main usage
// names every command. The lists are taken from the tables and the parser,
// so a command, option or format added without its help fails here.
// The same for emheap-config (bin/emheap-config): `--help` and `-h` print
// its table of options, one line each, and exit 0.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const { parseArgs, COMMANDS } = require('../cli/emheap');
const { FORMATS } = require('../formats/index');

const COMMANDS_DIR = path.join(__dirname, '..', 'cli', 'commands');
const help = (...argv) => parseArgs(argv).help;
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// a spelling as a word of its own: "--top" is not found in "--topmost"
const word = (text) => new RegExp(`(^|[\\s\\[|,])${escape(text)}(?![\\w-])`, 'm');

// Every spelling the parser takes for the option, with the values it needs.
function spellings(option) {
  const values = option.kind === 'flag' ? [] : option.kind === 'pair' ? ['x', 'y'] : ['x'];
  const names = [`--${option.name}`, ...(option.short ? [`-${option.short}`] : [])];
  return names.map((spelled) => ({ spelled, key: spelled.replace(/^--?/, ''), values }));
}

// A command line of `command` with only `spelled` (and what the command
// cannot go without), as the parser reads it.
function parseWith(command, spelled, values) {
  const required = command.options.filter((o) => o.required && `--${o.name}` !== spelled && `-${o.short}` !== spelled)
    .flatMap((o) => [`--${o.name}`, 'x']);
  return parseArgs([command.name, ...command.positional, spelled, ...values, ...required]);
}

test('every command file is a command of the CLI', () => {
  const files = fs.readdirSync(COMMANDS_DIR).filter((f) => f.endsWith('.js'))
    .map((f) => require(path.join(COMMANDS_DIR, f)))
    .filter((m) => typeof m.run === 'function' && typeof m.name === 'string');
  assert.ok(files.length >= 6, `${files.length} command files`);
  assert.deepEqual(files.map((c) => c.name).sort(), COMMANDS.map((c) => c.name).sort());
});

test('every option the parser accepts is in the command\'s help and its usage line', () => {
  for (const command of COMMANDS) {
    const text = help('help', command.name);
    assert.equal(help(command.name, '--help'), text, `${command.name} --help`);
    const usage = text.slice(0, text.indexOf('\n\n'));
    // the options' table: from "Options:" to the notes, if any
    const table = text.slice(text.indexOf('\nOptions:\n'), command.notes ? text.lastIndexOf(command.notes) : undefined);
    assert.match(usage, new RegExp(`^Usage: emheap ${command.name} `));
    for (const positional of command.positional) assert.match(usage, word(positional), `${command.name} ${positional}`);
    let checked = 0;
    for (const option of command.options) {
      assert.ok(option.help && option.help.length > 10, `${command.name} --${option.name} has help`);
      for (const { spelled, key, values } of spellings(option)) {
        const parsed = parseWith(command, spelled, values);
        assert.equal(parsed.cmd, command.name, `${command.name} ${spelled} is accepted`);
        assert.notEqual(parsed.opts[key], undefined, `${command.name} ${spelled} is read`);
        assert.match(table, word(spelled), `${spelled} in the options of "emheap help ${command.name}"`);
        checked++;
      }
      // a line of the table starts with the option, its help beside it or below
      const start = `  ${option.short ? `-${option.short}, ` : ''}--${option.name}`;
      const line = new RegExp(`^${escape(start)}(?![\\w-])`, 'm');
      assert.match(table, line, `"${start}" starts a line of "emheap help ${command.name}"`);
      const firstWords = option.help.split(/\s+/).slice(0, 4).join(' ');
      assert.ok(table.replace(/\s+/g, ' ').includes(firstWords), `--${option.name}'s help in "emheap help ${command.name}"`);
      assert.match(usage, word(option.short ? `-${option.short}` : `--${option.name}`), `--${option.name} in the usage line`);
    }
    assert.ok(checked >= 3, `${command.name}: ${checked} spellings checked`);
    // and the parser accepts nothing else
    assert.throws(() => parseWith(command, '--no-such-option', []), /unknown option --no-such-option/);
  }
});

test('the help of --to lists every format of formats/index.js with its suffix', () => {
  const text = help('help', 'convert').replace(/\s+/g, ' ');   // as words, wherever the lines break
  const names = Object.keys(FORMATS);
  assert.ok(names.includes('dhat') && names.includes('heapsnapshot'), names.join(', '));
  for (const name of names) {
    assert.match(text, word(name), `format ${name}`);
    assert.ok(text.includes(`${name} (${FORMATS[name].suffix}`), `${name} with its suffix ${FORMATS[name].suffix}`);
  }
});

test('the main usage names every command, with its usage, and the options every command that reads a file takes', () => {
  const readers = COMMANDS.filter((c) => c.positional.length);
  assert.ok(readers.length >= 6 && readers.length < COMMANDS.length, 'serve reads no file');
  for (const text of [help('--help'), help('-h'), help('help')]) {
    for (const command of COMMANDS) {
      const next = command.positional.length ? escape(command.positional[0]) : '\\[--';
      assert.match(text, new RegExp(`^  emheap ${command.name} ${next}`, 'm'), command.name);
    }
    assert.match(text, /^ {2}emheap help COMMAND$/m);
    const everywhere = readers[0].options.filter((o) => readers.every((c) => c.options.includes(o)));
    assert.ok(everywhere.some((o) => o.name === 'wrappers'));
    for (const option of everywhere) assert.match(text, word(`--${option.name}`));
  }
  const unknown = /help: unknown command "nope" \(commands: (.*)\)/;
  assert.throws(() => parseArgs(['help', 'nope']), (e) => {
    const listed = unknown.exec(e.message);
    return listed && listed[1] === COMMANDS.map((c) => c.name).join(', ');
  });
});

test('help text is wrapped: no line of an option\'s help runs past the width', () => {
  const { HELP_WIDTH } = require('../cli/options');
  for (const command of COMMANDS) {
    const text = help('help', command.name);
    const options = text.slice(text.indexOf('Options:\n'), command.notes ? text.lastIndexOf(command.notes) : undefined);
    for (const line of options.split('\n')) {
      // a spelling on a line of its own may be longer (--to lists the formats)
      if (/^ {2}-/.test(line) && !/ {2}\S/.test(line.trim())) continue;
      assert.ok(line.length <= HELP_WIDTH, `${command.name}: ${JSON.stringify(line)}`);
    }
  }
});

// emheap-config (bin/emheap-config): its --help is made from OPTIONS, the
// table its parser reads, one line per option; every spelling the help
// shows is one the parser takes, and it takes nothing else.
const CONFIG = path.join(__dirname, '..', 'bin', 'emheap-config');
const config = require(CONFIG);

// The command lines a help spelling stands for: "--help, -h" is two,
// "--mode=exact|sampled|off" three, "--wrappers=LIST" one with a list.
function configSpellings(spelling) {
  return spelling.split(', ').flatMap((one) => {
    const [name, value] = one.split('=');
    if (value === undefined) return [name];
    return /^[A-Z]+$/.test(value) ? [`${name}=l_alloc,luaM_*`] : value.split('|').map((v) => `${name}=${v}`);
  });
}

test('emheap-config --help and -h print the usage and one line per option, and exit 0', () => {
  for (const flag of ['--help', '-h']) {
    const r = spawnSync(process.execPath, [CONFIG, flag], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, config.helpText());
    const lines = r.stdout.split('\n');
    assert.equal(lines[0], config.USAGE);
    const optionLines = lines.filter((l) => /^ {2}-/.test(l));
    assert.equal(optionLines.length, config.OPTIONS.length, 'one line per option, no more');
    assert.ok(config.OPTIONS.length >= 7, `${config.OPTIONS.length} options`);
    for (const option of config.OPTIONS) {
      const own = optionLines.filter((l) => l.startsWith(`  ${option.spelling} `));
      assert.equal(own.length, 1, `"${option.spelling}" starts one line of the help`);
      assert.ok(option.help.length > 5 && own[0].endsWith(` ${option.help}`), `${option.spelling}'s help beside it`);
    }
  }
});

test('every spelling of emheap-config\'s help is taken by its parser and in its usage line; nothing else is', () => {
  const plain = config.parse(['--cflags']);
  let checked = 0;
  for (const option of config.OPTIONS) {
    for (const spelled of configSpellings(option.spelling)) {
      assert.match(config.USAGE, word(spelled.replace(/=.*/, '')), `${spelled} in the usage line`);
      const parsed = config.parse(spelled === '--cflags' ? [spelled] : ['--cflags', spelled]);
      if (spelled !== '--cflags') assert.notDeepEqual(parsed, plain, `${spelled} is read`);
      checked++;
    }
  }
  assert.ok(checked >= 10, `${checked} spellings checked`);
  for (const bad of [['--no-such-option', '--cflags'], ['--mode=fast', '--ldflags'], ['--wrappers=a"b', '--ldflags'], []]) {
    assert.throws(() => config.parse(bad), (e) => e.exitCode === 2 && (bad.length ? e.message !== config.USAGE : e.message === config.USAGE),
      bad.join(' '));
  }
  const r = spawnSync(process.execPath, [CONFIG, '--no-such-option'], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.equal(r.stdout, '');
  assert.equal(r.stderr, `emheap-config: unknown option '--no-such-option'\n${config.USAGE}\n`);
});
