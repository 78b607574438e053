// The intersection of word clauses over stored posting lists and arrays, and the documents of a few
// held by every one of some stored lists (see intersect.cc).
#pragma once
#include <napi.h>

namespace refrain {

Napi::Value Intersect(const Napi::CallbackInfo& info);
Napi::Value HoldingEvery(const Napi::CallbackInfo& info);

}  // namespace refrain
