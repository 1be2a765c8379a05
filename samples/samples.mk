# Sample apps. Each is built twice: with emheap (what a user does: one
# addition to the link line) and without it (the control for the tests).

SAMPLE_BUILD := $(B)/samples
# A web app's own link flags; emheap adds $(EMHEAP_LDFLAGS) and nothing else.
# -gsource-map: emheap reads the map, so frames show leaky.c:LINE.
LEAKY_FLAGS := -O2 -gsource-map --source-map-base ./ -sALLOW_MEMORY_GROWTH=1 -sMINIFY_HTML=0 \
  -sEXPORTED_RUNTIME_METHODS=ccall --shell-file samples/leaky-canvas/shell.html

samples: $(SAMPLE_BUILD)/leaky-canvas/index.html $(SAMPLE_BUILD)/leaky-canvas-plain/index.html \
  $(SAMPLE_BUILD)/leaky-canvas-module/index.html

$(SAMPLE_BUILD)/leaky-canvas/index.html: samples/leaky-canvas/leaky.c samples/leaky-canvas/shell.html $(B)/emheap.o $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(EMCC) $< $(LEAKY_FLAGS) $(EMHEAP_LDFLAGS) -o $@

$(SAMPLE_BUILD)/leaky-canvas-plain/index.html: samples/leaky-canvas/leaky.c samples/leaky-canvas/shell.html
	@mkdir -p $(dir $@)
	$(EMCC) $< $(LEAKY_FLAGS) -o $@

# The same app as an ES module factory (-sMODULARIZE -sEXPORT_ES6), the way
# bundler-based apps ship: no global Module, a page of its own imports it.
$(SAMPLE_BUILD)/leaky-canvas-module/index.html: samples/leaky-canvas/module.html $(SAMPLE_BUILD)/leaky-canvas-module/leaky.mjs
	cp $< $@

$(SAMPLE_BUILD)/leaky-canvas-module/leaky.mjs: samples/leaky-canvas/leaky.c $(B)/emheap.o $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(EMCC) $< -O2 -gsource-map --source-map-base ./ -sALLOW_MEMORY_GROWTH=1 -sMODULARIZE=1 -sEXPORT_ES6=1 \
	  -sEXPORT_NAME=createLeaky -sEXPORTED_FUNCTIONS=_main,_leak_memory,_free_leaked,_leaked_blocks \
	  $(EMHEAP_LDFLAGS) -o $@
