/** The term dictionary (src/index/text/dictionary.ts): every term found with its id, no other, at every fill of its table. */
import t from 'tap';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { DictionaryBuilder, DictionaryView } from '../../../src/index/text/dictionary.js';
import { INDEX_FORMAT, loadGenerationAsync, type Manifest } from '../../../src/index/store/layout.js';
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
