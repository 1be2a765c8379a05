// gecko_stack.js -- parse Firefox (SpiderMonkey) `Error().stack` text into
// the frames v8_stack.js makes, so that JS stacks work in Firefox too.
//
// Pure functions, embedded into the --js-library by jslib/bundle.js. Firefox
// has no structured call sites (its Error.captureStackTrace gives text), so
// stack_table.js reads this text, through stack_text.js. One frame per line,
// NAME@LOCATION, as Firefox 153 prints them (tests/gecko_stack.test.js):
//   leak_memory@http://host/app.wasm:wasm-function[7]:0x1fb     wasm
//   Module._leak_memory@http://host/app.js:4785:81                JS
//   @http://host/app.js:10:20                                     JS, anonymous
//   f@http://host/app.js line 5 > eval:1:8                        eval'd code
//   async*load@http://host/app.js:3:1                             async caller
// NAME is SpiderMonkey's display name: "outer/inner", "obj.method", and
// "f/<" for an anonymous function inside f.
'use strict';

var frameFromLocation = require('./v8_stack').frameFromLocation;

// "URL line N > eval" and "URL line N > Function": code made by eval or
// new Function; its own position follows. V8 calls such a script <anonymous>.
var EVAL_URL = / line \d+ > (eval|Function)$/;

// One stack line -> {name, url, wasm, funcIndex, offset, line, col}, or
// null for lines that are not frames (blank, or no "@").
function parseGeckoFrameLine(text) {
  var s = String(text).trim();
  if (s.indexOf('async*') === 0) s = s.slice(6);
  // The name never holds "@" (JS and wasm name-section names do not); a URL may.
  var at = s.indexOf('@');
  if (at < 0) return null;
  var frame = frameFromLocation(s.slice(0, at), s.slice(at + 1));
  if (!frame.wasm && EVAL_URL.test(frame.url)) frame.url = '<anonymous>';
  return frame;
}

module.exports = {
  parseGeckoFrameLine: parseGeckoFrameLine,
};
