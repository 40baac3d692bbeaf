/**
 * Content negotiation (docs/product-rules.md §16): which of the media types an operation answers
 * in (its `200`'s, in the order openapi.yaml lists them) a request's `Accept` header prefers, by
 * the rules of RFC 9110 §12.5.1: the most specific range that matches a type gives its weight
 * (`text/csv` before `text/*` before `*\/*`), the highest weight wins, ties go to the first type
 * listed. Ranges that cannot be read are ignored; no readable range at all means no preference.
 * Parameters of a range other than `q` do not restrict it (`text/csv;header=present` is `text/csv`).
 */

interface Range {
  type: string;
  subtype: string;
  weight: number;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const WEIGHT = /^(?:0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?)$/;

function readRange(text: string): Range | null {
  const [mediaRange = '', ...parameters] = text.split(';');
  const [type = '', subtype = '', ...rest] = mediaRange.trim().toLowerCase().split('/');
  if (rest.length > 0 || !TOKEN.test(type) || !TOKEN.test(subtype) || (type === '*' && subtype !== '*')) return null;
  let weight = 1;
  for (const parameter of parameters) {
    const [name = '', value = ''] = parameter.split('=').map((part) => part.trim());
    if (name.toLowerCase() !== 'q') continue;
    if (!WEIGHT.test(value)) return null;
    weight = Number(value);
  }
  return { type, subtype, weight };
}

/** How specific `range` is for `mediaType` (type/subtype): 3 exact, 2 type/*, 1 *\/*, 0 no match. */
function specificity(range: Range, mediaType: string): number {
  const [type, subtype] = mediaType.split('/');
  if (range.type === '*') return 1;
  if (range.type !== type) return 0;
  if (range.subtype === '*') return 2;
  return range.subtype === subtype ? 3 : 0;
}

/** The media type `accept` prefers among `offered`, or null when it accepts none of them. */
export function preferredMediaType(accept: string | undefined, offered: readonly string[]): string | null {
  const ranges = (accept ?? '')
    .split(',')
    .filter((part) => part.trim() !== '')
    .map(readRange)
    .filter((range): range is Range => range !== null);
  if (ranges.length === 0) return offered[0] ?? null;
  let best: string | null = null;
  let bestWeight = 0;
  for (const mediaType of offered) {
    let matched: Range | null = null;
    for (const range of ranges) {
      const level = specificity(range, mediaType);
      if (level > 0 && (matched === null || level > specificity(matched, mediaType))) matched = range;
    }
    if (matched !== null && matched.weight > bestWeight) {
      best = mediaType;
      bestWeight = matched.weight;
    }
  }
  return best;
}
