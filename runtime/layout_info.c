/*
** layout_info.c -- the C-to-JS memory contract as data: every offset, size
** and constant that JS reads out of linear memory, as this compiler lays
** out the runtime's structs for this target (wasm32, or wasm64 with
** -sMEMORY64).
**
** Only compiled (`emcc -c`), never linked or run: the table below is
** initialized data of plain bytes (names inline, no pointers, so no
** relocation touches it), which a wasm object file holds verbatim.
** runtime/layout.js finds it there by its first entry and writes
** capture/layout_generated.js (`make layout`), the one module JS takes
** offsets from. A field is named once here; its offset comes from
** offsetof. tests/e2e/layout_generated.test.js builds this again, compares,
** and checks that every field JS reads is one listed here.
*/
#include "context.h"
#include "dlmalloc_state.h"
#include "emheap.h"
#include "footer.h"
#include "state_layout.h"
#include "thread_counts.h"

/* One entry: "struct" with its sizeof, "struct.field" with its offset, or
** "#NAME" with a constant's value. A longer name does not compile. */
#define LAYOUT_NAME 48
typedef struct layout_entry {
  char name[LAYOUT_NAME];
  long long value;
} layout_entry;

#define STRUCT(T) {#T, (long long)sizeof(T)},
#define FIELD(T, f) {#T "." #f, (long long)offsetof(T, f)},
#define CONSTANT(c) {"#" #c, (long long)(c)},

