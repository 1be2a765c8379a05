// pool_misuse.js -- the one line said at the first misuse of each kind of
// the pool calls (runtime/pools.c; emheap.h emheap_pool_*). The runtime
// counts every one (emheap_state.pool_misuse) and ignores it: the program
// runs on as it would without emheap.
'use strict';

// By kind, in runtime/state_layout.h's order (EMHEAP_POOL_NO_POOL ...).
var MISUSES = [
  'an object call named a pool that was never created, or was destroyed: the call is ignored',
  'a pool free or change named an address that is no live object of that pool: the call is ignored',
  'a pool was created where one lives already: the second create is ignored',
  'an object was allocated where an object of the pool lives: the older one is taken as ended',
  'a pool\'s chunk (the heap block its objects lie in) was freed or moved while objects lay in it: they are taken as ended',
  'no room for another pool record: that pool\'s objects are not recorded',
  'emheap\'s tables had no room for a pool object: it is not recorded (its pool counts it as lost)',
  'a pool object at an address that is not 4-aligned cannot be recorded (its pool counts it as lost)',
];

function hex(n) { return '0x' + (n >>> 0).toString(16); }

// -> handle(kind, anchor, addr)
function poolMisuseHandler(host) {
  return function (kind, anchor, addr) {
    var what = MISUSES[kind] || 'pool call misused (kind ' + kind + ')';
    host.err('emheap: ' + what + ' (pool ' + hex(anchor) + (addr ? ', address ' + hex(addr) : '') +
      '); later ones of this kind are counted only. See docs/pools.md');
  };
}

module.exports = {poolMisuseHandler: poolMisuseHandler};
