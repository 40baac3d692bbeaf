// @module-tag database-free
import { describe, expect, it } from 'vitest';
import { parseQuery, rawQuery } from '../../src/contract/query-string.ts';

const values = (url: string) => parseQuery(url).map(({ name, value }) => [name, value]);

describe('query string, decoded strictly (RFC 3986 percent-encoded UTF-8)', () => {
  it('the query is what lies between "?" and "#"', () => {
    expect(rawQuery('http://h/p?a=1&b=2#frag')).toBe('a=1&b=2');
    expect(rawQuery('http://h/p')).toBe('');
    expect(rawQuery('http://h/p?')).toBe('');
  });

  it('names and values are percent-decoded, "+" is a space, a bare name has the value ""', () => {
    expect(values('http://h/p?name=Acme%20Outdoor+GmbH&na%6De=%E2%82%AC&flag&=x&&')).toEqual([
      ['name', 'Acme Outdoor GmbH'],
      ['name', '€'],
      ['flag', ''],
      ['', 'x'],
    ]);
    expect(values('http://h/p?name=a=b')).toEqual([['name', 'a=b']]);
    expect(values('http://h/p?name=%2B%25%26')).toEqual([['name', '+%&']]);
  });

  it('a value that is not percent-encoded UTF-8 is null, and keeps its raw text', () => {
    for (const raw of ['%FF', '%C3', '%C3%28', '%ED%A0%80', '%C0%80', '%F4%90%80%80', '%', '100%', '%zz', '%2']) {
      const [parameter] = parseQuery(`http://h/p?name=${raw}`);
      expect(parameter, raw).toEqual({ name: 'name', value: null, raw });
    }
  });

  it('NUL and noncharacters are valid UTF-8 and decode', () => {
    expect(values('http://h/p?name=a%00b&x=%EF%BF%BF')).toEqual([
      ['name', 'a\u0000b'],
      ['x', '\uFFFF'],
    ]);
  });

  it('a name that does not decode is kept as sent, so it matches no parameter', () => {
    expect(values('http://h/p?name%FF=x')).toEqual([['name%FF', 'x']]);
  });
});
