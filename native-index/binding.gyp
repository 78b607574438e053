{
  "targets": [
    {
      "target_name": "refrain_native",
      "sources": ["src/addon.cc", "src/fingerprint.cc", "src/intersect.cc", "src/rank.cc", "src/normalize.cc", "src/lz4-dictionary.cc", "src/lz4-lib.c"],
      "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")", "<!(node lz4-dir.cjs)"],
      "defines": ["NAPI_VERSION=8", "NODE_ADDON_API_DISABLE_CPP_EXCEPTIONS", "LZ4LIB_VISIBILITY="],
      "cflags": ["-O3", "-fvisibility=hidden", "-ffp-contract=off"],
      "cflags_cc": ["-O3", "-std=c++17", "-fvisibility=hidden", "-ffp-contract=off"]
    }
  ]
}
