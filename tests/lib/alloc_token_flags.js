#!/usr/bin/env node
// alloc_token_flags.js -- for an emcc whose clang has no
// -fsanitize=alloc-token (Emscripten 3.1.x: clang 14): the -D flags with
// which tests/runtime/alloc_types.cpp makes by hand the calls that clang
// makes with the flag, each type's token computed as clang computes it
// (symbolize/alloc_types.js, checked against clang's own published values
// in tests/alloc_types.test.js).
'use strict';

const {tokensOf} = require('../../symbolize/alloc_types');

// The types the program allocates: [macro, name as clang prints it, holds pointers].
const TYPES = [
  ['TOKEN_CIRCLE', 'shapes::Circle', true],
  ['TOKEN_PARTICLE', 'Particle', false],
  ['TOKEN_STRING', 'std::string', true],
  ['TOKEN_MAP', 'std::map<int, std::string>', true],
  ['TOKEN_ONLY_NEWED', 'OnlyNewed', false],
];

process.stdout.write(TYPES.map(([macro, name, pointers]) => `-D${macro}=${tokensOf(name)[pointers ? 1 : 0]}u`).join(' ') + '\n');
