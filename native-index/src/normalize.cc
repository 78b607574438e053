// normalize.ts normalizeNarrow in C++ (see normalize.h): the same loop over the same table.
#include "normalize.h"

#include "common.h"

namespace refrain {

namespace {

// The table's codes besides an output code unit (normalize.ts SPACE, DROP, MULTI, WIDE).
constexpr int32_t kSpace = 32;
constexpr int32_t kMulti = -2;
constexpr int32_t kWide = -3;
// Characters past the table that are dropped all the same (’ and ʼ, as normalize.ts foldLatin).
constexpr char16_t kRightQuote = 0x2019;
constexpr char16_t kModifierApostrophe = 0x02bc;

}  // namespace

Napi::Function NarrowFolder::Define(Napi::Env env) {
  return DefineClass(env, "NarrowFolder", {InstanceMethod<&NarrowFolder::Fold>("fold")});
}

// new NarrowFolder(codes: Int32Array, multi: string[]): normalize.ts NARROW_CODE and, for each
// character whose code is MULTI, its output (every code unit below U+0100); other entries ignored.
NarrowFolder::NarrowFolder(const Napi::CallbackInfo& info) : Napi::ObjectWrap<NarrowFolder>(info) {
  Napi::Env env = info.Env();
  const int32_t* codes;
  size_t count;
  if (info.Length() < 2 || !TypedArrayData(env, info[0], napi_int32_array, &codes, &count) || !info[1].IsArray() || count == 0 || count > 0x10000) {
    Napi::TypeError::New(env, "NarrowFolder takes (codes: Int32Array, multi: string[])").ThrowAsJavaScriptException();
    return;
  }
  codes_.assign(codes, codes + count);
  for (const int32_t code : codes_) {
    if (code > 0xff || code < kWide) {
      Napi::TypeError::New(env, "NarrowFolder: a code past U+00FF").ThrowAsJavaScriptException();
      return;
    }
  }
  multi_.resize(count);
  Napi::Array multi = info[1].As<Napi::Array>();
  for (size_t c = 0; c < count; c++) {
    if (codes_[c] != kMulti) continue;
    Napi::Value value = c < multi.Length() ? multi.Get(static_cast<uint32_t>(c)) : env.Undefined();
    if (!value.IsString()) {
      Napi::TypeError::New(env, "NarrowFolder: a MULTI character without its output").ThrowAsJavaScriptException();
      return;
    }
    for (const char16_t unit : value.As<Napi::String>().Utf16Value()) {
      if (unit > 0xff) {
        Napi::TypeError::New(env, "NarrowFolder: a MULTI output past U+00FF").ThrowAsJavaScriptException();
        return;
      }
      multi_[c].push_back(static_cast<char>(unit));
    }
    longest_ = std::max(longest_, multi_[c].size());
  }
}

// fold(text): the text's normal form as normalize.ts normalizeNarrow gives it, or undefined when a
// character's is not all below U+0100 (the caller then takes the general path).
Napi::Value NarrowFolder::Fold(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsString()) {
    Napi::TypeError::New(env, "fold takes a string").ThrowAsJavaScriptException();
    return env.Undefined();
  }
  size_t length = 0;
  napi_get_value_string_utf16(env, info[0], nullptr, 0, &length);
  text_.resize(length + 1);
  napi_get_value_string_utf16(env, info[0], text_.data(), length + 1, &length);
  out_.resize(length * longest_ + 1);
  // Locals, not members: a store through `out` may alias any member, which would be read again on
  // every character.
  const char16_t* text = text_.data();
  const int32_t* codes = codes_.data();
  const std::string* multi = multi_.data();
  char* out = out_.data();
  const size_t limit = codes_.size();
  size_t n = 0;
  bool space = true;
  for (size_t i = 0; i < length; i++) {
    const char16_t c = text[i];
    if (c >= limit) {
      if (c == kRightQuote || c == kModifierApostrophe) continue;
      return env.Undefined();
    }
    const int32_t code = codes[c];
    if (code >= 0) {
      // An output code unit or kSpace (which is ' '), without a branch on which: a space is kept
      // only after a character that is not one.
      const bool isSpace = code == kSpace;
      out[n] = static_cast<char>(code);
      n += !(isSpace && space);
      space = isSpace;
    } else if (code == kMulti) {
      for (const char unit : multi[c]) out[n++] = unit;
      space = false;
    } else if (code == kWide) {
      return env.Undefined();
    }
  }
  if (n > 0 && out[n - 1] == ' ') n--;
  napi_value result;
  napi_create_string_latin1(env, out, n, &result);
  return Napi::Value(env, result);
}

}  // namespace refrain
