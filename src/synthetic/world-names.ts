import { allLocales, type LocaleDefinition } from '@faker-js/faker';
import { rootDomain } from '../contract/root-domain.ts';
import { type BackgroundName, mix, mulberry32, type Rng } from './generator.ts';

/**
 * Advertiser names as the world writes them, for `generate-data`: words drawn with Zipf-like
 * frequencies from the vocabularies of @faker-js/faker's locales (company, person, place,
 * product and dictionary words, kept up by its maintainers for 70 locales), in the country's
 * language and script, with that country's legal forms and top-level domains. About 40 % of the
 * names are in a script other than Latin; every 40th name is the previous one in another case or
 * without its accents; names outside ASCII often land on internationalized domains.
 *
 * Only the generate-data command line loads this module (faker is large): the service's own demo
 * dataset keeps the plain names of generator.ts.
 */

type Script =
  | 'Latin'
  | 'Cyrillic'
  | 'Greek'
  | 'Arabic'
  | 'Hebrew'
  | 'Devanagari'
  | 'Thai'
  | 'Hangul'
  | 'Japanese'
  | 'Chinese';

interface Country {
  country: string;
  script: Script;
  /** faker locales whose words the names use. */
  locales: readonly string[];
  /** Legal forms written after the name ('' for none); `prefix` ones before it. */
  suffixes: readonly string[];
  prefixes?: readonly string[];
  /** Words joined without spaces (scripts written so). */
  joined?: boolean;
  tlds: readonly string[];
  /** An internationalized top-level domain of the country, for names outside ASCII. */
  idnTld?: string;
  /** Share of all names. */
  weight: number;
}

