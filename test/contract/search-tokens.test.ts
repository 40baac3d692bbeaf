// @module-tag database-free
import { describe, expect, it } from 'vitest';
import { searchGrams, wordGrams } from '../../src/contract/search-grams.ts';
import { searchKey } from '../../src/contract/search-key.ts';
import { nameTokens, queryTokens } from '../../src/contract/search-tokens.ts';

/** The tokens by which the did-you-mean finds its candidates (docs/product-rules.md R15.2). */
describe('the tokens of a search key', () => {
  it("a name's tokens are its words, and in scripts without spaces its pairs of characters and Han characters", () => {
    expect(nameTokens(searchKey('Acme Outdoor GmbH'))).toEqual(['acme', 'outdoor', 'gmbh']);
    expect(nameTokens(searchKey('Сбербанк России'))).toEqual(['сбербанк', 'россии']);
    expect(nameTokens(searchKey('东京银行'))).toEqual(['~东京', '~京银', '~银行', '~东', '~京', '~银', '~行']);
    // Kana and Thai give their pairs only; a word and a run in one word are split where the script changes.
    expect(nameTokens(searchKey('ABCホテル'))).toEqual(['abc', '~ホテ', '~テル']);
    expect(nameTokens(searchKey('ธนาคาร'))).toEqual(['~ธน', '~นา', '~าค', '~คา', '~าร']);
    expect(nameTokens(searchKey('株'))).toEqual(['~株']);
    // Repeated words are one token; punctuation and symbols split words and are no token.
    expect(nameTokens(searchKey('Olivera Olivera S.A. de C.V.'))).toEqual(['olivera', 's', 'a', 'de', 'c', 'v']);
  });

  it('a query also looks for its adjacent words joined and its long words cut in two', () => {
    const { tokens } = queryTokens(searchKey('Acme Out Door'));
    expect(tokens).toEqual(expect.arrayContaining(['acme', 'out', 'door', 'acmeout', 'outdoor']));
    const joined = queryTokens(searchKey('acmeoutdoor')).tokens;
    expect(joined).toEqual(expect.arrayContaining(['acmeoutdoor', 'acme', 'outdoor']));
    // Pieces of fewer than 3 letters are not looked up: `a` + `cmeoutdoor` would find every `a`.
    expect(joined).not.toContain('a');
    expect(joined).not.toContain('ac');
  });

  it("a query's parts are its words with their own tokens and n-grams, to compare it without a legal form", () => {
    const { parts } = queryTokens(searchKey('Müller 有限会社'));
    expect(parts.map((part) => part.word)).toEqual(['muller', '有限会社']);
    expect(parts[1].tokens).toEqual(nameTokens('有限会社'));
    // Together, the parts' n-grams are the key's.
    expect(new Set(parts.flatMap((part) => part.grams))).toEqual(new Set(searchGrams(searchKey('Müller 有限会社'))));
    expect(parts[0].grams).toEqual(wordGrams('muller'));
  });

  it('only words long enough that one edit leaves them themselves are looked up one edit away', () => {
    expect(queryTokens(searchKey('Cade DDS Zamke PLC')).words).toEqual(['cade', 'zamke']);
    // Hangul syllables are dense: two of them are a word worth correcting.
    expect(queryTokens(searchKey('적웅 해인')).words).toEqual(['적웅', '해인']);
    // A run without spaces is looked up by its pairs, exactly, not one edit away.
    expect(queryTokens(searchKey('東京ガス')).words).toEqual([]);
  });
});
