// The fingerprint's candidate stage and verification in C++: line for line the TypeScript reference
// (src/index/kernel/votes.ts, coverage.ts, grams.ts), whose comments say why each step is as it is;
// the comments here say only what differs. Every column an index segment gives is checked when the
// stage is made (sizes, widths, offsets within the postings, blocks within the data), and every
// document a list holds is checked against the board before it is used, so no segment, however
// corrupt, makes this code read or write outside its memory.
#include "fingerprint.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "common.h"
#include "grams.h"

namespace refrain {

namespace {

// kernel/votes.ts's constants.
constexpr double kClearLead = 0.5;
constexpr double kVoteFloor = 0.3;
constexpr size_t kRefined = 256;
constexpr size_t kRefineLists = 8;
constexpr double kAmbiguous = 0.7;
constexpr size_t kMaxTied = 512;
constexpr size_t kTieScanned = 4096;
constexpr size_t kMaxOrderedTie = 256;
// kernel/order.ts's: 32-bit words of a document's word-order sketch; a query's order is those and two pair bits.
constexpr size_t kOrderWords = 8;
constexpr size_t kOrderBits = kOrderWords * 32;
constexpr uint8_t kSaturated = 0xff;
constexpr uint32_t kBlock = 128;
// kernel/coverage.ts's: runs that count alone or with a neighbour, and the steps spent choosing starts.
constexpr int32_t kStrongRun = 6, kStrongUnspacedRun = 2, kMinRun = 2;
constexpr int32_t kDiagonalSlack = 8, kNeighbourGap = 24;
constexpr int64_t kStepsPerGram = 4;
constexpr int32_t kGramI = static_cast<int32_t>(kGram);

/** A typed array's elements of type T, or false with a JS TypeError pending. */
template <typename T>
bool ArrayOf(Napi::Env env, Napi::Object object, const char* name, napi_typedarray_type type, const T** data, size_t* length,
             bool optional = false) {
  Napi::Value value = object.Get(name);
  if (optional && value.IsUndefined()) {
    *data = nullptr;
    *length = 0;
    return true;
  }
  if (!TypedArrayData(env, value, type, data, length)) {
    Napi::TypeError::New(env, std::string("a shard's ") + name + " column has the wrong type").ThrowAsJavaScriptException();
    return false;
  }
  return true;
}

/** A whole number from `min` to `max`, or false with a JS error pending. */
bool WholeOf(Napi::Env env, Napi::Value value, const char* what, double min, double max, double* out) {
  if (!value.IsNumber()) {
    Napi::TypeError::New(env, std::string(what) + " must be a number").ThrowAsJavaScriptException();
    return false;
  }
  const double v = value.As<Napi::Number>().DoubleValue();
  if (!(v >= min && v <= max) || v != std::floor(v)) {
    Napi::RangeError::New(env, std::string(what) + " is out of range").ThrowAsJavaScriptException();
    return false;
  }
  *out = v;
  return true;
}

/** A JS string's UTF-16 code units into `out`; false with a TypeError pending when it is no string. */
bool TextOf(Napi::Env env, Napi::Value value, const char* what, std::u16string* out) {
  if (!value.IsString()) {
    Napi::TypeError::New(env, std::string(what) + " must be a string").ThrowAsJavaScriptException();
    return false;
  }
  size_t length = 0;
  napi_get_value_string_utf16(env, value, nullptr, 0, &length);
  out->resize(length + 1);
  napi_get_value_string_utf16(env, value, out->data(), length + 1, &length);
  out->resize(length);
  return true;
}

bool Fail(Napi::Env env, size_t shard, const std::string& what) {
  Napi::Error::New(env, "fingerprint index shard " + std::to_string(shard) + " is corrupt: " + what).ThrowAsJavaScriptException();
  return false;
}

/** Whether (vote, doc) a ranks above b: more votes, then the lower document (topk.ts better). */
struct Better {
  template <typename C>
  bool operator()(const C& a, const C& b) const {
    return a.vote > b.vote || (a.vote == b.vote && a.doc < b.doc);
  }
};

/**
 * The lyric side of a comparison (QueryGrams::Coverage): one per thread, shared by the thread's
 * QueryGrams, grown to the longest lyric compared (lyrics are at most 100,000 characters: about 2.6 MB).
 * A QueryGrams is made for each query; with buffers of its own, every query allocated and zeroed
 * them afresh, which was a fifth of the page faults of a run of 200-character excerpts.
 */
struct LyricScratch {
  std::u16string lyric;
  std::vector<uint32_t> hashes;
  std::vector<int32_t> next;
  /** Lyric characters already accounting for a query character: those marked with the current stamp. */
  std::vector<uint32_t> used;
  uint32_t usedStamp = 0;