const COUNTRIES: readonly Country[] = [
  {
    country: 'US',
    script: 'Latin',
    locales: ['en', 'en_US'],
    suffixes: ['', ' LLC', ' Inc.', ' Corp.'],
    tlds: ['com'],
    weight: 12,
  },
  {
    country: 'GB',
    script: 'Latin',
    locales: ['en_GB', 'en'],
    suffixes: ['', ' Ltd', ' PLC'],
    tlds: ['co.uk'],
    weight: 6,
  },
  { country: 'AU', script: 'Latin', locales: ['en_AU', 'en'], suffixes: [' Pty Ltd', ''], tlds: ['com.au'], weight: 2 },
  {
    country: 'IN',
    script: 'Latin',
    locales: ['en_IN'],
    suffixes: [' Pvt. Ltd.', ' Limited'],
    tlds: ['in', 'co.in'],
    weight: 2,
  },
  {
    country: 'NG',
    script: 'Latin',
    locales: ['en_NG', 'yo_NG'],
    suffixes: [' Ltd', ' Nigeria Ltd'],
    tlds: ['com.ng'],
    weight: 1,
  },
  {
    country: 'ZA',
    script: 'Latin',
    locales: ['en_ZA', 'af_ZA', 'zu_ZA'],
    suffixes: [' (Pty) Ltd', ''],
    tlds: ['co.za'],
    weight: 1,
  },
  {
    country: 'DE',
    script: 'Latin',
    locales: ['de'],
    suffixes: [' GmbH', ' AG', ' GmbH & Co. KG', ' e.K.', ''],
    tlds: ['de'],
    weight: 6,
  },
  { country: 'AT', script: 'Latin', locales: ['de_AT'], suffixes: [' GmbH', ' KG'], tlds: ['at'], weight: 1 },
  {
    country: 'CH',
    script: 'Latin',
    locales: ['de_CH', 'fr_CH'],
    suffixes: [' AG', ' SA', ' GmbH'],
    tlds: ['ch'],
    weight: 1,
  },
  {
    country: 'FR',
    script: 'Latin',
    locales: ['fr'],
    suffixes: [' SARL', ' SAS', ' S.A.', ''],
    tlds: ['fr'],
    weight: 4,
  },
  {
    country: 'BE',
    script: 'Latin',
    locales: ['fr_BE', 'nl_BE'],
    suffixes: [' SPRL', ' BV', ' NV'],
    tlds: ['be'],
    weight: 1,
  },
  { country: 'NL', script: 'Latin', locales: ['nl'], suffixes: [' B.V.', ' N.V.', ''], tlds: ['nl'], weight: 2 },
  { country: 'ES', script: 'Latin', locales: ['es'], suffixes: [' S.L.', ' S.A.', ''], tlds: ['es'], weight: 3 },
  { country: 'MX', script: 'Latin', locales: ['es_MX'], suffixes: [' S.A. de C.V.', ''], tlds: ['com.mx'], weight: 2 },
  { country: 'IT', script: 'Latin', locales: ['it'], suffixes: [' S.r.l.', ' S.p.A.', ''], tlds: ['it'], weight: 3 },
  { country: 'PT', script: 'Latin', locales: ['pt_PT'], suffixes: [', Lda.', ' S.A.'], tlds: ['pt'], weight: 1 },
  {
    country: 'BR',
    script: 'Latin',
    locales: ['pt_BR'],
    suffixes: [' Ltda.', ' S.A.', ''],
    tlds: ['com.br'],
    weight: 3,
  },
  { country: 'SE', script: 'Latin', locales: ['sv'], suffixes: [' AB', ''], tlds: ['se'], weight: 1 },
  { country: 'NO', script: 'Latin', locales: ['nb_NO'], suffixes: [' AS', ' ASA'], tlds: ['no'], weight: 1 },
  { country: 'DK', script: 'Latin', locales: ['da'], suffixes: [' ApS', ' A/S'], tlds: ['dk'], weight: 1 },
  { country: 'FI', script: 'Latin', locales: ['fi'], suffixes: [' Oy', ' Oyj'], tlds: ['fi'], weight: 1 },
  {
    country: 'PL',
    script: 'Latin',
    locales: ['pl'],
    suffixes: [' Sp. z o.o.', ' S.A.', ''],
    tlds: ['pl', 'com.pl'],
    weight: 2,
  },
  { country: 'CZ', script: 'Latin', locales: ['cs_CZ'], suffixes: [' s.r.o.', ' a.s.'], tlds: ['cz'], weight: 1 },
  { country: 'SK', script: 'Latin', locales: ['sk'], suffixes: [' s.r.o.', ' a.s.'], tlds: ['sk'], weight: 1 },
  { country: 'HU', script: 'Latin', locales: ['hu'], suffixes: [' Kft.', ' Zrt.'], tlds: ['hu'], weight: 1 },
  { country: 'RO', script: 'Latin', locales: ['ro', 'ro_MD'], suffixes: [' S.R.L.', ' S.A.'], tlds: ['ro'], weight: 1 },
  { country: 'HR', script: 'Latin', locales: ['hr'], suffixes: [' d.o.o.', ' d.d.'], tlds: ['hr'], weight: 1 },
  { country: 'TR', script: 'Latin', locales: ['tr'], suffixes: [' A.Ş.', ' Ltd. Şti.'], tlds: ['com.tr'], weight: 2 },
  { country: 'AZ', script: 'Latin', locales: ['az'], suffixes: [' MMC', ' ASC'], tlds: ['az'], weight: 1 },
  {
    country: 'ID',
    script: 'Latin',
    locales: ['id_ID'],
    suffixes: [' Tbk', ''],
    prefixes: ['PT '],
    tlds: ['co.id'],
    weight: 2,
  },
  {
    country: 'VN',
    script: 'Latin',
    locales: ['vi'],
    suffixes: [''],
    prefixes: ['Công ty TNHH ', 'Công ty Cổ phần '],
    tlds: ['vn', 'com.vn'],
    weight: 2,
  },
  {
    country: 'RU',
    script: 'Cyrillic',
    locales: ['ru'],
    suffixes: ['', ''],
    prefixes: ['ООО ', 'АО ', 'ПАО ', ''],
    tlds: ['ru'],
    idnTld: 'рф',
    weight: 6,
  },
  {
    country: 'UA',
    script: 'Cyrillic',
    locales: ['uk'],
    suffixes: [''],
    prefixes: ['ТОВ ', 'ПрАТ ', ''],
    tlds: ['com.ua'],
    idnTld: 'укр',
    weight: 2,
  },
  {
    country: 'MK',
    script: 'Cyrillic',
    locales: ['mk'],
    suffixes: [' ДОО', ' ДООЕЛ', ' АД'],
    tlds: ['mk'],
    idnTld: 'мкд',
    weight: 1,
  },
  {
    country: 'GR',
    script: 'Greek',
    locales: ['el'],
    suffixes: [' Α.Ε.', ' Ε.Π.Ε.', ' Ο.Ε.', ''],
    tlds: ['gr'],
    idnTld: 'ελ',
    weight: 3,
  },
  {
    country: 'SA',
    script: 'Arabic',
    locales: ['ar'],
    suffixes: ['', ' المحدودة'],
    prefixes: ['شركة ', 'مؤسسة ', ''],
    tlds: ['com.sa'],
    idnTld: 'السعودية',
    weight: 2,
  },
  {
    country: 'IR',
    script: 'Arabic',
    locales: ['fa'],
    suffixes: ['', ' سهامی خاص'],
    prefixes: ['شرکت ', ''],
    tlds: ['ir'],
    weight: 1,
  },
  { country: 'PK', script: 'Arabic', locales: ['ur'], suffixes: [' لمیٹڈ', ''], tlds: ['com.pk'], weight: 1 },
  { country: 'IL', script: 'Hebrew', locales: ['he'], suffixes: [' בע"מ', ''], tlds: ['co.il'], weight: 2 },
  {
    country: 'NP',
    script: 'Devanagari',
    locales: ['ne'],
    suffixes: [' प्रा. लि.', ' लिमिटेड', ''],
    tlds: ['com.np'],
    weight: 1,
  },
  {
    country: 'IN',
    script: 'Devanagari',
    locales: ['ne'],
    suffixes: [' प्राइवेट लिमिटेड', ' लिमिटेड'],
    tlds: ['in'],
    idnTld: 'भारत',
    weight: 2,
  },
  {
    country: 'TH',
    script: 'Thai',
    locales: ['th'],
    suffixes: [' จำกัด', ' จำกัด (มหาชน)'],
    prefixes: ['บริษัท ', ''],
    joined: true,
    tlds: ['co.th'],
    idnTld: 'ไทย',
    weight: 3,
  },
  {
    country: 'KR',
    script: 'Hangul',
    locales: ['ko'],
    suffixes: ['', ' 주식회사'],
    prefixes: ['(주)', '주식회사 ', ''],
    tlds: ['co.kr'],
    idnTld: '한국',
    weight: 3,
  },
  {
    country: 'JP',
    script: 'Japanese',
    locales: ['ja'],
    suffixes: ['株式会社', '有限会社', ''],
    prefixes: ['', '株式会社'],
    joined: true,
    tlds: ['co.jp', 'jp'],
    weight: 5,
  },
  {
    country: 'CN',
    script: 'Chinese',
    locales: ['zh_CN'],
    suffixes: ['有限公司', '股份有限公司', '集团', ''],
    joined: true,
    tlds: ['cn', 'com.cn'],
    idnTld: '中国',
    weight: 5,
  },
  {
    country: 'TW',
    script: 'Chinese',
    locales: ['zh_TW', 'zh_CN'],
    suffixes: ['股份有限公司', '有限公司'],
    joined: true,
    tlds: ['com.tw'],
    idnTld: '台灣',
    weight: 1,
  },
];

