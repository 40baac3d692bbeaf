/**
 * The character n-grams by which names outside ASCII, and short names, are found similar
 * (docs/product-rules.md R15.2): PostgreSQL's trigrams see only ASCII letters on a database whose
 * character classification is `C`, so a search key with other letters (Cyrillic, Greek, Arabic,
 * Hebrew, Indic, Thai, Hangul, kana, Han) gets its own; and one edit changes three of the few
 * trigrams of a short word (`harirs` and `harris` are 0.27 similar, under the 0.3 floor), so a key
 * of at most SHORT_KEY characters gets them too (0.56 for those two): the bigrams of each of its
 * words, with the word's start and end marked, each a 32-bit hash. Two keys' n-grams are as
 * similar as the share of them they have in common (shared over all, as pg_trgm counts trigrams),
 * for scripts that put no spaces between words as for the others. Each Han character counts once
 * more alone: a Han name is a few characters, and two of them swapped (`围集绕团` for `围绕集团`)
 * leave it none of its pairs. Part of the search key's version (SEARCH_KEY_VERSION): stored
 * beside the key, computed once.
 */

/** Where a search key splits into words: white space, punctuation and symbols. */
const WORD_BREAK = /[\s\p{P}\p{S}]+/u;

const HAN = /\p{Script=Han}/u;

/** Only ASCII: the key itself is compared by pg_trgm, and there are no n-grams, unless it is short. */
const NOT_ASCII = /[^\p{ASCII}]/u;

/** The longest key, in code points, that is compared by its n-grams even in ASCII. */
export const SHORT_KEY = 8;

/** FNV-1a over the UTF-16 units of `text`, as a signed 32-bit integer (PostgreSQL's `integer`). */
function hashGram(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}

/**
 * Whether pg_trgm can compare the key itself: only ASCII. A key with other letters gives it no
 * trigram, and a trigram search without one reads the whole index.
 */
export function hasTrigrams(key: string): boolean {
  return !NOT_ASCII.test(key);
}

/** The words of a search key, as its n-grams see them. */
export function gramWords(key: string): string[] {
  return key.split(WORD_BREAK).filter((word) => word !== '');
}

/** The n-grams of one word, in order, each once. */
export function wordGrams(word: string): number[] {
  const grams = new Set<number>();
  const letters = ['\u0002', ...word, '\u0003'];
  for (let i = 0; i + 1 < letters.length; i += 1) grams.add(hashGram(letters[i] + letters[i + 1]));
  for (const letter of word) if (HAN.test(letter)) grams.add(hashGram(letter));
  return [...grams];
}

/** The distinct n-grams of a search key, or null when the key is ASCII only and longer than SHORT_KEY. */
export function searchGrams(key: string): number[] | null {
  if (hasTrigrams(key) && Array.from(key).length > SHORT_KEY) return null;
  const grams = new Set(gramWords(key).flatMap(wordGrams));
  return grams.size === 0 ? null : [...grams];
}
