# emheap build. `make` builds the runtime, the JS library and the samples;
# `make test` runs every test; `make serve` serves the sample on localhost.
# Everything generated goes to build/.

EMCC ?= emcc
NODE ?= node
# Debian's emcc runs its JS tools with the machine's node, which does not
# search Debian's module folder (acorn): see ../shared/TOOLCHAIN.md.
export NODE_PATH := /usr/share/nodejs$(if $(NODE_PATH),:$(NODE_PATH))
# Emscripten 3.1.6 output under node 20 needs this to load its .wasm.
NODE_RUN := $(NODE) --no-experimental-fetch

B := build
# The core runtime; the shadow-stack hooks and the link-time mode choices
# are separate objects that emheap-config adds on request. Everything that
# touches thread-local or shared state is built twice: for single-threaded
# programs, and with -pthread (atomics, a lock) for threaded ones
# (`emheap-config --pthread`); objects built with atomics cannot be linked
# into a program without shared memory.
RUNTIME_CORE := alloc_hooks allocator block_table record roots sampler site_table stack_capture state table_memory \
  thread_exit
RUNTIME_HDR := $(wildcard runtime/*.h)
RUNTIME_OBJ := $(patsubst %,$(B)/obj/%.o,$(RUNTIME_CORE))
RUNTIME_OBJ_MT := $(patsubst %,$(B)/obj-mt/%.o,$(RUNTIME_CORE))
RUNTIME_EXTRAS := $(B)/emheap_shadow.o $(B)/emheap-mt.o $(B)/emheap_shadow-mt.o \
  $(B)/emheap_mode_exact.o $(B)/emheap_mode_sampled.o $(B)/emheap_mode_off.o
RUNTIME_CFLAGS := -O2 -std=c11 -Wall -Wextra -Werror -fno-builtin-malloc -fno-builtin-free

JSLIB_SRC := jslib/library_emheap.js jslib/bundle.js $(wildcard jslib/*.js) $(wildcard formats/*.js) \
  $(wildcard model/*.js)
SHELL_JS := shell/emheap-shell.js

# What `bin/emheap-config --ldflags` prints, spelled with relative paths.
EMHEAP_LDFLAGS = $(B)/emheap.o --js-library $(B)/library_emheap.js --extern-post-js $(SHELL_JS) --profiling-funcs

.PHONY: all runtime samples test test-node test-browser serve clean
all: runtime samples

runtime: $(B)/emheap.o $(RUNTIME_EXTRAS) $(B)/library_emheap.js

$(B)/obj/%.o: runtime/%.c $(RUNTIME_HDR)
	@mkdir -p $(dir $@)
	$(EMCC) $(RUNTIME_CFLAGS) -c $< -o $@

$(B)/obj-mt/%.o: runtime/%.c $(RUNTIME_HDR)
	@mkdir -p $(dir $@)
	$(EMCC) $(RUNTIME_CFLAGS) -pthread -c $< -o $@

# One relocatable object, not an archive: an archive member defining malloc
# would only be pulled in if malloc were still undefined when the linker
# reached it, so apps that allocate only through libc/libc++ would silently
# go untracked. Objects on the command line are always linked.
$(B)/emheap.o: $(RUNTIME_OBJ)
	$(EMCC) -r $^ -o $@

$(B)/emheap-mt.o: $(RUNTIME_OBJ_MT)
	$(EMCC) -pthread -r $^ -o $@

$(B)/emheap_shadow.o: $(B)/obj/shadow_stack.o
	cp $< $@

$(B)/emheap_shadow-mt.o: $(B)/obj-mt/shadow_stack.o
	cp $< $@

$(B)/emheap_mode_%.o: $(B)/obj/mode_%.o
	cp $< $@

$(B)/library_emheap.js: $(JSLIB_SRC)
	$(NODE) jslib/bundle.js $@

include samples/samples.mk
include tests/tests.mk
include bench/bench.mk

serve: samples
	$(NODE) tests/lib/serve.js $(B)/samples

clean:
	rm -rf $(B)
