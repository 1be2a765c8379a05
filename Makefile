# emheap build. `make` builds the runtime, the JS library and the samples;
# `make test` runs every test; `make serve` serves the sample on localhost.
# Everything generated goes to build/.

EMCC ?= emcc
# C++ links need em++ (Emscripten 6.0.6 and later no longer link libc++ for emcc)
EMXX ?= $(patsubst %emcc,%em++,$(EMCC))
NODE ?= node
# Debian's emcc runs its JS tools with the machine's node, which does not
# search Debian's module folder (acorn): see ../shared/TOOLCHAIN.md.
export NODE_PATH := /usr/share/nodejs$(if $(NODE_PATH),:$(NODE_PATH))
# Emscripten 3.1.6 output under node 20 needs this to load its .wasm.
NODE_RUN := $(NODE) --no-experimental-fetch

B := build
# What the runtime is made of: the lists live in runtime/build.js, which an
# npm install uses to build the runtime without make (bin/emheap-config).
# The core runtime; the link-time mode choices are separate objects that
# emheap-config adds on request. Everything that
# touches thread-local or shared state is built twice: for single-threaded
# programs, and with -pthread (atomics, a lock) for threaded ones
# (`emheap-config --pthread`), and once more position-independent for
# -sMAIN_MODULE programs (`emheap-config --main-module`).
RUNTIME_CORE := $(shell $(NODE) runtime/build.js --print core)
RUNTIME_MODES := $(shell $(NODE) runtime/build.js --print modes)
RUNTIME_HDR := $(wildcard runtime/*.h)
RUNTIME_OBJ := $(patsubst %,$(B)/obj/%.o,$(RUNTIME_CORE))
RUNTIME_OBJ_MT := $(patsubst %,$(B)/obj-mt/%.o,$(RUNTIME_CORE))
RUNTIME_OBJ_PIC := $(patsubst %,$(B)/obj-pic/%.o,$(RUNTIME_CORE) $(shell $(NODE) runtime/build.js --print pic-only))
RUNTIME_EXTRAS := $(B)/emheap-mt.o $(B)/emheap-pic.o \
  $(patsubst %,$(B)/emheap_mode_%.o,$(RUNTIME_MODES)) $(patsubst %,$(B)/emheap_mode_%-pic.o,$(RUNTIME_MODES))
# A checkout builds with -Werror; an npm install (build.js) does not, since
# the user's emcc may warn about what this one does not.
RUNTIME_CFLAGS := $(shell $(NODE) runtime/build.js --print cflags) -Werror

JSLIB_SRC := jslib/library_emheap.js jslib/bundle.js $(wildcard jslib/*.js) $(wildcard capture/*.js) \
  $(wildcard contexts/*.js) $(wildcard formats/*.js) \
  $(wildcard model/*.js) $(wildcard output/*.js) $(wildcard symbolize/*.js) shell/emheap-shell.js
# The page code and key bindings (--extern-pre-js), written with the library.
PAGE_JS := $(B)/emheap_page.js

# What `bin/emheap-config --ldflags` prints, spelled with relative paths.
EMHEAP_LDFLAGS = $(B)/emheap.o --js-library $(B)/library_emheap.js --extern-pre-js $(PAGE_JS) --profiling-funcs

.PHONY: all runtime samples test serve clean test-emscripten-current layout
all: runtime samples

runtime: $(B)/emheap.o $(RUNTIME_EXTRAS) $(B)/library_emheap.js $(PAGE_JS)

$(B)/obj/%.o: runtime/%.c $(RUNTIME_HDR) runtime/build.js
	@mkdir -p $(dir $@)
	$(EMCC) $(RUNTIME_CFLAGS) -c $< -o $@

$(B)/obj-mt/%.o: runtime/%.c $(RUNTIME_HDR) runtime/build.js
	@mkdir -p $(dir $@)
	$(EMCC) $(RUNTIME_CFLAGS) -pthread -c $< -o $@

$(B)/obj-pic/%.o: runtime/%.c $(RUNTIME_HDR) runtime/build.js
	@mkdir -p $(dir $@)
	$(EMCC) $(RUNTIME_CFLAGS) -fPIC -c $< -o $@

# One relocatable object, not an archive: see runtime/build.js.
$(B)/emheap.o: $(RUNTIME_OBJ)
	$(EMCC) -r $^ -o $@

$(B)/emheap-mt.o: $(RUNTIME_OBJ_MT)
	$(EMCC) -pthread -r $^ -o $@

$(B)/emheap-pic.o: $(RUNTIME_OBJ_PIC)
	$(EMCC) -r $^ -o $@

$(B)/emheap_mode_%-pic.o: $(B)/obj-pic/mode_%.o
	cp $< $@

$(B)/emheap_mode_%.o: $(B)/obj/mode_%.o
	cp $< $@

$(B)/library_emheap.js: $(JSLIB_SRC)
	$(NODE) jslib/bundle.js $@

# The C-to-JS memory contract: the offsets, sizes and constants JS reads,
# as emcc lays out the runtime's structs (runtime/layout.js). Checked in,
# for npm installs; made again when a header changes.
capture/layout_generated.js: runtime/layout_info.c runtime/layout.js runtime/build.js $(RUNTIME_HDR)
	$(NODE) runtime/layout.js capture
layout: capture/layout_generated.js

$(PAGE_JS): $(B)/library_emheap.js

include third_party/third_party.mk
include samples/samples.mk
include tests/tests.mk
include bench/bench.mk

serve: samples
	$(NODE) harness/serve.js $(B)/samples

clean:
	rm -rf $(B)

# Every test again with a newer Emscripten: EMCC_CURRENT is the emcc that
# tools/emscripten-current.sh prints (it needs the network once, so neither
# setup.sh nor `make test` runs it). Without one, a message and nothing else.
EMCC_CURRENT ?=
test-emscripten-current:
	@if [ -z "$(EMCC_CURRENT)" ]; then \
	  echo "test-emscripten-current: skipped: give EMCC_CURRENT=... (tools/emscripten-current.sh EMSCRIPTEN_GIT_DIR prints one)"; \
	else tools/test-with-emcc.sh "$(EMCC_CURRENT)" test; fi