  /** A stamp no character of `used` holds yet (the marks are cleared when the stamps wrap). */
  uint32_t NextStamp() {
    if (++usedStamp == 0) {
      std::fill(used.begin(), used.end(), 0);
      usedStamp = 1;
    }
    return usedStamp;
  }
};

thread_local LyricScratch lyricScratch;

}  // namespace

size_t IndexKeys(const char16_t* s, size_t length, uint32_t* out, uint32_t bits) {
  const size_t n = GramHashes(s, length, out);
  size_t k = 0;
  bool hasPrev = false;
  uint32_t prev = 0;
  for (size_t i = 0; i < n; i++) {
    const uint32_t h = out[i];
    if ((h & (kSample - 1)) != 0 && !Unspaced(s[i])) continue;
    if (hasPrev) out[k++] = Mix(prev * 0x9e3779b1u ^ h) >> (32 - bits);
    prev = h;
    hasPrev = true;
  }
  std::sort(out, out + k);
  return static_cast<size_t>(std::unique(out, out + k) - out);
}

// ---- FingerprintVotes ----

Napi::Function FingerprintVotes::Define(Napi::Env env) {
  return DefineClass(env, "FingerprintVotes",
                     {InstanceMethod<&FingerprintVotes::Candidates>("candidates"), InstanceMethod<&FingerprintVotes::Tie>("tie")});
}

// new FingerprintVotes({ docs, bits, limits: [base, basePerKey, budget, budgetPerKey, cap], order, shards: [{ first,
// offsets, bases, widths, starts, data, keys?, directory?, shape? }] }): the columns of src/index/store/postings.ts,
// and `order`, the documents' word-order sketches (kernel/order.ts), kOrderWords per document.
FingerprintVotes::FingerprintVotes(const Napi::CallbackInfo& info) : Napi::ObjectWrap<FingerprintVotes>(info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsObject()) {
    Napi::TypeError::New(env, "FingerprintVotes takes the index's description").ThrowAsJavaScriptException();
    return;
  }
  Napi::Object description = info[0].As<Napi::Object>();
  double docs, bits;
  if (!WholeOf(env, description.Get("docs"), "docs", 0, 0xfffffffe, &docs) || !WholeOf(env, description.Get("bits"), "bits", 1, 31, &bits)) return;
  docs_ = static_cast<uint32_t>(docs);
  bits_ = static_cast<uint32_t>(bits);
  Napi::Value limits = description.Get("limits");
  if (!limits.IsArray() || limits.As<Napi::Array>().Length() != 5) {
    Napi::TypeError::New(env, "limits must be [base, basePerKey, budget, budgetPerKey, cap]").ThrowAsJavaScriptException();
    return;
  }
  double* targets[] = {&base_, &basePerKey_, &budget_, &budgetPerKey_, &cap_};
  for (uint32_t i = 0; i < 5; i++) {
    if (!WholeOf(env, limits.As<Napi::Array>().Get(i), "a postings limit", 0, 1e15, targets[i])) return;
  }
  size_t orderLength;
  if (!ArrayOf(env, description, "order", napi_uint32_array, &order_, &orderLength)) return;
  if (orderLength != static_cast<size_t>(docs_) * kOrderWords) {
    Napi::RangeError::New(env, "order must hold " + std::to_string(kOrderWords) + " words per document").ThrowAsJavaScriptException();
    return;
  }
  Napi::Value shards = description.Get("shards");
  if (!shards.IsArray()) {
    Napi::TypeError::New(env, "shards must be an array").ThrowAsJavaScriptException();
    return;
  }
  Napi::Array list = shards.As<Napi::Array>();
  shards_.resize(list.Length());
  for (uint32_t s = 0; s < list.Length(); s++) {
    Napi::Value shard = list.Get(s);
    if (!shard.IsObject()) {
      Napi::TypeError::New(env, "a shard must be an object").ThrowAsJavaScriptException();
      return;
    }
    if (!LoadShard(env, shard.As<Napi::Object>(), s)) return;
  }
  keep_ = Napi::Persistent(description);
  votes_.assign(docs_, 0);
  exact_.assign(docs_, 0);
  touched_.assign(static_cast<size_t>(docs_) + 1, 0);
  external_ = static_cast<int64_t>(docs_) * 7;
  Napi::MemoryManagement::AdjustExternalMemory(env, external_);
}

FingerprintVotes::~FingerprintVotes() {
  if (external_ != 0) Napi::MemoryManagement::AdjustExternalMemory(Env(), -external_);
}

