// The intersection of word clauses over stored posting lists and arrays (see intersect.cc).
#pragma once
#include <napi.h>

namespace refrain {

Napi::Value Intersect(const Napi::CallbackInfo& info);

}  // namespace refrain
