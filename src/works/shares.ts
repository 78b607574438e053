/**
 * Share arithmetic of a work (docs/design.md §7). Shares are integers in hundredths of a percent
 * (0–10000 = 0–100 %). Ownership: for each right type, the writers' and publishers' shares together
 * hold at most the whole work. Collection: for each country and right type, the territories that
 * cover it (after expanding regions) collect at most the whole of it. Pure functions.
 */
import { territoryCountries } from './territories.js';

export const RIGHTS = ['mech', 'perf', 'sync'] as const;
export type Right = (typeof RIGHTS)[number];
export const MAX_SHARE = 10_000;

export type OwnerShares = { [R in Right as `${R}_ownership_share`]: number };
export type TerritoryShares = { code: string } & { [R in Right as `${R}_share`]: number };

/** A share rule broken: where (a path inside `data`) and what. */
export interface ShareIssue {
  path: (string | number)[];
  message: string;
}

/** Ownership totals per right type over writers and publishers. */
export function ownershipTotals(owners: { writer: readonly OwnerShares[]; publisher: readonly OwnerShares[] }): Record<Right, { writers: number; publishers: number }> {
  const sum = (list: readonly OwnerShares[], r: Right) => list.reduce((n, o) => n + o[`${r}_ownership_share`], 0);
  const out = {} as Record<Right, { writers: number; publishers: number }>;
  for (const r of RIGHTS) out[r] = { writers: sum(owners.writer, r), publishers: sum(owners.publisher, r) };
  return out;
}

/** The first right type whose ownership total passes 10000, as an issue on `owners`. */
export function ownershipIssue(owners: { writer: readonly OwnerShares[]; publisher: readonly OwnerShares[] }): ShareIssue | undefined {
  const totals = ownershipTotals(owners);
  for (const r of RIGHTS) {
    const { writers, publishers } = totals[r];
    if (writers + publishers > MAX_SHARE) {
      return {
        path: ['owners'],
        message: `${r}_ownership_share adds up to ${writers + publishers} (writers ${writers}, publishers ${publishers}); at most ${MAX_SHARE} (hundredths of a percent)`,
      };
    }
  }
  return undefined;
}

/**
 * The first territory entry that takes a country's collection share of one right type past 10000,
 * counting every entry that covers the country (`XW` 6000 and `IT` 5000 give Italy 11000).
 * Unknown codes are skipped (the schema reports them).
 */
export function collectionIssue(territories: readonly TerritoryShares[]): ShareIssue | undefined {
  const totals = new Map<string, number>();
  for (let i = 0; i < territories.length; i++) {
    const t = territories[i];
    const covered = territoryCountries(t.code) ?? [];
    for (const r of RIGHTS) {
      const share = t[`${r}_share`];
      if (share === 0) continue;
      for (const country of covered) {
        const key = `${r}:${country}`;
        const total = (totals.get(key) ?? 0) + share;
        totals.set(key, total);
        if (total > MAX_SHARE) {
          return {
            path: ['collection', 'territories', i, `${r}_share`],
            message: `brings the ${r} share collected in ${country} to ${total}; at most ${MAX_SHARE} (hundredths of a percent) per country`,
          };
        }
      }
    }
  }
  return undefined;
}
