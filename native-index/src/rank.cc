// track.search's scoring loop in C++ (src/index/kernel/rank.ts, the reference, says what each part
// means): filters on the per-track columns, one double per document ordering the results, computed
// in the reference's order of operations, so equal inputs give equal scores bit for bit, and the
// best `count` by score, then lower document.
#include "rank.h"

#include "common.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_map>
#include <vector>

namespace refrain {

namespace {

template <typename T>
bool Column(Napi::Env env, Napi::Object columns, const char* name, napi_typedarray_type type, const T** data, size_t* length) {
  if (!TypedArrayData(env, columns.Get(name), type, data, length)) {
    Napi::TypeError::New(env, std::string("rankTracks: the ") + name + " column has the wrong type").ThrowAsJavaScriptException();
    return false;
  }
  return true;
}

/** An optional number of the ranking (undefined: not asked). */
bool Optional(Napi::Object ranking, const char* name, double* out) {
  Napi::Value value = ranking.Get(name);
  if (!value.IsNumber()) return false;
  *out = value.As<Napi::Number>().DoubleValue();
  return true;
}

/** A sort's direction: 1 ascending, 2 descending, 0 none. */
int OrderOf(Napi::Object ranking, const char* name) {
  Napi::Value value = ranking.Get(name);
  if (!value.IsString()) return 0;
  const std::string order = value.As<Napi::String>().Utf8Value();
  return order == "asc" ? 1 : order == "desc" ? 2 : 0;
}

double ReleaseRank(double yyyymmdd) {
  return std::floor(yyyymmdd / 10000) * 416 + std::fmod(std::floor(yyyymmdd / 100), 100) * 32 + std::fmod(yyyymmdd, 100);
}

struct Scored {
  uint32_t doc;
  double score;
};

/** Whether a ranks above b: the higher score, then the lower document (topk.ts). */
struct Better {
  bool operator()(const Scored& a, const Scored& b) const { return a.score > b.score || (a.score == b.score && a.doc < b.doc); }
};

}  // namespace

// rankTracks(columns, docs | null, weights (number | Float32Array), ranking, deadline): [the best
// documents, best first (Uint32Array), how many passed the filters], or null past the deadline.
Napi::Value RankTracks(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 5 || !info[0].IsObject() || !info[3].IsObject() || !info[4].IsNumber()) {
    Napi::TypeError::New(env, "rankTracks takes (columns, docs, weights, ranking, deadline)").ThrowAsJavaScriptException();
    return env.Undefined();
  }
  Napi::Object columns = info[0].As<Napi::Object>();
  const uint32_t *artist, *common, *genre1, *genre2, *release;
  const uint16_t* lang;
  const uint8_t *flags, *rating, *artistRating;
  size_t tracks, n1, n2, n3, n4, n5, n6, n7, n8;
  if (!Column(env, columns, "artist", napi_uint32_array, &artist, &tracks) || !Column(env, columns, "common", napi_uint32_array, &common, &n1) ||
      !Column(env, columns, "genre1", napi_uint32_array, &genre1, &n2) || !Column(env, columns, "genre2", napi_uint32_array, &genre2, &n3) ||
      !Column(env, columns, "release", napi_uint32_array, &release, &n4) || !Column(env, columns, "lang", napi_uint16_array, &lang, &n5) ||
      !Column(env, columns, "flags", napi_uint8_array, &flags, &n6) || !Column(env, columns, "rating", napi_uint8_array, &rating, &n7) ||
      !Column(env, columns, "artistRating", napi_uint8_array, &artistRating, &n8)) {
    return env.Undefined();
  }
  if (n1 != tracks || n2 != tracks || n3 != tracks || n4 != tracks || n5 != tracks || n6 != tracks || n7 != tracks || n8 != tracks) {
    Napi::RangeError::New(env, "rankTracks: the columns differ in length").ThrowAsJavaScriptException();
    return env.Undefined();
  }
  // The matched documents (each within the columns) and their relevance; none: every track, relevance 0.
  const uint32_t* docs = nullptr;
  size_t n = tracks;
  double weight = 0;
  const float* weights = nullptr;
  if (!info[1].IsNull()) {
    if (!TypedArrayData(env, info[1], napi_uint32_array, &docs, &n)) {
      Napi::TypeError::New(env, "rankTracks: docs must be a Uint32Array or null").ThrowAsJavaScriptException();
      return env.Undefined();
    }
    for (size_t i = 0; i < n; i++) {
      if (docs[i] >= tracks) {
        Napi::RangeError::New(env, "rankTracks: a document past the columns").ThrowAsJavaScriptException();
        return env.Undefined();
      }
    }
    if (info[2].IsNumber()) {
      weight = info[2].As<Napi::Number>().DoubleValue();
    } else {
      size_t count = 0;
      if (!TypedArrayData(env, info[2], napi_float32_array, &weights, &count) || count < n) {
        Napi::TypeError::New(env, "rankTracks: weights must be a number or a Float32Array as long as docs").ThrowAsJavaScriptException();
        return env.Undefined();
      }
    }
  }
  Napi::Object ranking = info[3].As<Napi::Object>();
  const double deadline = info[4].As<Napi::Number>().DoubleValue();
  double artistId = 0, genreId = 0, language = 0, releaseMin = 0, releaseMax = 0;
  const bool byArtist = Optional(ranking, "artistId", &artistId);
  const bool byGenre = Optional(ranking, "genreId", &genreId);
  const bool byLanguage = Optional(ranking, "language", &language);
  const bool fromRelease = Optional(ranking, "releaseMin", &releaseMin);
  const bool toRelease = Optional(ranking, "releaseMax", &releaseMax);
  double flagsAllValue = 0, countValue = 0;
  Optional(ranking, "flagsAll", &flagsAllValue);
  Optional(ranking, "count", &countValue);
  const uint32_t flagsAll = static_cast<uint32_t>(flagsAllValue) & 0xff;
  std::vector<std::pair<uint32_t, bool>> flagsEqual;
  Napi::Value equal = ranking.Get("flagsEqual");
  if (equal.IsArray()) {
    Napi::Array list = equal.As<Napi::Array>();
    for (uint32_t i = 0; i < list.Length(); i++) {
      Napi::Value item = list.Get(i);
      if (!item.IsObject()) continue;
      Napi::Object o = item.As<Napi::Object>();
      flagsEqual.emplace_back(static_cast<uint32_t>(o.Get("mask").ToNumber().DoubleValue()) & 0xff, o.Get("present").ToBoolean().Value());
    }
  }
  const bool group = ranking.Get("groupCommontrack").ToBoolean().Value();
  const size_t count = countValue > 0 ? static_cast<size_t>(std::min(countValue, 1e9)) : 0;
  const int sortArtist = OrderOf(ranking, "sortArtistRating");
  const int sortTrack = OrderOf(ranking, "sortTrackRating");
  const int sortRelease = OrderOf(ranking, "sortReleaseDate");
  const bool sorted = sortArtist != 0 || sortTrack != 0 || sortRelease != 0;
  const double releaseSpan = ReleaseRank(99991231);

