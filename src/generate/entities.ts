/**
 * Named entities that generated lyrics can mention: the cities filling `{p}` slots and the words for
 * God in the faith lines. The analysis' entity list is found by scanning the lyrics for these
 * surface forms, so every reported match really is in the text. Wikidata ids are the real ones for
 * these entities; the thumbnails point at a reserved `.invalid` host.
 */

export interface KnownEntity {
  readonly name: string;
  readonly wikidataId: string;
  readonly description: string;
  readonly category: 'Location' | 'Religion';
  readonly type: string;
  /** How the entity is written in each language's lyrics; `name` where missing. */
  readonly surface: Readonly<Record<string, string>>;
}

function city(name: string, wikidataId: string, description: string, surface: Record<string, string> = {}): KnownEntity {
  return { name, wikidataId, description, category: 'Location', type: 'city', surface };
}

export const CITIES: readonly KnownEntity[] = [
  city('Paris', 'Q90', 'capital of France', { es: 'París', it: 'Parigi' }),
  city('Rome', 'Q220', 'capital of Italy', { es: 'Roma', it: 'Roma', de: 'Rom', pt: 'Roma' }),
  city('London', 'Q84', 'capital of the United Kingdom', { es: 'Londres', it: 'Londra', fr: 'Londres', pt: 'Londres' }),
  city('New York City', 'Q60', 'most populous city in the United States', { en: 'New York', es: 'Nueva York', it: 'New York', fr: 'New York', de: 'New York', pt: 'Nova York' }),
  city('Tokyo', 'Q1490', 'capital of Japan', { es: 'Tokio', de: 'Tokio', pt: 'Tóquio' }),
  city('Madrid', 'Q2807', 'capital of Spain'),
  city('Berlin', 'Q64', 'capital of Germany', { es: 'Berlín', it: 'Berlino', pt: 'Berlim' }),
  city('Lisbon', 'Q597', 'capital of Portugal', { es: 'Lisboa', it: 'Lisbona', fr: 'Lisbonne', de: 'Lissabon', pt: 'Lisboa' }),
  city('Rio de Janeiro', 'Q8678', 'city in Brazil', { es: 'Río de Janeiro' }),
  city('Barcelona', 'Q1492', 'city in Catalonia, Spain', { fr: 'Barcelone' }),
  city('Milan', 'Q490', 'city in Lombardy, Italy', { es: 'Milán', it: 'Milano', de: 'Mailand', pt: 'Milão' }),
  city('Naples', 'Q2634', 'city in Campania, Italy', { es: 'Nápoles', it: 'Napoli', de: 'Neapel', pt: 'Nápoles' }),
  city('Venice', 'Q641', 'city in Veneto, Italy', { es: 'Venecia', it: 'Venezia', fr: 'Venise', de: 'Venedig', pt: 'Veneza' }),
  city('Los Angeles', 'Q65', 'city in California, United States', { es: 'Los Ángeles' }),
  city('Las Vegas', 'Q23768', 'city in Nevada, United States'),
  city('Buenos Aires', 'Q1486', 'capital of Argentina'),
  city('Mexico City', 'Q1489', 'capital of Mexico', { es: 'Ciudad de México', it: 'Città del Messico', fr: 'Mexico', de: 'Mexiko-Stadt', pt: 'Cidade do México' }),
  city('Hamburg', 'Q1055', 'city in Germany', { es: 'Hamburgo', it: 'Amburgo', fr: 'Hambourg', pt: 'Hamburgo' }),
  city('Vienna', 'Q1741', 'capital of Austria', { es: 'Viena', fr: 'Vienne', de: 'Wien', pt: 'Viena' }),
  city('Marseille', 'Q23482', 'city in France', { es: 'Marsella', it: 'Marsiglia', pt: 'Marselha' }),
  city('Miami', 'Q8652', 'city in Florida, United States'),
  city('Chicago', 'Q1297', 'city in Illinois, United States'),
  city('Havana', 'Q1563', 'capital of Cuba', { es: 'La Habana', it: "L'Avana", fr: 'La Havane', pt: 'Havana' }),
  city('Amsterdam', 'Q727', 'capital of the Netherlands', { pt: 'Amsterdã' }),
  city('Memphis', 'Q16563', 'city in Tennessee, United States'),
];

export const RELIGIOUS: readonly KnownEntity[] = [
  { name: 'God', wikidataId: 'Q190', description: 'deity in monotheist religions', category: 'Religion', type: 'deity', surface: { es: 'Dios', it: 'Dio', fr: 'Dieu', de: 'Gott', pt: 'Deus' } },
  { name: 'Jesus', wikidataId: 'Q302', description: 'central figure of Christianity', category: 'Religion', type: 'person', surface: {} },
];

export const ALL_ENTITIES: readonly KnownEntity[] = [...CITIES, ...RELIGIOUS];

/** The way `entity` is written in lyrics of language `lang`. */
export function surfaceOf(entity: KnownEntity, lang: string): string {
  return entity.surface[lang] ?? entity.name;
}
