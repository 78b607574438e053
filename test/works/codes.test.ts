/** ISWC and ISRC: the accepted forms, the ISWC check digit, the canonical forms. */
import t from 'tap';
import { iswcCheckDigit, parseIsrc, parseIswc } from '../../src/works/codes.js';

t.test('the ISWC check digit (ISO 15707)', async (t) => {
  t.equal(iswcCheckDigit('034524680'), 1, 'T-034.524.680-1, the standard example');
  t.equal(iswcCheckDigit('000000000'), 9, 'all zeros: 10 - 1');
  t.equal(iswcCheckDigit('123456789'), 4, '1 + 285 = 286 → 4');
  t.equal(iswcCheckDigit('070000000'), 5, 'weight 2 on the second digit: 1 + 14 = 15 → 5');
});

t.test('ISWC forms', async (t) => {
  t.same(parseIswc('T-034.524.680-1'), { ok: true, value: 'T-034.524.680-1' });
  t.same(parseIswc('T0345246801'), { ok: true, value: 'T-034.524.680-1' }, 'compact form');
  t.same(parseIswc(' t-034.524.680-1 '), { ok: true, value: 'T-034.524.680-1' }, 'case and spaces');
  t.same(parseIswc('T-034.524.680-2'), { ok: false, message: 'has a wrong check digit: T-034.524.680-2 should end in 1' });
  for (const bad of ['034.524.680-1', 'T-034524680-1', 'T-034.524.6801', 'T03452468011', 'X0345246801', '']) {
    t.same(parseIswc(bad), { ok: false, message: 'must be an ISWC such as T-034.524.680-1 or T0345246801' }, bad || '(empty)');
  }
});

t.test('ISRC forms', async (t) => {
  t.same(parseIsrc('GB-AAA-20-00001'), { ok: true, value: 'GBAAA2000001' });
  t.same(parseIsrc('usum71703861'), { ok: true, value: 'USUM71703861' }, 'lower case, no hyphens');
  t.same(parseIsrc('QZ-ES6-19-00003'), { ok: true, value: 'QZES61900003' }, 'digits in the registrant code');
  for (const bad of ['GB-AAA-2000001', 'GBAAA200000', 'GBAAA20000012', 'G1AAA2000001', 'GBAAAX000001', 'GB_AAA_20_00001']) {
    t.equal(parseIsrc(bad).ok, false, bad);
  }
});