const LETTERS: Record<Script, RegExp> = {
  Latin: /^\p{Script=Latin}[\p{Script=Latin}\p{M}]*$/u,
  Cyrillic: /^\p{Script=Cyrillic}[\p{Script=Cyrillic}\p{M}]*$/u,
  Greek: /^\p{Script=Greek}[\p{Script=Greek}\p{M}]*$/u,
  Arabic: /^\p{Script=Arabic}[\p{Script=Arabic}\p{M}\u200c]*$/u,
  Hebrew: /^\p{Script=Hebrew}[\p{Script=Hebrew}\p{M}]*$/u,
  Devanagari: /^\p{Script=Devanagari}[\p{Script=Devanagari}\p{M}]*$/u,
  Thai: /^\p{Script=Thai}[\p{Script=Thai}\p{M}]*$/u,
  Hangul: /^\p{Script=Hangul}+$/u,
  Japanese: /^[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}ー]+$/u,
  Chinese: /^\p{Script=Han}+$/u,
};
const HAS_KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;

/** Every string in a locale definition, split into words. */
function wordsOf(value: unknown, into: Set<string>): void {
  if (typeof value === 'string') {
    for (const word of value.normalize('NFC').split(/[\s,.;:()[\]{}'"!?«»„“”‘’/&+*=|_-]+/u)) into.add(word);
  } else if (Array.isArray(value)) {
    for (const item of value) wordsOf(item, into);
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) if (key !== 'metadata' && key !== 'date') wordsOf(item, into);
  }
}

/** The words of a country's locales in its script, in a fixed order (sorted, then shuffled). */
function vocabularyOf(country: Country): string[] {
  const words = new Set<string>();
  for (const locale of country.locales) wordsOf((allLocales as Record<string, LocaleDefinition>)[locale], words);
  const minLength = country.joined ? 1 : 2;
  const list = [...words]
    .filter((word) => [...word].length >= minLength && [...word].length <= 14 && LETTERS[country.script].test(word))
    .sort();
  // A fixed shuffle, so that the most frequent ranks are not the alphabet's first words.
  const rng = mulberry32(mix(0x30d5, list.length));
  for (let k = list.length - 1; k > 0; k -= 1) {
    const j = Math.floor(rng() * (k + 1));
    [list[k], list[j]] = [list[j], list[k]];
  }
  return list;
}

interface Vocabulary {
  country: Country;
  words: readonly string[];
  /** Japanese: the words with kana, one of which every Japanese name holds. */
  kanaWords?: readonly string[];
}

let vocabularies: Vocabulary[] | undefined;
function allVocabularies(): Vocabulary[] {
  vocabularies ??= COUNTRIES.map((country) => {
    const words = vocabularyOf(country);
    return country.script === 'Japanese'
      ? { country, words, kanaWords: words.filter((word) => HAS_KANA.test(word)) }
      : { country, words };
  });
  return vocabularies;
}

/** The distinct words the names are drawn from, every country together. */
export function worldVocabulary(): Set<string> {
  return new Set(allVocabularies().flatMap((vocabulary) => vocabulary.words));
}

/** Rank r (from 0) with probability about proportional to 1 / (r + 1): Zipf's law, exponent 1. */
export function zipfRank(rng: Rng, size: number): number {
  return Math.min(size - 1, Math.floor((size + 1) ** rng()) - 1);
}

const TOTAL_WEIGHT = COUNTRIES.reduce((sum, country) => sum + country.weight, 0);
function countryAt(rng: Rng): Vocabulary {
  let point = rng() * TOTAL_WEIGHT;
  for (const vocabulary of allVocabularies()) {
    point -= vocabulary.country.weight;
    if (point < 0) return vocabulary;
  }
  return allVocabularies()[0];
}

const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)];
const CASED: ReadonlySet<Script> = new Set(['Latin', 'Cyrillic', 'Greek']);
const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
const withoutAccents = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '')
    .normalize('NFC');

