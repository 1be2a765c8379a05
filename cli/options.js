// options.js: how a command declares its options, how the command line is
// read against them, and the help made from them. The parser and the help
// read the same entries, so the help lists exactly what the parser accepts.
//
// An option is {name, short?, kind, arg?, help, required?}:
//   name     the long spelling without its dashes (--top)
//   short    a one-letter spelling (-o), stored under that letter as given
//   kind     'value' takes one value (--top 5, --top=5), 'flag' none,
//            'pair' two (--between A B)
//   arg      what the value is, as help and usage show it (N, now|peak)
//   help     one paragraph; wrapped here to the help's width
//   required the command needs it (usage shows it without brackets)
// A command (cli/commands/*.js) is {name, summary, positional, options,
// exclusive?, notes?, run}; `exclusive` lists groups of options of which
// one at most may be given.
'use strict';

const { EmheapError } = require('./errors');

// Columns of the help text; an option's spelling wider than SPELLING_WIDTH
// gets a line of its own, its help below it.
const HELP_WIDTH = 92;
const SPELLING_WIDTH = 26;

// The option with `text` added to its help: a command that says more about
// a shared option than the others do (cli/common_options.js).
function withMoreHelp(option, text) {
  return Object.assign({}, option, { help: option.help + text });
}

// Words of `text` in lines of at most `width` characters (a longer word
// stands alone), the lines after the first indented by `indent` more.
function wrap(text, width, indent = 0) {
  const lines = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  lines.push(line);
  return lines.map((l, i) => (i ? ' '.repeat(indent) + l : l)).join('\n');
}

// "--top N", "-o OUT": the option as usage writes it.
function usageSpelling(option) {
  const spelled = option.short ? `-${option.short}` : `--${option.name}`;
  return option.arg ? `${spelled} ${option.arg}` : spelled;
}

// "-o, --output OUT": every spelling the parser takes, for the help.
function helpSpelling(option) {
  const long = `--${option.name}${option.arg ? ' ' + option.arg : ''}`;
  return option.short ? `-${option.short}, ${long}` : long;
}

// The parts of a command's usage after "emheap NAME": its positional
// arguments, then each option ("[--top N]"; an exclusive group as one
// "[--a | --b]", where its first member is listed).
function synopsisParts(command) {
  const groups = command.exclusive || [];
  const parts = [...command.positional];
  for (const option of command.options) {
    const group = groups.find((g) => g.includes(option.name));
    if (group && group[0] !== option.name) continue;
    const members = group ? group.map((name) => command.options.find((o) => o.name === name)) : [option];
    const text = members.map(usageSpelling).join(' | ');
    parts.push(option.required ? text : `[${text}]`);
  }
  return parts;
}

// "emheap top FILE [--by ...] ..." on one line (for error messages, which
// are one line).
function synopsis(command) {
  return [`emheap ${command.name}`, ...synopsisParts(command)].join(' ');
}

// The usage wrapped: "prefix emheap NAME" then the parts, the lines after
// the first lined up under the first part.
function wrappedSynopsis(command, prefix) {
  const head = `${prefix}emheap ${command.name} `;
  const lines = [];
  let line = head;
  for (const part of synopsisParts(command)) {
    if (line.length > head.length && line.length + part.length > HELP_WIDTH) {
      lines.push(line.trimEnd());
      line = ' '.repeat(head.length);
    }
    line += part + ' ';
  }
  lines.push(line.trimEnd());
  return lines.join('\n');
}

// The options' help: each spelling, its help in a column beside it.
function optionsHelp(options) {
  const spellings = options.map(helpSpelling);
  const column = 2 + Math.min(SPELLING_WIDTH, Math.max(...spellings.map((s) => s.length))) + 2;
  return options.map((option, i) => {
    const help = wrap(option.help, HELP_WIDTH - column, column);
    const spelled = '  ' + spellings[i];
    return spelled.length + 2 <= column
      ? spelled.padEnd(column) + help
      : spelled + '\n' + ' '.repeat(column) + help;
  }).join('\n') + '\n';
}

