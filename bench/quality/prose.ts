/**
 * English prose that is not in the catalog: paragraphs of the README.md files under node_modules,
 * with markdown and code stripped. They are the "unrelated" texts of a screener's everyday input
 * (documentation, mail, articles) and the surroundings of the `embedded` bucket.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { normalize, wordCount, wordsOf } from './text.js';

const STOPWORDS = new Set('the a an of to and is in it that for you with this be are on as can by or will not your if from'.split(' '));

/** README.md files under `dir`, found recursively, in a stable order. */
function readmes(dir: string, out: string[] = []): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch {
    return out;
  }
  for (const name of entries) {
    const full = path.join(dir, name);
    let st;
    try {
      st = statSync(full);
    } catch {
      continue;
    }
    if (st.isDirectory()) readmes(full, out);
    else if (name.toLowerCase() === 'readme.md') out.push(full);
  }
  return out;
}

/** A paragraph's text with inline markdown removed, or undefined when it is not a prose paragraph. */
function prose(paragraph: string): string | undefined {
  const first = paragraph.trimStart();
  // Headings, tables, quotes, lists, indented code, badges, HTML blocks.
  if (/^(#|\||>|[-*+] |\d+[.)] |!\[|\[!\[|<|={3}|-{3})/.test(first) || /^ {4}|\t/.test(paragraph)) return undefined;
  if (paragraph.includes('`')) return undefined; // inline code: not prose
  const text = paragraph
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/(\*\*|__|\*|~~)/g, '')
    .replace(/(^|\s)_([^_]+)_(?=[\s.,;:!?]|$)/g, '$1$2')
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length < 100 || text.length > 600 || wordCount(text) < 10) return undefined;
  const letters = text.replace(/[^\p{L}]/gu, '').length;
  if (letters / text.replace(/\s/g, '').length < 0.8) return undefined;
  const words = wordsOf(text);
  if (words.filter((w) => STOPWORDS.has(w)).length / words.length < 0.2) return undefined;
  return text;
}

/** Distinct English prose paragraphs of 100–600 characters from the README files under `dir`. */
export function proseParagraphs(dir: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const file of readmes(dir)) {
    const markdown = readFileSync(file, 'utf8')
      .replace(/\r\n?/g, '\n')
      .replace(/^(```|~~~)[\s\S]*?^\1.*$/gm, '\n');
    for (const paragraph of markdown.split(/\n\s*\n/)) {
      const text = prose(paragraph);
      if (!text) continue;
      const key = normalize(text);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(text);
    }
  }
  return out;
}
