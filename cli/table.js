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

module.exports = { renderTable, clip };
