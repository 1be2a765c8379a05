// table.js: plain-text tables for the terminal. Columns are {title, align}
// ('right' for numbers, 'left' for text); cells are strings. The last column
// is not padded, so long call sites do not push trailing blanks.
'use strict';

function renderTable(columns, rows, { indent = '', gap = '  ' } = {}) {
  const widths = columns.map((c, i) => Math.max(c.title.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => indent + cells.map((cell, i) => {
    const text = String(cell);
    if (i === cells.length - 1) return columns[i].align === 'right' ? text.padStart(widths[i]) : text;
    return columns[i].align === 'right' ? text.padStart(widths[i]) : text.padEnd(widths[i]);
  }).join(gap).replace(/\s+$/, '');
  return [line(columns.map((c) => c.title)), ...rows.map(line)].join('\n') + '\n';
}

// "a < b < c < d" cut to `max` characters with "..." at the end.
function clip(text, max) {
  return text.length <= max ? text : text.slice(0, Math.max(0, max - 3)) + '...';
}

// Control characters (C0, DEL, C1, the Unicode line separators) as \xNN or
// \uNNNN escapes, but those in `keep`: a name a program chose must not
// move the terminal's cursor, colour it, or start a line of its own in a
// CI log (a "::error::" line is a command to GitHub Actions).
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
function printable(text, keep = '') {
  return String(text).replace(CONTROL, (c) => {
    if (keep.includes(c)) return c;
    const code = c.charCodeAt(0);
    return code > 0xff ? `\\u${code.toString(16).padStart(4, '0')}` : `\\x${code.toString(16).padStart(2, '0')}`;
  });
}

// The snapshot with its frames' names and files and its marks' names made
// printable, for the tables; the file keeps them as they were.
function withPrintableNames(snapshot) {
  const out = Object.assign({}, snapshot);
  out.frames = snapshot.frames.map((f) => {
    const g = Object.assign({}, f);
    if (typeof g.name === 'string') g.name = printable(g.name);
    if (typeof g.file === 'string') g.file = printable(g.file);
    return g;
  });
  if (Array.isArray(snapshot.marks)) out.marks = snapshot.marks.map((m) => Object.assign({}, m, { name: printable(m.name) }));
  return out;
}

module.exports = { renderTable, clip, printable, withPrintableNames };
