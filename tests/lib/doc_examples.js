// doc_examples.js -- the examples of command output in the docs, and
// their shape, for tests/e2e/docs_examples.test.js.
//
// An example is a fenced block right after a tag line (an HTML comment: a
// rendered page shows nothing of it):
//
//   <!-- example output: `emheap top profile.json --since warm`, profile.json from marks_rounds.dlmalloc -->
//   ```
//   allocated since mark #1 "warm" (at 0.004 s) and still live: ...
//   ```
//
// The tag names the command line as the doc shows it, in backquotes, and
// for a command that reads a file, the test program whose snapshot that
// file is (build/tests/NAME.js, a program that prints SNAPSHOT {...}).
//
// The shape of a block: each of its lines becomes a pattern, and the
// output must hold the block's lines one after the other (a block may
// show a part of the output). Numbers (with their units: a rate or a size
// may come out in other units on another run) and names match any number
// and any name; the rest is literal:
// - a table's column titles ("#  live bytes ... function  stack") are
//   words, compared as they are: `function` is not `site`;
// - a ranked row ("1  768.00 KiB  ...  grow_list  grow_list < main") is
//   cut into cells at runs of two or more spaces, as cli/table.js joins
//   them; a cell of numbers keeps its shape ("N KiB (N B)"), a cell of
//   words is a name, and a name is a call site key ("grow_list+0x485")
//   exactly where the doc's is one: a row by function does not match a
//   row by site, nor the other way;
// - other lines (headers, `check`'s lines) are literal but for their
//   numbers, call site offsets and shortened tokens ("3f9c…e1").
'use strict';

const fs = require('fs');

const TAG = /^<!-- example output: `([^`]+)`(?:, (\S+) from ([\w.-]+))? -->$/;
// What command output looks like, for finding a block left untagged: a
// table of `top`, a header of one of its views, `check`, `serve`.
const LOOKS_LIKE_OUTPUT = /\(leaf first\)|^from mark #|^allocated since mark|^temporary allocations|^emheap: (OK|budget exceeded)|^emheap serve:/m;

// The tagged examples of a markdown file, and the bare blocks that look
// like command output but carry no tag.
function readExamples(file) {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const examples = [];
  const untagged = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```/.test(lines[i])) continue;
    const bare = lines[i] === '```';
    const start = i;
    let end = i + 1;
    while (end < lines.length && lines[end] !== '```') end++;
    const block = lines.slice(start + 1, end);
    const tag = TAG.exec(lines[start - 1] || '');
    if (tag && bare) {
      examples.push({file, line: start + 1, command: tag[1], fileName: tag[2] || null, program: tag[3] || null, block});
    } else if (bare && LOOKS_LIKE_OUTPUT.test(block.join('\n'))) {
      untagged.push({file, line: start + 1});
    }
    i = end;
  }
  return {examples, untagged};
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const NUMBER = '[+-]?~?\\d+(?:,\\d{3})*(?:\\.\\d+)?';
const UNIT = '(?:B|KiB|MiB|GiB|TiB)';
const SITE_OFFSET = '\\+0x[0-9a-f]+';
// a call site offset | a token shortened in the middle | a number, with its unit
const TOKEN = /(\+0x[0-9a-f]+)|([0-9A-Za-z_-]+…[0-9A-Za-z_-]+)|((?<![\w.])[+-]?~?\d+(?:,\d{3})*(?:\.\d+)?(?!\w))( (?:B|KiB|MiB|GiB|TiB)\b)?/g;
// A name: words with single spaces ("std::map<int, std::string>", "a < b"),
// nowhere a call site offset.
const NAME = `\\S(?:(?!${SITE_OFFSET}) ?\\S)*`;
const SITE_KEY = `\\S(?: ?\\S)*?${SITE_OFFSET}`;

// A line's text as a pattern: numbers, offsets and shortened tokens as
// what they stand for, runs of spaces (alignment) as two or more.
// A count's word after a number may be singular in the output ("0 blocks"
// in the doc, "1 block" in a run).
function textPattern(text) {
  let out = '';
  let last = 0;
  let afterNumber = false;
  const counted = (chunk) => (afterNumber ? chunk.replace(/^( [a-z]+)s\b/, '$1s?') : chunk);
  for (const m of text.matchAll(TOKEN)) {
    out += counted(literal(text.slice(last, m.index)));
    afterNumber = !m[1] && !m[2] && !m[4];
    if (m[1]) out += SITE_OFFSET;
    else if (m[2]) out += '[0-9A-Za-z_-]+';
    else out += NUMBER + (m[4] ? ` ${UNIT}` : '');
    last = m.index + m[0].length;
  }
  return out + counted(literal(text.slice(last)));
}
const literal = (text) => escape(text).replace(/ {2,}/g, ' {2,}');

// A cell of numbers: nothing but numbers, units and the words of a count
// ("9/10 parts", "+6.47 MiB/s", "329.20 KiB / 5,000", ".").
const isNumbers = (cell) => !/[A-Za-z_]/.test(cell.replace(TOKEN, '').replace(/\bparts\b|\/s\b/g, ''));

function cellPattern(cell) {
  if (new RegExp(SITE_OFFSET).test(cell)) return SITE_KEY;
  return isNumbers(cell) ? textPattern(cell) : NAME;
}

// One line of a doc's block -> the RegExp an output line must match.
function linePattern(line) {
  const cells = line.trim().split(/ {2,}/);
  let body;
  if (/^ *# {2,}\S/.test(line)) body = cells.map(escape).join(' {2,}');
  else if (/^ *\d+ {2,}\S/.test(line)) body = cells.map(cellPattern).join(' {2,}');
  else return new RegExp(`^${textPattern(line)}$`);
  // (a table's rank column is right-aligned: row 10 moves row 1 right)
  return new RegExp(`^ *${body}$`);
}

// Where the output holds the block's lines one after another -> {at}; or
// {mismatch}: the closest start, the block's first line that differs
// there, the output's line and the pattern.
function findBlock(block, output) {
  const patterns = block.map((l) => linePattern(l.trimEnd()));
  const lines = output.split('\n').map((l) => l.trimEnd());
  let best = {matched: -1};
  for (let at = 0; at + patterns.length <= lines.length; at++) {
    let matched = 0;
    while (matched < patterns.length && patterns[matched].test(lines[at + matched])) matched++;
    if (matched === patterns.length) return {at};
    if (matched > best.matched) best = {matched, at};
  }
  if (best.matched < 0) return {mismatch: `the output has fewer lines (${lines.length}) than the block (${block.length})`};
  const j = best.matched;
  return {mismatch: best.matched === 0 && !lines.some((l) => patterns[0].test(l))
    ? `no line of the output is like the block's first line\n  doc:     ${block[0]}\n  pattern: ${patterns[0]}`
    : `from output line ${best.at + 1}, the block's line ${j + 1} differs\n  doc:     ${block[j]}\n  output:  ${lines[best.at + j]}\n  pattern: ${patterns[j]}`};
}

// Whether the doc shows the command: its words, but the file's name, in
// the doc's text outside comments, wherever the lines break (a file name
// in the text may be any *.json: profile.speedscope.json...).
function isDocumented(markdown, command, fileName) {
  const words = (text) => text.split(/\s+/).filter((w) => w && w !== fileName && !/\.json$/.test(w)).join(' ');
  const text = words(markdown.replace(/<!--[\s\S]*?-->/g, ' ').replace(/`/g, ' '));
  return ` ${text} `.includes(` ${words(command)} `);
}

module.exports = {readExamples, linePattern, findBlock, isDocumented};
