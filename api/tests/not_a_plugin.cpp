// A shared library that is not an osvs plugin (no entry point), for the loader's error path.
extern "C" int osvs_not_a_plugin_marker() {
  return 1;
}
