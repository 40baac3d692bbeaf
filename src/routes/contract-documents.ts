import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Scalar } from '@scalar/hono-api-reference';
import type { AppEnv } from '../app-env.ts';
import type { App } from '../app.ts';
import { projectRoot } from '../config.ts';
import { docsPageSecurityHeaders } from '../middleware/security-headers.ts';
import { openapiDocument } from '../spec.ts';

const require = createRequire(import.meta.url);
const SCALAR_SCRIPT_PATH = '/docs/scalar-api-reference.js';

/**
 * The contract (`/openapi.yaml`, `/openapi.json`) and its reference docs (`/docs`). Every asset of
 * the docs is served from here: the page must work with no internet access, so the Scalar bundle
 * comes from the installed package, default fonts are off and Scalar's hosted agent is disabled.
 */
export function registerContractDocuments(app: App) {
  const yamlText = fs.readFileSync(path.join(projectRoot, 'openapi.yaml'), 'utf8');
  const scalarScript = fs.readFileSync(require.resolve('@scalar/api-reference/browser/standalone.js'));

  app.get('/openapi.yaml', (c) => c.body(yamlText, 200, { 'Content-Type': 'application/yaml; charset=utf-8' }));
  app.get('/openapi.json', (c) => c.json(openapiDocument));
  app.get(SCALAR_SCRIPT_PATH, (c) =>
    c.body(scalarScript, 200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=86400' }),
  );
  const scalarPage = Scalar<AppEnv>((c) => ({
    url: '/openapi.json',
    cdn: SCALAR_SCRIPT_PATH,
    pageTitle: 'Advertiser and Landing-Domain Lookup API',
    withDefaultFonts: false,
    agent: { disabled: true },
    showDeveloperTools: 'never',
    defaultOpenAllTags: true,
    // "Try it" talks to the service that served the page, whatever its port.
    servers: [{ url: new URL(c.req.url).origin, description: 'This service' }],
  }));

  // Scalar's page has no nonce option: its script tags get this response's Content-Security-Policy nonce.
  app.get('/docs', docsPageSecurityHeaders, async (c) => {
    const page = await (await scalarPage(c, async () => {}))!.text();
    return c.html(page.replaceAll('<script', `<script nonce="${c.var.secureHeadersNonce}"`));
  });
  app.get('/', (c) => c.redirect('/docs'));
}
