// alloc_types.js -- the C++ type a clang allocation token stands for.
//
// Built with -fsanitize=alloc-token, each `new T` (and each malloc whose
// type clang infers) passes a token to the runtime (runtime/alloc_token.c):
// SipHash-2-4, keyed with LLVM's fixed key, of T's name as clang prints it
// ("app::Node", "std::string", "std::vector<Foo>", "int"), taken modulo
// half the token range, the upper half for types that hold pointers
// (llvm/lib/Support/AllocToken.cpp, mode typehashpointersplit, the
// default). The name itself never reaches the binary. The module's DWARF
// has every type's name, spelled its own way ("vector<Foo,
// std::__2::allocator<Foo> >"): each is spelled the ways clang prints a
// type (inline namespaces gone, default template arguments of the
// standard library left out, libc++'s preferred names such as std::string
// for basic_string<char>, ">>"), hashed, and a token matched by a hash is
// named. A token no spelling matches keeps its number: a name is never
// guessed.
'use strict';

// The fixed key of LLVM's stable SipHash (getStableSipHash,
// llvm/lib/Support/SipHash.cpp), which AllocToken's type hash uses; as
// little-endian 32-bit words.
var KEY = [0xebc9d4b5n, 0x794a1079n, 0x1b8bec6fn, 0xd4818742n];
var M64 = (1n << 64n) - 1n;

function rotl(x, b) {
  return ((x << b) | (x >> (64n - b))) & M64;
}

// SipHash-2-4 of a string's UTF-8 bytes -> a BigInt below 2^64.
function sipHash24(text) {
  var bytes = new TextEncoder().encode(text);
  var k0 = KEY[0] | (KEY[1] << 32n);
  var k1 = KEY[2] | (KEY[3] << 32n);
  var v0 = k0 ^ 0x736f6d6570736575n;
  var v1 = k1 ^ 0x646f72616e646f6dn;
  var v2 = k0 ^ 0x6c7967656e657261n;
  var v3 = k1 ^ 0x7465646279746573n;
  var round = function () {
    v0 = (v0 + v1) & M64; v1 = rotl(v1, 13n); v1 ^= v0; v0 = rotl(v0, 32n);
    v2 = (v2 + v3) & M64; v3 = rotl(v3, 16n); v3 ^= v2;
    v0 = (v0 + v3) & M64; v3 = rotl(v3, 21n); v3 ^= v0;
    v2 = (v2 + v1) & M64; v1 = rotl(v1, 17n); v1 ^= v2; v2 = rotl(v2, 32n);
  };
  var n = bytes.length;
  var whole = n - (n % 8);
  for (var i = 0; i < whole; i += 8) {
    var m = 0n;
    for (var k = 7; k >= 0; k--) m = (m << 8n) | BigInt(bytes[i + k]);
    v3 ^= m; round(); round(); v0 ^= m;
  }
  var last = BigInt(n & 0xff) << 56n;
  for (var j = 0; j < n % 8; j++) last |= BigInt(bytes[whole + j]) << BigInt(8 * j);
  v3 ^= last; round(); round(); v0 ^= last;
  v2 ^= 0xffn;
  round(); round(); round(); round();
  return (v0 ^ v1 ^ v2 ^ v3) & M64;
}

// The two tokens a name may give on wasm32 (size_t tokens, no
// -falloc-token-max): without and with pointers.
var HALF = (0xFFFFFFFFn) / 2n;
function tokensOf(name) {
  var h = sipHash24(name) % HALF;
  return [Number(h), Number(HALF + h)];
}