bool FingerprintVotes::LoadShard(Napi::Env env, Napi::Object description, size_t number) {
  PackedShard& shard = shards_[number];
  double first;
  if (!WholeOf(env, description.Get("first"), "a shard's first key", 0, 0xffffffff, &first)) return false;
  shard.first = static_cast<uint32_t>(first);
  size_t bases, widths, starts, dataBytes, shape;
  const uint32_t* shapeData;
  if (!ArrayOf(env, description, "offsets", napi_uint32_array, &shard.offsets, &shard.offsetCount) ||
      !ArrayOf(env, description, "bases", napi_uint32_array, &shard.bases, &bases) ||
      !ArrayOf(env, description, "widths", napi_uint8_array, &shard.widths, &widths) ||
      !ArrayOf(env, description, "starts", napi_uint32_array, &shard.starts, &starts) ||
      !ArrayOf(env, description, "data", napi_uint8_array, &shard.data, &dataBytes) ||
      !ArrayOf(env, description, "keys", napi_uint32_array, &shard.keys, &shard.keyCount, true) ||
      !ArrayOf(env, description, "directory", napi_uint32_array, &shard.directory, &shard.directoryLength, true) ||
      !ArrayOf(env, description, "shape", napi_uint32_array, &shapeData, &shape, true)) {
    return false;
  }
  // The offsets: ascending, the last is the shard's postings.
  if (shard.offsetCount == 0) return Fail(env, number, "no offsets");
  for (size_t i = 1; i < shard.offsetCount; i++) {
    if (shard.offsets[i] < shard.offsets[i - 1]) return Fail(env, number, "offsets descend");
  }
  shard.positions = shard.offsets[shard.offsetCount - 1];
  // The blocks: as many as the postings need, each of width 1, 2 or 4 and within the data.
  const size_t blocks = (static_cast<size_t>(shard.positions) + kBlock - 1) / kBlock;
  if (bases != blocks || widths != blocks || starts != blocks) return Fail(env, number, "block columns do not match its postings");
  if (reinterpret_cast<uintptr_t>(shard.data) % 4 != 0) return Fail(env, number, "data not aligned to 4 bytes");
  for (size_t b = 0; b < blocks; b++) {
    const uint32_t width = shard.widths[b];
    if (width != 1 && width != 2 && width != 4) return Fail(env, number, "a block of width " + std::to_string(width));
    const uint64_t count = std::min<uint64_t>(kBlock, shard.positions - b * kBlock);
    if ((static_cast<uint64_t>(shard.starts[b]) + count) * width > dataBytes) return Fail(env, number, "a block past the data");
  }
  shard.sparse = shard.keys != nullptr;
  if (shard.sparse) {
    // Present keys ascending within the range, one offset each and the end; the directory over them.
    if (shape < 2 || shard.directory == nullptr) return Fail(env, number, "a sparse shard without its shape and directory");
    shard.shift = shapeData[0];
    shard.range = shapeData[1];
    if (shard.shift > 31) return Fail(env, number, "directory shift past 31");
    if (shard.offsetCount != shard.keyCount + 1) return Fail(env, number, "keys and offsets differ in number");
    for (size_t i = 0; i < shard.keyCount; i++) {
      if (shard.keys[i] >= shard.range || (i > 0 && shard.keys[i] <= shard.keys[i - 1])) return Fail(env, number, "keys not ascending within the range");
    }
    if (shard.directoryLength != (static_cast<size_t>(shard.range) >> shard.shift) + 2) return Fail(env, number, "a directory of the wrong length");
    for (size_t d = 0; d < shard.directoryLength; d++) {
      if (shard.directory[d] > shard.keyCount || (d > 0 && shard.directory[d] < shard.directory[d - 1])) {
        return Fail(env, number, "a directory entry out of order");
      }
    }
  } else {
    shard.range = static_cast<uint32_t>(std::min<size_t>(shard.offsetCount - 1, 0xffffffffu));
  }
  return true;
}

PostingList FingerprintVotes::ListOf(uint32_t key) const {
  // The last shard whose first key is not above `key` (postings.ts Shards.of).
  if (shards_.empty()) return {};
  size_t s = shards_.size() - 1;
  while (s > 0 && shards_[s].first > key) s--;
  const PackedShard& shard = shards_[s];
  if (key < shard.first) return {};
  const uint32_t k = key - shard.first;
  if (k >= shard.range) return {};
  size_t i = k;
  if (shard.sparse) {
    const uint32_t d = k >> shard.shift;
    size_t lo = shard.directory[d];
    size_t hi = shard.directory[d + 1];
    const size_t end = hi;
    while (lo < hi) {
      const size_t mid = (lo + hi) / 2;
      if (shard.keys[mid] < k) lo = mid + 1;
      else hi = mid;
    }
    if (lo == end || shard.keys[lo] != k) return {};
    i = lo;
  }
  return PostingList{&shard, shard.offsets[i], shard.offsets[i + 1] - shard.offsets[i]};
}

uint32_t FingerprintVotes::Weight(uint32_t length) const {
  return static_cast<uint32_t>(std::max(1.0, std::round(8 * std::log(1 + static_cast<double>(docs_) / length))));
}

