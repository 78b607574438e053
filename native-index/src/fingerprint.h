// The fingerprint's hot loops in C++ (native-index/README.md): the candidate stage over an index
// generation's packed posting lists (src/index/kernel/votes.ts) and the verification of a candidate
// lyric against a query (src/index/kernel/coverage.ts). Both give the TypeScript reference's answers.
#pragma once
#include <napi.h>

#include <cstdint>
#include <string>
#include <vector>

namespace refrain {

/** One shard of packed posting lists (src/index/store/packed.ts, postings.ts), checked at load. */
struct PackedShard {
  /** The shard's first key. */
  uint32_t first = 0;
  /** Keys of the shard's range: offsets for each (dense), or the present ones among them (sparse). */
  uint32_t range = 0;
  bool sparse = false;
  uint32_t shift = 0;
  const uint32_t* keys = nullptr;
  size_t keyCount = 0;
  const uint32_t* directory = nullptr;
  size_t directoryLength = 0;
  const uint32_t* offsets = nullptr;
  size_t offsetCount = 0;
  const uint32_t* bases = nullptr;
  const uint8_t* widths = nullptr;
  const uint32_t* starts = nullptr;
  const uint8_t* data = nullptr;
  /** Postings in the shard (the last offset). */
  uint32_t positions = 0;

  /** The posting at position p (< positions). */
  __attribute__((always_inline)) uint32_t At(uint32_t p) const {
    const uint32_t b = p >> 7;
    const uint32_t i = starts[b] + (p & 127);
    switch (widths[b]) {
      case 1:
        return bases[b] + data[i];
      case 2:
        return bases[b] + reinterpret_cast<const uint16_t*>(data)[i];
      default:
        return bases[b] + reinterpret_cast<const uint32_t*>(data)[i];
    }
  }
};

/**
 * The first index at or after `lo` whose posting is ≥ value, or the length (packed.ts
 * PackedList.seek), in any list with `start` (its first position in its shard), `length`, At(i) and
 * Base(b) (block b's base): the block first, over the bases of the blocks wholly inside the list
 * (each starts with its base), galloping from the block after `lo`'s (1, 2, 4… blocks on: a search
 * going through a list in order mostly finds its next document a few blocks on) and then halving,
 * then halving within at most two blocks.
 */
template <typename List>
uint32_t SeekIn(const List& list, uint32_t value, uint32_t lo) {
  const uint32_t n = list.length;
  if (lo >= n || list.At(lo) >= value) return lo;
  if (list.At(n - 1) < value) return n;
  const uint64_t start = list.start;
  const uint64_t after = ((start + lo) >> 7) + 1;
  const uint64_t lastBlock = (start + n - 1) >> 7;
  // Invariant: the blocks before `first` have bases below value; `end` is lastBlock or one whose base is not.
  uint64_t first = after;
  uint64_t end = lastBlock;
  for (uint64_t step = 1; first + step - 1 < end; step <<= 1) {
    const uint64_t probe = first + step - 1;
    if (list.Base(probe) >= value) {
      end = probe;
      break;
    }
    first = probe + 1;
  }
  while (first < end) {
    const uint64_t mid = (first + end) / 2;
    if (list.Base(mid) < value) first = mid + 1;
    else end = mid;
  }
  // Invariant: At(below) < value ≤ At(above).
  uint64_t below = first > after ? ((first - 1) << 7) - start : lo;
  uint64_t above = first < lastBlock ? (first << 7) - start : n - 1;
  while (above - below > 1) {
    const uint64_t mid = (below + above) / 2;
    if (list.At(static_cast<uint32_t>(mid)) < value) below = mid;
    else above = mid;
  }
  return static_cast<uint32_t>(above);
}

/**
 * Keeps, of `docs` (ascending), those `list` holds, in place: each seek (SeekIn) goes on from where
 * the last document was found (posting-ops.ts holdingEvery, for one list).
 */
template <typename List>
void KeepHeld(std::vector<uint32_t>& docs, const List& list) {
  size_t k = 0;
  uint32_t at = 0;
  for (const uint32_t doc : docs) {
    at = SeekIn(list, doc, at);
    if (at == list.length) break;
    if (list.At(at) == doc) docs[k++] = doc;
  }
  docs.resize(k);
}

/** A posting list: positions [start, start + length) of a shard. */
struct PostingList {
  const PackedShard* shard = nullptr;
  uint32_t start = 0;
  uint32_t length = 0;

