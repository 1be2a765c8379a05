// convert.js: `emheap convert FILE --to FORMAT[,FORMAT...]`: the snapshot
// written in other formats, by the builders the page uses
// (formats/index.js), a chunk at a time (output/node_output.js).
'use strict';

const fs = require('node:fs');
const zlib = require('node:zlib');

const { EmheapError } = require('../errors');
const units = require('../units');
const { readView, needHeapGraph } = require('../read_view');
const { withMoreHelp } = require('../options');
const { WRAPPERS, AT, OUTPUT, FORCE, outputFile } = require('../common_options');
const { defaultOutput, checkTarget, writeReplacing } = require('../output_file');
const { FORMATS, formatByName } = require('../../formats/index');
const { writeFormat } = require('../../output/node_output');

const TO = {
  name: 'to', kind: 'value', arg: `${Object.keys(FORMATS).join('|')}[,...]`, required: true,
  help: Object.entries(FORMATS).map(([name, format]) => `${name} (${format.suffix}, ${format.about})`).join(', ') +
    '; several, comma-separated, read FILE once and write each',
};

// The file is written as it is made, a chunk at a time (formats/index.js):
// a 2M-site snapshot makes files of several GB, more than any string.
// Several formats share one read of FILE (a GB file takes a minute).
function run({ args, opts }, out) {
  const names = String(opts.to).split(',').map((n) => n.trim());
  const formats = names.map((name) => {
    try {
      return formatByName(name);
    } catch (e) {
      throw new EmheapError(`--to: ${e.message}`);
    }
  });
  if (new Set(names).size !== names.length) throw new EmheapError(`--to ${opts.to}: a format is named twice`);
  const given = outputFile(opts);
  if (given !== undefined && formats.length > 1) {
    throw new EmheapError(`-o names one file, but --to names ${formats.length} formats: leave -o out (each file gets FILE's name with its suffix)`);
  }
  const targets = formats.map((format) => (given !== undefined ? given : defaultOutput(args[0], format.suffix)));
  for (const target of targets) if (target !== '-') checkTarget(target, args[0], opts.force, 'convert');
  const snapshot = readView(args[0], opts, { grouped: false });
  // before any file is written: a format that needs the heap graph
  formats.forEach((format, i) => { if (format.heap) needHeapGraph(snapshot, args[0], `--to ${names[i]}`); });
  formats.forEach((format, i) => {
    const write = (fd) => {
      try {
        return writeFormat(fs, zlib, fd, format, snapshot);
      } catch (e) {
        if (e && e.code) throw e;   // the file system's, reported by the caller
        throw new EmheapError(`${args[0]}: cannot build ${names[i]}: ${e.message}`);
      }
    };
    if (targets[i] === '-') {
      write(process.stdout.fd);
      return;
    }
    const written = writeReplacing(targets[i], write);
    out(`wrote ${targets[i]} (${names[i]}, ${units.formatCount(written)} bytes)\n`);
  });
  return 0;
}

module.exports = {
  name: 'convert',
  summary: 'Write the snapshot in another format (the same builders as the page).',
  positional: ['FILE'],
  options: [TO, withMoreHelp(OUTPUT, ' by the format\'s; "-" = stdout (one format only)'), FORCE, AT, WRAPPERS],
  run,
};
