import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Scalar } from '@scalar/hono-api-reference';
import { parseDocument } from 'yaml';
import { type OperatorSettings, projectRoot } from '../config.ts';
import { openapiDocument } from '../contract/document.ts';
import type { OpenAPIV31 } from '../contract/openapi-types.ts';
import type { App, AppEnv } from '../http/app-env.ts';
import { getOnlyRouting } from '../http/contract-routing.ts';
import { docsPageSecurityHeaders } from '../http/security-headers.ts';

const require = createRequire(import.meta.url);
const SCALAR_SCRIPT_PATH = '/docs/scalar-api-reference.js';

/**
 * The contract's `info` as this service serves it: its operator's name and support address, its
 * account page (where a key is made) and its terms, in place of a local start's values.
 */
export function servedInfo(operator: OperatorSettings, publicUrl: URL): OpenAPIV31['info'] {
  const { termsOfService: _fromFile, ...info } = openapiDocument.info;
  return {
    ...info,
    contact: {
      name: `${operator.companyName} support`,
      email: operator.supportEmail,
      url: new URL('/account', publicUrl).href,
    },
    ...(operator.termsUrl !== undefined && { termsOfService: operator.termsUrl }),
  };
}

/**
 * The contract (`/openapi.yaml`, `/openapi.json`) and its reference docs (`/docs`). Every asset of
 * the docs is served from here: the page must work with no internet access, so the Scalar bundle
 * comes from the installed package, default fonts are off and Scalar's hosted agent is disabled.
 */
export function registerContractDocuments(
  app: App,
  { operator, publicUrl }: { operator: OperatorSettings; publicUrl: () => URL },
) {
  const fileText = fs.readFileSync(path.join(projectRoot, 'openapi.yaml'), 'utf8');
  // The public URL is known once the service listens: the documents are made at the first request.
  let served: { json: OpenAPIV31; yaml: string } | null = null;
  const documents = () => {
    if (served) return served;
    const info = servedInfo(operator, publicUrl());
    const unchanged = JSON.stringify(info) === JSON.stringify(openapiDocument.info);
    let yaml = fileText;
    if (!unchanged) {
      // Only `info` changes; the file's comments and layout stay.
      const document = parseDocument(fileText);
      document.setIn(['info', 'contact'], document.createNode(info.contact));
      if (info.termsOfService !== undefined) document.setIn(['info', 'termsOfService'], info.termsOfService);
      yaml = document.toString({ lineWidth: 0 });
    }
    served = { json: { ...openapiDocument, info }, yaml };
    return served;
  };
  const scalarScript = fs.readFileSync(require.resolve('@scalar/api-reference/browser/standalone.js'));

  // Other methods on these paths: 405 with `Allow: GET, HEAD`, as on the contract's own paths.
  for (const path of ['/openapi.yaml', '/openapi.json', SCALAR_SCRIPT_PATH, '/docs', '/'])
    app.use(path, getOnlyRouting);
  app.get('/openapi.yaml', (c) => c.body(documents().yaml, 200, { 'Content-Type': 'application/yaml; charset=utf-8' }));
  app.get('/openapi.json', (c) => c.json(documents().json));
  app.get(SCALAR_SCRIPT_PATH, (c) =>
    c.body(scalarScript, 200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'public, max-age=86400',
    }),
  );
  const scalarPage = Scalar<AppEnv>({
    url: '/openapi.json',
    cdn: SCALAR_SCRIPT_PATH,
    pageTitle: 'Advertiser and Landing-Domain Lookup API',
    withDefaultFonts: false,
    agent: { disabled: true },
    showDeveloperTools: 'never',
    defaultOpenAllTags: true,
    // "Try it" talks to the service that served the page, whatever its address: a relative URL,
    // which the browser resolves against the page. Never taken from the request (its Host header).
    servers: [{ url: '/', description: 'This service' }],
  });

  // Scalar's page has no nonce option: its script tags get this response's Content-Security-Policy nonce.
  app.get('/docs', docsPageSecurityHeaders, async (c) => {
    const page = await (await scalarPage(c, async () => {}))!.text();
    return c.html(page.replaceAll('<script', `<script nonce="${c.get('secureHeadersNonce')}"`));
  });
  app.get('/', (c) => c.redirect('/docs'));
}
