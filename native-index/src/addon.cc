// Refrain's native addon (native-index/README.md): what it exports, each with a TypeScript
// implementation beside it that stays the reference and the fallback.
#include <napi.h>

#include "fingerprint.h"
#include "intersect.h"
#include "rank.h"
#include "lz4-dictionary.h"
#include "normalize.h"

namespace {

// What src/util/native.ts expects (NATIVE_VERSION there): raised whenever an export changes, so an
// addon built from older sources (a pull without `npm run build:native`) is not used.
constexpr int kVersion = 7;

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  exports.Set("version", Napi::Number::New(env, kVersion));
  exports.Set("Lz4Dictionary", refrain::Lz4Dictionary::Define(env));
  exports.Set("FingerprintVotes", refrain::FingerprintVotes::Define(env));
  exports.Set("QueryGrams", refrain::QueryGrams::Define(env));
  exports.Set("NarrowFolder", refrain::NarrowFolder::Define(env));
  exports.Set("intersect", Napi::Function::New<refrain::Intersect>(env, "intersect"));
  exports.Set("holdingEvery", Napi::Function::New<refrain::HoldingEvery>(env, "holdingEvery"));
  exports.Set("rankTracks", Napi::Function::New<refrain::RankTracks>(env, "rankTracks"));
  return exports;
}

}  // namespace

NODE_API_MODULE(refrain_native, Init)
