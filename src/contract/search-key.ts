/**
 * The search key of an advertiser name (docs/product-rules.md R15.2): the one form in which names
 * are compared by the search and the did-you-mean, for every script. Computed here, in
 * TypeScript, once per name when ingest first meets it, and stored beside the name with
 * SEARCH_KEY_VERSION (migrations/00025_search-keys-stored); a query computes the key of `q` the
 * same way. Stored keys do not move when the server's or Node's Unicode tables do; a change of
 * what this function answers takes a new version, and the names keyed under an older one are
 * keyed again when the schema is migrated (data/search-keys.ts).
 *
 * Steps, in order:
 * 1. Compatibility decomposition (NFKD): one form for every spelling of a character (`e` + U+0301
 *    and `é`), full-width letters and digits to ASCII (`ＡＢＣ` → `ABC`), ligatures split
 *    (`ﬁ` → `fi`), enclosed forms opened (`㈜` → `(주)`), half-width katakana to full-width.
 * 2. Full case folding, locale-free: lower, upper, lower (`ß` and `ẞ` → `ss`), and final sigma as
 *    sigma (`ς` → `σ`). Turkish `İ`, `I`, `ı` and `i` all fold to `i`: the same name is written
 *    both ways outside Turkey, and a customer types what their keyboard has.
 * 3. The Latin letters Unicode does not decompose but a reader sees as a letter with a stroke or
 *    a pair of letters: LETTER_FOLDS.
 * 4. Combining marks removed after a letter of a script whose marks are accents or vowel points
 *    (MARKS_ARE_ACCENTS: Latin, Greek, Cyrillic, Armenian, Georgian, Hebrew, Arabic, and marks on
 *    digits or punctuation); kept where they are part of the letter or syllable (Devanagari and
 *    the other Indic scripts, Thai, Japanese dakuten, Hangul jamo), then recomposed (NFC).
 * 5. Characters that are invisible when rendered (zero-width joiners, soft hyphen, tatweel)
 *    removed; runs of white space made one space, and none at either end.
 *
 * Version 2 stores the key's n-grams beside it (search-grams.ts); version 3 gives short ASCII keys
 * n-grams too; version 4 stores the key's tokens (search-tokens.ts) and counts Han characters
 * alone among the n-grams.
 *
 * Traditional and simplified Chinese characters, hiragana and katakana, or Arabic `ة` and `ه`
 * are different letters for Unicode: they stay apart here, and meet as similar names.
 */
export const SEARCH_KEY_VERSION = 4;

/** Letters with a stroke, ligatures and the like, which have no decomposition, as a reader folds them. */
export const LETTER_FOLDS: Readonly<Record<string, string>> = {
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  ħ: 'h',
  ŧ: 't',
  þ: 'th',
};

const LETTER_FOLD = new RegExp(`[${Object.keys(LETTER_FOLDS).join('')}]`, 'gu');

/** A run of marks after a character whose marks are accents or points, or marks with nothing before them. */
const ACCENTED_SCRIPTS = ['Latin', 'Greek', 'Cyrillic', 'Armenian', 'Georgian', 'Hebrew', 'Arabic', 'Common'];
const MARKS_ARE_ACCENTS = new RegExp(
  `(^|[${ACCENTED_SCRIPTS.map((script) => `\\p{Script=${script}}`).join('')}])\\p{M}+`,
  'gu',
);

/** Invisible characters: default-ignorable code points (joiners, soft hyphen, variation selectors) and tatweel. */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\u0640]/gu;

const WHITE_SPACE = /\s+/gu;

/** The search key of `name`; the same for every spelling of it in case, accents or compatibility forms. */
export function searchKey(name: string): string {
  const decomposed = name.normalize('NFKD');
  // toLowerCase of `İ` gives `i` and a combining dot, hence a second decomposition after folding.
  const folded = decomposed.toLowerCase().toUpperCase().toLowerCase().replaceAll('ς', 'σ').normalize('NFKD');
  return folded
    .replace(LETTER_FOLD, (letter) => LETTER_FOLDS[letter])
    .replace(MARKS_ARE_ACCENTS, '$1')
    .normalize('NFC')
    .replace(INVISIBLE, '')
    .replace(WHITE_SPACE, ' ')
    .trim();
}