// candidates(query, count, scale): [candidates (document, vote pairs, best first), keys with postings, whether more
// documents tie for the most votes than there are candidates (Tie gives them), whether keys were left unread] —
// kernel/votes.ts FingerprintVotes.candidates.
Napi::Value FingerprintVotes::Candidates(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  double countArg, scale;
  if (!TextOf(env, info[0], "the query", &text_) || !WholeOf(env, info[1], "count", 0, 1 << 20, &countArg)) return env.Undefined();
  if (!info[2].IsNumber() || !((scale = info[2].As<Napi::Number>().DoubleValue()) >= 1) || !std::isfinite(scale)) {
    Napi::RangeError::New(env, "scale must be a finite number from 1").ThrowAsJavaScriptException();
    return env.Undefined();
  }
  // The first kTieScanned lyrics with the most votes (kept for Tie), and how many there are.
  tied_.clear();
  tiedWanted_ = false;
  size_t tiedAll = 0;
  const size_t count = static_cast<size_t>(countArg);
  keys_.resize(std::max<size_t>(text_.size(), 1));
  const size_t keyCount = IndexKeys(text_.data(), text_.size(), keys_.data(), bits_);
  lists_.clear();
  for (size_t i = 0; i < keyCount; i++) {
    const PostingList list = ListOf(keys_[i]);
    if (list.length > 0) lists_.push_back(list);
  }
  std::stable_sort(lists_.begin(), lists_.end(), [](const PostingList& a, const PostingList& b) { return a.length < b.length; });

  const double lists = static_cast<double>(lists_.size());
  const double ceiling = scale == 1 ? std::numeric_limits<double>::infinity() : scale * cap_;
  const double base = std::min(ceiling, scale * std::max(base_, lists * basePerKey_));
  const double budget = std::min(ceiling, scale * std::max(budget_, lists * budgetPerKey_));
  const double cap = std::min(ceiling, scale * std::max(cap_, lists * budgetPerKey_));
  uint8_t* votes = votes_.data();
  uint16_t* exact = exact_.data();
  uint32_t* touched = touched_.data();
  const uint32_t docs = docs_;
  size_t nTouched = 0;
  double read = 0;
  uint32_t best = 0;
  int64_t bestDoc = -1;
  uint32_t second = 0;
  size_t next = 0;
  bool pending = false;
  for (; next < lists_.size(); next++) {
    const PostingList& list = lists_[next];
    const double after = read + list.length;
    if (read > 0 && after > base) {
      if (second < kClearLead * best) break;
      if (after > budget && (after > cap || second < best)) break;
    }
    read = after;
    const uint32_t weight = Weight(list.length);
    if (next == 0) {
      best = std::min<uint32_t>(0xffff, weight);
      bestDoc = list.At(0);
      second = list.length > 1 ? best : 0;
      pending = true;
      continue;
    }
    if (pending) {
      // A document the board already holds (a list holding it twice: a corrupt one) or past the
      // board is left out, so `touched` never outgrows the board.
      const PostingList& first = lists_[0];
      const uint32_t vote = best;
      for (uint32_t i = 0; i < first.length; i++) {
        const uint32_t doc = first.At(i);
        if (doc >= docs || votes[doc] != 0) continue;
        touched[nTouched++] = doc;
        if (vote < kSaturated) {
          votes[doc] = static_cast<uint8_t>(vote);
        } else {
          votes[doc] = kSaturated;
          exact[doc] = static_cast<uint16_t>(vote);
        }
      }
      pending = false;
    }
    // Block by block, one loop per width (packed.ts).
    const PackedShard& shard = *list.shard;
    for (uint32_t p = list.start, end = list.start + list.length; p < end;) {
      const uint32_t b = p >> 7;
      const uint32_t stop = std::min(end, (b + 1) << 7);
      const uint32_t blockBase = shard.bases[b];
      const uint32_t width = shard.widths[b];
      const uint32_t from = shard.starts[b] + (p & (kBlock - 1));
      const uint32_t n = stop - p;
      auto vote = [&](uint32_t doc) {
        if (doc >= docs) return;
        const uint32_t v = votes[doc];
        touched[nTouched] = doc;
        nTouched += v == 0;
        uint32_t sum = v + weight;
        if (sum < kSaturated) {
          votes[doc] = static_cast<uint8_t>(sum);
        } else {
          sum = std::min<uint32_t>(0xffff, (v == kSaturated ? exact[doc] : v) + weight);
          votes[doc] = kSaturated;
          exact[doc] = static_cast<uint16_t>(sum);
        }
        if (sum > second) {
          if (doc == bestDoc) {
            best = sum;
          } else if (sum > best) {
            second = best;
            best = sum;
            bestDoc = doc;
          } else {
            second = sum;
          }
        }
      };
      if (width == 1) {
        const uint8_t* offsets = shard.data + from;
        for (uint32_t i = 0; i < n; i++) vote(blockBase + offsets[i]);
      } else if (width == 2) {
        const uint16_t* offsets = reinterpret_cast<const uint16_t*>(shard.data) + from;
        for (uint32_t i = 0; i < n; i++) vote(blockBase + offsets[i]);
      } else {
        const uint32_t* offsets = reinterpret_cast<const uint32_t*>(shard.data) + from;
        for (uint32_t i = 0; i < n; i++) vote(blockBase + offsets[i]);
      }
      p = stop;
    }
  }
  const size_t unreadFrom = next;
  const bool unread = unreadFrom < lists_.size();
  const double floor = best * kVoteFloor;
  const size_t leading = unread ? std::max(kRefined, count) : count;
  TopK<Candidate, Better> top(leading);
  if (pending) {
    const PostingList& first = lists_[0];
    // A tie of at most `count` lyrics is all candidates: none is kept.
    const size_t scanned = first.length > count ? kTieScanned : 0;
    const uint32_t m = std::min<uint32_t>(first.length, static_cast<uint32_t>(std::max(scanned, leading)));
    tiedAll = first.length;
    for (uint32_t i = 0; i < m; i++) {
      const uint32_t doc = first.At(i);
      if (doc >= docs) continue;
      if (i < scanned) tied_.push_back(doc);
      if (i < leading) top.Push({doc, best});
    }
  }
  // Votes are whole numbers: at least the floor is at least its ceiling.
  const uint32_t least = static_cast<uint32_t>(std::ceil(floor));
  for (size_t i = 0; i < nTouched; i++) {
    const uint32_t doc = touched[i];
    const uint32_t small = votes[doc];
    const uint32_t vote = small == kSaturated ? exact[doc] : small;
    votes[doc] = 0;
    if (vote < least) continue;
    if (vote == best && tiedAll++ < kTieScanned) tied_.push_back(doc);
    top.Push({doc, vote});
  }
  const std::vector<Candidate>& leaders = top.Sorted();
  const bool refining = unread && leaders.size() > 1 && leaders[1].vote >= kAmbiguous * leaders[0].vote;
  std::vector<Candidate> candidates;
  if (refining) {
    candidates = Refine(leaders, unreadFrom, std::min(kRefineLists, lists_.size() - unreadFrom), count);
  } else {
    candidates.assign(leaders.begin(), leaders.begin() + std::min(count, leaders.size()));
  }
  // Only a tie larger than the candidates is verified further (Tie).
  tiedWanted_ = tiedAll > candidates.size();
  tiedUnreadFrom_ = unreadFrom;

  Napi::Uint32Array out = Napi::Uint32Array::New(env, candidates.size() * 2);
  for (size_t i = 0; i < candidates.size(); i++) {
    out[2 * i] = candidates[i].doc;
    out[2 * i + 1] = candidates[i].vote;
  }
  Napi::Array result = Napi::Array::New(env, 4);
  result.Set(0u, out);
  result.Set(1u, Napi::Number::New(env, static_cast<double>(lists_.size())));
  result.Set(2u, Napi::Boolean::New(env, tiedWanted_));
  result.Set(3u, Napi::Boolean::New(env, unread));
  return result;
}

