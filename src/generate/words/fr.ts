/** French word lists. Nouns carry their article; adjectives are invariable in gender. */
import type { LanguagePack } from './pack.js';

export const fr: LanguagePack = {
  code: 'fr',
  iso3: 'fra',
  name: 'French',
  common: [
    "Je t'aime", 'Oh, oh, oh', 'Je ne peux pas vivre sans toi', 'Mon amour', 'Reste avec moi', 'Danser toute la nuit',
    'Tu es ma vie', 'Tu me manques chaque jour', 'Pour toujours', 'Toi et moi', 'Mon cœur bat fort',
    'Donne-moi un baiser', 'Cette nuit est à nous', 'Ne pars pas', 'Tu me rends fou', 'Sous les étoiles',
    "Dis-moi que tu m'aimes", 'Je veux rester avec toi', 'La vie est belle', 'Viens avec moi', 'Reviens vers moi',
    'Encore une fois', 'Rien que nous deux', "C'est la vie",
  ],
  templates: [
    'Je veux {v} avec toi {t}', 'Perdu dans {n}', 'Je marche seul à {p}', '{n} me parle de toi',
    "Comme {n}, tu t'en vas", "Tu m'as appris à {v}", "J'ai rêvé de toi {t}", 'Je retourne à {p}',
    'Je brûle comme {n}', 'Toujours {n}, toujours toi', 'Je veux {v} {t}', "Rien n'est aussi {a} que toi",
    'Entre {n} et la mer', "Tu m'emmènes à {p}", 'On s\'est vus à {p} {t}', "J'ai peur de {v} sans toi",
    'Ton amour est {a} comme {n}', 'Chaque nuit à {p} je pense à toi', 'Je ne veux plus {v}',
    'Ma vie est {a} sans toi', "J'attends {n} {t}",
  ],
  hooks: ['Oh, {n}', 'Cœur {a}', 'Je veux {v}', 'Une nuit à {p}', 'Comme {n}', 'Amour {a}', 'Retour à {p}', 'Danse {t}'],
  nouns: [
    'la nuit', 'la mer', 'le vent', 'la pluie', 'le feu', 'la ville', 'le rêve', 'la lumière', 'le soleil',
    'la lune', 'le silence', 'la route', 'le ciel', "l'orage", 'la chanson', "l'été", 'la plage', 'le souvenir',
    'le temps', 'la distance', 'le désert',
  ],
  verbs: ['danser', 'courir', 'voler', 'rêver', 'chanter', 'rester', 'attendre', 'oublier', 'respirer', 'lutter', 'vivre', 'tomber', 'aimer', 'pleurer'],
  adjectives: ['triste', 'libre', 'fragile', 'calme', 'rouge', 'jeune', 'tendre', 'sauvage', 'étrange', 'immense', 'rebelle', 'sublime'],
  times: ['ce soir', 'chaque matin', 'pour toujours', 'encore', "jusqu'à l'aube", 'toute la vie', 'chaque jour'],
  fillers: ['Oh, oh, oh', 'Eh, eh', 'La, la, la', 'Ouh, ouh', 'Na, na, na'],
  faith: ['Mon Dieu, donne-moi la force', 'Je prie Dieu pour toi chaque nuit', "Dieu seul sait que je t'ai aimé"],
  explicit: [
    { line: "Putain, tu m'as laissé", category: 'harassment' },
    { line: 'Du sang sur le sol, pas de pardon', category: 'violence' },
    { line: 'Ton corps contre le mien toute la nuit', category: 'sexual' },
    { line: "Fumer et boire jusqu'à l'aube", category: 'illicit' },
  ],
  firstNames: ['Louis', 'Camille', 'Hugo', 'Léa', 'Julien', 'Chloé', 'Antoine', 'Manon', 'Mathis', 'Inès', 'Théo', 'Juliette', 'Nicolas', 'Margaux', 'Olivier', 'Élise'],
  lastNames: ['Martin', 'Bernard', 'Dubois', 'Lefèvre', 'Moreau', 'Laurent', 'Girard', 'Roux', 'Fournier', 'Mercier', 'Blanc', 'Garnier', 'Chevalier', 'Perrin', 'Leroy', 'Faure'],
  countries: ['FR', 'FR', 'FR', 'FR', 'BE', 'CA', 'CH', 'SN', 'CI'],
};
