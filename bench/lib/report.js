// report.js -- number formatting and markdown tables for the bench report.
'use strict';

function median(values) {
  const v = [...values].sort((a, b) => a - b);
  if (!v.length) return NaN;
  const mid = v.length >> 1;
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

function ns(x) {
  if (!Number.isFinite(x)) return '-';
  if (x < 100) return x.toFixed(1);
  return Math.round(x).toLocaleString('en-US');
}

function ratio(x) {
  if (!Number.isFinite(x)) return '-';
  if (x < 10) return `${x.toFixed(2)}x`;
  if (x < 100) return `${x.toFixed(1)}x`;
  return `${Math.round(x).toLocaleString('en-US')}x`;
}

function fixed(x, digits = 1) {
  return Number.isFinite(x) ? x.toFixed(digits) : '-';
}

// Cells that are not numbers ("error", "n/a") carry a note number; the
// notes under the tables give each distinct reason once, with where it
// happened.
class Notes {
  constructor() {
    this.byText = new Map();
  }

  add(kind, reason, where) {
    const text = `${kind}: ${reason}`;
    let note = this.byText.get(text);
    if (!note) {
      note = {id: this.byText.size + 1, kind, reason: String(reason), where: []};
      this.byText.set(text, note);
    }
    if (!note.where.includes(where)) note.where.push(where);
    return note.id;
  }

  // "error [2]: first words of the reason" (the note has it in full).
  cell(kind, reason, where, {brief = false} = {}) {
    const id = this.add(kind, reason, where);
    if (brief) return `${kind} [${id}]`;
    const text = String(reason).replace(/\s+/g, ' ');
    return `${kind} [${id}]: ${text.length > 50 ? text.slice(0, 47) + '...' : text}`;
  }

  list() {
    return [...this.byText.values()];
  }

  markdown() {
    return this.list().map((n) => `${n.id}. ${n.kind}: ${n.reason} (${n.where.join('; ')})`);
  }
}

function table(header, rows) {
  const esc = (c) => String(c).replace(/\|/g, '\\|');
  return [
    `| ${header.map(esc).join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.map(esc).join(' | ')} |`),
  ].join('\n');
}

module.exports = {median, ns, ratio, fixed, Notes, table};
