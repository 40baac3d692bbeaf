/**
 * Misspellings of advertiser names as customers make them (one or two edits, words joined or
 * split or swapped, a legal suffix missing or added, wrong case or accents), drawn
 * deterministically from a list of names: the cases the did-you-mean and the search are measured
 * on (name-recall.ts). Edits work on code points, so a Hangul syllable or a kanji is one letter.
 */
import { mulberry32, type Rng } from '../../src/synthetic/generator.ts';

export const TYPO_CLASSES = [
  'substitution',
  'insertion',
  'deletion',
  'transposition',
  'two_edits',
  'words_joined',
  'word_split',
  'suffix_missing',
  'suffix_added',
  'words_swapped',
  'case_and_accents',
] as const;
export type TypoClass = (typeof TYPO_CLASSES)[number];

export const SCRIPTS = [
  'Latin',
  'Cyrillic',
  'Greek',
  'Arabic',
  'Hebrew',
  'Devanagari',
  'Thai',
  'Hangul',
  'Japanese',
  'Chinese',
] as const;
export type Script = (typeof SCRIPTS)[number];

export interface TypoCase {
  name: string;
  typo: string;
  script: Script;
  kind: TypoClass;
}

/** The script a name is written in: that of most of its letters (kana makes it Japanese). */
export function scriptOf(name: string): Script | null {
  const counts = new Map<Script, number>();
  const add = (script: Script) => counts.set(script, (counts.get(script) ?? 0) + 1);
  for (const char of name) {
    if (/\p{Script=Hiragana}|\p{Script=Katakana}/u.test(char)) add('Japanese');
    else if (/\p{Script=Han}/u.test(char)) add('Chinese');
    else
      for (const script of SCRIPTS)
        if (script !== 'Japanese' && script !== 'Chinese' && new RegExp(`\\p{Script=${script}}`, 'u').test(char))
          add(script);
  }
  // Kanji in a name with kana is Japanese.
  if (counts.has('Japanese')) counts.set('Japanese', (counts.get('Japanese') ?? 0) + (counts.get('Chinese') ?? 0));
  let best: Script | null = null;
  for (const [script, count] of counts) if (best === null || count > (counts.get(best) ?? 0)) best = script;
  return best;
}

/** Legal forms a name may carry at its end, or gain, per script. */
const LEGAL_SUFFIXES: Record<Script, readonly string[]> = {
  Latin: ['GmbH', 'Ltd', 'LLC', 'Inc', 'S.A.', 'SAS', 'AG', 'BV', 'Co', 'Sp. z o.o.', 'S.p.A.', 'Oy', 'AB'],
  Cyrillic: ['ООО', 'АО', 'ПАО'],
  Greek: ['Α.Ε.', 'Ε.Π.Ε.'],
  Arabic: ['ش.م.م', 'المحدودة'],
  Hebrew: ['בע"מ'],
  Devanagari: ['लिमिटेड', 'प्राइवेट लिमिटेड'],
  Thai: ['จำกัด', 'บริษัท'],
  Hangul: ['(주)', '주식회사'],
  Japanese: ['株式会社', '有限会社'],
  Chinese: ['有限公司', '股份有限公司', '集团'],
};

/** Scripts whose marks are accents or vowel points, as the search key has them. */
const ACCENTED = new Set<Script>(['Latin', 'Cyrillic', 'Greek', 'Arabic', 'Hebrew']);

const int = (rng: Rng, below: number) => Math.floor(rng() * below);
const pick = <T>(rng: Rng, items: readonly T[]): T => items[int(rng, items.length)];

/** Positions of letters (not white space) in `chars`. */
const letters = (chars: string[]) => chars.flatMap((char, i) => (/\s/u.test(char) ? [] : [i]));

function substitute(rng: Rng, chars: string[]): string[] {
  const at = pick(rng, letters(chars));
  const others = chars.filter((char) => !/\s/u.test(char) && char !== chars[at]);
  if (others.length === 0) return chars;
  return chars.with(at, pick(rng, others));
}

function insert(rng: Rng, chars: string[]): string[] {
  const at = int(rng, chars.length + 1);
  return [
    ...chars.slice(0, at),
    pick(
      rng,
      chars.filter((char) => !/\s/u.test(char)),
    ),
    ...chars.slice(at),
  ];
}

