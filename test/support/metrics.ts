/** Reading the Prometheus text exposition in tests. */

/** The value of one series, written as the exposition writes it: `name{label="value",...}`; undefined when absent. */
export function sample(exposition: string, series: string): number | undefined {
  const line = exposition.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** Every value a label takes in the exposition, over all series. */
export function labelValues(exposition: string, label: string): Set<string> {
  const values = new Set<string>();
  for (const match of exposition.matchAll(new RegExp(`[{,]${label}="([^"]*)"`, 'g'))) values.add(match[1]);
  return values;
}
