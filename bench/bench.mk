# Benchmarks: `make bench` (included from the Makefile). Builds the workloads
# in bench/workloads/ in every configuration and prints one table; see
# bench/README.md. Everything goes to build/bench/.
#
# SQLite and Lua are third-party code this project does not ship
# (third_party/third_party.mk fetches them). If that fails, their rows show
# the error and the rest of the bench still runs; so does a runtime that does
# not build right now (the emheap rows show it).

BENCH_OUT := $(B)/bench

.PHONY: bench growth-scan timeline-cost side-module-cost wasm64-cost

bench:
	@mkdir -p $(BENCH_OUT)
	@if $(MAKE) --no-print-directory runtime > $(BENCH_OUT)/runtime-build.log 2>&1; then \
	  rm -f $(BENCH_OUT)/runtime-build.failed; \
	else \
	  touch $(BENCH_OUT)/runtime-build.failed; \
	  echo "bench: 'make runtime' failed, emheap rows will show errors:"; tail -5 $(BENCH_OUT)/runtime-build.log; \
	fi
	-@$(MAKE) --no-print-directory $(SQLITE_C)
	-@$(MAKE) --no-print-directory $(LUA_C)
	$(NODE) bench/run-bench.js
	$(NODE) bench/timeline_cost.js
	-@$(MAKE) --no-print-directory side-module-cost
	-@$(MAKE) --no-print-directory wasm64-cost

# What the per-site timelines and the marks cost (bench/timeline_cost.js);
# also the last part of `make bench`.
timeline-cost:
	$(NODE) bench/timeline_cost.js

# What an allocation in a side module costs against one in the main module
# of a -sMAIN_MODULE program, with emheap and without
# (bench/side_module_cost.js); also the last part of `make bench`. Each
# build in a folder of its own, the side module beside it.
SIDE_COST := $(BENCH_OUT)/side-module
SIDE_COST_SRC := bench/workloads/dylink_churn.c bench/workloads/churn.h
side-module-cost: $(SIDE_COST)/plain/main.js $(SIDE_COST)/emheap/main.js
	$(NODE) bench/side_module_cost.js $(SIDE_COST)/plain $(SIDE_COST)/emheap
$(SIDE_COST)/%/side_churn.wasm: bench/workloads/side_churn.c bench/workloads/churn.h
	@mkdir -p $(dir $@)
	$(EMCC) -O2 -fno-builtin -sSIDE_MODULE=1 --profiling-funcs $< -o $@
$(SIDE_COST)/plain/main.js: $(SIDE_COST_SRC) $(SIDE_COST)/plain/side_churn.wasm
	cd $(dir $@) && $(EMCC) -O2 -fno-builtin -sMAIN_MODULE=2 $(CURDIR)/$< side_churn.wasm -o main.js
$(SIDE_COST)/emheap/main.js: $(SIDE_COST_SRC) $(SIDE_COST)/emheap/side_churn.wasm $(B)/emheap-pic.o $(B)/library_emheap.js $(PAGE_JS)
	cd $(dir $@) && $(EMCC) -O2 -fno-builtin -sMAIN_MODULE=2 $(CURDIR)/$< side_churn.wasm \
	  `$(CURDIR)/bin/emheap-config --ldflags --main-module` -o main.js

# What an allocator call costs in wasm64 against wasm32, each without
# emheap, forwarding only and in exact mode (bench/wasm64_cost.js), where
# the emcc links wasm64 (tests/tests.mk wasm64.check says why not
# elsewhere); also the last part of `make bench`. Linked as a user links,
# with bin/emheap-config.
WASM64_COST := $(BENCH_OUT)/wasm64
WASM64_BUILDS := $(foreach w,wasm32 wasm64,$(foreach c,plain off exact,$(WASM64_COST)/$(w)-$(c).js))
WASM64_FLAG = $$(EMCC=$(EMCC) $(NODE) runtime/build.js --memory64-flag)
wasm64-cost: $(TEST_BUILD)/wasm64.check
	@if [ "$$(cat $<)" = yes ]; then $(MAKE) --no-print-directory $(WASM64_BUILDS) && \
	  $(NODE) bench/wasm64_cost.js $(WASM64_COST) $(MEMORY64_NODE); \
	else echo "wasm64-cost: not run: $$(cat $<)"; fi
$(WASM64_COST)/wasm32-plain.js $(WASM64_COST)/wasm64-plain.js: $(WASM64_COST)/%-plain.js: bench/workloads/width_churn.c bench/workloads/churn.h
	@mkdir -p $(dir $@)
	$(EMCC) -O2 -fno-builtin $(if $(filter wasm64,$*),$(WASM64_FLAG)) $< -o $@
$(WASM64_COST)/wasm32-%.js: bench/workloads/width_churn.c bench/workloads/churn.h $(B)/emheap.o $(RUNTIME_EXTRAS) $(B)/library_emheap.js $(PAGE_JS) $(wildcard runtime/*.c) $(RUNTIME_HDR)
	@mkdir -p $(dir $@)
	$(EMCC) -O2 -fno-builtin $< $$(EMCC=$(EMCC) bin/emheap-config --ldflags --mode=$*) -o $@
$(WASM64_COST)/wasm64-%.js: bench/workloads/width_churn.c bench/workloads/churn.h $(B)/emheap.o $(RUNTIME_EXTRAS) $(B)/library_emheap.js $(PAGE_JS) $(wildcard runtime/*.c) $(RUNTIME_HDR)
	@mkdir -p $(dir $@)
	$(EMCC) -O2 -fno-builtin $(WASM64_FLAG) $< $$(EMCC=$(EMCC) bin/emheap-config --ldflags --wasm64 --mode=$*) -o $@

# What a growth of the wasm memory costs: the pass over the sites that
# ranks them (bench/growth_scan.c), timed under node.
growth-scan: $(BENCH_OUT)/growth_scan.js
	$(NODE) --no-experimental-fetch $<
$(BENCH_OUT)/growth_scan.js: bench/growth_scan.c runtime/site_table.c $(RUNTIME_HDR)
	@mkdir -p $(dir $@)
	$(EMCC) -O2 -Iruntime bench/growth_scan.c runtime/site_table.c -sALLOW_MEMORY_GROWTH=1 -o $@
