/**
 * Prints README.md's "Configuration" table, rendered from the environment schema in
 * src/config.ts; with `--write`, puts it into README.md in place of the one there.
 *
 *   npx tsx scripts/config-table.ts [--write]
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRoot, renderConfigTable } from '../src/config.ts';

/** The table under README's "## Configuration" heading: its first run of lines starting with `|`. */
export function readmeConfigTable(readme: string): { start: number; end: number; table: string } {
  const lines = readme.split('\n');
  const heading = lines.indexOf('## Configuration');
  if (heading === -1) throw new Error('README.md has no "## Configuration" heading');
  const start = lines.findIndex((line, index) => index > heading && line.startsWith('|'));
  if (start === -1) throw new Error('README.md has no table under "## Configuration"');
  let end = start;
  while (end < lines.length && lines[end].startsWith('|')) end += 1;
  return { start, end, table: lines.slice(start, end).join('\n') };
}

export const README = path.join(projectRoot, 'README.md');

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const table = renderConfigTable();
  if (process.argv.includes('--write')) {
    const readme = fs.readFileSync(README, 'utf8');
    const { start, end } = readmeConfigTable(readme);
    const lines = readme.split('\n');
    lines.splice(start, end - start, table);
    fs.writeFileSync(README, lines.join('\n'));
    console.error('README.md: Configuration table written from src/config.ts');
  } else {
    console.log(table);
  }
}