/** Whether ingest takes `domain` as a registrable domain of its own (not a public suffix, not too long). */
const registrable = (domain: string) => rootDomain(`https://${domain}/`) !== null;

/** A domain label from the name's words: ASCII when the words are Latin, else the words themselves. */
function domainOf(rng: Rng, vocabulary: Vocabulary, words: readonly string[], i: number): string {
  const { country } = vocabulary;
  const tld = pick(rng, country.tlds);
  if (country.script === 'Latin') {
    const ascii = withoutAccents(words.join('-').toLowerCase())
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
    // Some Latin names with accents keep them in an internationalized label.
    const accented = words.join('-').toLowerCase();
    const label = (
      accented !== ascii && rng() < 0.3 ? [...accented].slice(0, 16).join('') : ascii.slice(0, 40)
    ).replace(/-$/, '');
    if (label !== '' && registrable(`${label}.${tld}`)) return `${label}.${tld}`;
  } else {
    const native = [...(country.joined ? words.join('') : words.join('-')).toLowerCase()]
      .slice(0, 12)
      .join('')
      .replace(/-$/, '');
    const idn = `${native}.${country.idnTld !== undefined && rng() < 0.5 ? country.idnTld : tld}`;
    // Half the names outside Latin have an ASCII domain, as many such brands do.
    if (rng() < 0.5 && registrable(idn)) return idn;
  }
  return `${country.country.toLowerCase()}-brand-${i.toString(36)}.${tld}`;
}

/** Background advertiser i's name, domain and country: a pure function of (seed, i). */
function worldName(seed: number, i: number): BackgroundName {
  const rng = mulberry32(mix(seed, i, 5));
  const vocabulary = countryAt(rng);
  const { country, words: list } = vocabulary;
  const count = country.joined ? 1 + Math.floor(rng() * 2) : pick(rng, [1, 2, 2, 2, 3, 3]);
  const words = Array.from({ length: count }, () => list[zipfRank(rng, list.length)]);
  if (vocabulary.kanaWords !== undefined && !words.some((word) => HAS_KANA.test(word)))
    words[0] = vocabulary.kanaWords[zipfRank(rng, vocabulary.kanaWords.length)];
  const shown = CASED.has(country.script) ? words.map(capitalized) : words;
  const stem = shown.join(country.joined ? '' : ' ');
  const prefix = country.prefixes === undefined ? '' : pick(rng, country.prefixes);
  const suffix = prefix === '' ? pick(rng, country.suffixes) : '';
  return { name: `${prefix}${stem}${suffix}`, domain: domainOf(rng, vocabulary, words, i), country: country.country };
}

/** The same name in another case, or without its accents; null for scripts without either. */
function twinOf(name: string): string | null {
  const plain = withoutAccents(name);
  if (plain !== name && /\p{Script=Latin}|\p{Script=Greek}|\p{Script=Cyrillic}/u.test(name)) return plain;
  const upper = name.toUpperCase();
  if (upper !== name) return upper;
  return null;
}

/** Every 40th name is its predecessor's twin: differing only by case or accents. */
const isTwin = (i: number) => i % 40 === 39;

/** The name source of generateDataset for realistic data (see the module's comment). */
export function worldNames(seed: number): (i: number) => BackgroundName {
  return (i) => {
    if (isTwin(i)) {
      const previous = worldName(seed, i - 1);
      const twin = twinOf(previous.name);
      if (twin !== null) return { ...previous, name: twin };
    }
    return worldName(seed, i);
  };
}
