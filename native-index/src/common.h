// What the addon's index loops share: typed arrays' memory, the wall clock of a JavaScript deadline,
// and the k best of many items.
#pragma once
#include <napi.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <vector>

namespace refrain {

/**
 * The elements of a typed array of `type` (over an ArrayBuffer or a SharedArrayBuffer: an index
 * generation's buffers are shared, which Napi::ArrayBuffer does not read), or false when `value` is
 * no such array; the caller throws its own error.
 */
template <typename T>
bool TypedArrayData(Napi::Env env, Napi::Value value, napi_typedarray_type type, const T** data, size_t* length) {
  napi_typedarray_type actual;
  void* bytes = nullptr;
  if (!value.IsTypedArray() || napi_get_typedarray_info(env, value, &actual, length, &bytes, nullptr, nullptr) != napi_ok || actual != type) {
    return false;
  }
  *data = static_cast<const T*>(bytes);
  return true;
}

/** Milliseconds since the epoch, as JavaScript's Date.now() reads a deadline. */
inline double NowMs() {
  return static_cast<double>(std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count());
}

/**
 * The `k` best of many items (src/index/kernel/topk.ts): a heap whose front is the worst kept.
 * `Better(a, b)` says whether a ranks above b; with distinct items the k kept do not depend on the
 * order they came in.
 */
template <typename T, typename Better>
class TopK {
 public:
  explicit TopK(size_t k) : k_(k) { items_.reserve(k); }

  void Push(const T& item) {
    if (items_.size() < k_) {
      items_.push_back(item);
      std::push_heap(items_.begin(), items_.end(), better_);
    } else if (k_ > 0 && better_(item, items_.front())) {
      std::pop_heap(items_.begin(), items_.end(), better_);
      items_.back() = item;
      std::push_heap(items_.begin(), items_.end(), better_);
    }
  }

  /** The items kept, best first (the heap is left sorted). */
  std::vector<T>& Sorted() {
    std::sort(items_.begin(), items_.end(), better_);
    return items_;
  }

 private:
  size_t k_;
  std::vector<T> items_;
  Better better_;
};

}  // namespace refrain
