/**
 * Reading the project's documentation for the doc tests: which files are docs, their fenced code
 * blocks and prose, and the anchors their headings get.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The repository's root directory. */
export const ROOT = path.resolve(import.meta.dirname, '../..');

export interface Doc {
  /** Path relative to the repository root, e.g. `docs/api.md`. */
  name: string;
  file: string;
  text: string;
}

/** README.md and every docs/*.md. */
export function docs(): Doc[] {
  const names = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
  return names.map((name) => {
    const file = path.join(ROOT, name);
    return { name, file, text: readFileSync(file, 'utf8') };
  });
}

export interface Line {
  /** 1-based line number in the file. */
  n: number;
  text: string;
  /** Inside a fenced code block. */
  fenced: boolean;
  /** Index of the fenced block the line is in (-1 outside one). */
  block: number;
}

/** The file's lines, each marked as prose or as part of a numbered fenced code block. */
export function lines(text: string): Line[] {
  const out: Line[] = [];
  let fence: string | undefined;
  let block = -1;
  text.split('\n').forEach((line, i) => {
    const marker = /^\s*(```+|~~~+)/.exec(line)?.[1];
    if (marker && (fence === undefined || marker.startsWith(fence))) {
      if (fence === undefined) {
        fence = marker;
        block++;
      } else fence = undefined;
      out.push({ n: i + 1, text: line, fenced: true, block });
      return;
    }
    out.push({ n: i + 1, text: line, fenced: fence !== undefined, block: fence !== undefined ? block : -1 });
  });
  return out;
}

/** The anchor GitHub gives a heading's text. */
export function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor of a markdown file: its headings' slugs, repeated ones numbered as GitHub does. */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of lines(text)) {
    if (line.fenced) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line.text)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    out.add(count === 0 ? base : `${base}-${count}`);
  }
  return out;
}
