/**
 * The tokens by which the did-you-mean finds its candidates (docs/product-rules.md R15.2): a name
 * is a candidate for a query when they share a token, or a word one edit apart, and only then is
 * its similarity computed. The tokens of a name are its words; a run of letters of a script
 * written without spaces between words (Han, kana, Thai, Lao, Khmer, Myanmar) gives instead its
 * pairs of adjacent characters, and each Han character alone, marked with RUN_MARK so they never
 * meet a word. Stored beside the search key (part of SEARCH_KEY_VERSION), so each name's tokens
 * are computed once; the database keeps, per token, the names that have it, and the words'
 * one-deletion variants (db/functions/word_variants.sql), by which a word is found one edit away.
 */

import { gramWords, wordGrams } from './search-grams.ts';

/** Where a search key splits into words: white space, punctuation and symbols. */
const WORD_BREAK = /[\s\p{P}\p{S}]+/u;

/** Letters of scripts that put no space between words. */
const RUN_LETTER = new RegExp(
  `[${['Han', 'Hiragana', 'Katakana', 'Thai', 'Lao', 'Khmer', 'Myanmar'].map((s) => `\\p{scx=${s}}`).join('')}]`,
  'u',
);

const HAN = /\p{Script=Han}/u;

/** Hangul words are short: two syllables one edit apart are still alike. */
const HANGUL = /\p{Script_Extensions=Hangul}/u;

/** Marks a token taken from a run of letters without spaces; never part of a word (it is a symbol). */
export const RUN_MARK = '~';

/** The most words of a query looked up, and the longest word that has variants. */
const MAX_WORDS = 12;
const MAX_WORD = 32;

/** Pieces of a word, each a word or a run of letters of a script without spaces. */
function pieces(word: string): { text: string; run: boolean }[] {
  const result: { text: string; run: boolean }[] = [];
  for (const letter of word) {
    const run = RUN_LETTER.test(letter);
    const last = result.at(-1);
    if (last !== undefined && last.run === run) last.text += letter;
    else result.push({ text: letter, run });
  }
  return result;
}

/** The tokens of a run of letters without spaces: its adjacent pairs, its Han characters. */
function runTokens(run: string): string[] {
  const letters = Array.from(run);
  if (letters.length === 1) return [RUN_MARK + run];
  const tokens: string[] = [];
  for (let i = 0; i + 1 < letters.length; i += 1) tokens.push(RUN_MARK + letters[i] + letters[i + 1]);
  for (const letter of letters) if (HAN.test(letter)) tokens.push(RUN_MARK + letter);
  return tokens;
}

/** The words and runs of a search key, in order. */
function split(key: string): { words: string[]; runs: string[] } {
  const words: string[] = [];
  const runs: string[] = [];
  for (const word of key.split(WORD_BREAK)) {
    for (const piece of pieces(word)) (piece.run ? runs : words).push(piece.text);
  }
  return { words, runs };
}

/** The tokens stored for a name's search key, distinct. */
export function nameTokens(key: string): string[] {
  const { words, runs } = split(key);
  return [...new Set([...words, ...runs.flatMap(runTokens)])];
}

/** A word of the query as the n-grams see it, with its own tokens and n-grams. */
export interface QueryPart {
  word: string;
  tokens: string[];
  grams: number[];
}

export interface QueryTokens {
  /** Words looked up one edit apart as well as exactly: long enough that one edit leaves them themselves. */
  words: string[];
  /** Tokens looked up exactly: every word and run token, two adjacent words joined, a long word split in two. */
  tokens: string[];
  /**
   * The query's words, each with its tokens and n-grams: a word whose tokens are all common (a
   * legal form) is left out of a second comparison.
   */
  parts: QueryPart[];
}

/**
 * What a query looks for. Beyond its own tokens: two adjacent words joined (`acme out door` finds
 * `outdoor`) and a long word cut in two (`acmeoutdoor` finds `acme` and `outdoor`), since a
 * customer may put a space where the name has none, or leave one out.
 */
export function queryTokens(key: string): QueryTokens {
  const { words, runs } = split(key);
  const distinct = [...new Set(words)].slice(0, MAX_WORDS);
  const fuzzy = distinct.filter((word) => {
    const length = Array.from(word).length;
    return length <= MAX_WORD && length >= (HANGUL.test(word) ? 2 : 4);
  });
  const tokens = new Set([...distinct, ...runs.flatMap(runTokens)]);
  for (let i = 0; i + 1 < words.length && i < MAX_WORDS; i += 1) tokens.add(words[i] + words[i + 1]);
  for (const word of distinct) {
    const letters = Array.from(word);
    if (letters.length < 6 || letters.length > MAX_WORD) continue;
    for (let cut = 3; cut <= letters.length - 3; cut += 1) {
      tokens.add(letters.slice(0, cut).join(''));
      tokens.add(letters.slice(cut).join(''));
    }
  }
  const parts = gramWords(key)
    .slice(0, MAX_WORDS)
    .map((word) => ({ word, tokens: nameTokens(word), grams: wordGrams(word) }));
  for (const part of parts) for (const token of part.tokens) tokens.add(token);
  return { words: fuzzy, tokens: [...tokens], parts };
}
