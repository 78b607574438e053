/** Spanish word lists. Nouns carry their article; adjectives are invariable in gender. */
import type { LanguagePack } from './pack.js';

export const es: LanguagePack = {
  code: 'es',
  iso3: 'spa',
  name: 'Spanish',
  common: [
    'Te quiero', 'Oh, oh, oh', 'No puedo vivir sin ti', 'Bailando toda la noche', 'Mi corazón es tuyo',
    'Dame un beso', 'Ay, ay, ay', 'Tú y yo', 'Quédate conmigo', 'Te extraño cada día', 'Nunca te olvidaré',
    'Eres mi vida', 'Esta noche es nuestra', 'Contigo hasta el final', 'Me vuelves loco', 'Dime que me quieres',
    'Sin ti no soy nada', 'Vamos a bailar', 'Mi amor, mi amor', 'Qué bonita es la vida', 'Siento tu piel',
    'Ven, ven conmigo', 'Llévame contigo', 'Para siempre', 'Déjame soñar', 'Todo lo que quiero eres tú',
    'El amor duele', 'Bajo la luna', 'Cuando me miras', 'Muévete así', 'No me digas adiós', 'Vuelve a mí',
  ],
  templates: [
    'Quiero {v} contigo {t}', 'Perdido en {n}', 'Te busco en {n}', 'Camino solo por {p}', 'Tu voz es {n}',
    'Me enseñaste a {v}', '{n} me habla de ti', 'Quiero {v} {t}', 'Nada es tan {a} como tú',
    'Soñé contigo {t}', 'Vuelvo a {p}', 'Bajo {n}, tú y yo', 'Como {n}, te vas', 'Me quemo como {n}',
    'Siempre {n}, siempre tú', 'Entre {n} y el mar', 'Me llevas a {p}', 'Nos vimos en {p} {t}',
    'Tengo miedo de {v} sin ti', 'Tu amor es {a} como {n}', 'No sé {v} sin tu mirada',
    'Cada noche en {p} pienso en ti', 'Ya no quiero {v}', 'Mi vida es {a} sin ti',
  ],
  hooks: ['Ay, {n}', 'Corazón {a}', 'Quiero {v}', 'Noche en {p}', 'Como {n}', 'Baila {t}', 'Amor {a}', 'Volver a {p}'],
  nouns: [
    'la noche', 'el mar', 'el viento', 'la lluvia', 'el fuego', 'la ciudad', 'el sueño', 'la luz', 'el sol',
    'la luna', 'el silencio', 'la calle', 'el cielo', 'la tormenta', 'la canción', 'el verano', 'la playa',
    'el recuerdo', 'la frontera', 'el tiempo', 'la distancia', 'el desierto',
  ],
  verbs: ['bailar', 'correr', 'volar', 'soñar', 'cantar', 'quedarme', 'esperar', 'olvidar', 'respirar', 'luchar', 'vivir', 'caer', 'amar', 'llorar'],
  adjectives: ['azul', 'triste', 'fuerte', 'dulce', 'libre', 'grande', 'feliz', 'gris', 'salvaje', 'frágil', 'eterno', 'infinito'],
  times: ['esta noche', 'cada mañana', 'para siempre', 'otra vez', 'hasta el amanecer', 'toda la vida', 'cada día'],
  fillers: ['Oh, oh, oh', 'Eh, eh', 'Na, na, na', 'Ay, ay, ay', 'Oh-oh-oh, oh-oh'],
  faith: ['Dios mío, dame fuerza', 'Rezo a Dios por ti cada noche', 'Solo Dios sabe que te amé'],
  explicit: [
    { line: 'Maldita sea, me dejaste', category: 'harassment' },
    { line: 'Sangre en el suelo, ya no hay perdón', category: 'violence' },
    { line: 'Tu cuerpo junto al mío toda la noche', category: 'sexual' },
    { line: 'Fumando y bebiendo hasta el amanecer', category: 'illicit' },
  ],
  firstNames: ['Alejandro', 'Lucía', 'Carlos', 'Sofía', 'Diego', 'Valentina', 'Javier', 'Camila', 'Mateo', 'Isabel', 'Andrés', 'Paula', 'Pablo', 'Elena', 'Raúl', 'Carmen'],
  lastNames: ['García', 'Martínez', 'López', 'Herrera', 'Castillo', 'Navarro', 'Romero', 'Vega', 'Morales', 'Ortega', 'Ríos', 'Delgado', 'Fuentes', 'Molina', 'Cabrera', 'Soto'],
  countries: ['ES', 'ES', 'ES', 'MX', 'MX', 'MX', 'AR', 'AR', 'CO', 'CO', 'CL', 'PE', 'PR', 'VE', 'CU', 'UY'],
};
