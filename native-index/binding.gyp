{
  "targets": [
    {
      "target_name": "refrain_native",
      "sources": ["src/addon.cc", "src/lz4-dictionary.cc", "src/lz4-lib.c"],
      "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")", "<!(node lz4-dir.cjs)"],
      "defines": ["NAPI_VERSION=8", "NODE_ADDON_API_DISABLE_CPP_EXCEPTIONS"],
      "cflags": ["-O3"],
      "cflags_cc": ["-O3", "-std=c++17"]
    }
  ]
}
