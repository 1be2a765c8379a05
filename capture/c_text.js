// c_text.js -- text in linear memory: UTF-8 read out of it (a C string,
// a fixed-size name) and written into it, cut at a character to fit.
'use strict';

// UTF-8 bytes -> text; a byte that is not UTF-8 reads as U+FFFD.
// (TextDecoder refuses views of shared memory, hence the copy above.)
function utf8Text(bytes) {
  return new TextDecoder().decode(bytes);
}

// The NUL-terminated UTF-8 text at `at` in the memory (a name or a format a
// C call passed). (A copy first: TextDecoder refuses shared memory.)
function cString(buffer, at) {
  var bytes = new Uint8Array(buffer);
  var end = at;
  while (end < bytes.length && bytes[end]) end++;
  return utf8Text(bytes.slice(at, end));
}

// text -> its UTF-8 bytes, cut at a character to at most max bytes (a mark's
// name, a message written for C).
function utf8Prefix(text, max) {
  var bytes = new TextEncoder().encode(text);
  if (bytes.length <= max) return bytes;
  var n = max;
  while (n > 0 && (bytes[n] & 0xC0) === 0x80) n--; // not inside a character
  return bytes.subarray(0, n);
}

module.exports = {utf8Text: utf8Text, cString: cString, utf8Prefix: utf8Prefix};
