// @module-tag database-free
import { describe, expect, it } from 'vitest';
import { rootDomain } from '../../src/contract/root-domain.ts';

/** docs/product-rules.md R3.15–R3.20 (and R10.10): how `domain` (and `landing_url`) is normalized. */
describe('rootDomain', () => {
  it('reduces the spec example https://WWW.Shop.Example.co.uk:443/a?b#c to example.co.uk', () => {
    expect(rootDomain('https://WWW.Shop.Example.co.uk:443/a?b#c')).toBe('example.co.uk');
  });

  describe('domain rule: scheme, www., path, query, fragment, port and user info are stripped', () => {
    it.each([
      ['example.com', 'example.com'],
      ['http://example.com', 'example.com'],
      ['https://example.com', 'example.com'],
      ['HTTPS://EXAMPLE.COM', 'example.com'],
      ['www.example.com', 'example.com'],
      ['https://www.example.com/', 'example.com'],
      ['shop.eu.example.com', 'example.com'],
      ['example.com/path/to/page.html', 'example.com'],
      ['example.com?utm_source=x&q=a b', 'example.com'],
      ['example.com#section', 'example.com'],
      ['example.com:8080', 'example.com'],
      ['example.com:8080/landing', 'example.com'],
      ['https://example.com:443', 'example.com'],
      ['https://user:secret@example.com/x', 'example.com'],
      ['user@example.com', 'example.com'],
      ['user:pass@example.com', 'example.com'],
      ['user:pass@www.example.com:8080/x?y#z', 'example.com'],
      ['user:@example.com', 'example.com'],
      ['//example.com/path', 'example.com'],
      ['http:example.com', 'example.com'],
    ])('%s -> %s', (input, expected) => {
      expect(rootDomain(input)).toBe(expected);
    });
  });

  it(
    'domain rule: user info without a scheme is user info, ' +
      'even with a password (user:pass@), not a scheme "user:"',
    () => {
      expect(rootDomain('user:pass@acme-outdoor.com')).toBe('acme-outdoor.com');
      expect(rootDomain('user@acme-outdoor.com')).toBe(rootDomain('user:pass@acme-outdoor.com'));
      expect(rootDomain('http://user:pass@acme-outdoor.com')).toBe(rootDomain('user:pass@acme-outdoor.com'));
      // The host is what follows the last user info, as a browser reads it.
      expect(rootDomain('example.com:8080@acme-outdoor.com')).toBe('acme-outdoor.com');
      // A scheme that is not http(s) stays invalid, an address scheme with its `@` included.
      expect(rootDomain('mailto:someone@example.com')).toBeNull();
      expect(rootDomain('ftp://user:pass@example.com')).toBeNull();
      expect(rootDomain('user:pass/x@example.com')).toBeNull();
    },
  );

  it('domain rule: the host is lower-cased', () => {
    expect(rootDomain('ExAmPlE.CoM')).toBe('example.com');
  });

  it('domain rule: one trailing dot is removed', () => {
    expect(rootDomain('example.com.')).toBe('example.com');
    expect(rootDomain('https://www.example.co.uk./a')).toBe('example.co.uk');
    expect(rootDomain('example.com..')).toBeNull();
  });

  it('domain rule: internationalized names become xn-- labels (UTS #46, non-transitional)', () => {
    expect(rootDomain('bücher.de')).toBe('xn--bcher-kva.de');
    expect(rootDomain('https://www.Bücher.DE/katalog')).toBe('xn--bcher-kva.de');
    expect(rootDomain('faß.de')).toBe('xn--fa-hia.de');
    expect(rootDomain('例え.jp')).toBe('xn--r8jz45g.jp');
    expect(rootDomain('example。com')).toBe('example.com');
    expect(rootDomain('xn--bcher-kva.de')).toBe('xn--bcher-kva.de');
  });

  it('domain rule: surrounding Unicode white space is trimmed', () => {
    expect(rootDomain('  example.com \n')).toBe('example.com');
    expect(rootDomain('\u00a0\u2003example.com\u3000')).toBe('example.com');
  });

  describe('domain rule: the root comes from the ICANN section of the Public Suffix List', () => {
    it.each([
      ['example.co.uk', 'example.co.uk'],
      ['a.b.example.co.uk', 'example.co.uk'],
      ['shop.example.com.au', 'example.com.au'],
      ['city.kawasaki.jp', 'city.kawasaki.jp'],
      ['www.example.de', 'example.de'],
    ])('%s -> %s', (input, expected) => {
      expect(rootDomain(input)).toBe(expected);
    });

    it('private suffixes are not suffixes: foo.github.io -> github.io, x.blogspot.com -> blogspot.com', () => {
      expect(rootDomain('foo.github.io')).toBe('github.io');
      expect(rootDomain('github.io')).toBe('github.io');
      expect(rootDomain('x.blogspot.com')).toBe('blogspot.com');
    });
  });

  describe('invalid_domain: not a host name with a registrable domain', () => {
    it.each([
      ['bare public suffix co.uk', 'co.uk'],
      ['bare public suffix com', 'com'],
      ['bare public suffix with scheme', 'https://co.uk/'],
      ['single label', 'foo'],
      ['localhost', 'localhost'],
      ['localhost with port', 'localhost:3000'],
      ['top-level label not in the list', 'brand.con'],
      ['top-level label not in the list (.local)', 'printer.local'],
      ['IPv4 address', '192.168.1.10'],
      ['IPv4 address with scheme and port', 'http://10.0.0.1:8080/x'],
      ['IPv4 in hex form', 'http://0x7f.1'],
      ['IPv6 address', 'http://[::1]/'],
      ['IPv6 address with port', '[2001:db8::1]:443'],
      ['numeric top-level label', 'example.123'],
      ['space inside the host', 'exa mple.com'],
      ['forbidden character !', 'ex!ample.com'],
      ['forbidden character <', 'ex<ample.com'],
      ['forbidden character %', 'ex%ample.com'],
      ['tab inside the value', 'exa\tmple.com'],
      ['newline inside the value', 'exa\nmple.com'],
      ['empty label', 'a..example.com'],
      ['label starting with a hyphen', '-example.com'],
      ['label ending with a hyphen', 'example-.com'],
      ['label over 63 characters', `${'a'.repeat(64)}.com`],
      ['invalid punycode', 'xn--zz.com'],
      // Node 24's URL parser accepts these, Node 20's rejects them; the rule must not depend on the runtime.
      ['punycode that decodes to nothing', 'xn--a.com'],
      ['punycode of a disallowed character', 'xn--a-ecp.ru'],
      ['punycode with a bad digit', 'xn--0.com'],
      ['ftp scheme', 'ftp://example.com'],
      ['mailto scheme', 'mailto:someone@example.com'],
      ['javascript scheme', 'javascript:alert(1)'],
      ['file scheme', 'file:///etc/passwd'],
      ['host:non-port', 'example.com:abc'],
      ['port out of range', 'example.com:99999'],
      ['scheme only', 'https://'],
      ['empty', ''],
      ['only white space', ' \t\u00a0 '],
    ])('%s', (_, input) => {
      expect(rootDomain(input)).toBeNull();
    });
  });

  it('invalid_domain: an ASCII host over 253 characters (253 is still fine)', () => {
    const label = 'a'.repeat(63);
    const host253 = `${label}.${label}.${label}.${'b'.repeat(57)}.com`;
    expect(host253).toHaveLength(253);
    expect(rootDomain(host253)).toBe(`${'b'.repeat(57)}.com`);
    const host254 = `${label}.${label}.${label}.${'b'.repeat(58)}.com`;
    expect(rootDomain(host254)).toBeNull();
  });

  it('invalid_domain: the 253 limit applies after IDN conversion', () => {
    const label = 'a'.repeat(63);
    // 'ü' alone is 1 character but its xn-- form 'xn--tda' is 7.
    const host = `${label}.${label}.${label}.${'b'.repeat(50)}ü.com`;
    expect(host.length).toBeLessThanOrEqual(253);
    expect(rootDomain(host)).toBeNull();
  });
});
