import t from 'tap';
import { KANA, katakanaOf, romajiOf, toCyrillic } from '../../src/generate/transliterate.js';

t.test('Latin names become Cyrillic by letter rules', async (t) => {
  t.equal(toCyrillic('Lily Ellis'), 'Лили Еллис');
  t.equal(toCyrillic('Sasha Cherry'), 'Саша Черри');
  t.equal(toCyrillic('José Müller'), 'Джосе Муллер', 'diacritics dropped');
  t.equal(toCyrillic('Maya'), 'Мая');
  t.notMatch(toCyrillic('The Velvet Wolves'), /[A-Za-z]/);
});

t.test('stage names and their katakana correspond syllable by syllable', async (t) => {
  const ka = KANA.findIndex(([r]) => r === 'ka');
  const na = KANA.findIndex(([r]) => r === 'na');
  const mi = KANA.findIndex(([r]) => r === 'mi');
  t.equal(romajiOf([ka, na, mi]), 'Kanami');
  t.equal(katakanaOf([ka, na, mi]), 'カナミ');
});