// `emheap help COMMAND`: usage, what the command answers, its options, its
// notes (text kept as written: tables, lists).
function commandHelp(command) {
  return `${wrappedSynopsis(command, 'Usage: ')}\n\n${wrap(command.summary, HELP_WIDTH)}\n\n` +
    `Options:\n${optionsHelp(command.options)}` + (command.notes ? `\n${command.notes}\n` : '');
}

// A command's arguments (what follows its name) -> {args: [positional],
// opts: {name: value}}, or {help} when they ask for it. Every usage error
// is an EmheapError naming the command.
function parseOptions(command, rest) {
  const cmd = command.name;
  const known = new Map();
  for (const option of command.options) {
    known.set(option.name, option);
    if (option.short) known.set(option.short, option);
  }
  const args = [];
  const opts = {};
  let onlyArgs = false;
  for (let i = 0; i < rest.length; i++) {
    const token = rest[i];
    if (onlyArgs || token === '-' || !token.startsWith('-')) {
      args.push(token);
      continue;
    }
    if (token === '--') {
      onlyArgs = true;
      continue;
    }
    if (token === '--help' || token === '-h') return { help: commandHelp(command) };
    const eq = token.indexOf('=');
    const spelled = eq > 0 ? token.slice(0, eq) : token;
    const name = spelled.replace(/^--?/, '');
    // long options take two dashes, the one-letter -o one
    const wellFormed = name.length === 1 ? spelled === '-' + name : spelled === '--' + name;
    if (!wellFormed || !known.has(name)) {
      throw new EmheapError(`unknown option ${spelled} for "emheap ${cmd}" (see "emheap help ${cmd}")`);
    }
    const kind = known.get(name).kind;
    if (kind === 'flag') {
      if (eq > 0) throw new EmheapError(`option ${spelled} takes no value`);
      opts[name] = true;
    } else if (kind === 'pair') {
      const values = eq > 0 ? [token.slice(eq + 1), rest[i + 1]] : [rest[i + 1], rest[i + 2]];
      if (values.some((v) => v === undefined || (v.startsWith('--') && v.length > 2))) {
        throw new EmheapError(`option ${spelled} needs two values (see "emheap help ${cmd}")`);
      }
      opts[name] = values;
      i += eq > 0 ? 1 : 2;
    } else if (eq > 0) {
      opts[name] = token.slice(eq + 1);
    } else {
      const value = rest[i + 1];
      if (value === undefined || (value.startsWith('--') && value.length > 2)) {
        throw new EmheapError(`option ${spelled} needs a value (see "emheap help ${cmd}")`);
      }
      opts[name] = value;
      i++;
    }
  }
  const want = command.positional;
  if (args.length < want.length) {
    throw new EmheapError(`${cmd} needs ${want.slice(args.length).join(' and ')} (usage: ${synopsis(command)})`);
  }
  if (args.length > want.length) {
    throw new EmheapError(`${cmd} takes ${want.join(' and ')}, but got also "${args[want.length]}" (usage: ${synopsis(command)})`);
  }
  for (const group of command.exclusive || []) {
    const chosen = group.filter((name) => opts[name] !== undefined);
    if (chosen.length > 1) throw new EmheapError(`--${chosen[0]} and --${chosen[1]} cannot go together`);
  }
  for (const option of command.options) {
    if (option.required && opts[option.name] === undefined && !(option.short && opts[option.short] !== undefined)) {
      throw new EmheapError(`${cmd} needs ${usageSpelling(option)}`);
    }
  }
  return { args, opts };
}

module.exports = { withMoreHelp, wrap, synopsis, wrappedSynopsis, optionsHelp, commandHelp, parseOptions, HELP_WIDTH };
