// @module-tag database-free
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCRIPTS, scriptOf } from '../../scripts/quality/name-typos.ts';
import { rootDomain } from '../../src/contract/root-domain.ts';
import { searchKey } from '../../src/contract/search-key.ts';
import { mulberry32 } from '../../src/synthetic/generator.ts';
import { worldNames, worldVocabulary, zipfRank } from '../../src/synthetic/world-names.ts';

const COUNT = 20_000;
const names = worldNames(7);
const sample = Array.from({ length: COUNT }, (_, i) => names(i));

describe('world names: realistic advertiser names for generate-data', () => {
  it('the same seed gives the same names; another seed others', () => {
    expect(Array.from({ length: 500 }, (_, i) => names(i))).toEqual(sample.slice(0, 500));
    const other = worldNames(8);
    const same = sample.slice(0, 500).filter((name, i) => other(i).name === name.name).length;
    expect(same).toBeLessThan(50);
  });

  it('a vocabulary of more than 50,000 distinct words, drawn with Zipf-like frequencies', () => {
    expect(worldVocabulary().size).toBeGreaterThan(50_000);
    // Rank r drawn with probability about 1 / (r + 1): rank 0 about ten times as often as rank 9.
    const rng = mulberry32(1);
    const counts = new Map<number, number>();
    for (let k = 0; k < 200_000; k += 1) {
      const rank = zipfRank(rng, 50_000);
      counts.set(rank, (counts.get(rank) ?? 0) + 1);
    }
    const ratio = (counts.get(0) ?? 0) / (counts.get(9) ?? 1);
    expect(ratio).toBeGreaterThan(6);
    expect(ratio).toBeLessThan(16);
    expect(counts.size).toBeGreaterThan(10_000);
    // In the names, too: a few words are common, most are rare.
    const words = new Map<string, number>();
    for (const { name } of sample) for (const word of name.split(' ')) words.set(word, (words.get(word) ?? 0) + 1);
    const sorted = [...words.values()].sort((a, b) => b - a);
    expect(sorted[0]).toBeGreaterThan(20 * sorted[Math.floor(sorted.length / 2)]);
    expect(words.size).toBeGreaterThan(10_000);
  });

  it('at least 15 % of the names in scripts other than Latin, every script present', () => {
    const scripts = new Map<string, number>();
    for (const { name } of sample) {
      const script = scriptOf(name) ?? 'none';
      scripts.set(script, (scripts.get(script) ?? 0) + 1);
    }
    expect(new Set(scripts.keys())).toEqual(new Set(SCRIPTS));
    expect(1 - (scripts.get('Latin') ?? 0) / COUNT).toBeGreaterThan(0.15);
    for (const script of SCRIPTS) expect(scripts.get(script), script).toBeGreaterThan(COUNT / 200);
  });

  it("legal forms of the name's country", () => {
    const forms: [string, RegExp][] = [
      ['DE', / (GmbH|AG|GmbH & Co\. KG|e\.K\.)$/],
      ['GB', / (Ltd|PLC)$/],
      ['US', / (LLC|Inc\.|Corp\.)$/],
      ['ES', / S\.[AL]\.$/],
      ['JP', /株式会社/],
      ['RU', /^(ООО|АО|ПАО) /],
      ['KR', /\(주\)|주식회사/],
      ['CN', /有限公司$/],
      ['TH', / จำกัด/],
      ['GR', / Α\.Ε\.$/],
    ];
    for (const [country, form] of forms) {
      const ofCountry = sample.filter((name) => name.country === country);
      expect(
        ofCountry.some(({ name }) => form.test(name)),
        country,
      ).toBe(true);
    }
  });

  it('names that differ only by case or accents', () => {
    const twins = sample.filter(
      (name, i) => i > 0 && name.name !== sample[i - 1].name && searchKey(name.name) === searchKey(sample[i - 1].name),
    );
    expect(twins.length).toBeGreaterThan(COUNT / 60);
    expect(twins.some(({ name }) => name === name.toUpperCase())).toBe(true);
    expect(
      twins.some(
        ({ name }) =>
          name ===
          name
            .normalize('NFD')
            .replace(/\p{Mn}/gu, '')
            .normalize('NFC'),
      ),
    ).toBe(true);
  });

  it('domains ingest takes, internationalized ones among them in several scripts', () => {
    for (const { domain } of sample) expect(rootDomain(`https://${domain}/`), domain).not.toBeNull();
    const idn = sample.filter(({ domain }) => /[^\x21-\x7e]/u.test(domain));
    expect(idn.length).toBeGreaterThan(COUNT / 20);
    expect(new Set(idn.map(({ domain }) => scriptOf(domain))).size).toBeGreaterThan(6);
  });

  it('the service never loads faker: only generate-data imports the world names, when asked', () => {
    const files = fs
      .readdirSync('src', { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.tsx?$/.test(file))
      .map((file) => ({ file: path.join('src', file), text: fs.readFileSync(path.join('src', file), 'utf8') }));
    expect(files.filter(({ text }) => text.includes("from '@faker-js/faker'")).map(({ file }) => file)).toEqual([
      path.join('src', 'synthetic', 'world-names.ts'),
    ]);
    const users = files.filter(({ text }) =>
      /(from |import\()'[./]*\/?synthetic\/world-names\.ts'|from '\.\/world-names\.ts'/.test(text),
    );
    expect(users.map(({ file }) => file)).toEqual([path.join('src', 'cli', 'generate-data.ts')]);
    expect(users[0].text).toMatch(/await import\('\.\.\/synthetic\/world-names\.ts'\)/);
  });
});
