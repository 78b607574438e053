/**
 * Text helpers of the quality bench, independent of Refrain's own normaliser (the bench must not
 * share code with the system it judges): the normal form that decides relevance, word splitting,
 * and a conservative word count for the endpoint's "at least 10 words" rule.
 */
import { createHash } from 'node:crypto';

const NON_WORD = /[^\p{L}\p{N}]+/gu;
const APOSTROPHES = /['’ʼ`´]/g;

/** Lower case, letters and digits only, whitespace collapsed: two lyrics are "the same" when this is equal. */
export function normalize(text: string): string {
  return text.toLowerCase().replace(NON_WORD, ' ').trim();
}

/** A short fingerprint of the normal form, for grouping bodies that are the same text. */
export function normalHash(text: string): string {
  return createHash('sha1').update(normalize(text)).digest('base64url');
}

/** The words of a text (normal form split on spaces). */
export function wordsOf(text: string): string[] {
  const n = normalize(text);
  return n ? n.split(' ') : [];
}

/**
 * Word count as a server could count it, taking the smaller of two readings: letter/digit runs
 * with apostrophes glued ("can't" is one word) and whitespace-separated tokens holding a letter
 * or digit ("—" is none).
 */
export function wordCount(text: string): number {
  const runs = text.toLowerCase().replace(APOSTROPHES, '').split(NON_WORD).filter(Boolean).length;
  const tokens = text.split(/\s+/).filter((t) => /[\p{L}\p{N}]/u.test(t)).length;
  return Math.min(runs, tokens);
}
