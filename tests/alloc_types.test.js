// alloc_types.test.js -- naming clang's allocation tokens
// (symbolize/alloc_types.js): the hash against clang's own published
// values, DWARF's spellings turned into clang's, and the sites of a view by
// type (model/grouping.js) and of merged sites (model/site_counters.js).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const {sipHash24, tokensOf, clangSpelling, preferredNames, allocTypeNames} = require('../symbolize/alloc_types');
const {groupSnapshot} = require('../model/grouping');
const {addSiteCounters, copyAllocType} = require('../model/site_counters');
const {handTokens} = require('./lib/alloc_token_flags');
// The tokens real clang 22 passes in tests/runtime/alloc_types.cpp
// (tests/fixtures/alloc_tokens/make_fixture.js says how they were made).
const CLANG = require('./fixtures/alloc_tokens/clang-22.json');

test("the type hash is clang's: its published values, and its wasm32 tokens", () => {
  // clang/test/SemaCXX/builtin-infer-alloc-token.cpp, -falloc-token-mode=typehash
  // ("these are guaranteed to be stable"): the 64-bit hash of the type's name
  assert.equal(sipHash24('int'), 2689373973731826898n);
  assert.equal(sipHash24('char *'), 2250492667400517147n);
  assert.equal(sipHash24('NoPtr'), 7465259095297095368n);
  assert.equal(sipHash24('WithPtr'), 11898882936532569145n);
  // wasm32 tokens: those clang 22 gave each type of a program, by its name
  // and whether it holds pointers
  const typed = CLANG.calls.filter((c) => c.type !== undefined);
  assert.ok(typed.some((c) => c.pointers) && typed.some((c) => !c.pointers), JSON.stringify(CLANG.calls));
  for (const c of typed) assert.equal(tokensOf(c.type)[c.pointers ? 1 : 0], c.token, `${c.type} (${c.function})`);
  // a name that is not ASCII is hashed as UTF-8, as clang's StringRef holds it
  assert.notEqual(sipHash24('Größe'), sipHash24('Grosse'));
});

test("the hand route (Emscripten 3.1.x) passes each type of the program clang 22's token for it", () => {
  // each type as clang named it, its pointers and its token, and no type of
  // clang's left out
  const real = new Map(CLANG.calls.filter((c) => c.type !== undefined).map((c) => [c.type, c]));
  const hand = handTokens();
  assert.deepEqual(hand.map((t) => t.name).sort(), [...real.keys()].sort());
  for (const t of hand) {
    assert.deepEqual({pointers: t.pointers, token: t.token}, {pointers: real.get(t.name).pointers, token: real.get(t.name).token},
      `${t.macro} (${t.name})`);
  }
  // where clang tells no type it passes 0, as the program's MALLOC_BYTES does
  assert.ok(CLANG.calls.some((c) => /^make_untyped\b/.test(c.function) && c.type === undefined && c.token === 0));
});

test("DWARF's spellings become clang's: inline namespaces, default arguments, preferred names, >>", () => {
  const aliases = new Map([
    ['std::__2::string', 'std::__2::basic_string<char, std::__2::char_traits<char>, std::__2::allocator<char> >'],
    ['FooAlias', 'Foo'], // a user's typedef is no preferred name: clang names what it stands for
    ['std::__2::size_t', 'unsigned long'],
  ]);
  const preferred = preferredNames(aliases);
  assert.deepEqual([...preferred], [['std::basic_string<char>', 'std::string']]);
  const spell = (n) => clangSpelling(n, preferred);
  assert.equal(spell('std::__2::vector<Foo, std::__2::allocator<Foo> >'), 'std::vector<Foo>');
  assert.equal(spell('std::__2::basic_string<char, std::__2::char_traits<char>, std::__2::allocator<char> >'), 'std::string');
  assert.equal(spell('std::__2::map<int, std::__2::basic_string<char, std::__2::char_traits<char>, std::__2::allocator<char> >, ' +
    'std::__2::less<int>, std::__2::allocator<std::__2::pair<const int, std::__2::basic_string<char, ' +
    'std::__2::char_traits<char>, std::__2::allocator<char> > > > >'), 'std::map<int, std::string>');
  assert.equal(spell('std::__2::vector<std::__2::vector<int, std::__2::allocator<int> >, ' +
    'std::__2::allocator<std::__2::vector<int, std::__2::allocator<int> > > >'), 'std::vector<std::vector<int>>');
  assert.equal(spell('std::__2::unique_ptr<app::Node, std::__2::default_delete<app::Node> >'), 'std::unique_ptr<app::Node>');
  assert.equal(spell('std::__ndk1::vector<int, std::__ndk1::allocator<int> >'), 'std::vector<int>');
  assert.equal(spell('Box<int, 4>'), 'Box<int, 4>', "a user's arguments stay");
  assert.equal(spell('app::Node'), 'app::Node');
});

