// own_instantiate.js -- a --pre-js that gives the program a
// Module.instantiateWasm of its own (node), as an app that loads its module
// itself does: emheap must leave the module alone, and say what exact mode
// then costs (tests/e2e/contexts.test.js).
Module['instantiateWasm'] = function (imports, receiveInstance) {
  var bytes = require('fs').readFileSync(require('path').join(__dirname, 'contexts.own.wasm'));
  WebAssembly.instantiate(bytes, imports).then(function (r) { receiveInstance(r.instance, r.module); });
  return {};
};
