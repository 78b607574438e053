/** The term dictionary (src/index/text/dictionary.ts): every term found with its id, no other, at every fill of its table. */
import t from 'tap';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { DictionaryBuilder, DictionaryView, termHashes } from '../../../src/index/text/dictionary.js';
import { HashSet } from '../../../src/index/text/build.js';
import { column, INDEX_FORMAT, loadGenerationAsync, type Manifest } from '../../../src/index/store/layout.js';
import { term } from '../../../src/index/text/terms.js';
import { tempDir } from '../../helpers/tmp.js';

t.test('terms are found with their ids and absent ones are not, from an empty table to a three-quarters full one', async (t) => {
  // 12 terms fill 16 slots to exactly three quarters; 13 take 32; the rest cross several sizes.
  for (const count of [0, 1, 12, 13, 24, 25, 1000, 3073]) {
    const dir = tempDir(t);
    const builder = new DictionaryBuilder();
    const terms = Array.from({ length: count }, (_, i) => [i % 3 === 0 ? 'l' : 't', `word${i}`] as const);
    const ids = terms.map(([field, value]) => builder.id(field, value));
    t.same(ids, terms.map((_, i) => i), 'ids in order of first sight');
    if (count > 0) t.equal(builder.id('l', 'word0'), 0, 'a term seen again keeps its id');
    const entry = builder.write(dir, 'dict');
    const manifest: Manifest = { format: INDEX_FORMAT, generation: 1, created: '', catalogSeq: 0, segments: { dict: entry }, parts: {}, stats: {} };
    writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
    const view = new DictionaryView(await loadGenerationAsync(dir), 'dict');
    const slots = entry.columns.ids.length;
    t.ok(builder.size <= 0.75 * slots && (slots === 16 || builder.size > 0.375 * slots), `${builder.size} terms in ${slots} slots`);
    let wrong = 0;
    terms.forEach(([field, value], i) => {
      if (view.lookup(term(field, value)) !== i) wrong++;
      // The same word in the other field, and words never added.
      if (view.lookup(term(field === 'l' ? 't' : 'l', value)) !== -1) wrong++;
      if (view.lookup(term(field, `${value}x`)) !== -1) wrong++;
    });
    t.equal(wrong, 0, `${count} terms`);
  }
});

t.test('a word hashed where it stands in a text is the term spelled out: same hashes, same id', async (t) => {
  const builder = new DictionaryBuilder();
  const text = 'the night is young and the night is ours ü 日本 x';
  const words = text.split(' ');
  const hasher = builder.field('l');
  let from = 0;
  let wrong = 0;
  for (const w of words) {
    hasher.hash(text, from, from + w.length);
    const [a, b] = termHashes(term('l', w));
    if (hasher.h1 !== a || hasher.h2 !== b) wrong++;
    // The id through the hasher, then by the spelled-out term: one id per distinct word.
    if (builder.idOf(hasher) !== builder.id('l', w)) wrong++;
    from += w.length + 1;
  }
  t.equal(wrong, 0, `${words.length} words`);
  t.equal(builder.size, new Set(words).size, 'each distinct word once');
  t.not(builder.id('t', 'night'), builder.id('l', 'night'), 'the same word in another field is another term');
});

t.test('the per-document set of hash pairs: members found, others not, emptied by start(), grown for long documents', async (t) => {
  const set = new HashSet();
  let wrong = 0;
  for (const size of [0, 1, 10, 500, 600, 5000, 20]) {
    set.start(size);
    const seen = new Set<string>();
    for (let i = 0; i < 2 * size; i++) {
      // `size` distinct pairs, each twice, many sharing their second half (b alike, a different).
      const j = i % Math.max(1, size);
      const a = (j * 2654435761) >>> 0;
      const b = (j % 7) * 40503;
      const key = `${a},${b}`;
      if (set.first(a, b) !== !seen.has(key)) wrong++;
      seen.add(key);
    }
  }
  t.equal(wrong, 0);
  set.start(3);
  t.ok(set.first(1, 2), 'a new document starts empty');
  t.notOk(set.first(1, 2));
});

t.test('the stored table is the one a dictionary of term strings writes: fields in the order first used, the terms of each field in id order', async (t) => {
  // The former builder: a Map of values per field (insertion order), each term spelled out to be hashed.
  const reference = (terms: (readonly [string, string])[]) => {
    const fields = new Map<string, Map<string, number>>();
    let size = 0;
    for (const [field, value] of terms) {
      const values = fields.get(field) ?? fields.set(field, new Map()).get(field)!;
      if (!values.has(value)) values.set(value, size++);
    }
    let slots = 16;
    while (4 * size > 3 * slots) slots <<= 1;
    const [h1, h2, ids] = [new Uint32Array(slots), new Uint32Array(slots), new Uint32Array(slots)];
    for (const [field, values] of fields) {
      for (const [value, id] of values) {
        const [a, b] = termHashes(term(field, value));
        let slot = a & (slots - 1);
        while (ids[slot] !== 0) slot = (slot + 1) & (slots - 1);
        [h1[slot], h2[slot], ids[slot]] = [a, b, id + 1];
      }
    }
    return { h1, h2, ids };
  };
  // Fields first used in mixed order, values repeating across and within fields, enough to collide in the table.
  const fieldsInUse = ['t', 'l', 'a', 'l', 'g', 'w', 't'];
  const terms = Array.from({ length: 5000 }, (_, i) => [fieldsInUse[i % fieldsInUse.length], `w${(i * 31) % 1700}`] as const);
  const builder = new DictionaryBuilder();
  for (const [field, value] of terms) builder.id(field, value);
  const dir = tempDir(t);
  const entry = builder.write(dir, 'dict');
  const manifest: Manifest = { format: INDEX_FORMAT, generation: 1, created: '', catalogSeq: 0, segments: { dict: entry }, parts: {}, stats: {} };
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
  const index = await loadGenerationAsync(dir);
  const expected = reference(terms);
  for (const name of ['h1', 'h2', 'ids'] as const) t.same([...column(index, 'dict', name, 'u32')], [...expected[name]], `${name}: ${expected[name].length} slots`);
});