test('tokens are named by the spellings that hash to them, and only those', () => {
  const names = allocTypeNames({
    names: new Set(['Foo', 'app::Node', 'std::__2::vector<Foo, std::__2::allocator<Foo> >', 'Pool<int, 64>', 'int']),
    aliases: new Map(),
  });
  assert.equal(names.name(tokensOf('Foo')[0]), 'Foo');
  assert.equal(names.name(tokensOf('app::Node')[1]), 'app::Node', 'either half: the pointer bit is not in the DWARF names');
  assert.equal(names.name(tokensOf('std::vector<Foo>')[1]), 'std::vector<Foo>');
  assert.equal(names.name(tokensOf('int')[0]), 'int');
  // a user template's default arguments are not known: each shorter list
  assert.equal(names.name(tokensOf('Pool<int>')[1]), 'Pool<int>');
  assert.equal(names.name(tokensOf('Pool<int, 64>')[1]), 'Pool<int, 64>');
  assert.equal(names.name(tokensOf('Bar')[0]), null, 'a type the DWARF does not have is not named');
  assert.equal(names.name(0), null);
});

const site = (id, stack, bytes, extra) => Object.assign({id, key: 'k' + id, stack, liveBytes: bytes, liveBlocks: 1, totalAllocs: 1,
  totalBytes: bytes, peakLiveBytes: bytes}, extra);

test('by type: a row per type, summed over its call sites; a token the DWARF has no name for by its number; the rest by function', () => {
  const snap = {frames: [{name: 'make_a(int)'}, {name: 'main'}, {name: 'make_b(int)'}], sites: [
    site(1, [0, 1], 8, {allocToken: 5, allocType: 'Foo'}),
    site(2, [2, 1], 16, {allocToken: 5, allocType: 'Foo'}),
    site(3, [2, 1], 4),
    site(4, [0, 1], 3, {allocToken: 77}),
    site(5, [0, 1], 2, {allocTokenMixed: true}),
  ]};
  const g = groupSnapshot(snap, 'type');
  const rows = g.sites.map((s) => [s.key, s.stack.map((i) => g.frames[i].name).join(' < '), s.liveBytes]);
  assert.deepEqual(rows, [
    ['Foo', 'Foo', 24],
    ['make_b(int)', 'make_b(int) < main', 4],
    ['(unnamed type: token 77)', '(unnamed type: token 77)', 3],
    ['make_a(int)', 'make_a(int) < main', 2],
  ]);
  assert.equal(g.sites[0].parts, 2);
  assert.throws(() => groupSnapshot({frames: snap.frames, sites: [snap.sites[2], snap.sites[4]]}, 'type'),
    (e) => e.userError && /carries its C\+\+ type: compile the C\+\+ code with -fsanitize=alloc-token/.test(e.message));
});

test('merged sites keep a type only when all of them had it', () => {
  const typed = (token, name) => {
    const s = site(1, [], 1);
    copyAllocType(s, {allocToken: token, allocType: name});
    return s;
  };
  const same = typed(5, 'Foo');
  addSiteCounters(same, typed(5, 'Foo'));
  assert.equal(same.allocToken, 5);
  assert.equal(same.allocType, 'Foo');
  assert.equal(same.allocTokenMixed, undefined);
  const two = typed(5, 'Foo');
  addSiteCounters(two, typed(6, 'Bar'));
  assert.equal(two.allocToken, undefined);
  assert.equal(two.allocType, undefined);
  assert.equal(two.allocTokenMixed, true);
  const some = typed(5, 'Foo');
  addSiteCounters(some, site(2, [], 1));
  assert.equal(some.allocTokenMixed, true, 'typed and untyped: of no one type');
  const none = site(1, [], 1);
  addSiteCounters(none, site(2, [], 1));
  assert.equal(none.allocTokenMixed, undefined);
  assert.equal(none.allocToken, undefined);
});
