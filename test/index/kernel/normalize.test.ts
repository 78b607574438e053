/** Normalisation and tokenisation shared by indexing and querying. */
import t from 'tap';
import { foldName, normalizeName, normalizeText, wordsOf } from '../../../src/index/kernel/normalize.js';

t.test('case, diacritics, apostrophes, punctuation and line breaks fold away', async (t) => {
  t.equal(normalizeText("Don't STOP, believin’!\n\nHold  on—to that feelin'"), 'dont stop believin hold on to that feelin');
  t.equal(normalizeText('Ça va? Größe naïve CAFÉ'), 'ca va grosse naive cafe');
  t.equal(normalizeText('  ...  '), '');
  t.equal(normalizeText('ﬁne ﬂower'), 'fine flower', 'ligatures decompose');
  t.equal(normalizeText('Ｆｕｌｌ　ｗｉｄｔｈ'), 'full width', 'compatibility forms decompose');
});

t.test('the Latin fast path and the general path agree', async (t) => {
  const samples = ['Żółć gęślą jaźń', 'Él está aquí, ¿verdad?', 'Ĉiuĵaŭde ŝi manĝas', 'Œuvre — “quoted” text…', 'tab\there\r\nnext'];
  for (const s of samples) {
    const viaGeneral = normalizeText(`${s} 東`).replace(/ 東$/, '');
    t.equal(normalizeText(s), viaGeneral, s);
  }
});

t.test('every script keeps its letters; idempotent', async (t) => {
  t.equal(normalizeText('Привет, МИР!'), 'привет мир');
  t.equal(normalizeText('東京タワー、好き。'), '東京タワー 好き');
  t.equal(normalizeText('Ελλάδα'), 'ελλαδα');
  for (const s of ['Привет, МИР!', "Don't stop", 'Ça va?', '東京タワー、好き']) t.equal(normalizeText(normalizeText(s)), normalizeText(s));
});

t.test('words: spaces split; scripts without spaces give character pairs', async (t) => {
  t.same(wordsOf('hold on to me'), ['hold', 'on', 'to', 'me']);
  t.same(wordsOf('東京タワー'), ['東京', '京タ', 'タワ', 'ワー']);
  t.same(wordsOf('abc 東 def'), ['abc', '東', 'def']);
  t.same(wordsOf(''), []);
});

t.test('names transliterate Cyrillic, Greek and kana to Latin letters', async (t) => {
  t.equal(normalizeName('Ной Мюррей'), 'noi myurrei', 'й loses its breve like any diacritic');
  t.equal(foldName('カズキ'), 'kazuki');
  t.equal(normalizeName('Σωκράτης'), 'sokratis');
  t.equal(normalizeName('Noah Murray'), 'noah murray');
});
