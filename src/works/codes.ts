/**
 * The identifiers a work submission carries: ISWC (ISO 15707, the musical work) and ISRC (ISO 3901,
 * a recording of it). Pure functions: parse, verify, give the canonical form.
 */

/** `T-123.456.789-C` or `T1234567890` (a leading t in any case). */
const ISWC = /^T(?:-(\d{3})\.(\d{3})\.(\d{3})-(\d)|(\d{9})(\d))$/i;

/** `CC-XXX-YY-NNNNN` with or without its hyphens: country, registrant, year, designation. */
const ISRC = /^(?:([A-Z]{2})-([A-Z0-9]{3})-(\d{2})-(\d{5})|([A-Z]{2})([A-Z0-9]{3})(\d{2})(\d{5}))$/i;

export type Parsed = { ok: true; value: string } | { ok: false; message: string };

/**
 * The ISWC check digit of nine digits: (10 − (1 + Σ i·dᵢ) mod 10) mod 10, i = 1…9 (ISO 15707).
 * T-034.524.680-1: 1 + 0 + 6 + 12 + 20 + 10 + 24 + 42 + 64 + 0 = 179 → 10 − 9 = 1.
 */
export function iswcCheckDigit(digits: string): number {
  let sum = 1;
  for (let i = 0; i < 9; i++) sum += (i + 1) * (digits.charCodeAt(i) - 48);
  return (10 - (sum % 10)) % 10;
}

/** An ISWC in either accepted form, check digit verified; canonical form `T-034.524.680-1`. */
export function parseIswc(input: string): Parsed {
  const m = ISWC.exec(input.trim());
  if (!m) return { ok: false, message: 'must be an ISWC such as T-034.524.680-1 or T0345246801' };
  const digits = m[5] ?? `${m[1]}${m[2]}${m[3]}`;
  const check = Number(m[6] ?? m[4]);
  const expected = iswcCheckDigit(digits);
  const canonical = (c: number) => `T-${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6)}-${c}`;
  if (check !== expected) return { ok: false, message: `has a wrong check digit: ${canonical(check)} should end in ${expected}` };
  return { ok: true, value: canonical(check) };
}

/** An ISRC with or without hyphens; canonical form: 12 characters, upper case (as `track_isrc`). */
export function parseIsrc(input: string): Parsed {
  const m = ISRC.exec(input.trim());
  if (!m) return { ok: false, message: 'must be an ISRC such as GB-AAA-20-00001 (CC-XXX-YY-NNNNN, hyphens optional)' };
  return { ok: true, value: input.trim().replace(/-/g, '').toUpperCase() };
}
