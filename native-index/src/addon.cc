// Refrain's native addon (native-index/README.md): what it exports, each with a TypeScript
// implementation beside it that stays the reference and the fallback.
#include <napi.h>

#include "lz4-dictionary.h"

namespace {

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  exports.Set("Lz4Dictionary", refrain::Lz4Dictionary::Define(env));
  return exports;
}

}  // namespace

NODE_API_MODULE(refrain_native, Init)
