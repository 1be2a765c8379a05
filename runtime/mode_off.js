// mode_off.js -- the --pre-js that `emheap-config --mode=off` adds beside
// emheap_mode_off.o: the JS library learns the link line's mode before the
// module loads (exact mode rewrites the module for calling contexts then).
Module['emheapLinkMode'] = 'off';
