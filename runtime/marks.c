/*
** marks.c -- moments the program names (emheap_mark), and keeping block
** serials in the order of those moments.
**
** A mark records the block serial of its moment: the recorded live blocks
** with a larger serial were made after it. That is how a snapshot tells,
** exactly in exact mode, what was allocated after a mark and is still
** live, with nothing added to an allocation's work. JS makes marks too
** (emheap.mark, Ctrl+Shift+M: capture/mark_log.js), writing the same ring under
** the same lock.
**
** Serials are 31 bits (block_table.c). When the next would pass 2^31 - 1,
** the live blocks are numbered again: those of the last 2^30 serials move
** down as one, keeping their distances (lifetimes in allocations stay
** exact); the older ones are numbered from 1, period by period (a period:
** the blocks between two kept marks or age points), and each such mark or
** point gets the last number of the period before it: every block then
** still compares with every mark and point as it did. Two passes over the
** recorded blocks, once per 2^30 allocations recorded. A block's identity
** across snapshots (its serial) changes there: a diff of snapshots taken
** on both sides of it matches sites, not blocks.
*/
#include <emscripten/emscripten.h>

#include "emheap_internal.h"
#include "footer.h"
#include "lock.h"

/* JS side (jslib/library_emheap.js): mark `number` was just made; outside
** the lock. The main thread takes a point of the timelines then. */
extern void emheap_js_marked(uint32_t number);
/* The same, still under the lock: the main thread records what each site
** holds at the mark then (capture/mark_ranges.js), at the mark's moment. */
extern void emheap_js_mark_locked(uint32_t number);
extern double emheap_js_now(void);

/* "mark N" into out (at least 16 bytes). */
static void default_name(char *out, uint32_t n) {
  char digits[10];
  int k = 0;
  do digits[k++] = (char)('0' + n % 10); while ((n /= 10));
  const char *prefix = "mark ";
  int i = 0;
  while (*prefix) out[i++] = *prefix++;
  while (k) out[i++] = digits[--k];
  out[i] = 0;
}

/* name cut to fit, at a character boundary of its UTF-8. */
static void copy_name(char *out, const char *name) {
  uint32_t n = 0;
  while (name[n] && n < EMHEAP_MARK_NAME - 1) n++;
  if (name[n]) /* cut: do not end inside a character (10xxxxxx continues one) */
    while (n && ((unsigned char)name[n] & 0xC0u) == 0x80u) n--;
  for (uint32_t i = 0; i < n; i++) out[i] = name[i];
  out[n] = 0;
}

void emheap_mark(const char *name) {
  if (emheap_g.magic != EMHEAP_MAGIC) emheap_init_slow();
  emheap_lock();
  /* (timed under the lock: marks from two threads read in number order) */
  double t = emheap_js_now() - emheap_g.start_ms;
  uint32_t number = emheap_g.mark_count + 1u;
  emheap_mark_record *m = &emheap_g.marks[(number - 1u) % EMHEAP_MARK_LOG];
  m->serial = emheap_g.block_serial;
  m->reserved = 0;
  m->t = t;
  if (name && name[0]) copy_name(m->name, name);
  else default_name(m->name, number);
  emheap_g.mark_count = number;
  emheap_js_mark_locked(number);
  emheap_unlock();
  emheap_js_marked(number);
}

/* Every field that holds a block serial: the kept marks, the age clock's
** points and its thresholds (state_layout.h). */
#define MAX_BOUNDS (EMHEAP_MARK_LOG + EMHEAP_AGE_POINTS + EMHEAP_AGE_TIMES)

/* The serials of the last 2^30 blocks keep their distances (a lifetime in
** allocations, record.c count_ended, stays exact); the older ones, at
** least 2^30 allocations old, all sit in the top age bucket however they
** are numbered. */
#define YOUNG_SERIALS (1u << 30)