  __attribute__((always_inline)) uint32_t At(uint32_t i) const { return shard->At(start + i); }
  uint32_t Base(uint64_t b) const { return shard->bases[b]; }
  /** The first index at or after `lo` whose posting is ≥ value, or the length (SeekIn). */
  uint32_t Seek(uint32_t value, uint32_t lo) const { return SeekIn(*this, value, lo); }
};

/** The candidate stage (kernel/votes.ts FingerprintVotes) over one generation's fingerprint lists. */
class FingerprintVotes : public Napi::ObjectWrap<FingerprintVotes> {
 public:
  static Napi::Function Define(Napi::Env env);
  explicit FingerprintVotes(const Napi::CallbackInfo& info);
  ~FingerprintVotes() override;

 private:
  struct Candidate {
    uint32_t doc;
    uint32_t vote;
  };

  Napi::Value Candidates(const Napi::CallbackInfo& info);
  Napi::Value Tie(const Napi::CallbackInfo& info);
  /** Reads and checks one shard's columns; false with a JS error pending. */
  bool LoadShard(Napi::Env env, Napi::Object description, size_t number);
  PostingList ListOf(uint32_t key) const;
  uint32_t Weight(uint32_t length) const;
  std::vector<Candidate> Refine(const std::vector<Candidate>& first, size_t unreadFrom, size_t lists, size_t count) const;
  void HoldingEvery(std::vector<uint32_t>& docs, size_t unreadFrom) const;

  /** The description object: it holds the typed arrays whose memory the shards point into. */
  Napi::ObjectReference keep_;
  std::vector<PackedShard> shards_;
  /** The documents' word-order sketches (kOrderWords each), in the description's memory. */
  const uint32_t* order_ = nullptr;
  uint32_t docs_ = 0;
  uint32_t bits_ = 16;
  double base_ = 0, basePerKey_ = 0, budget_ = 0, budgetPerKey_ = 0, cap_ = 0;
  /** Votes per document (kernel/votes.ts FingerprintVotes.votes says why a byte and 16 bits). */
  std::vector<uint8_t> votes_;
  std::vector<uint16_t> exact_;
  std::vector<uint32_t> touched_;
  int64_t external_ = 0;
  // Per query, reused.
  std::u16string text_;
  std::vector<uint32_t> keys_;
  std::vector<PostingList> lists_;
  /** The last query's tie (Tie): the first kTieScanned lyrics with the most votes, whether it is wanted, where its unread lists start. */
  std::vector<uint32_t> tied_;
  bool tiedWanted_ = false;
  size_t tiedUnreadFrom_ = 0;
};

/** A query's grams, compared with many lyrics (kernel/coverage.ts QueryGrams). */
class QueryGrams : public Napi::ObjectWrap<QueryGrams> {
 public:
  static Napi::Function Define(Napi::Env env);
  explicit QueryGrams(const Napi::CallbackInfo& info);

 private:
  Napi::Value Coverage(const Napi::CallbackInfo& info);
  int32_t Walk(size_t n, bool best);
  bool Counts(const std::vector<int32_t>& runs, size_t r) const;
  int32_t Account(const std::vector<int32_t>& a, const std::vector<int32_t>& b, size_t n);

  /** Where coverage() writes [covered, longest]. */
  Napi::Reference<Napi::Int32Array> out_;
  int32_t* outData_ = nullptr;
  int32_t length_ = 0;
  size_t count_ = 0;
  uint32_t mask_ = 0;
  std::vector<uint32_t> hashes_, slotOf_, keys_, stamps_;
  std::vector<uint8_t> used_, unspaced_, filter_;
  std::vector<int32_t> positions_, lastAt_;
  uint32_t filterShift_ = 0;
  uint32_t stamp_ = 0;
  std::vector<int32_t> counted_;
  std::vector<int32_t> runs_;
  bool changed_ = false;
};

}  // namespace refrain