// tie(order?): the last candidates() call's tie, narrowed — kernel/votes.ts FingerprintVotes.tie: of the lyrics tied
// for the most votes (when more than the candidates), at most kMaxOrderedTie holding `order` (kOrderWords mask words and
// the first and the last pair's bits) and every unread key, by tier of order, ascending within a tier.
Napi::Value FingerprintVotes::Tie(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const uint32_t* order = nullptr;
  if (info.Length() > 0 && !info[0].IsUndefined()) {
    size_t orderLength;
    if (!TypedArrayData(env, info[0], napi_uint32_array, &order, &orderLength) || orderLength != kOrderWords + 2 ||
        order[kOrderWords] >= kOrderBits || order[kOrderWords + 1] >= kOrderBits) {
      Napi::TypeError::New(env, "order must be a Uint32Array of " + std::to_string(kOrderWords) + " mask words and two pair bits below " +
                                    std::to_string(kOrderBits)).ThrowAsJavaScriptException();
      return env.Undefined();
    }
  }
  std::vector<uint32_t> out;
  if (tiedWanted_ && order == nullptr && tied_.size() <= kMaxTied) {
    out = tied_;
    std::sort(out.begin(), out.end());
    HoldingEvery(out, tiedUnreadFrom_);
  } else if (tiedWanted_ && order != nullptr) {
    // How much of `order` a document's sketch holds (kernel/order.ts orderTier): -1 without every inner bit, else
    // how many of the first and the last pair's bits it has. Tiers 2, 1, 0, each kept up to kMaxTied + 1.
    const uint32_t first = order[kOrderWords], last = order[kOrderWords + 1];
    std::vector<uint32_t> tiers[3];
    for (const uint32_t doc : tied_) {
      const uint32_t* sketch = order_ + static_cast<size_t>(doc) * kOrderWords;
      bool inner = true;
      for (size_t i = 0; i < kOrderWords && inner; i++) inner = (sketch[i] & order[i]) == order[i];
      if (!inner) continue;
      const uint32_t tier = 2 - (((sketch[first >> 5] >> (first & 31)) & 1) + ((sketch[last >> 5] >> (last & 31)) & 1));
      if (tiers[tier].size() <= kMaxTied) tiers[tier].push_back(doc);
    }
    // Narrowed kMaxOrderedTie at a time, the best tiers first, up to kMaxOrderedTie.
    for (std::vector<uint32_t>& tier : tiers) {
      std::sort(tier.begin(), tier.end());
      for (size_t from = 0; from < tier.size() && out.size() < kMaxOrderedTie; from += kMaxOrderedTie) {
        std::vector<uint32_t> chunk(tier.begin() + from, tier.begin() + std::min(tier.size(), from + kMaxOrderedTie));
        HoldingEvery(chunk, tiedUnreadFrom_);
        for (size_t i = 0; i < chunk.size() && out.size() < kMaxOrderedTie; i++) out.push_back(chunk[i]);
      }
    }
  }
  Napi::Uint32Array result = Napi::Uint32Array::New(env, out.size());
  if (!out.empty()) std::memcpy(result.Data(), out.data(), out.size() * sizeof(uint32_t));
  return result;
}

