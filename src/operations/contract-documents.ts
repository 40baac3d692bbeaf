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
import { staticAsset } from '../http/static-assets.ts';

const require = createRequire(import.meta.url);
const SCALAR_SCRIPT_PATH = '/docs/scalar-api-reference.js';
const FAVICON_PATH = '/docs/favicon.svg';

/** The docs' icon, served here like every asset of the page: a magnifier over a bar chart. */
const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<rect width="32" height="32" rx="6" fill="#1f4e8c"/>
<path d="M7 24V15M12 24V10M17 24V13" stroke="#fff" stroke-width="3" stroke-linecap="round"/>
<circle cx="22" cy="12" r="5" fill="none" stroke="#ffd35c" stroke-width="2.5"/>
<path d="M25.5 15.5 28 18" stroke="#ffd35c" stroke-width="2.5" stroke-linecap="round"/>
</svg>
`;

/**
 * Scalar's own links that leave the machine: its "Powered by Scalar" footer. Its "Open in API
 * client" button (client.scalar.com) is turned off with hideClientButton.
 */
const HIDE_OUTBOUND_LINKS =
  'a[href^="https://www.scalar.com"], a[href^="https://scalar.com"] { display: none !important; }';

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
 * comes from the installed package, default fonts are off and Scalar's hosted agent is disabled;
 * its icon is served here, and neither its client button nor its links lead off the machine.
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
  for (const path of ['/openapi.yaml', '/openapi.json', SCALAR_SCRIPT_PATH, FAVICON_PATH, '/docs', '/'])
    app.use(path, getOnlyRouting);
  // The contract changes only with a new version of the service: cached, revalidated by its ETag.
  const contract = { 'Cache-Control': 'no-cache' };
  const yaml = staticAsset(() => documents().yaml, { ...contract, 'Content-Type': 'application/yaml; charset=utf-8' });
  const json = staticAsset(() => JSON.stringify(documents().json), { ...contract, 'Content-Type': 'application/json' });
  const asset = { 'Cache-Control': 'public, max-age=86400' };
  const script = staticAsset(() => scalarScript, { ...asset, 'Content-Type': 'text/javascript; charset=utf-8' });
  const favicon = staticAsset(() => FAVICON, { ...asset, 'Content-Type': 'image/svg+xml' });
  app.get('/openapi.yaml', yaml);
  app.get('/openapi.json', json);
  app.get(SCALAR_SCRIPT_PATH, script);
  app.get(FAVICON_PATH, favicon);
  const scalarPage = Scalar<AppEnv>({
    url: '/openapi.json',
    cdn: SCALAR_SCRIPT_PATH,
    pageTitle: 'Advertiser and Landing-Domain Lookup API',
    withDefaultFonts: false,
    agent: { disabled: true },
    showDeveloperTools: 'never',
    defaultOpenAllTags: true,
    favicon: FAVICON_PATH,
    // Nothing leaves the machine: no button to Scalar's hosted client, no telemetry, no link out.
    hideClientButton: true,
    telemetry: false,
    customCss: HIDE_OUTBOUND_LINKS,
    // "Try it" starts with no key and keeps none once the page is closed; the contract's
    // description suggests a free test key (alk_test_…).
    persistAuth: false,
    // "Try it" talks to the service that served the page, whatever its address: a relative URL,
    // which the browser resolves against the page. Never taken from the request (its Host header).
    servers: [{ url: '/', description: 'This service' }],
  });

  // Scalar's page has no nonce option: its script tags get this response's Content-Security-Policy nonce.
  app.get('/docs', docsPageSecurityHeaders, async (c) => {
    const page = await (await scalarPage(c, async () => {}))!.text();
    return c.html(
      page
        .replaceAll('<script', `<script nonce="${c.get('secureHeadersNonce')}"`)
        // In the page itself, so the tab shows it before the script runs, and without it.
        .replace('</head>', `<link rel="icon" type="image/svg+xml" href="${FAVICON_PATH}" />\n  </head>`),
    );
  });
  app.get('/', (c) => c.redirect('/docs'));
}
