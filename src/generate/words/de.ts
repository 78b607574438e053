/**
 * German word lists. Nouns carry their nominative article and templates only use them in the
 * nominative; adjectives appear only predicatively, where German leaves them uninflected.
 */
import type { LanguagePack } from './pack.js';

export const de: LanguagePack = {
  code: 'de',
  iso3: 'deu',
  name: 'German',
  common: [
    'Ich liebe dich', 'Oh, oh, oh', 'Ich kann nicht ohne dich', 'Bleib bei mir', 'Die ganze Nacht',
    'Du bist mein Leben', 'Ich vermisse dich', 'Für immer', 'Du und ich', 'Mein Herz schlägt laut',
    'Gib mir einen Kuss', 'Diese Nacht gehört uns', 'Lass mich nicht allein', 'Du machst mich verrückt',
    'Unter den Sternen', 'Sag mir, dass du mich liebst', 'Komm mit mir', 'Das Leben ist schön',
    'Wir tanzen bis zum Morgen', 'Ich geh nach Hause', 'Noch ein letztes Mal', 'Nur wir zwei', 'Komm zurück zu mir',
  ],
  templates: [
    '{n} ruft meinen Namen', '{n} ist so {a}', '{n} erzählt von dir', 'Du bist wie {n}', 'Ich will {v}, {t}',
    'Heute Nacht in {p}', 'Ich fahre nach {p}', 'Alles ist so {a}', 'Wir sind {a}, {t}', 'Ich kann nicht mehr {v}',
    'Zurück nach {p}', 'Ich brenne wie {n}', 'Wir wollten {v}, {t}', 'Ich hab Angst, ohne dich zu {v}',
    'Deine Liebe ist {a} wie {n}', 'Jede Nacht in {p} denk ich an dich', 'Ich will nicht mehr {v}',
    'Mein Leben ist {a} ohne dich', 'Ich warte, bis {n} kommt', 'Irgendwo in {p} bist du',
  ],
  hooks: ['Oh, {n}', 'Herz, so {a}', 'Ich will {v}', 'Nacht in {p}', 'Wie {n}', 'Liebe, so {a}', 'Zurück nach {p}', 'Tanz mit mir {t}'],
  nouns: [
    'die Nacht', 'der Wind', 'das Meer', 'das Feuer', 'der Regen', 'die Stadt', 'der Traum', 'das Licht',
    'die Sonne', 'der Mond', 'die Stille', 'der Sturm', 'die Straße', 'der Himmel', 'das Lied', 'der Sommer',
    'die Erinnerung', 'die Zeit', 'der Winter', 'die Welle',
  ],
  verbs: ['tanzen', 'laufen', 'fliegen', 'träumen', 'singen', 'bleiben', 'warten', 'vergessen', 'atmen', 'kämpfen', 'leben', 'fallen', 'lieben', 'weinen'],
  adjectives: ['kalt', 'frei', 'wild', 'leise', 'schön', 'traurig', 'müde', 'golden', 'stark', 'jung', 'allein', 'verloren', 'laut', 'stumm'],
  times: ['heute Nacht', 'jeden Tag', 'für immer', 'bis zum Morgen', 'noch einmal', 'die ganze Zeit', 'jeden Morgen'],
  fillers: ['Oh, oh, oh', 'Eh, eh', 'La, la, la', 'Hey, hey', 'Na, na, na'],
  faith: ['Lieber Gott, gib mir Kraft', 'Ich bete zu Gott für dich', 'Nur Gott weiß, ich hab dich geliebt'],
  explicit: [
    { line: 'Scheiße, du hast mich verlassen', category: 'harassment' },
    { line: 'Blut auf dem Boden, kein Verzeihen', category: 'violence' },
    { line: 'Dein Körper an meinem, die ganze Nacht', category: 'sexual' },
    { line: 'Betrunken bis zum Morgengrauen', category: 'illicit' },
  ],
  firstNames: ['Lukas', 'Anna', 'Felix', 'Lena', 'Jonas', 'Marie', 'Leon', 'Laura', 'Paul', 'Johanna', 'Max', 'Katharina', 'Tobias', 'Clara', 'Florian', 'Sophie'],
  lastNames: ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Wagner', 'Becker', 'Hoffmann', 'Schulz', 'Koch', 'Richter', 'Klein', 'Wolf', 'Neumann', 'Braun', 'Krüger'],
  countries: ['DE', 'DE', 'DE', 'DE', 'AT', 'AT', 'CH'],
};