std::vector<FingerprintVotes::Candidate> FingerprintVotes::Refine(const std::vector<Candidate>& first, size_t unreadFrom, size_t lists,
                                                                  size_t count) const {
  std::vector<Candidate> byDoc(first);
  std::sort(byDoc.begin(), byDoc.end(), [](const Candidate& a, const Candidate& b) { return a.doc < b.doc; });
  for (size_t l = unreadFrom; l < unreadFrom + lists; l++) {
    const PostingList& list = lists_[l];
    const uint32_t weight = Weight(list.length);
    uint32_t lo = 0;
    for (Candidate& c : byDoc) {
      lo = list.Seek(c.doc, lo);
      if (lo == list.length) break;
      if (list.At(lo) == c.doc) c.vote += weight;
    }
  }
  std::sort(byDoc.begin(), byDoc.end(), Better());
  std::vector<Candidate> chosen(byDoc.begin(), byDoc.begin() + std::min(count, byDoc.size()));
  // Those among the first `count` before refinement that fell behind, in refined order.
  std::vector<uint32_t> earlier;
  for (size_t i = 0; i < std::min(count, first.size()); i++) earlier.push_back(first[i].doc);
  std::sort(earlier.begin(), earlier.end());
  for (const Candidate& c : chosen) {
    auto at = std::lower_bound(earlier.begin(), earlier.end(), c.doc);
    if (at != earlier.end() && *at == c.doc) earlier.erase(at);
  }
  if (!earlier.empty()) {
    for (size_t i = chosen.size(); i < byDoc.size(); i++) {
      if (std::binary_search(earlier.begin(), earlier.end(), byDoc[i].doc)) chosen.push_back(byDoc[i]);
    }
  }
  return chosen;
}

void FingerprintVotes::HoldingEvery(std::vector<uint32_t>& docs, size_t unreadFrom) const {
  std::vector<PostingList> lists(lists_.begin() + unreadFrom, lists_.end());
  std::stable_sort(lists.begin(), lists.end(), [](const PostingList& a, const PostingList& b) { return a.length < b.length; });
  for (const PostingList& list : lists) {
    if (docs.empty()) break;
    KeepHeld(docs, list);
  }
}

// ---- QueryGrams ----

Napi::Function QueryGrams::Define(Napi::Env env) {
  return DefineClass(env, "QueryGrams", {InstanceMethod<&QueryGrams::Coverage>("coverage")});
}

// new QueryGrams(normalized, out): out, an Int32Array of 2, receives each coverage()'s [covered, longest].
QueryGrams::QueryGrams(const Napi::CallbackInfo& info) : Napi::ObjectWrap<QueryGrams>(info) {
  Napi::Env env = info.Env();
  std::u16string query;
  if (!TextOf(env, info[0], "the query", &query)) return;
  if (info.Length() < 2 || !info[1].IsTypedArray() || info[1].As<Napi::TypedArray>().TypedArrayType() != napi_int32_array ||
      info[1].As<Napi::Int32Array>().ElementLength() < 2) {
    Napi::TypeError::New(env, "out must be an Int32Array of 2").ThrowAsJavaScriptException();
    return;
  }
  if (query.size() > 0x3fffffff) {
    Napi::RangeError::New(env, "the query is too long").ThrowAsJavaScriptException();
    return;
  }
  out_ = Napi::Persistent(info[1].As<Napi::Int32Array>());
  outData_ = out_.Value().Data();
  length_ = static_cast<int32_t>(query.size());
  hashes_.resize(std::max<size_t>(query.size(), 1));
  count_ = GramHashes(query.data(), query.size(), hashes_.data());
  uint32_t size = 16;
  while (size < count_ * 2) size <<= 1;
  mask_ = size - 1;
  keys_.assign(size, 0);
  used_.assign(size, 0);
  stamps_.assign(size, 0);
  positions_.assign(size, 0);
  lastAt_.assign(size, 0);
  slotOf_.assign(count_, 0);
  // coverage.ts filterBits: at least 2^12 entries, about 16 per query gram, at most 2^16.
  uint32_t bits = 12;
  while (bits < 16 && (static_cast<uint64_t>(1) << bits) < std::max<uint64_t>(1, count_) * 16) bits++;
  filter_.assign(static_cast<size_t>(1) << bits, 0);
  filterShift_ = 32 - bits;
  unspaced_.assign(count_, 0);
  for (size_t i = 0; i < count_; i++) unspaced_[i] = Unspaced(query[i]) ? 1 : 0;
  for (size_t i = 0; i < count_; i++) {
    const uint32_t h = hashes_[i];
    uint32_t slot = h & mask_;
    while (used_[slot] && keys_[slot] != h) slot = (slot + 1) & mask_;
    used_[slot] = 1;
    keys_[slot] = h;
    slotOf_[i] = slot;
    filter_[h >> filterShift_] = 1;
  }
}