__attribute__((used)) const layout_entry emheap_layout_entries[] = {
  {"emheap layout entries", 0}, /* what runtime/layout.js looks for; the end: an empty name */
  STRUCT(emheap_state)
  FIELD(emheap_state, magic) FIELD(emheap_state, layout_version) FIELD(emheap_state, mode)
  FIELD(emheap_state, paused) FIELD(emheap_state, counters) FIELD(emheap_state, site_chunks)
  FIELD(emheap_state, frame_pool) FIELD(emheap_state, frame_pool_used) FIELD(emheap_state, sampling_interval)
  FIELD(emheap_state, blocks) FIELD(emheap_state, allocator) FIELD(emheap_state, lock)
  FIELD(emheap_state, threaded) FIELD(emheap_state, huge_blocks) FIELD(emheap_state, huge_slots)
  FIELD(emheap_state, seed) FIELD(emheap_state, count_slots) FIELD(emheap_state, growth)
  FIELD(emheap_state, peak_epoch) FIELD(emheap_state, peak_break) FIELD(emheap_state, heap_base)
  FIELD(emheap_state, sbrk_ptr_addr) FIELD(emheap_state, blocks_at_peak) FIELD(emheap_state, block_serial)
  FIELD(emheap_state, roots) FIELD(emheap_state, count_slot_count) FIELD(emheap_state, total_at_peak)
  FIELD(emheap_state, context_checks) FIELD(emheap_state, log_growths) FIELD(emheap_state, recorded_bytes)
  FIELD(emheap_state, recorded_usable) FIELD(emheap_state, recorded_at_peak) FIELD(emheap_state, usable_at_peak)
  FIELD(emheap_state, estimates) FIELD(emheap_state, estimates_at_peak) FIELD(emheap_state, thinned_at)
  FIELD(emheap_state, unseen_frees) FIELD(emheap_state, unseen_bytes) FIELD(emheap_state, start_ms)
  FIELD(emheap_state, mark_count) FIELD(emheap_state, serial_renumbers) FIELD(emheap_state, marks)
  FIELD(emheap_state, age_serial) FIELD(emheap_state, age_point_count) FIELD(emheap_state, age_points)
  FIELD(emheap_state, site_chunk_at) FIELD(emheap_state, footers) FIELD(emheap_state, dl_state)
  FIELD(emheap_state, dl_seg) FIELD(emheap_state, peak_since_mark) FIELD(emheap_state, recorded_peak)
  FIELD(emheap_state, tables_at_peak) FIELD(emheap_state, pool_objects) FIELD(emheap_state, pool_huge)
  FIELD(emheap_state, pool_huge_slots) FIELD(emheap_state, pools) FIELD(emheap_state, pool_count)
  FIELD(emheap_state, pool_misuse) FIELD(emheap_state, pointer_bytes) FIELD(emheap_state, giant_blocks)

  STRUCT(emheap_counters)
  FIELD(emheap_counters, live_bytes) FIELD(emheap_counters, peak_live_bytes) FIELD(emheap_counters, total_bytes)
  FIELD(emheap_counters, live_blocks) FIELD(emheap_counters, peak_live_blocks) FIELD(emheap_counters, malloc_calls)
  FIELD(emheap_counters, calloc_calls) FIELD(emheap_counters, realloc_calls) FIELD(emheap_counters, memalign_calls)
  FIELD(emheap_counters, free_calls) FIELD(emheap_counters, failed_allocs) FIELD(emheap_counters, invalid_frees)
  FIELD(emheap_counters, sampled_allocs) FIELD(emheap_counters, site_count) FIELD(emheap_counters, heap_growths)
  FIELD(emheap_counters, lost_allocs) FIELD(emheap_counters, lost_bytes) FIELD(emheap_counters, lost_sites)
  FIELD(emheap_counters, truncated_stacks) FIELD(emheap_counters, table_bytes)

  STRUCT(emheap_site)
  FIELD(emheap_site, live_bytes) FIELD(emheap_site, total_bytes) FIELD(emheap_site, peak_live_bytes)
  FIELD(emheap_site, total_allocs) FIELD(emheap_site, live_blocks) FIELD(emheap_site, stack_kind)
  FIELD(emheap_site, stack_ref) FIELD(emheap_site, stack_depth) FIELD(emheap_site, thread)
  FIELD(emheap_site, live_at_peak) FIELD(emheap_site, blocks_at_peak) FIELD(emheap_site, peak_epoch)
  FIELD(emheap_site, peak_blocks) FIELD(emheap_site, est_bytes) FIELD(emheap_site, est_blocks)
  FIELD(emheap_site, est_at_peak) FIELD(emheap_site, est_blocks_at_peak) FIELD(emheap_site, ended_by_age)
  FIELD(emheap_site, ended_by_time) FIELD(emheap_site, temporary) FIELD(emheap_site, alloc_type)
  FIELD(emheap_site, pool)

  STRUCT(emheap_estimate_sums)
  FIELD(emheap_estimate_sums, usable) FIELD(emheap_estimate_sums, blocks)
  FIELD(emheap_estimate_sums, usable_actual) FIELD(emheap_estimate_sums, blocks_actual)
  FIELD(emheap_estimate_sums, recorded)

  STRUCT(emheap_growth)
  FIELD(emheap_growth, from_bytes) FIELD(emheap_growth, to_bytes) FIELD(emheap_growth, site)
  FIELD(emheap_growth, request) FIELD(emheap_growth, t) FIELD(emheap_growth, top_site)
  FIELD(emheap_growth, flags) FIELD(emheap_growth, top_bytes)

  STRUCT(emheap_mark_record)
  FIELD(emheap_mark_record, serial) FIELD(emheap_mark_record, reserved) FIELD(emheap_mark_record, t)
  FIELD(emheap_mark_record, name)

  STRUCT(emheap_index)
  FIELD(emheap_index, regions) FIELD(emheap_index, region_count) FIELD(emheap_index, count)

  STRUCT(region_table)
  FIELD(region_table, slots) FIELD(region_table, slot)

  STRUCT(emheap_slot)
  FIELD(emheap_slot, offset_site) FIELD(emheap_slot, size_slack) FIELD(emheap_slot, serial)

  STRUCT(emheap_block)
  FIELD(emheap_block, addr) FIELD(emheap_block, site_slack) FIELD(emheap_block, size) FIELD(emheap_block, serial)

  STRUCT(emheap_footer)
  FIELD(emheap_footer, serial) FIELD(emheap_footer, site_slack)

  STRUCT(emheap_pool)
  FIELD(emheap_pool, flags) FIELD(emheap_pool, site) FIELD(emheap_pool, chunk_site) FIELD(emheap_pool, objects)
  FIELD(emheap_pool, bytes) FIELD(emheap_pool, placed_bytes) FIELD(emheap_pool, placed) FIELD(emheap_pool, lost)
  FIELD(emheap_pool, name)

  STRUCT(emheap_count_slot)
  FIELD(emheap_count_slot, live_bytes) FIELD(emheap_count_slot, live_blocks) FIELD(emheap_count_slot, total_bytes)
  FIELD(emheap_count_slot, calls)

  STRUCT(emheap_roots)
  FIELD(emheap_roots, data_lo) FIELD(emheap_roots, data_hi) FIELD(emheap_roots, sp)
  FIELD(emheap_roots, stack_lo) FIELD(emheap_roots, stack_hi) FIELD(emheap_roots, self)
  FIELD(emheap_roots, self_size) FIELD(emheap_roots, state) FIELD(emheap_roots, state_size)
  FIELD(emheap_roots, size) FIELD(emheap_roots, thread_count) FIELD(emheap_roots, threads_dropped)
  FIELD(emheap_roots, region_count) FIELD(emheap_roots, regions_dropped) FIELD(emheap_roots, pthread)
  FIELD(emheap_roots, threads) FIELD(emheap_roots, regions)

  STRUCT(emheap_thread_roots)
  FIELD(emheap_thread_roots, stack_lo) FIELD(emheap_thread_roots, stack_hi) FIELD(emheap_thread_roots, tls_lo)
  FIELD(emheap_thread_roots, tls_hi) FIELD(emheap_thread_roots, self) FIELD(emheap_thread_roots, pthread)

  STRUCT(emheap_root_region)
  FIELD(emheap_root_region, start) FIELD(emheap_root_region, size)

  STRUCT(emheap_context_check)
  FIELD(emheap_context_check, verify) FIELD(emheap_context_check, checked) FIELD(emheap_context_check, mismatches)

  STRUCT(emheap_limits)
  FIELD(emheap_limits, leaked_bytes) FIELD(emheap_limits, live_bytes) FIELD(emheap_limits, peak_bytes)
  FIELD(emheap_limits, allocs) FIELD(emheap_limits, total_bytes)

  STRUCT(emheap_dl_state)
  FIELD(emheap_dl_state, smallmap) FIELD(emheap_dl_state, treemap) FIELD(emheap_dl_state, dvsize)
  FIELD(emheap_dl_state, topsize) FIELD(emheap_dl_state, least_addr) FIELD(emheap_dl_state, dv)
  FIELD(emheap_dl_state, top) FIELD(emheap_dl_state, magic) FIELD(emheap_dl_state, smallbins)
  FIELD(emheap_dl_state, treebins) FIELD(emheap_dl_state, footprint) FIELD(emheap_dl_state, mflags)

  STRUCT(emheap_dl_segment)
  FIELD(emheap_dl_segment, base) FIELD(emheap_dl_segment, size) FIELD(emheap_dl_segment, next)
  FIELD(emheap_dl_segment, sflags)
  STRUCT(emheap_dl_state_tail)

  CONSTANT(EMHEAP_MAGIC) CONSTANT(EMHEAP_LAYOUT_VERSION)
  CONSTANT(EMHEAP_MODE_EXACT) CONSTANT(EMHEAP_MODE_SAMPLED) CONSTANT(EMHEAP_MODE_OFF)
  CONSTANT(EMHEAP_STACK_JS) CONSTANT(EMHEAP_STACK_WASM) CONSTANT(EMHEAP_STACK_POOL)
  CONSTANT(EMHEAP_FRAME_TRUNCATED) CONSTANT(EMHEAP_FRAME_JS)
  CONSTANT(EMHEAP_ALLOCATOR_GENERIC) CONSTANT(EMHEAP_ALLOCATOR_DLMALLOC) CONSTANT(EMHEAP_ALLOCATOR_EMMALLOC)
  CONSTANT(EMHEAP_ALLOCATOR_MIMALLOC)
  CONSTANT(EMHEAP_AGE_BUCKETS) CONSTANT(EMHEAP_TIME_BUCKETS) CONSTANT(EMHEAP_AGE_POINTS)
  CONSTANT(EMHEAP_GROWTH_LOG) CONSTANT(EMHEAP_GROWTH_TOP) CONSTANT(EMHEAP_GROWTH_ESTIMATED)
  CONSTANT(EMHEAP_MARK_LOG) CONSTANT(EMHEAP_MARK_NAME)
  CONSTANT(EMHEAP_SITE_CHUNK0_BITS) CONSTANT(EMHEAP_SITE_BITS) CONSTANT(EMHEAP_SLACK_BITS)
  CONSTANT(EMHEAP_BLOCK_WEIGHTED) CONSTANT(EMHEAP_ALLOC_TYPE_MIXED)
  CONSTANT(EMHEAP_REGION_SHIFT) CONSTANT(EMHEAP_ALIGN_SHIFT)
  CONSTANT(EMHEAP_POOL_NAME) CONSTANT(EMHEAP_POOL_LIVE) CONSTANT(EMHEAP_POOL_MALLOCLIKE) CONSTANT(EMHEAP_POOL_MISUSES)
  CONSTANT(EMHEAP_MAX_THREADS) CONSTANT(EMHEAP_MAX_ROOTS)
  CONSTANT(EMHEAP_CALL_KINDS) CONSTANT(EMHEAP_NO_LIMIT)
  CONSTANT(DL_CINUSE) CONSTANT(DL_FLAG4) CONSTANT(DL_FENCEPOST) CONSTANT(DL_NSMALLBINS) CONSTANT(DL_NTREEBINS)
  CONSTANT(DL_USE_LOCK_BIT) CONSTANT(DL_MIN_CHUNK) CONSTANT(DL_SEG_RECORD) CONSTANT(DL_TOP_FOOT)
  CONSTANT(DL_SEG_NO_LOCK) CONSTANT(DL_SEG_SPIN_LOCK) CONSTANT(DL_SEG_PTHREAD_LOCK)
  {"", 0}
};
