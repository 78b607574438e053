/**
 * What a generated song is about. The theme is chosen with the lyrics and drives the analysis'
 * meaning, moods and themes, so the analysis of a song agrees with its text.
 */
import { weightTable, type WeightTable } from './distributions.js';

export interface Theme {
  readonly name: string;
  /** Completes "A song about …". */
  readonly about: string;
  readonly moods: readonly string[];
}

export const FAITH_THEME: Theme = { name: 'Faith', about: 'finding strength in faith when love is hard', moods: ['Spiritual', 'Hopeful', 'Reverent'] };
export const DESIRE_THEME: Theme = { name: 'Desire', about: 'physical attraction and a night that should not end', moods: ['Sensual', 'Intense', 'Confident'] };
export const CONFLICT_THEME: Theme = { name: 'Conflict', about: 'anger at a lover who broke their word', moods: ['Angry', 'Defiant', 'Dark'] };

/** Themes of songs without faith or explicit lines, weighted by how common they are in pop lyrics. */
export const THEMES: WeightTable<Theme> = weightTable([
  [{ name: 'Love', about: 'falling in love and wanting to stay together', moods: ['Romantic', 'Tender', 'Warm'] }, 30],
  [{ name: 'Heartbreak', about: 'the end of a relationship and the pain that follows', moods: ['Melancholic', 'Sad', 'Bittersweet'] }, 20],
  [{ name: 'Longing', about: 'missing someone who is far away', moods: ['Yearning', 'Dreamy', 'Melancholic'] }, 14],
  [{ name: 'Celebration', about: 'dancing the night away with friends', moods: ['Energetic', 'Euphoric', 'Playful'] }, 14],
  [{ name: 'Freedom', about: 'leaving everything behind and starting over', moods: ['Uplifting', 'Hopeful', 'Defiant'] }, 8],
  [{ name: 'Nostalgia', about: 'looking back at youth and the places it happened', moods: ['Wistful', 'Reflective', 'Bittersweet'] }, 8],
  [{ name: 'Self-empowerment', about: 'standing up again after being let down', moods: ['Confident', 'Uplifting', 'Determined'] }, 6],
]);
