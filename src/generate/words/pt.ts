/** Portuguese (Brazilian) word lists. Nouns carry their article; adjectives are invariable in gender. */
import type { LanguagePack } from './pack.js';

export const pt: LanguagePack = {
  code: 'pt',
  iso3: 'por',
  name: 'Portuguese',
  common: [
    'Eu te amo', 'Oh, oh, oh', 'Não consigo viver sem você', 'Meu amor', 'Fica comigo', 'Dançando a noite inteira',
    'Você é a minha vida', 'Sinto sua falta todo dia', 'Para sempre', 'Eu e você', 'Meu coração bate forte',
    'Me dá um beijo', 'Essa noite é nossa', 'Não me deixe nunca', 'Você me deixa louco', 'Debaixo das estrelas',
    'Diz que me ama', 'Quero ficar com você', 'Saudade de você', 'Vem comigo', 'Volta pra mim', 'Só nós dois',
    'Mais uma vez',
  ],
  templates: [
    'Quero {v} com você {t}', 'Perdido em {n}', 'Ando sozinho por {p}', '{n} me fala de você',
    'Como {n}, você vai embora', 'Você me ensinou a {v}', 'Sonhei com você {t}', 'Volto para {p}',
    'Queimo como {n}', 'Sempre {n}, sempre você', 'Quero {v} {t}', 'Nada é tão {a} quanto você',
    'Entre {n} e o mar', 'Você me leva para {p}', 'A gente se viu em {p} {t}', 'Tenho medo de {v} sem você',
    'Seu amor é {a} como {n}', 'Toda noite em {p} penso em você', 'Não quero mais {v}', 'Minha vida é {a} sem você',
  ],
  hooks: ['Ai, {n}', 'Coração {a}', 'Quero {v}', 'Noite em {p}', 'Como {n}', 'Amor {a}', 'Voltar para {p}', 'Dança {t}'],
  nouns: [
    'a noite', 'o mar', 'o vento', 'a chuva', 'o fogo', 'a cidade', 'o sonho', 'a luz', 'o sol', 'a lua',
    'o silêncio', 'a estrada', 'o céu', 'a tempestade', 'a canção', 'o verão', 'a praia', 'a saudade',
    'o tempo', 'a distância', 'a onda',
  ],
  verbs: ['dançar', 'correr', 'voar', 'sonhar', 'cantar', 'ficar', 'esperar', 'esquecer', 'respirar', 'lutar', 'viver', 'cair', 'amar', 'chorar'],
  adjectives: ['triste', 'doce', 'livre', 'forte', 'grande', 'feliz', 'azul', 'breve', 'gentil', 'selvagem', 'frágil', 'infinito'],
  times: ['esta noite', 'todo dia', 'para sempre', 'outra vez', 'até o amanhecer', 'a vida inteira', 'toda manhã'],
  fillers: ['Oh, oh, oh', 'Ê, ê', 'Lá, lá, lá', 'Uô, uô', 'Na, na, na'],
  faith: ['Meu Deus, me dá força', 'Rezo a Deus por você toda noite', 'Só Deus sabe que eu te amei'],
  explicit: [
    { line: 'Porra, você me deixou', category: 'harassment' },
    { line: 'Sangue no chão, sem perdão', category: 'violence' },
    { line: 'Seu corpo no meu a noite inteira', category: 'sexual' },
    { line: 'Fumando e bebendo até o amanhecer', category: 'illicit' },
  ],
  firstNames: ['João', 'Ana', 'Pedro', 'Beatriz', 'Gabriel', 'Mariana', 'Rafael', 'Larissa', 'Thiago', 'Juliana', 'Bruno', 'Fernanda', 'Gustavo', 'Camila', 'Rodrigo', 'Letícia'],
  lastNames: ['Silva', 'Santos', 'Oliveira', 'Souza', 'Costa', 'Pereira', 'Almeida', 'Ferreira', 'Rodrigues', 'Carvalho', 'Gomes', 'Ribeiro', 'Barbosa', 'Teixeira', 'Moura', 'Cardoso'],
  countries: ['BR', 'BR', 'BR', 'BR', 'BR', 'PT', 'PT', 'AO'],
};
