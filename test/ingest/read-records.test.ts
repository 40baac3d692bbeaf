// @module-tag database-free
// @module-tag runtime
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { LINE, TEXT, UNREADABLE } from '../../src/ingest/batches.ts';
import { splitCsvRecord } from '../../src/ingest/csv.ts';
import { MAX_LINE_BYTES } from '../../src/ingest/lines.ts';
import { type Format, InputError, openInput } from '../../src/ingest/read-records.ts';
import { defaultRejectsPath, RejectsFile } from '../../src/ingest/rejects-file.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alk-read-records-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const file = (name: string, content: string | Buffer) => {
  const target = path.join(dir, name);
  fs.writeFileSync(target, content);
  return target;
};

const FIELDS = ['a', 'b'] as const;

/** Each record as [line, fields or the reason it has none]. */
async function read(target: string, format?: Format, stdin?: string | Buffer) {
  const input = await openInput(target, {
    format,
    fields: FIELDS,
    stdin: stdin === undefined ? undefined : Readable.from([stdin]),
  });
  const records: [number, unknown][] = [];
  for await (const record of input.records) {
    records.push([record[LINE] as number, record[UNREADABLE] ?? { a: record.a, b: record.b }]);
  }
  return { input, records };
}

describe('openInput: NDJSON', () => {
  it(
    'physical line numbers; blank lines skipped; CRLF, ' + 'a byte order mark and a last line without a break',
    async () => {
      const { input, records } = await read(
        file('a.ndjson', '\uFEFF{"a":"1"}\r\n\r\n  \n{"a":"2","b":null}\n[1]\n"text"\n{"a":\n{"a":"3"}'),
      );
      expect(input.format).toBe('ndjson');
      expect(records).toEqual([
        [1, { a: '1', b: undefined }],
        [4, { a: '2', b: null }],
        [5, 'not a JSON object'],
        [6, 'not a JSON object'],
        [7, 'invalid JSON'],
        [8, { a: '3', b: undefined }],
      ]);
    },
  );

  it(
    'a line that is not UTF-8 or longer than the limit is ' + 'a reject with its line; the next line reads normally',
    async () => {
      const long = `{"a":"${'x'.repeat(MAX_LINE_BYTES + 10)}"}`;
      const content = Buffer.concat([
        Buffer.from('{"a":"caf\u00e9"}\n{"a":"'),
        Buffer.from([0xc3, 0x28]),
        Buffer.from(`"}\n${long}\n{"a":"after"}\n`),
      ]);
      const { records } = await read(file('b.ndjson', content));
      expect(records).toEqual([
        [1, { a: 'café', b: undefined }],
        [2, 'not valid UTF-8'],
        [3, `line longer than ${MAX_LINE_BYTES} bytes`],
        [4, { a: 'after', b: undefined }],
      ]);
    },
  );

  it('the file cannot set where a record came from', async () => {
    const input = await openInput(file('c.ndjson', '{"a":"1","__line":99,"__unreadable":"forged","__text":"x"}\n'), {
      fields: FIELDS,
    });
    for await (const record of input.records) {
      expect(record[LINE]).toBe(1);
      expect(record[UNREADABLE]).toBeUndefined();
      expect(record[TEXT]).toBe('{"a":"1","__line":99,"__unreadable":"forged","__text":"x"}');
    }
  });

  it('gzip by its magic bytes whatever the name; bytes read count the file as stored', async () => {
    const packed = gzipSync('{"a":"1"}\n'.repeat(1000));
    const { input, records } = await read(file('d.ndjson', packed));
    expect(input).toMatchObject({ gzip: true, size: packed.length, bytesRead: packed.length });
    expect(records).toHaveLength(1000);
  });

  it('an empty file has no records', async () => {
    expect((await read(file('e.csv', ''))).records).toEqual([]);
    expect((await read(file('e.ndjson', ''))).records).toEqual([]);
  });
});

describe('openInput: format', () => {
  it('from the extension, then --format, else guessed from the first character', async () => {
    expect((await read(file('f.jsonl', '{"a":"1"}\n'))).input.format).toBe('ndjson');
    expect((await read(file('f.CSV.gz', gzipSync('a,b\n1,2\n')))).input.format).toBe('csv');
    expect((await read(file('f.txt', 'a,b\n1,2\n'))).input.format).toBe('csv');
    expect((await read(file('f.data', '\n{"a":"1"}\n'))).input.format).toBe('ndjson');
    expect((await read(file('f2.ndjson', 'a,b\n1,2\n'), 'csv')).records).toEqual([[2, { a: '1', b: '2' }]]);
    expect((await read('-', undefined, 'a,b\n1,2\n')).input).toMatchObject({
      name: 'standard input',
      format: 'csv',
      size: undefined,
    });
  });

  it('a file that cannot be opened is an InputError', async () => {
    await expect(openInput(path.join(dir, 'missing.ndjson'), { fields: FIELDS })).rejects.toThrow(
      new InputError(`cannot read ${path.join(dir, 'missing.ndjson')}: no such file`),
    );
    await expect(openInput(dir, { fields: FIELDS })).rejects.toThrow(/it is a directory/);
  });
});