function remove(rng: Rng, chars: string[]): string[] {
  const at = pick(rng, letters(chars));
  return [...chars.slice(0, at), ...chars.slice(at + 1)];
}

function transpose(rng: Rng, chars: string[]): string[] {
  const pairs = letters(chars).filter(
    (i) => i + 1 < chars.length && !/\s/u.test(chars[i + 1]) && chars[i] !== chars[i + 1],
  );
  if (pairs.length === 0) return chars;
  const at = pick(rng, pairs);
  return chars.with(at, chars[at + 1]).with(at + 1, chars[at]);
}

const EDITS = [substitute, insert, remove, transpose];

/** The typo of class `kind` of `name`, or null when the class does not apply to it. */
export function misspell(rng: Rng, name: string, script: Script, kind: TypoClass): string | null {
  const chars = Array.from(name);
  const words = name.split(' ');
  switch (kind) {
    case 'substitution':
      return substitute(rng, chars).join('');
    case 'insertion':
      return insert(rng, chars).join('');
    case 'deletion':
      return chars.length < 4 ? null : remove(rng, chars).join('');
    case 'transposition':
      return transpose(rng, chars).join('');
    case 'two_edits':
      return chars.length < 12 ? null : pick(rng, EDITS)(rng, pick(rng, EDITS)(rng, chars)).join('');
    case 'words_joined': {
      if (words.length < 2) return null;
      const at = int(rng, words.length - 1);
      return [...words.slice(0, at), words[at] + words[at + 1], ...words.slice(at + 2)].join(' ');
    }
    case 'word_split': {
      const long = words.flatMap((word, i) => (Array.from(word).length >= 4 ? [i] : []));
      if (long.length === 0) return null;
      const at = pick(rng, long);
      const word = Array.from(words[at]);
      const cut = 1 + int(rng, word.length - 1);
      return words.with(at, `${word.slice(0, cut).join('')} ${word.slice(cut).join('')}`).join(' ');
    }
    case 'suffix_missing': {
      const suffix = LEGAL_SUFFIXES[script].find((s) => name.endsWith(` ${s}`) || name.startsWith(`${s} `));
      if (suffix === undefined) return null;
      return (name.endsWith(` ${suffix}`) ? name.slice(0, -suffix.length - 1) : name.slice(suffix.length + 1)).trim();
    }
    case 'suffix_added': {
      if (LEGAL_SUFFIXES[script].some((s) => name.includes(s))) return null;
      return `${name} ${pick(rng, LEGAL_SUFFIXES[script])}`;
    }
    case 'words_swapped': {
      if (words.length < 2) return null;
      const at = int(rng, words.length - 1);
      return words
        .with(at, words[at + 1])
        .with(at + 1, words[at])
        .join(' ');
    }
    case 'case_and_accents': {
      // Only where marks are accents or points and letters have case; elsewhere marks are letters.
      if (!ACCENTED.has(script)) return null;
      const plain = name.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');
      const cased = rng() < 0.5 ? plain.toLowerCase() : plain.toUpperCase();
      return cased === name ? null : cased;
    }
  }
}

/**
 * `perClass` cases of every class for every script present in `names`, where the class applies,
 * drawn with `seed`: the same names and seed give the same cases. A typo that is itself one of
 * the names is no misspelling and is left out.
 */
export function typoCases(names: readonly string[], perClass: number, seed: number): TypoCase[] {
  const rng = mulberry32(seed);
  const known = new Set(names);
  const byScript = new Map<Script, string[]>();
  for (const name of names) {
    const script = scriptOf(name);
    if (script === null) continue;
    const group = byScript.get(script);
    if (group === undefined) byScript.set(script, [name]);
    else group.push(name);
  }
  const cases: TypoCase[] = [];
  for (const [script, scriptNames] of byScript) {
    for (const kind of TYPO_CLASSES) {
      const applicable = scriptNames.filter((name) => misspell(mulberry32(1), name, script, kind) !== null);
      for (let n = 0; n < perClass && applicable.length > 0; n += 1) {
        const name = pick(rng, applicable);
        const typo = misspell(rng, name, script, kind);
        if (typo !== null && typo.trim().length >= 2 && !known.has(typo)) cases.push({ name, typo, script, kind });
      }
    }
  }
  return cases;
}
