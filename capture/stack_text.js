// stack_text.js -- `Error().stack` text of any engine -> frames, leaf first,
// in the shape v8_stack.parseFrameLine gives. The text path of
// stack_table.js: engines without V8's structured call sites, and V8 when an
// app replaced them.
//
// V8 text is recognized by its "    at " lines; anything else is read as
// Firefox's NAME@LOCATION lines (gecko_stack.js). Deciding once per text,
// not per line, keeps a V8 message that happens to hold an "@" from being
// read as a frame.
'use strict';

var v8 = require('./v8_stack');
var gecko = require('./gecko_stack');

var V8_FRAME_LINE = /^\s*at /m;

function parseStackText(text) {
  var s = String(text);
  var parseLine = V8_FRAME_LINE.test(s) ? v8.parseFrameLine : gecko.parseGeckoFrameLine;
  var lines = s.split('\n');
  var frames = [];
  for (var i = 0; i < lines.length; i++) {
    var f = parseLine(lines[i]);
    if (f) frames.push(f);
  }
  return frames;
}

module.exports = {parseStackText: parseStackText};
