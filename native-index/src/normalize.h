// Text normalisation's fast path in C++ (src/index/kernel/normalize.ts normalizeNarrow): text whose
// normal form is all below U+0100, folded through the table the TypeScript module builds and hands
// over, so both give the same strings by construction.
#pragma once
#include <napi.h>

#include <cstdint>
#include <string>
#include <vector>

namespace refrain {

class NarrowFolder : public Napi::ObjectWrap<NarrowFolder> {
 public:
  static Napi::Function Define(Napi::Env env);
  explicit NarrowFolder(const Napi::CallbackInfo& info);

 private:
  Napi::Value Fold(const Napi::CallbackInfo& info);

  /** Per character below the table's end: the output code unit, or one of the codes below. */
  std::vector<int32_t> codes_;
  /** A MULTI character's output (below U+0100), by character. */
  std::vector<std::string> multi_;
  size_t longest_ = 1;
  std::u16string text_;
  std::string out_;
};

}  // namespace refrain
