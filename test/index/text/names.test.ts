/** The comparable core of titles and artist credits, and the similarity the matcher compares them by. */
import t from 'tap';
import { artistCore, looseSimilarity, nameSimilarity, titleCore } from '../../../src/index/text/names.js';

t.test('title and artist cores drop versions and featured credits', async (t) => {
  t.equal(titleCore('Empty Love (Remastered 2011)'), 'empty love');
  t.equal(titleCore('Empty Love - Live'), 'empty love');
  t.equal(titleCore('Empty Love [Radio Edit] (feat. Someone)'), 'empty love');
  t.equal(titleCore('Empty Love feat. Someone'), 'empty love');
  t.equal(titleCore('(Untitled)'), 'untitled', 'a title that is all decoration stays itself');
  t.equal(artistCore('Noah Murray feat. Zoe Kim'), 'noah murray');
  t.equal(artistCore('Noah Murray & Zoe Kim'), 'noah murray');
  t.equal(artistCore('Noah Murray, Zoe Kim'), 'noah murray');
  t.equal(nameSimilarity('noah murray', 'noah murray'), 1);
  t.ok(nameSimilarity('noah murray', 'noah muray') > 0.7);
  t.ok(nameSimilarity('noah murray', 'zoe kim') < 0.2);
  t.equal(looseSimilarity('murray noah', 'noah murray'), 1, 'word order does not matter');
});
