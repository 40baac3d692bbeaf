// @module-tag database-free
import { describe, expect, it } from 'vitest';
import { LETTER_FOLDS, SEARCH_KEY_VERSION, searchKey } from '../../src/contract/search-key.ts';

/**
 * The search key (docs/product-rules.md R15.2) of names in every script the service sees: each
 * pair is two spellings a customer means as one name, and the key they share. A change of Node's
 * Unicode tables that moves any of them fails here, before stored keys and new keys disagree
 * (then SEARCH_KEY_VERSION goes up and the names are keyed again).
 */
const SAME_NAME: [script: string, a: string, b: string, key: string][] = [
  // Latin: case, accents, letters with a stroke, ligatures, compatibility forms.
  ['Latin', 'Müller Bäckerei GmbH', 'muller backerei gmbh', 'muller backerei gmbh'],
  ['Latin', 'École', 'e\u0301cole', 'ecole'],
  ['Latin', 'Straße', 'STRASSE', 'strasse'],
  ['Latin', 'ẞ', 'ss', 'ss'],
  ['Latin', 'Dąb Żywność', 'Dab Zywnosc', 'dab zywnosc'],
  ['Latin', 'Łódź', 'lodz', 'lodz'],
  ['Latin', 'Škoda Čeština Ř', 'skoda cestina r', 'skoda cestina r'],
  ['Latin', 'Şişli Ğ', 'sisli g', 'sisli g'],
  ['Latin', 'İstanbul', 'ıstanbul', 'istanbul'],
  ['Latin', 'ISTANBUL', 'istanbul', 'istanbul'],
  ['Latin', 'Nguyễn Đặng', 'nguyen dang', 'nguyen dang'],
  ['Latin', 'Œuvre', 'oeuvre', 'oeuvre'],
  ['Latin', 'Ærø', 'aero', 'aero'],
  ['Latin', 'Øster', 'oster', 'oster'],
  ['Latin', 'Þór', 'thor', 'thor'],
  ['Latin', 'Ħal Far', 'hal far', 'hal far'],
  ['Latin', 'ﬁne ﬂowers', 'fine flowers', 'fine flowers'],
  ['Latin', 'ＡＢＣ Ｍａｒｔ', 'abc mart', 'abc mart'],
  ['Latin', 'No①', 'no1', 'no1'],
  ['Latin', '  Acme   Outdoor ', 'acme outdoor', 'acme outdoor'],
  ['Latin', 'soft\u00adhyphen', 'softhyphen', 'softhyphen'],
  // Cyrillic: case, ё and й as е and и.
  ['Cyrillic', 'Сбербанк России', 'сбербанк россии', 'сбербанк россии'],
  ['Cyrillic', 'ООО «Ёлка»', 'ооо «елка»', 'ооо «елка»'],
  ['Cyrillic', 'ЇЖАК Й', 'іжак и', 'іжак и'],
  // Greek: case, tonos and dialytika, final sigma.
  ['Greek', 'ΟΔΥΣΣΕΥΣ', 'Οδυσσεύς', 'οδυσσευσ'],
  ['Greek', 'Ελληνικά Πετρέλαια', 'ελληνικα πετρελαια', 'ελληνικα πετρελαια'],
  ['Greek', 'Ϊ', 'ι', 'ι'],
  // Arabic: vowel marks, hamza on alef, tatweel.
  ['Arabic', 'مُحَمَّد', 'محمد', 'محمد'],
  ['Arabic', 'أحمد', 'احمد', 'احمد'],
  ['Arabic', 'شركة الاتصالات', 'شركـــة الاتصالات', 'شركة الاتصالات'],
  // Hebrew: vowel points.
  ['Hebrew', 'שָׁלוֹם', 'שלום', 'שלום'],
  ['Hebrew', 'בַּנְק לְאֻמִּי', 'בנק לאמי', 'בנק לאמי'],
  // Devanagari: one form, vowel signs and virama kept.
  ['Devanagari', 'हिन्दी', 'हिन्दी'.normalize('NFD'), 'हिन्दी'],
  ['Devanagari', 'टाटा  मोटर्स', 'टाटा मोटर्स', 'टाटा मोटर्स'],
  // Thai: vowel and tone marks kept.
  ['Thai', 'ธนาคารกรุงเทพ', 'ธนาคารกรุงเทพ', 'ธนาคารกรุงเทพ'],
  ['Thai', 'ปตท. ', 'ปตท.', 'ปตท.'],
  // Hangul: jamo recomposed, enclosed legal form opened.
  ['Hangul', '㈜삼성전자', '(주)삼성전자', '(주)삼성전자'],
  ['Hangul', '삼성'.normalize('NFD'), '삼성', '삼성'],
  // Japanese: half-width katakana, dakuten kept and recomposed, full-width digits.
  ['Japanese', 'ﾄｳｷｮｳｶﾞｽ', 'トウキョウガス', 'トウキョウガス'],
  ['Japanese', 'か\u3099す', 'がす', 'がす'],
  ['Japanese', '東京ガス株式会社１２３', '東京ガス株式会社123', '東京ガス株式会社123'],
  // Chinese: full-width punctuation and Latin letters folded, ideographs as written.
  ['Chinese', '中国银行（ＢＯＣ）', '中国银行(boc)', '中国银行(boc)'],
  ['Chinese', '阿里巴巴 集团', '阿里巴巴　集团', '阿里巴巴 集团'],
  // Armenian and Georgian.
  ['Armenian', 'ՀԱՅԱՍՏԱՆ', 'հայաստան', 'հայաստան'],
  ['Georgian', 'ქართული', 'ქართული', 'ქართული'],
];

/** Spellings that stay apart: different letters for Unicode, or marks that are letters. */
const DIFFERENT_NAMES: [script: string, a: string, b: string][] = [
  ['Japanese', 'が', 'か'],
  ['Japanese', 'ガス', 'がす'],
  ['Chinese', '東京ガス株式會社', '東京ガス株式会社'],
  ['Devanagari', 'कि', 'क'],
  ['Thai', 'กิน', 'กน'],
  ['Hebrew', 'ך', 'כ'],
  ['Latin', 'Acme', 'Acne'],
];

describe('the search key of a name', () => {
  it('folds case, accents and compatibility forms the same way in every script', () => {
    const scripts = new Set(SAME_NAME.map(([script]) => script));
    expect(SAME_NAME.length).toBeGreaterThanOrEqual(40);
    expect(scripts.size).toBeGreaterThanOrEqual(8);
    for (const [script, a, b, key] of SAME_NAME) {
      expect([searchKey(a), searchKey(b)], `${script}: ${a} / ${b}`).toEqual([key, key]);
    }
  });

  it('keeps apart the letters Unicode holds different, and the marks that are letters', () => {
    for (const [script, a, b] of DIFFERENT_NAMES) {
      expect(searchKey(a), `${script}: ${a} / ${b}`).not.toBe(searchKey(b));
    }
  });

  it('is a fixed point: the key of a key is itself, so a key can be compared with a key', () => {
    for (const [, a, b, key] of SAME_NAME) {
      expect(searchKey(key)).toBe(key);
      expect(searchKey(searchKey(a))).toBe(searchKey(b));
    }
  });

  it('is stated once, with its version and the letters it folds by hand', () => {
    expect(SEARCH_KEY_VERSION).toBe(4);
    for (const [letter, folded] of Object.entries(LETTER_FOLDS)) {
      expect(searchKey(letter.toUpperCase())).toBe(folded);
    }
  });
});
