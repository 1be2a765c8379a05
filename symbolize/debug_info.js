// debug_info.js -- finds a module's function names and source lines, from
// its own custom sections: the name section, DWARF in the module (emcc
// -g), a separate DWARF file (-gseparate-dwarf: "external_debug_info" names
// it) or a source map (-gsource-map: "sourceMappingURL"); without a name
// section, a symbol map (emcc --emit-symbol-map) beside it. DWARF wins
// where there are both: it knows which lines belong to inlined code
// (dwarf.js). A module without such a section never has anything
// requested: no 404s.
//
// Under node the files are read at once (host.fs); a page fetches them
// (host.fetch) in the background. jslib/environment.js hands in
// the host's pieces and keeps the result.
'use strict';

var sections = require('./wasm_sections');
var dwarf = require('./dwarf');
var sourceMap = require('./source_map');
var symbolMap = require('./symbol_map');
var readOnlyData = require('./read_only_data').readOnlyData;
var allocTypes = require('./alloc_types');

// What one load found: {functionNames, sourceLines, allocTypes} (any may be null)
// and readOnlyData (read_only_data.js: ranges, or why they are unknown);
// moduleRead: whether the module's bytes were read at all,
// filled in by the readers below; warn(message) for a file that is there
// but unreadable.
function Found(warn) {
  this.functionNames = null;
  this.sourceLines = null;
  this.allocTypes = null; // alloc_types.js: the types allocation tokens stand for (DWARF only)
  this.codeStart = -1;
  this.bodyStarts = null; // where the functions start: a source map's lookup keeps to one
  this.readOnlyData = {unknown: "the module's bytes could not be read"};
  this.moduleRead = false;
  this.warn = warn;
}

// The module's bytes -> what else to read: {dwarf, map} URLs (or '').
Found.prototype.useModule = function (bytes) {
  var custom = sections.customSections(bytes);
  this.functionNames = custom.name ? sections.functionNames(custom) : null;
  this.codeStart = sections.codeSectionStart(bytes);
  this.bodyStarts = sections.functionBodyStarts(bytes);
  this.readOnlyData = readOnlyData(bytes);
  this.moduleRead = true;
  if (custom['.debug_info'] && this.useDwarf(custom)) return {dwarf: '', map: ''};
  return {dwarf: sections.externalDebugInfoURL(custom), map: sections.sourceMappingURL(custom)};
};

Found.prototype.useDwarf = function (custom) {
  try {
    this.sourceLines = dwarf.parseDwarf(custom, this.codeStart, sourceMap.cleanPath);
    if (this.sourceLines) this.allocTypes = allocTypes.allocTypeNames(this.sourceLines.typeNames);
  } catch (e) {
    this.warn('emheap: ignoring the DWARF debug info: ' + (e && e.message || e));
  }
  return !!this.sourceLines;
};

Found.prototype.useDwarfFile = function (bytes) {
  try {
    return this.useDwarf(sections.customSections(bytes));
  } catch (e) {
    this.warn('emheap: ignoring the DWARF file: ' + (e && e.message || e));
    return false;
  }
};

Found.prototype.useSymbols = function (text) {
  try {
    this.functionNames = symbolMap.parseSymbolMap(text);
  } catch (e) {
    this.warn('emheap: ignoring the symbol map: ' + (e && e.message || e));
  }
};

Found.prototype.useMap = function (text) {
  try {
    this.sourceLines = sourceMap.parseSourceMap(JSON.parse(text), this.bodyStarts);
  } catch (e) {
    this.warn('emheap: ignoring the source map: ' + (e && e.message || e));
  }
};

Found.prototype.result = function () {
  return {functionNames: this.functionNames, sourceLines: this.sourceLines, allocTypes: this.allocTypes,
    readOnlyData: this.readOnlyData,
    moduleRead: this.moduleRead};
};

