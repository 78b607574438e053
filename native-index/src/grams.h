// Fingerprint grams, as src/index/kernel/grams.ts computes them: the same hashes bit for bit, so the
// native and the TypeScript kernels read the same posting lists for a query.
#pragma once
#include <cstddef>
#include <cstdint>

namespace refrain {

/** Characters per gram (GRAM). */
constexpr size_t kGram = 5;
/** One gram in kSample is indexed (SAMPLE). */
constexpr uint32_t kSample = 4;

/** murmur3's finaliser (grams.ts mix). */
inline uint32_t Mix(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

/** Whether code unit `c` is of a script written without spaces between words (grams.ts unspacedAt). */
inline bool Unspaced(char16_t c) {
  if (c < 0x0e00) return false;
  return (c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff) || c <= 0x0eff ||
         (c >= 0x1000 && c <= 0x109f) || (c >= 0x1780 && c <= 0x17ff);
}

/**
 * Hash of every gram of s[0..length), in order: out[i] is the gram starting at i (grams.ts
 * gramHashes). Returns the number of grams; `out` holds at least `length` entries.
 *
 * The rolling hash is a chain of dependent multiplications, so it rolls over the first half of the
 * grams and the second at once: two chains, each waiting on its own multiplier, about halve the
 * time of one (the same hashes: each half starts from its first kGram - 1 characters).
 */
inline size_t GramHashes(const char16_t* s, size_t length, uint32_t* out) {
  if (length < kGram) return 0;
  constexpr uint32_t kBase = 0x01000193u;
  constexpr uint32_t kBaseOut = kBase * kBase * kBase * kBase;  // kBase^(kGram - 1) mod 2^32
  const size_t n = length - kGram + 1;
  const size_t half = n / 2;
  const char16_t* t = s + half;
  uint32_t* outT = out + half;
  uint32_t a = 0, b = 0;
  for (size_t i = 0; i < kGram - 1; i++) {
    a = a * kBase + s[i];
    b = b * kBase + t[i];
  }
  for (size_t i = 0; i < half; i++) {
    a = a * kBase + s[i + kGram - 1];
    b = b * kBase + t[i + kGram - 1];
    out[i] = Mix(a);
    outT[i] = Mix(b);
    a -= s[i] * kBaseOut;
    b -= t[i] * kBaseOut;
  }
  // An odd count: the last gram, where the second chain stopped.
  if (n & 1) outT[half] = Mix(b * kBase + t[half + kGram - 1]);
  return n;
}

/**
 * The distinct index keys of s, ascending, written over out[0..) (grams.ts indexKeys): each pair of
 * consecutive kept grams hashed into one of 2^bits lists. Returns how many.
 */
size_t IndexKeys(const char16_t* s, size_t length, uint32_t* out, uint32_t bits);

}  // namespace refrain
