// The intersection of word clauses for track.search, artist.search and the matcher (kernel/posting-ops.ts
// intersect): the documents in every clause, their weights summed, smallest clause first. The same
// answer as the TypeScript reference, weights rounded to float32 where it stores them in a
// Float32Array. Stored lists are read in place, block by block (packed.ts); the blocks a clause
// names are checked against its columns before any is read.
#include "intersect.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "common.h"
#include "fingerprint.h"

namespace refrain {

namespace {

/** One clause as given: a stored list (packed columns, positions [start, start + length)) or an array. */
struct Clause {
  bool packed = false;
  PackedShard shard;
  uint32_t start = 0;
  uint32_t length = 0;
  const uint32_t* array = nullptr;
  /** A stored list's columns: blocks (of bases, widths and starts alike) and bytes of data. */
  size_t blocks = 0;
  size_t bytes = 0;
  /** One weight for every document, or one per document (float32, `length` of them). */
  bool scalar = true;
  double weight = 0;
  const float* weights = nullptr;

  uint32_t At(uint32_t i) const { return packed ? shard.At(start + i) : array[i]; }
  double WeightAt(uint32_t i) const { return scalar ? weight : weights[i]; }
};

/** The running intersection: the documents and weights kept so far. */
struct Result {
  std::vector<uint32_t> docs;
  bool scalar = true;
  double weight = 0;
  std::vector<float> weights;
  double WeightAt(size_t i) const { return scalar ? weight : weights[i]; }
};

bool Fail(Napi::Env env, const std::string& what) {
  Napi::TypeError::New(env, "intersect: " + what).ThrowAsJavaScriptException();
  return false;
}

/**
 * A clause from [bases, widths, starts, data, start, length, weights] (a stored list) or [docs,
 * weights] (an array); the blocks of a stored list's positions checked against its columns, unless
 * `checkBlocks` is false (its reader checks each block it reads: CheckedList).
 */
bool ClauseOf(Napi::Env env, Napi::Value value, Clause* clause, bool checkBlocks = true) {
  if (!value.IsArray()) return Fail(env, "a clause must be an array");
  Napi::Array parts = value.As<Napi::Array>();
  Napi::Value weights;
  if (parts.Length() == 7) {
    size_t blocks, widths, starts, bytes;
    if (!TypedArrayData(env, parts.Get(0u), napi_uint32_array, &clause->shard.bases, &blocks) ||
        !TypedArrayData(env, parts.Get(1u), napi_uint8_array, &clause->shard.widths, &widths) ||
        !TypedArrayData(env, parts.Get(2u), napi_uint32_array, &clause->shard.starts, &starts) ||
        !TypedArrayData(env, parts.Get(3u), napi_uint8_array, &clause->shard.data, &bytes)) {
      return Fail(env, "a stored list's columns have the wrong types");
    }
    const double start = parts.Get(4u).ToNumber().DoubleValue();
    const double length = parts.Get(5u).ToNumber().DoubleValue();
    if (!(start >= 0 && length >= 0 && start + length <= 4294967295.0) || start != std::floor(start) || length != std::floor(length)) {
      return Fail(env, "a stored list's place is not whole numbers");
    }
    clause->packed = true;
    clause->start = static_cast<uint32_t>(start);
    clause->length = static_cast<uint32_t>(length);
    if (reinterpret_cast<uintptr_t>(clause->shard.data) % 4 != 0) return Fail(env, "a stored list's data is not aligned to 4 bytes");
    if (widths != blocks || starts != blocks) return Fail(env, "a stored list's columns disagree on its blocks");
    clause->blocks = blocks;
    clause->bytes = bytes;
    if (checkBlocks && clause->length > 0) {
      const uint64_t first = clause->start;
      const uint64_t last = first + clause->length - 1;
      if ((last >> 7) >= blocks) return Fail(env, "a stored list past its blocks");
      for (uint64_t b = first >> 7; b <= (last >> 7); b++) {
        const uint32_t width = clause->shard.widths[b];
        if (width != 1 && width != 2 && width != 4) return Fail(env, "a block of width " + std::to_string(width));
        const uint64_t end = std::min(last, b * 128 + 127) & 127;
        if ((static_cast<uint64_t>(clause->shard.starts[b]) + end + 1) * width > bytes) return Fail(env, "a block past the data");
      }
    }
    weights = parts.Get(6u);
  } else if (parts.Length() == 2) {
    size_t length;
    if (!TypedArrayData(env, parts.Get(0u), napi_uint32_array, &clause->array, &length)) return Fail(env, "a clause's documents must be a Uint32Array");
    if (length > 0xffffffffu) return Fail(env, "a clause longer than 2^32");
    clause->length = static_cast<uint32_t>(length);
    weights = parts.Get(1u);
  } else {
    return Fail(env, "a clause is [bases, widths, starts, data, start, length, weights] or [docs, weights]");
  }
  if (weights.IsNumber()) {
    clause->weight = weights.As<Napi::Number>().DoubleValue();
    return true;
  }
  size_t count;
  if (!TypedArrayData(env, weights, napi_float32_array, &clause->weights, &count) || count < clause->length) {
    return Fail(env, "a clause's weights must be a number or a Float32Array as long as its documents");
  }
  clause->scalar = false;
  return true;
}

/**
 * A stored list read position by position, each block checked as it is read (its index, width and
 * place in the data), instead of all its blocks up front: holdingEvery reads a few blocks of lists of
 * up to millions of postings. A read outside the columns gives 0 and sets `bad`.
 */
struct CheckedList {
  const Clause* clause;
  uint32_t start;
  uint32_t length;
  mutable bool bad = false;

