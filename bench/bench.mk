# Benchmarks: `make bench` (included from the Makefile). Builds the workloads
# in bench/workloads/ in every configuration and prints one table; see
# bench/README.md. Everything goes to build/bench/.
#
# SQLite and Lua are third-party code this project does not ship
# (third_party/third_party.mk fetches them). If that fails, their rows show
# the error and the rest of the bench still runs; so does a runtime that does
# not build right now (the emheap rows show it).

BENCH_OUT := $(B)/bench

.PHONY: bench growth-scan timeline-cost side-module-cost

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

# What a growth of the wasm memory costs: the pass over the sites that
# ranks them (bench/growth_scan.c), timed under node.
growth-scan: $(BENCH_OUT)/growth_scan.js
	$(NODE) --no-experimental-fetch $<
$(BENCH_OUT)/growth_scan.js: bench/growth_scan.c runtime/site_table.c $(RUNTIME_HDR)
	@mkdir -p $(dir $@)
	$(EMCC) -O2 -Iruntime bench/growth_scan.c runtime/site_table.c -sALLOW_MEMORY_GROWTH=1 -o $@
