/**
 * The comparable core of titles and artist credits, for the matcher (docs/index.md): version
 * decorations ("(Remastered 2011)", "[Live]", "- Live", "(feat. X)") and featured artists are
 * dropped, so "Empty Love - Live" and "Empty Love (Remastered 2011)" meet "Empty Love".
 */
import { kernel } from '../kernel/kernel.js';

const BRACKETS = /\s*[([{][^)\]}]*[)\]}]/g;
const DASH_SUFFIX = /\s+[-–—]\s+.*$/;
const FEATURING = /\s+(?:feat\.?|ft\.?|featuring|with)\s+.*$/i;
const CREDIT_SPLIT = /\s+(?:feat\.?|ft\.?|featuring|with|&|and|x|vs\.?)\s+|\s*[,;/]\s*/i;

/** A title without version decorations and featured credits, normalised. */
export function titleCore(title: string): string {
  const core = kernel.normalizeName(title.replace(BRACKETS, ' ').replace(DASH_SUFFIX, '').replace(FEATURING, ''));
  return core || kernel.normalizeName(title);
}

/** The lead artist of a credit ("A feat. B", "A & B", "A, B"), normalised. */
export function artistCore(credit: string): string {
  const lead = credit.replace(BRACKETS, ' ').split(CREDIT_SPLIT)[0] ?? credit;
  return kernel.normalizeName(lead) || kernel.normalizeName(credit);
}

/** Character trigrams of a normalised name, padded with a space at both ends (distinct). */
export function trigramsOf(name: string): string[] {
  const s = ` ${name} `;
  const out = new Set<string>();
  for (let i = 0; i + 3 <= s.length; i++) out.add(s.slice(i, i + 3));
  return [...out];
}

/** Dice coefficient of two names' trigram sets: 1 for the same name, 0 for nothing in common. */
export function nameSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  if (!a || !b) return 0;
  const ta = trigramsOf(a);
  const tb = new Set(trigramsOf(b));
  let shared = 0;
  for (const t of ta) if (tb.has(t)) shared++;
  return (2 * shared) / (ta.length + tb.size);
}

/** Similarity that ignores word order: the better of the plain and the sorted-words comparison. */
export function looseSimilarity(a: string, b: string): number {
  const plain = nameSimilarity(a, b);
  if (plain === 1 || !a.includes(' ')) return plain;
  const sort = (s: string) => s.split(' ').sort().join(' ');
  return Math.max(plain, nameSimilarity(sort(a), sort(b)));
}
