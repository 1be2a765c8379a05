// units.js: numbers on the CLI's command line: byte sizes with suffixes
// ("10MB", "512KiB") and whole-number options; printing them is
// model/numbers.js's, whose functions this module hands on.
'use strict';

const { EmheapError } = require('./errors');

// KB/MB/GB/TB are powers of 1000 (SI), KiB/MiB/GiB/TiB powers of 1024 (IEC),
// as the units are defined; a single letter (k, M, G, T) is SI too.
const SIZE_UNITS = {
  '': 1, b: 1,
  k: 1e3, kb: 1e3, m: 1e6, mb: 1e6, g: 1e9, gb: 1e9, t: 1e12, tb: 1e12,
  ki: 1024, kib: 1024, mi: 1024 ** 2, mib: 1024 ** 2, gi: 1024 ** 3, gib: 1024 ** 3, ti: 1024 ** 4, tib: 1024 ** 4,
};

const SIZE_HELP = 'a byte count such as 1048576, 10MB or 512KiB (KB/MB/GB: powers of 1000; KiB/MiB/GiB: powers of 1024)';

// "10MB" -> 10000000, "1.5KiB" -> 1536, "1_000" -> 1000. Throws an
// EmheapError naming `what` (the option) when the text is not a size.
function parseSize(text, what) {
  const m = /^\s*((?:\d[\d_]*)?(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(String(text));
  const unit = m ? m[2].toLowerCase() : '';
  if (!m || m[1] === '' || m[1] === '.' || !Object.prototype.hasOwnProperty.call(SIZE_UNITS, unit)) {
    throw new EmheapError(`${what}: "${text}" is not a size; give ${SIZE_HELP}`);
  }
  const value = Math.round(Number(m[1].replace(/_/g, '')) * SIZE_UNITS[unit]);
  if (!Number.isSafeInteger(value)) throw new EmheapError(`${what}: "${text}" is too large`);
  return value;
}

// A whole number >= min ("--top 10").
function parseWhole(text, what, min = 0) {
  const s = String(text).trim();
  if (!/^\d+$/.test(s) || !Number.isSafeInteger(Number(s)) || Number(s) < min) {
    throw new EmheapError(`${what}: "${text}" is not a whole number${min > 0 ? ` >= ${min}` : ''}`);
  }
  return Number(s);
}

module.exports = Object.assign({ parseSize, parseWhole, SIZE_HELP }, require('../model/numbers'));
