// module_source.js -- where the app's .wasm is, and its bytes as Emscripten
// would load them: Module.wasmBinary, inline bytes (-sSINGLE_FILE), the
// file (node) or the URL (a page). The calling-context rewrite needs the
// bytes before they are compiled; debug info and frame names need where
// they came from.
//
// host (from the library): {wasmBinary() (Emscripten's variable of that
// name, or undefined), wasmBinaryFile() (what Emscripten says the module's
// file is, in any of its forms)}; env: jslib/environment.js.
'use strict';

// Where the module's bytes are: a URL or file name (a data: URL with
// 3.1.x's -sSINGLE_FILE), the bytes themselves (a Uint8Array: 4.x's
// SINGLE_FILE), or '' when unknown.
function wasmSource(host) {
  var src = host.wasmBinaryFile();
  if (typeof src === 'string') return src;
  if (src && ArrayBuffer.isView(src)) return new Uint8Array(src.buffer, src.byteOffset, src.byteLength);
  if (src instanceof ArrayBuffer) return new Uint8Array(src);
  return '';
}

// A base64 data: URL's bytes, or null for any other URL (or where there is
// neither Buffer nor atob to decode it).
function inlineBytes(url) {
  if (!/^data:[^,]*;base64,/.test(url)) return null;
  var b64 = url.slice(url.indexOf(',') + 1);
  if (typeof Buffer === 'function') return new Uint8Array(Buffer.from(b64, 'base64'));
  if (typeof atob !== 'function') return null;
  var bin = atob(b64);
  var out = new Uint8Array(bin.length);
  for (var i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

// The source with a data: URL decoded: bytes, a file name or URL, or ''.
function bytesOrLocation(host) {
  var source = wasmSource(host);
  if (typeof source === 'string') source = inlineBytes(source) || source;
  return source;
}

// The name shown for frames whose stack line has no file (wasm://wasm/hash).
function moduleName(host) {
  var file = wasmSource(host);
  if (typeof file !== 'string' || !file || file.indexOf('data:') === 0) return 'wasm';
  file = file.split(/[?#]/)[0];
  return file.slice(file.lastIndexOf('/') + 1);
}

// A promise of the module's bytes (a Uint8Array). Emscripten keeps
// Module.wasmBinary in a variable of that name (host.wasmBinary), and with
// ASSERTIONS aborts on a later read of the Module property.
function moduleBytes(host, env) {
  var given = host.wasmBinary();
  if (given) return Promise.resolve(new Uint8Array(given.buffer || given, given.byteOffset || 0, given.byteLength));
  var source = bytesOrLocation(host);
  if (typeof source !== 'string') return Promise.resolve(source);
  if (!source) return Promise.reject(new Error('where the module is is not known'));
  return env.moduleFileBytes(source);
}

module.exports = {wasmSource: wasmSource, inlineBytes: inlineBytes, bytesOrLocation: bytesOrLocation,
  moduleName: moduleName, moduleBytes: moduleBytes};