  uint32_t Base(uint64_t b) const { return b < clause->blocks ? clause->shard.bases[b] : Bad(); }

  uint32_t At(uint32_t i) const {
    const uint64_t p = static_cast<uint64_t>(clause->start) + i;
    const uint64_t b = p >> 7;
    if (i >= length || b >= clause->blocks) return Bad();
    const uint32_t width = clause->shard.widths[b];
    const uint64_t at = static_cast<uint64_t>(clause->shard.starts[b]) + (p & 127);
    if ((width != 1 && width != 2 && width != 4) || (at + 1) * width > clause->bytes) return Bad();
    return clause->shard.At(static_cast<uint32_t>(p));
  }

 private:
  uint32_t Bad() const {
    bad = true;
    return 0;
  }
};

/** Whether two clauses are the very same list (a word repeated in the query): posting-ops.ts sameList. */
bool SameList(const Clause& a, const Clause& b) {
  if (a.packed != b.packed) return false;
  if (a.packed) return a.shard.bases == b.shard.bases && a.start == b.start && a.length == b.length;
  return a.array == b.array && a.length == b.length;
}

/** The first index ≥ lo whose value is ≥ v (posting-ops.ts lowerBound: galloping, then halving). */
size_t LowerBound(const uint32_t* a, size_t n, uint32_t v, size_t lo) {
  size_t step = 1;
  size_t hi = lo;
  while (hi < n && a[hi] < v) {
    lo = hi + 1;
    hi += step;
    step *= 2;
  }
  hi = std::min(hi, n);
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    if (a[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Merges a[i..n) with b[0..m) (both ascending, each value once): the place in `a` and, plus `bBase`,
 * in `b` of each value both hold, appended at *k. Branch-free: each step stores a candidate pair and
 * keeps it only when the values are equal. Returns where `a` stopped.
 */
size_t Merge(const uint32_t* a, size_t n, size_t i, const uint32_t* b, size_t m, uint32_t bBase, uint32_t* inA, uint32_t* inB, size_t* k) {
  size_t j = 0;
  // A pair is kept only where `i` moves on too, so at most i pairs precede a store: within `a`'s n.
  size_t kept = *k;
  while (i < n && j < m) {
    const uint32_t va = a[i];
    const uint32_t vb = b[j];
    inA[kept] = static_cast<uint32_t>(i);
    inB[kept] = bBase + static_cast<uint32_t>(j);
    kept += va == vb;
    i += va <= vb;
    j += vb <= va;
  }
  *k = kept;
  return i;
}

}  // namespace

// intersect(clauses, deadline): [documents (Uint32Array), weights (a number, or a Float32Array per
// document)], or null once `deadline` (Date.now() ms) passed between two clauses.
Napi::Value Intersect(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 2 || !info[0].IsArray() || !info[1].IsNumber()) {
    Fail(env, "takes (clauses, deadline)");
    return env.Undefined();
  }
  Napi::Array list = info[0].As<Napi::Array>();
  const double deadline = info[1].As<Napi::Number>().DoubleValue();
  std::vector<Clause> clauses(list.Length());
  if (clauses.empty()) {
    Fail(env, "no clause");
    return env.Undefined();
  }
  for (uint32_t i = 0; i < list.Length(); i++) {
    if (!ClauseOf(env, list.Get(i), &clauses[i])) return env.Undefined();
  }
  std::stable_sort(clauses.begin(), clauses.end(), [](const Clause& a, const Clause& b) { return a.length < b.length; });

  // The first clause as it is until a second changes it; `current` is what the intersection holds.
  const Clause* first = &clauses[0];
  Result acc;
  bool owned = false;
  auto accLength = [&]() -> size_t { return owned ? acc.docs.size() : first->length; };
  std::vector<uint32_t> decoded, matchA, matchB;
  for (size_t c = 1; c < clauses.size() && accLength() > 0; c++) {
    if (NowMs() > deadline) return env.Null();
    const Clause& other = clauses[c];
    Result next;
    next.scalar = (owned ? acc.scalar : first->scalar) && other.scalar;
    auto weightOfAcc = [&](size_t i) { return owned ? acc.WeightAt(i) : first->WeightAt(static_cast<uint32_t>(i)); };
    if (!owned && SameList(*first, other)) {
      // The same list twice: every document, both weights.
      next.docs.resize(first->length);
      for (uint32_t i = 0; i < first->length; i++) next.docs[i] = first->At(i);
      if (next.scalar) next.weight = first->weight + other.weight;
      else {
        next.weights.resize(first->length);
        for (uint32_t i = 0; i < first->length; i++) next.weights[i] = static_cast<float>(first->WeightAt(i) + other.WeightAt(i));
      }
    } else {
      // The shorter side as an array.
      const uint32_t* a;
      size_t n;
      if (owned) {
        a = acc.docs.data();
        n = acc.docs.size();
      } else if (first->packed) {
        decoded.resize(first->length);
        for (uint32_t i = 0; i < first->length; i++) decoded[i] = first->At(i);
        a = decoded.data();
        n = decoded.size();
      } else {
        a = first->array;
        n = first->length;
      }
      // The places in both of each document they share, found without branching on the values
      // (a merge's comparisons are a coin toss the processor cannot predict), then kept in order.
      matchA.resize(n);
      matchB.resize(n);
      size_t k = 0;
      if (other.packed) {
        // Block by block: a block whose last posting is below the next document is passed over after
        // one read; the others are decoded and merged.
        size_t i = 0;
        uint32_t block[128];
        for (uint32_t p = other.start, end = other.start + other.length; p < end && i < n;) {
          const uint32_t stop = std::min(end, ((p >> 7) + 1) << 7);
          if (other.shard.At(stop - 1) < a[i]) {
            p = stop;
            continue;
          }
          for (uint32_t q = p; q < stop; q++) block[q - p] = other.shard.At(q);
          i = Merge(a, n, i, block, stop - p, p - other.start, matchA.data(), matchB.data(), &k);
          p = stop;
        }
      } else if (other.length < 16 * n) {
        Merge(a, n, 0, other.array, other.length, 0, matchA.data(), matchB.data(), &k);
      } else {
        size_t lo = 0;
        for (size_t i = 0; i < n; i++) {
          const size_t at = LowerBound(other.array, other.length, a[i], lo);
          if (at < other.length && other.array[at] == a[i]) {
            matchA[k] = static_cast<uint32_t>(i);
            matchB[k++] = static_cast<uint32_t>(at);
          }
          lo = at;
        }
      }
      next.docs.resize(k);
      for (size_t m = 0; m < k; m++) next.docs[m] = a[matchA[m]];
      if (!next.scalar) {
        next.weights.resize(k);
        for (size_t m = 0; m < k; m++) next.weights[m] = static_cast<float>(weightOfAcc(matchA[m]) + other.WeightAt(matchB[m]));
      }
      if (next.scalar) next.weight = (owned ? acc.weight : first->weight) + other.weight;
    }
    acc = std::move(next);
    owned = true;
  }

  Napi::Array out = Napi::Array::New(env, 2);
  const size_t n = accLength();
  Napi::Uint32Array docs = Napi::Uint32Array::New(env, n);
  if (owned) {
    if (n > 0) std::memcpy(docs.Data(), acc.docs.data(), n * sizeof(uint32_t));
  } else {
    for (uint32_t i = 0; i < first->length; i++) docs[i] = first->At(i);
  }
  out.Set(0u, docs);
  const bool scalar = owned ? acc.scalar : first->scalar;
  if (scalar) {
    out.Set(1u, Napi::Number::New(env, owned ? acc.weight : first->weight));
  } else {
    Napi::Float32Array weights = Napi::Float32Array::New(env, n);
    for (size_t i = 0; i < n; i++) weights[i] = owned ? acc.weights[i] : first->weights[i];
    out.Set(1u, weights);
  }
  return out;
}

// holdingEvery(docs, lists): of `docs` (a Uint32Array, ascending), those every one of `lists` holds,
// ascending (posting-ops.ts holdingEvery). Each list is a stored one, [bases, widths, starts, data,
// start, length, weight] as intersect takes it (the weight is not used); the shortest is searched
// first, by seeks that go on from where the last document was found (SeekIn). Each block is checked
// as it is read (CheckedList): a list of a million postings has thousands of blocks, of which the
// seeks of a few hundred documents read a few hundred.
Napi::Value HoldingEvery(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const uint32_t* given;
  size_t count;
  if (info.Length() < 2 || !TypedArrayData(env, info[0], napi_uint32_array, &given, &count) || !info[1].IsArray()) {
    Napi::TypeError::New(env, "holdingEvery takes (docs: Uint32Array, lists)").ThrowAsJavaScriptException();
    return env.Undefined();
  }
  Napi::Array list = info[1].As<Napi::Array>();
  std::vector<Clause> clauses(list.Length());
  for (uint32_t i = 0; i < list.Length(); i++) {
    if (!ClauseOf(env, list.Get(i), &clauses[i], false)) return env.Undefined();
    if (!clauses[i].packed) {
      Napi::TypeError::New(env, "holdingEvery: a list must be a stored one").ThrowAsJavaScriptException();
      return env.Undefined();
    }
  }
  std::stable_sort(clauses.begin(), clauses.end(), [](const Clause& a, const Clause& b) { return a.length < b.length; });
  std::vector<uint32_t> kept(given, given + count);
  for (const Clause& clause : clauses) {
    if (kept.empty()) break;
    const CheckedList posting{&clause, clause.start, clause.length};
    KeepHeld(kept, posting);
    if (posting.bad) {
      Napi::TypeError::New(env, "holdingEvery: a stored list past its blocks or data").ThrowAsJavaScriptException();
      return env.Undefined();
    }
  }
  Napi::Uint32Array out = Napi::Uint32Array::New(env, kept.size());
  if (!kept.empty()) std::memcpy(out.Data(), kept.data(), kept.size() * sizeof(uint32_t));
  return out;
}

}  // namespace refrain
