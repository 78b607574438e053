// LZ4 block compression against a fixed dictionary: the import's content records and track records
// are compressed as lmdb-js stores them (the header is written by the caller, src/util/lz4.ts).
//
// lmdb-js loads a database's dictionary into its compressor before every value (LZ4_loadDict hashes
// its positions). Here the dictionary is loaded once, thoroughly (LZ4_loadDictSlow: every third
// position, then the empty slots filled from the rest; LZ4_loadDict's every third position alone left
// the 1M catalog 1.5% larger), and each value starts a fresh stream that attaches it
// (LZ4_attach_dictionary: a pointer, no hashing), so a value costs only its own bytes.
#include "lz4-dictionary.h"

#include <cstring>

namespace refrain {

namespace {

/** A Uint8Array argument's bytes, or an empty span with a JS TypeError pending. */
bool BytesOf(const Napi::CallbackInfo& info, size_t index, const char* what, uint8_t** data, size_t* length) {
  if (info.Length() <= index || !info[index].IsTypedArray() ||
      info[index].As<Napi::TypedArray>().TypedArrayType() != napi_uint8_array) {
    Napi::TypeError::New(info.Env(), std::string(what) + " must be a Uint8Array").ThrowAsJavaScriptException();
    return false;
  }
  Napi::Uint8Array array = info[index].As<Napi::Uint8Array>();
  *data = array.Data();
  *length = array.ByteLength();
  return true;
}

/** An offset argument: a whole number from 0 to `limit`, or false with a JS RangeError pending. */
bool OffsetOf(const Napi::CallbackInfo& info, size_t index, size_t limit, size_t* offset) {
  if (info.Length() <= index || !info[index].IsNumber()) {
    Napi::TypeError::New(info.Env(), "offset must be a number").ThrowAsJavaScriptException();
    return false;
  }
  double value = info[index].As<Napi::Number>().DoubleValue();
  if (!(value >= 0) || value > static_cast<double>(limit) || value != static_cast<double>(static_cast<size_t>(value))) {
    Napi::RangeError::New(info.Env(), "offset must be a whole number within the output").ThrowAsJavaScriptException();
    return false;
  }
  *offset = static_cast<size_t>(value);
  return true;
}

}  // namespace

Napi::Function Lz4Dictionary::Define(Napi::Env env) {
  return DefineClass(env, "Lz4Dictionary",
                     {InstanceMethod<&Lz4Dictionary::CompressInto>("compressInto")});
}

Lz4Dictionary::Lz4Dictionary(const Napi::CallbackInfo& info) : Napi::ObjectWrap<Lz4Dictionary>(info) {
  uint8_t* data;
  size_t length;
  if (!BytesOf(info, 0, "the dictionary", &data, &length)) return;
  // LZ4 uses at most the last 64 KiB of a dictionary.
  const size_t kept = length > 65536 ? 65536 : length;
  dictionary_.assign(reinterpret_cast<char*>(data) + (length - kept), reinterpret_cast<char*>(data) + length);
  LZ4_initStream(&loaded_, sizeof(loaded_));
  LZ4_loadDictSlow(&loaded_, dictionary_.data(), static_cast<int>(dictionary_.size()));
  LZ4_initStream(&work_, sizeof(work_));
}

// compressInto(value, out, offset): the LZ4 block of `value` written at out[offset..], its matches
// reaching back into the dictionary as if it preceded the value; returns the block's length, or -1
// when `out` has no room for it (the caller sizes it from LZ4's bound: n + n / 255 + 16).
Napi::Value Lz4Dictionary::CompressInto(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  uint8_t *value, *out;
  size_t valueLength, outLength, offset;
  if (!BytesOf(info, 0, "the value", &value, &valueLength) || !BytesOf(info, 1, "the output", &out, &outLength) ||
      !OffsetOf(info, 2, outLength, &offset)) {
    return env.Undefined();
  }
  if (valueLength > static_cast<size_t>(LZ4_MAX_INPUT_SIZE)) {
    Napi::RangeError::New(env, "the value is larger than LZ4 compresses").ThrowAsJavaScriptException();
    return env.Undefined();
  }
  const size_t room = outLength - offset;
  const int capacity = room > static_cast<size_t>(INT32_MAX) ? INT32_MAX : static_cast<int>(room);
  LZ4_resetStream_fast(&work_);
  LZ4_attach_dictionary(&work_, &loaded_);
  const int written = LZ4_compress_fast_continue(&work_, reinterpret_cast<const char*>(value),
                                                 reinterpret_cast<char*>(out + offset),
                                                 static_cast<int>(valueLength), capacity, 1);
  // A block is at least one byte (its token), so 0 means LZ4 found no room.
  return Napi::Number::New(env, written > 0 ? written : -1);
}

}  // namespace refrain
