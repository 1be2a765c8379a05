/*
** context_table.c -- calling context -> site: the table that makes exact
** stacks cheap. One entry per distinct (context, outer JS stack) seen; an
** allocation whose context is here is charged to its site without JS, and
** one whose context is new takes its JS stack once (record.c).
**
** Open addressing on the 64-bit key, linear probing; entries are never
** removed (a context, once seen, stays valid for the run). Doubles at half
** load; when emheap_table_alloc refuses (a fixed heap with no room to
** spare), it fills to 3/4 and then stops remembering: lookups stay correct,
** and new contexts pay a JS stack per allocation. Called under the lock.
**
** Invariant: every key is nonzero and stored once; count <= capacity * 3/4.
*/
#include <string.h>

#include "context.h"
#include "emheap_internal.h"

uint32_t emheap_contexts_on;
emheap_context_check emheap_context_checks;

typedef struct context_entry {
  uint64_t key; /* 0 = empty */
  uint32_t site;
  uint32_t reserved;
} context_entry;

static context_entry *table;
static uint32_t mask;
static uint32_t count;
static uint32_t refused_at; /* count when a doubling was last refused; 0: none since */

#define INITIAL_CONTEXTS 1024u /* power of two */

static inline uint32_t slot_of(uint64_t key, uint32_t m) {
  return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & m;
}

int emheap_contexts_init(void) {
  table = emheap_table_alloc(INITIAL_CONTEXTS * sizeof(context_entry));
  if (!table) return 0;
  memset(table, 0, INITIAL_CONTEXTS * sizeof(context_entry));
  mask = INITIAL_CONTEXTS - 1;
  return 1;
}

uint32_t emheap_contexts_find(uint64_t key) {
  if (!table) return UINT32_MAX;
  for (uint32_t i = slot_of(key, mask);; i = (i + 1) & mask) {
    if (table[i].key == key) return table[i].site;
    if (!table[i].key) return UINT32_MAX;
  }
}

static int grow(void) {
  uint32_t cap = (mask + 1) * 2;
  if (cap > 0x08000000u) return 0;
  context_entry *t = emheap_table_alloc((size_t)cap * sizeof(context_entry));
  if (!t) return 0;
  memset(t, 0, (size_t)cap * sizeof(context_entry));
  for (uint32_t i = 0; i <= mask; i++) {
    if (!table[i].key) continue;
    uint32_t j = slot_of(table[i].key, cap - 1);
    while (t[j].key) j = (j + 1) & (cap - 1);
    t[j] = table[i];
  }
  emheap_table_free(table, (size_t)(mask + 1) * sizeof(context_entry));
  table = t;
  mask = cap - 1;
  return 1;
}

void emheap_contexts_add(uint64_t key, uint32_t site) {
  if (!table) return;
  if ((count + 1) * 2 > mask + 1) {
    /* A refused doubling is tried again every capacity/64 entries: each
    ** try asks JS for the heap's limit (block_table.c does the same). */
    if (!refused_at || count >= refused_at + (mask + 1) / 64) {
      if (grow()) refused_at = 0;
      else refused_at = count;
    }
    if ((count + 1) * 4 > (mask + 1) * 3) return;
  }
  uint32_t i = slot_of(key, mask);
  for (; table[i].key; i = (i + 1) & mask) {
    if (table[i].key == key) return;
  }
  table[i].key = key;
  table[i].site = site;
  count++;
}
