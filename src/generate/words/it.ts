/** Italian word lists. Nouns carry their article; adjectives end in -e (invariable in gender). */
import type { LanguagePack } from './pack.js';

export const it: LanguagePack = {
  code: 'it',
  iso3: 'ita',
  name: 'Italian',
  common: [
    'Ti amo', 'Oh, oh, oh', 'Non posso vivere senza te', 'Amore mio', 'Resta con me', 'Ballando tutta la notte',
    'Sei la mia vita', 'Mi manchi ogni giorno', 'Per sempre', 'Tu ed io', 'Il cuore batte forte', 'Dammi un bacio',
    'Questa notte è nostra', 'Non lasciarmi mai', 'Mi fai impazzire', 'Sotto le stelle', 'Dimmi che mi ami',
    'Voglio stare con te', 'La vita è bella', 'Vieni con me', 'Non andare via', 'Torna da me', 'Solo noi due',
    'Che bello questo amore', 'Sei tutto per me', 'Ancora una volta',
  ],
  templates: [
    'Voglio {v} con te {t}', 'Cammino da solo per {p}', '{n} mi parla di te', 'Come {n}, te ne vai',
    'Mi hai insegnato a {v}', 'Ti ho sognato {t}', 'Ritorno a {p}', 'Brucio come {n}', 'Sempre {n}, sempre tu',
    'Voglio {v} {t}', 'Niente è così {a} come te', 'Tra {n} e il mare', 'Mi porti a {p}', 'Ci siamo visti a {p} {t}',
    'Ho paura di {v} senza te', 'Il tuo amore è {a} come {n}', 'Non so {v} senza il tuo sguardo',
    'Ogni notte a {p} penso a te', 'Non voglio più {v}', 'La mia vita è {a} senza te', 'Aspetto {n} {t}',
  ],
  hooks: ['Oh, {n}', 'Cuore {a}', 'Voglio {v}', 'Notte a {p}', 'Come {n}', 'Amore {a}', 'Tornare a {p}', 'Balla {t}'],
  nouns: [
    'la notte', 'il mare', 'il vento', 'la pioggia', 'il fuoco', 'la città', 'il sogno', 'la luce', 'il sole',
    'la luna', 'il silenzio', 'la strada', 'il cielo', 'la tempesta', 'la canzone', "l'estate", 'la spiaggia',
    'il ricordo', 'il tempo', 'la distanza', 'il deserto',
  ],
  verbs: ['ballare', 'correre', 'volare', 'sognare', 'cantare', 'restare', 'aspettare', 'dimenticare', 'respirare', 'lottare', 'vivere', 'cadere', 'amare', 'piangere'],
  adjectives: ['dolce', 'triste', 'forte', 'grande', 'felice', 'breve', 'fragile', 'gentile', 'ribelle', 'celeste', 'selvaggio', 'infinito'],
  times: ['stanotte', 'ogni mattina', 'per sempre', 'ancora', "fino all'alba", 'tutta la vita', 'ogni giorno'],
  fillers: ['Oh, oh, oh', 'Eh, eh', 'La, la, la', 'Uoh, uoh', 'Na, na, na'],
  faith: ['Dio mio, dammi la forza', 'Prego Dio per te ogni notte', 'Solo Dio sa che ti ho amato'],
  explicit: [
    { line: 'Maledizione, mi hai lasciato', category: 'harassment' },
    { line: 'Sangue sul pavimento, non ti perdono', category: 'violence' },
    { line: 'Il tuo corpo sul mio tutta la notte', category: 'sexual' },
    { line: "Fumando e bevendo fino all'alba", category: 'illicit' },
  ],
  firstNames: ['Marco', 'Giulia', 'Luca', 'Chiara', 'Andrea', 'Francesca', 'Matteo', 'Sara', 'Lorenzo', 'Elisa', 'Davide', 'Martina', 'Simone', 'Alessia', 'Paolo', 'Federica'],
  lastNames: ['Rossi', 'Bianchi', 'Romano', 'Colombo', 'Ricci', 'Marino', 'Greco', 'Bruno', 'Gallo', 'Conti', 'Costa', 'Fontana', 'Moretti', 'Barbieri', 'Lombardi', 'Serra'],
  countries: ['IT', 'IT', 'IT', 'IT', 'IT', 'CH', 'SM'],
};