// The module's bytes in hand (-sSINGLE_FILE): names and DWARF inside it,
// nothing beside it to read.
function fromBytes(bytes, warn) {
  var found = new Found(warn);
  try {
    found.useModule(bytes);
  } catch (e) {
    // an unreadable module: frames carry no names or lines
  }
  return found.result();
}

// Whether a module's bytes hold or name debug info (DWARF, a separate
// DWARF file, a source map): a side module without any is not read again
// (contexts/side_modules.js).
function hasDebugInfo(bytes) {
  var custom = sections.customSections(bytes);
  return !!(custom['.debug_info'] || custom.external_debug_info || custom.sourceMappingURL);
}

// Under node: the module at `file` and what lies beside it, read at once.
// host: {fs, path, argv, warn}. bytes (optional): the module's bytes, in
// hand (a side module's): the file itself is then not read.
function fromFile(file, host, bytes) {
  var found = new Found(host.warn);
  var fs = host.fs;
  var nodePath = host.path;
  try {
    // A pthread worker of 3.1.x keeps the name as linked ("./app.wasm",
    // and its scriptDirectory is "./"): the module is beside the program
    // node was started with, which a worker thread shares (process.argv),
    // not in the working directory.
    if (!nodePath.isAbsolute(file) && !fs.existsSync(file) && host.argv && host.argv[1]) {
      file = nodePath.resolve(nodePath.dirname(host.argv[1]), file);
    }
    var beside = function (rel) { return nodePath.resolve(nodePath.dirname(file), rel); };
    var more = found.useModule(bytes || fs.readFileSync(file));
    if (more.dwarf && fs.existsSync(beside(more.dwarf))) found.useDwarfFile(fs.readFileSync(beside(more.dwarf)));
    if (more.map && !found.sourceLines) found.useMap(fs.readFileSync(beside(more.map), 'utf8'));
    var symbolsFile = symbolMap.symbolMapPathFor(file);
    if (!found.functionNames && fs.existsSync(symbolsFile)) found.useSymbols(fs.readFileSync(symbolsFile, 'utf8'));
  } catch (e) {
    // no readable wasm or map: frames simply carry no file and line
  }
  return found.result();
}

// In a page: the module at `base` (an absolute URL) and what lies beside
// it, fetched. host: {fetch, warn}. moduleBytes (optional): as fromFile's.
// A promise of the result; never rejects.
function fromUrl(base, host, moduleBytes) {
  var found = new Found(host.warn);
  var fetch = host.fetch;
  var text = function (r) { return r.ok ? r.text() : null; };
  var bytes = function (r) { return r.ok ? r.arrayBuffer() : null; };
  var module = moduleBytes ? Promise.resolve(moduleBytes) : fetch(base).then(bytes);
  return module.then(function (buf) {
    var more = buf ? found.useModule(new Uint8Array(buf)) : {dwarf: '', map: ''};
    var symbols = buf && !found.functionNames
      ? fetch(new URL(symbolMap.symbolMapPathFor(base), base).href).then(text).then(function (t) {
        if (t) found.useSymbols(t);
      }).catch(function () {}) : null;
    var dwarfFile = more.dwarf ? fetch(new URL(more.dwarf, base).href).then(bytes).then(function (b) {
      return b ? found.useDwarfFile(new Uint8Array(b)) : false;
    }).catch(function () { return false; }) : Promise.resolve(false);
    // The source map only where DWARF gave nothing.
    var map = dwarfFile.then(function (haveDwarf) {
      if (haveDwarf || !more.map) return null;
      return fetch(new URL(more.map, base).href).then(text).then(function (t) {
        if (t) found.useMap(t);
      });
    });
    return Promise.all([symbols, map]);
  }).catch(function () {}).then(function () { return found.result(); });
}

module.exports = {fromBytes: fromBytes, fromFile: fromFile, fromUrl: fromUrl, hasDebugInfo: hasDebugInfo};
