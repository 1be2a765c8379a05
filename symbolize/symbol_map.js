// symbol_map.js -- reads the symbol map that `emcc --emit-symbol-map`
// writes next to the JS (`app.js.symbols`: one "functionIndex:name" per
// line). Used for function names when the wasm has no name section.
'use strict';

function parseSymbolMap(text) {
  var names = {};
  var count = 0;
  String(text).split('\n').forEach(function (line) {
    var m = /^(\d+):(.+)$/.exec(line.trim());
    if (m) {
      // emcc escapes characters outside [A-Za-z0-9_.$] as \XX (hex).
      names[Number(m[1])] = m[2].replace(/\\([0-9a-fA-F]{2})/g, function (_, hex) {
        return String.fromCharCode(parseInt(hex, 16));
      });
      count++;
    }
  });
  if (!count) throw new Error('not a symbol map (expected "index:name" lines)');
  return names;
}

// app.wasm -> app.js.symbols (what emcc names it for -o app.js or app.html).
function symbolMapPathFor(wasmPath) {
  return String(wasmPath).split(/[?#]/)[0].replace(/\.wasm$/, '') + '.js.symbols';
}

module.exports = {parseSymbolMap: parseSymbolMap, symbolMapPathFor: symbolMapPathFor};
