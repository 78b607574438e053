// track.search's scoring loop over the per-track columns (see rank.cc).
#pragma once
#include <napi.h>

namespace refrain {

Napi::Value RankTracks(const Napi::CallbackInfo& info);

}  // namespace refrain