  auto passes = [&](uint32_t doc) {
    if (byArtist && artist[doc] != artistId) return false;
    if (byGenre && genre1[doc] != genreId && genre2[doc] != genreId) return false;
    if (byLanguage && lang[doc] != language) return false;
    if (flagsAll != 0 && (flags[doc] & flagsAll) != flagsAll) return false;
    for (const auto& [mask, present] : flagsEqual) {
      if (((flags[doc] & mask) != 0) != present) return false;
    }
    if (fromRelease && release[doc] < releaseMin) return false;
    if (toRelease && (release[doc] == 0 || release[doc] > releaseMax)) return false;
    return true;
  };
  auto dir = [](int order, double v, double max) { return order == 1 ? max - v : order == 2 ? v : 0.0; };
  auto score = [&](uint32_t doc, double relevance) {
    const double base = std::min(relevance, 99.0) * 100 + rating[doc] / 1.01;
    if (!sorted) return base;
    double key = dir(sortArtist, artistRating[doc], 100);
    key = key * 101 + dir(sortTrack, rating[doc], 100);
    key = key * (releaseSpan + 1) + dir(sortRelease, ReleaseRank(release[doc]), releaseSpan);
    return key * 1e4 + base;
  };

  TopK<Scored, Better> top(count);
  size_t available = 0;
  if (group) {
    // The best-scored document of each recording (the first of equal ones), in the order recordings appear.
    std::unordered_map<uint32_t, size_t> at;
    std::vector<Scored> groups;
    for (size_t i = 0; i < n; i++) {
      if ((i & 0xffff) == 0 && NowMs() > deadline) return env.Null();
      const uint32_t doc = docs ? docs[i] : static_cast<uint32_t>(i);
      if (!passes(doc)) continue;
      const double s = score(doc, docs ? (weights ? weights[i] : weight) : 0);
      auto [it, fresh] = at.try_emplace(common[doc], groups.size());
      if (fresh) groups.push_back({doc, s});
      else if (s > groups[it->second].score) groups[it->second] = {doc, s};
    }
    available = groups.size();
    for (const Scored& g : groups) top.Push(g);
  } else {
    for (size_t i = 0; i < n; i++) {
      if ((i & 0xffff) == 0 && NowMs() > deadline) return env.Null();
      const uint32_t doc = docs ? docs[i] : static_cast<uint32_t>(i);
      if (!passes(doc)) continue;
      available++;
      const double s = score(doc, docs ? (weights ? weights[i] : weight) : 0);
      top.Push({doc, s});
    }
  }
  const std::vector<Scored>& ranked = top.Sorted();
  Napi::Uint32Array best = Napi::Uint32Array::New(env, ranked.size());
  for (size_t i = 0; i < ranked.size(); i++) best[i] = ranked[i].doc;
  Napi::Array out = Napi::Array::New(env, 2);
  out.Set(0u, best);
  out.Set(1u, Napi::Number::New(env, static_cast<double>(available)));
  return out;
}

}  // namespace refrain
