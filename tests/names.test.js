// names.test.js -- model/names.js: one frame format whatever the stack
// source, and C++ names shortened for terminals.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const {baseName, frameText, shortName} = require('../model/names');

test('a frame reads "name file:line" or "name", with a line or known by its function only', () => {
  assert.equal(frameText({name: 'native_cache', file: 'qhost.c', line: 16, module: 'qhost.wasm', offset: 0x1fb}), 'native_cache qhost.c:16');
  // a frame known by its function: no call offset, so no line
  assert.equal(frameText({name: 'native_cache', module: 'qhost.wasm', funcIndex: 7}), 'native_cache');
  assert.equal(frameText({name: 'f', file: 'a.c'}), 'f a.c');
  assert.equal(frameText({name: 'std::__2::vector<int, std::__2::allocator<int> >::push_back(int const&)', file: 'v.h', line: 3}, true),
    'std::vector<…>::push_back(…) v.h:3');
});

test('C++ names lose ABI namespaces, template arguments and parameters; the rest stays', () => {
  const cases = {
    'std::__2::vector<int, std::__2::allocator<int> >::push_back(int const&)': 'std::vector<…>::push_back(…)',
    'nlohmann::json_abi_v3_11_2::basic_json<std::map, std::vector, std::__2::basic_string<char, std::__2::char_traits<char>, std::__2::allocator<char> >, bool, long long, unsigned long long, double, std::allocator, nlohmann::json_abi_v3_11_2::adl_serializer, std::__2::vector<unsigned char, std::__2::allocator<unsigned char> >, void>::basic_json(std::nullptr_t)':
      'nlohmann::json_abi_v3_11_2::basic_json<…>::basic_json(…)',
    'operator new(unsigned long)': 'operator new(…)',
    'Foo::operator<(Foo const&) const': 'Foo::operator<(…) const',
    'Foo::operator<<(std::__2::ostream&)': 'Foo::operator<<(…)',
    'Foo::operator()(int)': 'Foo::operator()(…)',
    'Foo::operator->() const': 'Foo::operator->() const',
    '(anonymous namespace)::parse(char const*)': '(anonymous namespace)::parse(…)',
    'main': 'main',
    'leak_memory+0x1a2b': 'leak_memory+0x1a2b',
    'std::__2::unique_ptr<Node, std::__2::default_delete<Node> > std::__2::make_unique<Node>()+0x40': 'std::unique_ptr<…> std::make_unique<…>()+0x40',
    'onclick http://127.0.0.1:8000/index.html:22:66': 'onclick http://127.0.0.1:8000/index.html:22:66',
    'broken<unbalanced(': 'broken<unbalanced(',
  };
  for (const [name, want] of Object.entries(cases)) assert.equal(shortName(name), want, name);
  assert.equal(shortName(undefined), undefined);
});

test("a function's unqualified name, as DWARF's DW_AT_name holds it, or null when the name does not say", () => {
  const cases = {
    'std::__2::vector<int, std::__2::allocator<int>>::push_back[abi:ne200100](int const&)': 'push_back',
    'push_back': 'push_back',
    'emplace_back<int const&>': 'emplace_back',
    'use_string(int)': 'use_string',
    '(anonymous namespace)::helper(int)': 'helper',
    'main::$_0::operator()() const': 'operator()',
    'operator()': 'operator()',
    'operator new(unsigned long, std::align_val_t)': 'operator new',
    'operator<(A const&, A const&)': 'operator<',
    // Emscripten's names for main, and the linker's copies
    '__original_main': 'main',
    '__main_argc_argv': 'main',
    'helper.llvm.4711': 'helper',
    'helper.1': 'helper',
  };
  for (const [name, base] of Object.entries(cases)) assert.equal(baseName(name), base, name);
  for (const name of ['_Z10use_stringi', 'wasm-function[12]', '', undefined]) assert.equal(baseName(name), null, String(name));
});
