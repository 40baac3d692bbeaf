import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Web } from './web-env.ts';

const require = createRequire(import.meta.url);
const OWN = path.join(path.dirname(fileURLToPath(import.meta.url)), 'assets');
const UPLOT = path.dirname(require.resolve('uplot/dist/uPlot.iife.min.js'));

/**
 * The page's scripts and styles, all served by the service itself (no CDN: the page works
 * offline and its CSP allows only 'self'): its own files in web/assets/ and uPlot, the chart
 * library (about 50 KB, no dependencies), from its npm package.
 */
const FILES: Record<string, { file: string; type: string }> = {
  'account.css': { file: path.join(OWN, 'account.css'), type: 'text/css; charset=utf-8' },
  'account.js': { file: path.join(OWN, 'account.js'), type: 'text/javascript; charset=utf-8' },
  'uPlot.min.css': { file: path.join(UPLOT, 'uPlot.min.css'), type: 'text/css; charset=utf-8' },
  'uPlot.iife.min.js': { file: path.join(UPLOT, 'uPlot.iife.min.js'), type: 'text/javascript; charset=utf-8' },
};

/** Read once at start-up: a missing file fails the start, not a page view. */
const CONTENTS = new Map(
  Object.entries(FILES).map(([name, { file, type }]) => [name, { body: fs.readFileSync(file), type }]),
);

export function registerAssets(web: Web) {
  web.get('/assets/:name', (c) => {
    const asset = CONTENTS.get(c.req.param('name'));
    if (!asset) return c.text('Not found', 404);
    return c.body(asset.body, 200, { 'Content-Type': asset.type, 'Cache-Control': 'public, max-age=3600' });
  });
}
