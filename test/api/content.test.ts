import t from 'tap';
import { freeExcerpt } from '../../src/api/present/content.js';
import { isRestricted } from '../../src/api/restrict.js';

t.test('freeExcerpt keeps about 30% at a line end, with the notice', async (t) => {
  const body = Array.from({ length: 10 }, (_, i) => `line number ${i} of the song`).join('\n');
  const excerpt = freeExcerpt(body);
  const kept = excerpt.split('\n...')[0];
  t.ok(body.startsWith(kept));
  t.ok(kept.length <= Math.ceil(body.length * 0.3));
  t.ok(kept.length >= body.length * 0.3 - 30, 'close to 30%');
  t.match(excerpt, /\n\.\.\.\n\n\*{7} This Lyrics is NOT for Commercial use \*{7}$/);
  t.equal(freeExcerpt('one single very long line of lyrics').split('\n')[0], 'one single', 'a single long line is cut');
});

t.test('isRestricted', async (t) => {
  const open = { allowed: ['XW'], blocked: [] };
  const notIT = { allowed: ['XW'], blocked: ['IT'] };
  const implicitNotIT = { allowed: [], blocked: ['IT'] };
  const nowhere = { allowed: [], blocked: ['XW'] };
  const onlyIT = { allowed: ['IT'], blocked: [] };
  t.equal(isRestricted(0, open, ''), false);
  t.equal(isRestricted(1, open, ''), true, 'the restricted flag');
  t.equal(isRestricted(0, notIT, ''), false);
  t.equal(isRestricted(0, notIT, 'IT'), true);
  t.equal(isRestricted(0, notIT, 'FR'), false);
  t.equal(isRestricted(0, implicitNotIT, 'IT'), true);
  t.equal(isRestricted(0, implicitNotIT, 'FR'), false);
  t.equal(isRestricted(0, nowhere, ''), true);
  t.equal(isRestricted(0, nowhere, 'US'), true);
  t.equal(isRestricted(0, onlyIT, ''), true);
  t.equal(isRestricted(0, onlyIT, 'IT'), false);
  t.equal(isRestricted(0, onlyIT, 'FR'), true);
});
