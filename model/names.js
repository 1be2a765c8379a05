// names.js: frames and site keys as a person reads them in a terminal or a
// console (the leak report, `emheap top`, `emheap diff`). One place, so a
// frame reads the same whatever made it (a stack on the main thread or a
// worker, a file of an older version) and whoever prints it. Files and
// --json keep the full names; only text for people is shortened.
'use strict';

// "leak_memory leaky.c:42" when the frame has a source location, else its
// name. The wasm module is left out: in one app it is the same on every
// frame.
function frameText(frame, short) {
  var name = (short ? shortName(frame.name) : frame.name) + (frame.recursive ? ' (recursive)' : '');
  if (frame.file !== undefined && frame.file !== '') {
    return name + ' ' + frame.file + (frame.line !== undefined ? ':' + frame.line : '');
  }
  return name;
}

// A C++ name without what makes it unreadable in a table: libc++'s ABI
// namespace (std::__2:: -> std::), template arguments (<...> -> <…>) and
// parameter lists ((...) -> ()). "operator<" and friends, and
// "(anonymous namespace)", are kept. Other names come back as they are.
function shortName(name) {
  if (typeof name !== 'string' || (name.indexOf('<') < 0 && name.indexOf('(') < 0 && name.indexOf('::__') < 0)) {
    return name;
  }
  var s = name.replace(/\bstd::__[0-9a-z]+::/g, 'std::');
  var out = '';
  var i = 0;
  while (i < s.length) {
    var c = s.charAt(i);
    if (c === '<' && !/operator\s*<*$/.test(out) && !/operator-$/.test(out)) {
      var end = closing(s, i, '<', '>');
      if (end > 0) {
        out += '<…>';
        i = end + 1;
        continue;
      }
    } else if (c === '(' && s.substr(i, 21) !== '(anonymous namespace)' && !/operator$/.test(out)) {
      var close = closing(s, i, '(', ')');
      if (close > 0) {
        out += close > i + 1 ? '(…)' : '()';
        i = close + 1;
        continue;
      }
    }
    out += c;
    i++;
  }
  return out;
}

// Index of the bracket that closes the one at `open`, or -1 (unbalanced:
// then the name is left as it is from there). Inside <>, "->" and the
// brackets of a nested operator<< are rare enough to ignore.
function closing(s, open, left, right) {
  var depth = 0;
  for (var i = open; i < s.length; i++) {
    var c = s.charAt(i);
    if (c === left) depth++;
    else if (c === right) {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

// A site's key: its leaf frame, precise enough to tell two calls in one
// function apart: the wasm call offset when known ("f+0x1a2b"), the JS
// line and column, else the function (frames known by function only).
function siteKey(frame) {
  if (!frame) return '(unattributed)';
  if (frame.offset !== undefined) return frame.name + '+0x' + frame.offset.toString(16);
  if (frame.line !== undefined && frame.file !== undefined && frame.col !== undefined) {
    return frame.name + ' ' + frame.file + ':' + frame.line + ':' + frame.col;
  }
  return frame.name;
}

module.exports = {frameText: frameText, shortName: shortName, siteKey: siteKey};
