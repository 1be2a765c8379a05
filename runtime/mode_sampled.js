// mode_sampled.js -- the --pre-js that `emheap-config --mode=sampled` adds beside
// emheap_mode_sampled.o: the JS library learns the link line's mode before the
// module loads (exact mode rewrites the module for calling contexts then).
Module['emheapLinkMode'] = 'sampled';
