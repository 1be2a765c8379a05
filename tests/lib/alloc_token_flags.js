#!/usr/bin/env node
// alloc_token_flags.js -- for an emcc whose clang has no
// -fsanitize=alloc-token (Emscripten 3.1.x: clang 14): the -D flags with
// which tests/runtime/alloc_types.cpp makes by hand the calls that clang
// makes with the flag, each type's token computed as clang computes it
// (symbolize/alloc_types.js, checked against clang's own published values
// and against the tokens clang 22 gave this program's types, in
// tests/alloc_types.test.js).
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

// -> [{macro, name, pointers, token}]: what the hand route passes for each
// type (tests/alloc_types.test.js checks them against real clang 22's,
// tests/fixtures/alloc_tokens/clang-22.json).
function handTokens() {
  return TYPES.map(([macro, name, pointers]) => ({macro, name, pointers, token: tokensOf(name)[pointers ? 1 : 0]}));
}

if (require.main === module) {
  process.stdout.write(handTokens().map(({macro, token}) => `-D${macro}=${token}u`).join(' ') + '\n');
}

module.exports = {handTokens};
