/* The LZ4 library, compiled into the addon from the sources lmdb ships (lz4-dir.cjs finds them). */
#include "lz4.c"