// coverage(lyric): writes [covered, longest] to out (coverage.ts QueryGrams.coverage).
Napi::Value QueryGrams::Coverage(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  LyricScratch& scratch = lyricScratch;
  if (!TextOf(env, info[0], "the lyric", &scratch.lyric)) return env.Undefined();
  if (scratch.lyric.size() > 0x3fffffff) {
    Napi::RangeError::New(env, "the lyric is too long").ThrowAsJavaScriptException();
    return env.Undefined();
  }
  if (count_ == 0) {
    outData_[0] = 0;
    outData_[1] = 0;
    return env.Undefined();
  }
  if (scratch.hashes.size() < scratch.lyric.size()) {
    scratch.hashes.resize(scratch.lyric.size() * 2);
    scratch.next.resize(scratch.lyric.size() * 2);
  }
  const uint32_t* lyricHashes = scratch.hashes.data();
  const size_t n = GramHashes(scratch.lyric.data(), scratch.lyric.size(), scratch.hashes.data());
  const uint32_t stamp = ++stamp_;
  // Locals, not members: a store to the uint32/int32 arrays below may alias a member of that type
  // (mask_, filterShift_…), which would be read again on every gram.
  const uint8_t* filter = filter_.data();
  const uint8_t* used = used_.data();
  const uint32_t* keys = keys_.data();
  uint32_t* stamps = stamps_.data();
  int32_t* positions = positions_.data();
  int32_t* lastAt = lastAt_.data();
  int32_t* next = scratch.next.data();
  const uint32_t mask = mask_;
  const uint32_t filterShift = filterShift_;
  for (size_t i = 0; i < n; i++) {
    const uint32_t h = lyricHashes[i];
    if (filter[h >> filterShift] == 0) continue;
    uint32_t slot = h & mask;
    while (used[slot]) {
      if (keys[slot] == h) {
        if (stamps[slot] != stamp) {
          stamps[slot] = stamp;
          positions[slot] = static_cast<int32_t>(i);
        } else {
          next[lastAt[slot]] = static_cast<int32_t>(i);
        }
        lastAt[slot] = static_cast<int32_t>(i);
        next[i] = -1;
        break;
      }
      slot = (slot + 1) & mask;
    }
  }
  const int32_t best = Walk(n, true);
  static const std::vector<int32_t> kNone;
  if (!changed_ || best == length_) {
    outData_[0] = Account(counted_, kNone, n);
    outData_[1] = best;
    return env.Undefined();
  }
  std::vector<int32_t> bestRuns;
  bestRuns.swap(counted_);
  const int32_t first = Walk(n, false);
  outData_[0] = Account(bestRuns, counted_, n);
  outData_[1] = std::max(best, first);
  counted_.swap(bestRuns);
  return env.Undefined();
}

int32_t QueryGrams::Account(const std::vector<int32_t>& a, const std::vector<int32_t>& b, size_t n) {
  LyricScratch& scratch = lyricScratch;
  if (scratch.used.size() < n + kGram) scratch.used.assign((n + kGram) * 2, 0);
  uint32_t* used = scratch.used.data();
  const uint32_t mark = scratch.NextStamp();
  const uint32_t* lyricHashes = scratch.hashes.data();
  const int32_t* next = scratch.next.data();
  const int32_t lyricGrams = static_cast<int32_t>(n);
  auto taken = [&](int32_t from, int32_t to) {
    for (int32_t c = from; c < to; c++) {
      if (used[c] == mark) return true;
    }
    return false;
  };
  int64_t steps = kStepsPerGram * static_cast<int64_t>(n + count_);
  int32_t covered = 0;
  int32_t coveredEnd = -1;
  for (size_t x = 0, y = 0; x < a.size() || y < b.size();) {
    const int32_t* r;
    if (y >= b.size() || (x < a.size() && a[x] <= b[y])) {
      r = &a[x];
      x += 3;
    } else {
      r = &b[y];
      y += 3;
    }
    const int32_t start = r[0];
    const int32_t end = r[1];
    if (end <= coveredEnd) continue;
    const int32_t from = std::max(start, coveredEnd);
    int32_t diagonal = r[2];
    if (taken(from + diagonal, end + diagonal)) {
      const int32_t grams = end - kGramI + 1 - start;
      const uint32_t slot = slotOf_[start];
      for (int32_t j = stamps_[slot] == stamp_ ? positions_[slot] : -1; j >= 0 && steps > 0; j = next[j]) {
        if (j - start == diagonal || j + grams > lyricGrams) continue;
        int32_t t = 1;
        while (t < grams && lyricHashes[j + t] == hashes_[start + t]) t++;
        steps -= t;
        if (t == grams && !taken(from + j - start, end + j - start)) {
          diagonal = j - start;
          break;
        }
      }
    }
    for (int32_t c = from; c < end; c++) {
      if (used[c + diagonal] == mark) continue;
      used[c + diagonal] = mark;
      covered++;
    }
    coveredEnd = end;
  }
  return covered;
}