typedef struct renumbering {
  uint32_t cut;                     /* serials above it are young */
  uint32_t bounds;                  /* the serial fields at or below the cut */
  uint32_t *field[MAX_BOUNDS];      /* ... ordered by their values, */
  uint32_t value[MAX_BOUNDS];       /* ... which are these, ascending */
  uint32_t next[MAX_BOUNDS + 1];    /* per period: its count (pass 1), its next number (pass 2) */
  uint32_t young;                   /* the young fields, */
  uint32_t *young_field[MAX_BOUNDS];
  uint32_t old_count;               /* the blocks at or below the cut */
} renumbering;

/* The period of an old block with serial s: how many bounds are below it. */
static uint32_t period_of(const renumbering *r, uint32_t s) {
  uint32_t lo = 0, hi = r->bounds;
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    if (r->value[mid] < s) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* A field in the old bounds, kept in order (insertion: marks and points
** come in ascending runs, so this is near linear), or in the young ones. */
static void add_field(renumbering *r, uint32_t *field) {
  if (*field > r->cut) {
    r->young_field[r->young++] = field;
    return;
  }
  uint32_t i = r->bounds++;
  while (i && r->value[i - 1] > *field) {
    r->value[i] = r->value[i - 1];
    r->field[i] = r->field[i - 1];
    i--;
  }
  r->value[i] = *field;
  r->field[i] = field;
}

static void count_block(uint32_t *serial, void *ctx) {
  renumbering *r = ctx;
  uint32_t s = *serial & ~EMHEAP_BLOCK_WEIGHTED;
  if (s <= r->cut) r->next[period_of(r, s)]++;
}

static void number_block(uint32_t *serial, void *ctx) {
  renumbering *r = ctx;
  uint32_t s = *serial & ~EMHEAP_BLOCK_WEIGHTED;
  uint32_t n = s <= r->cut ? r->next[period_of(r, s)]++ : s - r->cut + r->old_count;
  *serial = n | (*serial & EMHEAP_BLOCK_WEIGHTED);
}

/* Every recorded block's serial: in the block table, and in footers. */
static void each_serial(void (*fn)(uint32_t *serial, void *ctx), void *ctx) {
  emheap_blocks_each_serial(fn, ctx);
  if (emheap_g.footers) emheap_footers_each_serial(fn, ctx);
}

uint32_t emheap_serials_renumber(void) {
  static renumbering r; /* 18 KiB: not on a thread's small stack; under the lock */
  uint32_t last = emheap_g.block_serial;
  r.cut = last > YOUNG_SERIALS ? last - YOUNG_SERIALS : 0;
  r.bounds = r.young = 0;
  uint32_t marks = emheap_g.mark_count < EMHEAP_MARK_LOG ? emheap_g.mark_count : EMHEAP_MARK_LOG;
  for (uint32_t j = 0; j < marks; j++) add_field(&r, &emheap_g.marks[j].serial);
  uint32_t points = emheap_g.age_point_count < EMHEAP_AGE_POINTS ? emheap_g.age_point_count : EMHEAP_AGE_POINTS;
  for (uint32_t j = 0; j < points; j++) add_field(&r, &emheap_g.age_points[j]);
  for (uint32_t j = 0; j < EMHEAP_AGE_TIMES; j++) add_field(&r, &emheap_g.age_serial[j]);
  for (uint32_t p = 0; p <= r.bounds; p++) r.next[p] = 0;
  each_serial(count_block, &r);
  /* counts -> first numbers; bound p (the end of period p) gets the
  ** number of old blocks at or below it */
  uint32_t at = 1;
  for (uint32_t p = 0; p <= r.bounds; p++) {
    uint32_t n = r.next[p];
    r.next[p] = at;
    at += n;
    if (p < r.bounds) *r.field[p] = at - 1u;
  }
  r.old_count = at - 1u;
  for (uint32_t j = 0; j < r.young; j++) *r.young_field[j] = *r.young_field[j] - r.cut + r.old_count;
  each_serial(number_block, &r);
  emheap_g.serial_renumbers++;
  return last - r.cut + r.old_count;
}
