// LZ4 block compression against a fixed dictionary, the dictionary loaded once (see lz4-dictionary.cc).
#pragma once
#include <napi.h>
#include <vector>
#include "lz4.h"

namespace refrain {

class Lz4Dictionary : public Napi::ObjectWrap<Lz4Dictionary> {
 public:
  static Napi::Function Define(Napi::Env env);
  explicit Lz4Dictionary(const Napi::CallbackInfo& info);

 private:
  Napi::Value CompressInto(const Napi::CallbackInfo& info);

  /** The dictionary's bytes: LZ4 refers to them, not to a copy of its own. */
  std::vector<char> dictionary_;
  /** The dictionary loaded (hashed) once; each value's stream attaches it instead of loading it again. */
  LZ4_stream_t loaded_;
  LZ4_stream_t work_;
};

}  // namespace refrain