int32_t QueryGrams::Walk(size_t lyricGrams, bool best) {
  const int32_t n = static_cast<int32_t>(lyricGrams);
  const int32_t m = static_cast<int32_t>(count_);
  const uint32_t stamp = stamp_;
  const uint32_t* lyricHashes = lyricScratch.hashes.data();
  const uint32_t* hashes = hashes_.data();
  const int32_t* next = lyricScratch.next.data();
  int64_t steps = best ? kStepsPerGram * (static_cast<int64_t>(n) + m) : 0;
  changed_ = false;
  std::vector<int32_t>& runs = runs_;
  runs.clear();
  int32_t runStart = -1;
  int32_t prev = -2;
  for (int32_t i = 0; i <= m; i++) {
    const int64_t slot = i < m ? static_cast<int64_t>(slotOf_[i]) : -1;
    int32_t at = slot >= 0 && stamps_[slot] == stamp ? positions_[slot] : -2;
    if (at >= 0 && runStart >= 0 && prev + 1 < n && lyricHashes[prev + 1] == hashes[i]) {
      at = prev + 1;
    } else if (at >= 0 && steps > 0 && next[at] >= 0) {
      int32_t longest = 0;
      double lastDiagonal = std::numeric_limits<double>::quiet_NaN();
      if (runStart >= 0 && i - runStart >= kMinRun) lastDiagonal = prev - (i - 1);
      else if (!runs.empty() && i - runs[runs.size() - 2] <= kNeighbourGap) lastDiagonal = runs[runs.size() - 1];
      int32_t near = -1;
      for (int32_t j = at; j >= 0; j = next[j]) {
        if (near < 0 && std::abs(static_cast<double>(j) - i - lastDiagonal) <= kDiagonalSlack) near = j;
        steps--;
        if (longest > 0 && (i + longest >= m || j + longest >= n || lyricHashes[j + longest] != hashes[i + longest])) continue;
        int32_t k = 1;
        while (i + k < m && j + k < n && lyricHashes[j + k] == hashes[i + k]) k++;
        steps -= k;
        if (k > longest) {
          longest = k;
          at = j;
          if (i + k == m) break;
        }
      }
      if (longest < (unspaced_[i] == 1 ? kStrongUnspacedRun : kStrongRun)) at = near >= 0 ? near : positions_[slot];
      if (at != positions_[slot]) changed_ = true;
    }
    if (runStart >= 0 && (at < 0 || at != prev + 1)) {
      if (i - runStart >= kMinRun) {
        runs.push_back(runStart);
        runs.push_back(i);
        runs.push_back(prev - (i - 1));
      }
      runStart = -1;
    }
    if (at >= 0 && runStart < 0) runStart = i;
    prev = at;
  }
  counted_.clear();
  int32_t longest = 0;
  int32_t passageStart = -1;
  int32_t passageEnd = -1;
  int32_t passageDiagonal = 0;
  for (size_t r = 0; r < runs.size(); r += 3) {
    if (!Counts(runs, r)) continue;
    const int32_t start = runs[r];
    const int32_t end = runs[r + 1] - 1 + kGramI;
    const int32_t diagonal = runs[r + 2];
    counted_.push_back(start);
    counted_.push_back(end);
    counted_.push_back(diagonal);
    if (start <= passageEnd && std::abs(diagonal - passageDiagonal) <= kDiagonalSlack) {
      passageEnd = std::max(passageEnd, end);
    } else {
      passageStart = start;
      passageEnd = end;
    }
    passageDiagonal = diagonal;
    if (passageEnd - passageStart > longest) longest = passageEnd - passageStart;
  }
  return longest;
}

bool QueryGrams::Counts(const std::vector<int32_t>& runs, size_t r) const {
  const int32_t grams = runs[r + 1] - runs[r];
  if (grams >= kStrongRun || (grams >= kStrongUnspacedRun && unspaced_[runs[r]] == 1)) return true;
  for (int side = 0; side < 2; side++) {
    if (side == 0 && r < 3) continue;
    const size_t o = side == 0 ? r - 3 : r + 3;
    if (o >= runs.size()) continue;
    const int32_t gap = o < r ? runs[r] - runs[o + 1] : runs[o] - runs[r + 1];
    if (gap <= kNeighbourGap && std::abs(runs[o + 2] - runs[r + 2]) <= kDiagonalSlack) return true;
  }
  return false;
}

}  // namespace refrain