// Template argument lists: "a<b, c<d> >" -> {head: "a", args: ["b", "c<d> "]}
// (null without one); nested lists are left to the recursion.
function splitTemplate(name) {
  var open = name.indexOf('<');
  if (open < 0 || /operator\s*<*$/.test(name.slice(0, open))) return null;
  if (name.charAt(name.length - 1) !== '>') return null;
  var args = [];
  var depth = 0;
  var from = open + 1;
  for (var i = open + 1; i < name.length - 1; i++) {
    var ch = name.charAt(i);
    if (ch === '<' || ch === '(' || ch === '[') depth++;
    else if (ch === '>' || ch === ')' || ch === ']') depth--;
    else if (ch === ',' && depth === 0) {
      args.push(name.slice(from, i).trim());
      from = i + 1;
    }
  }
  if (depth !== 0) return null;
  var tail = name.slice(from, name.length - 1).trim();
  if (tail || args.length) args.push(tail);
  return {head: name.slice(0, open), args: args};
}

// The standard library's template arguments that clang leaves out when they
// are the default (and trailing): allocators, traits, comparators, hashers,
// deleters.
var STD_DEFAULT = /^std::(allocator|char_traits|less|hash|equal_to|default_delete)<.*>$/;

// libc++'s ABI namespace (std::__2), the NDK's (std::__ndk1): inline, and
// not in clang's names.
function withoutInlineNamespaces(name) {
  return name.replace(/\bstd::__(\d+|ndk\d+)::/g, 'std::');
}

// One spelling as clang prints it, given DWARF's: inline namespaces
// (libc++'s std::__2, the NDK's std::__ndk1) gone, trailing standard
// defaults left out, libc++'s preferred names (`preferred`: spelling ->
// alias) used, and ">>" for "> >". -> the canonical spelling.
function clangSpelling(name, preferred) {
  var s = withoutInlineNamespaces(name).trim();
  var t = splitTemplate(s);
  if (t) {
    var args = t.args.map(function (a) { return clangSpelling(a, preferred); });
    while (args.length > 1 && STD_DEFAULT.test(args[args.length - 1])) args.pop();
    s = t.head + '<' + args.join(', ') + '>';
  }
  s = s.replace(/> >/g, '>>');
  return preferred.has(s) ? preferred.get(s) : s;
}

// libc++'s preferred names: the typedefs in namespace std that name a
// specialization of a class template (std::string for
// std::basic_string<char>), as clang prints the specialization.
function preferredNames(aliases) {
  var preferred = new Map();
  aliases.forEach(function (target, alias) {
    var name = withoutInlineNamespaces(alias);
    if (!/^std::\w+$/.test(name) || target.indexOf('<') < 0) return;
    var spelled = clangSpelling(target, new Map());
    if (!preferred.has(spelled)) preferred.set(spelled, name);
  });
  return preferred;
}

// DWARF's type names (symbolize/dwarf.js: {names: Set, aliases: Map}) ->
// {name(token) -> the type's name, or null}. Spellings are hashed on the
// first call.
function allocTypeNames(typeNames) {
  var byToken = null;
  var build = function () {
    byToken = new Map();
    var preferred = preferredNames(typeNames.aliases);
    var spellings = new Set();
    typeNames.names.forEach(function (n) {
      var spelled = clangSpelling(n, preferred);
      spellings.add(spelled);
      // A user template's own defaults are not known: every shorter list.
      var t = splitTemplate(spelled);
      for (var k = t ? t.args.length - 1 : 0; k >= 1; k--) spellings.add(t.head + '<' + t.args.slice(0, k).join(', ') + '>');
    });
    spellings.forEach(function (name) {
      tokensOf(name).forEach(function (token) {
        var had = byToken.get(token);
        // Two spellings with one hash (about one chance in 2^31 per pair):
        // both said, neither chosen.
        byToken.set(token, had && had !== name ? had + ' or ' + name : name);
      });
    });
  };
  return {
    name: function (token) {
      if (!byToken) build();
      return byToken.get(token) || null;
    },
  };
}

module.exports = {allocTypeNames: allocTypeNames, sipHash24: sipHash24, tokensOf: tokensOf, clangSpelling: clangSpelling,
  preferredNames: preferredNames};
