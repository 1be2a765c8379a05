// numbers.js -- numbers as a person reads them, the same in the page's
// console, the leak report and the CLI: counts with thousands separators
// (never toLocaleString, whose output depends on the machine), byte sizes
// in binary units, signed deltas.
'use strict';

// 1234567 -> "1,234,567" (the same in every locale).
function formatCount(n) {
  const sign = n < 0 ? '-' : '';
  return sign + String(Math.abs(Math.round(n))).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

// 3145728 -> "3.00 MiB", 512 -> "512 B", -2048 -> "-2.00 KiB".
function formatBytes(n) {
  const abs = Math.abs(n);
  const sign = n < 0 ? '-' : '';
  if (abs < 1024) return `${sign}${abs} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = abs / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${sign}${v.toFixed(2)} ${units[i]}`;
}

// Deltas carry their sign: "+3.00 MiB", "-512 B", "0 B"; "+3", "-1", "0".
function signed(text, n) {
  return n > 0 ? `+${text}` : text;
}
const formatBytesDelta = (n) => signed(formatBytes(n), n);
const formatCountDelta = (n) => signed(formatCount(n), n);

// "3.00 MiB (3,145,728 B)": human and exact, for budgets and totals.
function formatBytesExact(n) {
  return Math.abs(n) < 1024 ? `${formatCount(n)} B` : `${formatBytes(n)} (${formatCount(n)} B)`;
}

// 1 -> "1 block", 1200 -> "1,200 blocks" (English plurals in -s).
function plural(n, word) {
  return `${formatCount(n)} ${word}${n === 1 ? '' : 's'}`;
}

module.exports = { formatCount, formatBytes, formatBytesDelta, formatCountDelta, formatBytesExact, plural };
