// names.js: frames and site keys as a person reads them in a terminal or a
// console (the leak report, `emheap top`, `emheap diff`). One place, so a
// frame reads the same whatever made it (a stack on the main thread or a
// worker, a file of an older version) and whoever prints it. Files and
// --json keep the full names; only text for people is shortened.
'use strict';

var UNATTRIBUTED = require('./snapshot_file').UNATTRIBUTED;

// The unqualified name of a function, as DWARF's DW_AT_name holds it:
// "std::__2::vector<int>::push_back[abi:ne200100](int const&)" and
// "push_back" both give "push_back", "main::$_0::operator()() const"
// gives "operator()". Emscripten's own names for main (__original_main,
// __main_argc_argv, __main_void) give "main", and the linker's suffixes
// for copies of a function (".llvm.123", ".1") are dropped. null for a name
// that says nothing of its function (a mangled one, wasm-function[N]).
function baseName(name) {
  if (typeof name !== 'string' || !name || /^_Z|^wasm-function\[/.test(name)) return null;
  if (/^__(original_main|main_argc_argv|main_void)$/.test(name)) return 'main';
  var s = abbreviated(name).replace(/ const$/, '').replace(/(\.llvm)?\.\d+$/, '');
  var params = /\((…)?\)$/.exec(s); // "operator()" keeps its own "()"
  if (params && !/operator$/.test(s.slice(0, params.index))) s = s.slice(0, params.index);
  s = s.replace(/\[abi:[^\]]*\]$/, '').replace(/<…>$/, '');
  var cut = s.lastIndexOf('::');
  return cut >= 0 ? s.slice(cut + 2) : s;
}

// "leak_memory leaky.c:42" when the frame has a source location, else its
// name; "leaky.c:~42" for a line inferred from the row before the call's
// (symbolize/source_map.js). The wasm module is left out: in one app it
// is the same on every frame.
function frameText(frame, short) {
  var name = (short ? shortName(frame.name) : frame.name) + (frame.recursive ? ' (recursive)' : '');
  if (frame.file !== undefined && frame.file !== '') {
    return name + ' ' + frame.file + lineText(frame);
  }
  return name;
}

// ":42", ":~42" (inferred), or '' without a line.
function lineText(frame) {
  if (frame.line === undefined) return '';
  return ':' + (frame.lineInferred ? '~' : '') + frame.line;
}

// A C++ name without what makes it unreadable in a table: libc++'s ABI
// namespace (std::__2:: -> std::), template arguments (<...> -> <…>) and
// parameter lists ((...) -> ()): a parenthesis right after a name.
// "operator<" and friends, "(anonymous namespace)" and emheap's own
// "(unattributed)", "(stack truncated)" are kept. A name with no
// parameter list is no function's but a type's (a view by type,
// model/grouping.js): its template arguments are what tells
// std::vector<Foo> from std::vector<Bar>, and stay. Other names come back
// as they are.
function shortName(name) {
  if (typeof name === 'string' && name.indexOf('(') < 0) return name.replace(/\bstd::__[0-9a-z]+::/g, 'std::');
  return abbreviated(name);
}

// shortName's abbreviations, on every name.
function abbreviated(name) {
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
    } else if (c === '(' && out.length && !/[\s(]$/.test(out) && !/operator$/.test(out)) {
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
  if (!frame) return UNATTRIBUTED;
  if (frame.offset !== undefined) return frame.name + '+0x' + frame.offset.toString(16);
  if (frame.line !== undefined && frame.file !== undefined && frame.col !== undefined) {
    return frame.name + ' ' + frame.file + ':' + frame.line + ':' + frame.col;
  }
  return frame.name;
}

module.exports = {baseName: baseName, frameText: frameText, lineText: lineText, shortName: shortName, siteKey: siteKey};