describe('openInput: CSV', () => {
  it('maps columns by the header, in any order, ignoring others; counts fields', async () => {
    const { records, input } = await read(
      file('g.csv', '\uFEFFextra, b ,a\nx,2,1\nx,2\n"q,""uote""",y,"multi\r\nline"\n'),
    );
    expect(input.csvHeader).toBe('extra, b ,a');
    expect(records).toEqual([
      [2, { a: '1', b: '2' }],
      [3, 'expected 3 fields, got 2'],
      [4, { a: 'multi\r\nline', b: 'y' }],
    ]);
  });

  it('a quote never closed costs its own record only, at the end of the file or within the size limit', async () => {
    const filler = Array.from({ length: 17 }, () => `${'z'.repeat(1 << 16)}\n`).join('');
    const { records } = await read(file('h.csv', `a,b\n"open,1\n2,3\n4,"start\n${filler}5,6\n"never closed\n7,8`));
    expect(records).toEqual([
      [2, 'unclosed quote'],
      [3, { a: '2', b: '3' }],
      [4, 'unclosed quote'],
      ...Array.from({ length: 17 }, (_, i) => [5 + i, 'expected 2 fields, got 1']),
      [22, { a: '5', b: '6' }],
      [23, 'unclosed quote'],
      [24, { a: '7', b: '8' }],
    ]);
  });

  it('a header without every field, or with one twice, is an InputError', async () => {
    await expect(read(file('i.csv', 'a,c\n1,2\n'))).rejects.toThrow(
      new InputError(`the CSV header of ${path.join(dir, 'i.csv')} lacks b (it needs a, b)`),
    );
    await expect(read(file('j.csv', 'a,b,a\n1,2,3\n'))).rejects.toThrow(/names a more than once/);
  });

  it.each([
    ['a,b,c', ['a', 'b', 'c']],
    ['a,,', ['a', '', '']],
    ['"a,b",c', ['a,b', 'c']],
    ['"say ""hi""",x', ['say "hi"', 'x']],
    ['a"b,c', ['a"b', 'c']],
    ['"a"b,c', 'malformed'],
    ['"a,b', 'open'],
    ['', ['']],
  ])('splitCsvRecord(%j)', (text, expected) => {
    const result = splitCsvRecord(text);
    expect(typeof result === 'symbol' ? (result.description === 'open quote' ? 'open' : 'malformed') : result).toEqual(
      expected,
    );
  });
});

describe('rejects file', () => {
  it('is named after the input, beside it', () => {
    expect(defaultRejectsPath('data/obs.ndjson.gz', 'observations', 'ndjson')).toBe('data/obs.rejects.ndjson');
    expect(defaultRejectsPath('/x/y.CSV', 'crawls', 'csv')).toBe('/x/y.rejects.csv');
    expect(defaultRejectsPath('notes.txt', 'labels', 'csv')).toBe('notes.txt.rejects.csv');
    expect(defaultRejectsPath('-', 'labels', 'csv')).toBe('labels.rejects.csv');
  });

  it('NDJSON: the line and reason go in front of the members as written; other text goes in _text', async () => {
    const target = path.join(dir, 'r.ndjson');
    const rejects = new RejectsFile(target, 'ndjson', () => undefined);
    await rejects.write({ line: 1, reason: 'r1' }, ' { "a" : 1 } ');
    await rejects.write({ line: 2, reason: 'r2' }, '{}');
    await rejects.write({ line: 3, reason: 'r3' }, '{"a": ');
    await rejects.write({ line: 4, reason: 'r"4' }, undefined);
    await rejects.close();
    expect(fs.readFileSync(target, 'utf8')).toBe(
      '{"_line":1,"_reason":"r1", "a" : 1 } \n{"_line":2,"_reason":"r2"}\n' +
        '{"_line":3,"_reason":"r3","_text":"{\\"a\\": "}\n{"_line":4,"_reason":"r\\"4"}\n',
    );
    expect(rejects.count).toBe(4);
  });
});
