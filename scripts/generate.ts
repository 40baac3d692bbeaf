/**
 * Generates everything in `generated/` from `openapi.yaml`, the source of truth:
 *   - routes.ts     `createRoute()` definitions with zod request/response validators (hono-takibi)
 *   - api-types.ts  TypeScript types of every operation and schema (openapi-typescript)
 *   - openapi.json  the contract as JSON, served at /openapi.json and read at start-up for prices
 * `--check` regenerates into a temporary folder and fails when `generated/` differs (stale).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { parse } from 'yaml';
import { projectRoot } from '../src/config.ts';

const check = process.argv.includes('--check');
const specPath = path.join(projectRoot, 'openapi.yaml');
const generatedDir = path.join(projectRoot, 'generated');
const outDir = check ? fs.mkdtempSync(path.join(os.tmpdir(), 'alk-generated-')) : generatedDir;
const banner = '// Generated from openapi.yaml by `npm run generate`. Do not edit.\n';

const spec = parse(fs.readFileSync(specPath, 'utf8'));
fs.mkdirSync(outDir, { recursive: true });
fs.writeFileSync(path.join(outDir, 'openapi.json'), `${JSON.stringify(spec, null, 2)}\n`);

const routesFile = path.join(outDir, 'routes.ts');
execFileSync(path.join(projectRoot, 'node_modules', '.bin', 'hono-takibi'), [specPath, '-o', routesFile], {
  stdio: 'pipe',
});
const takibiRoutes = withDefaultsPresent(fs.readFileSync(routesFile, 'utf8'));
fs.writeFileSync(routesFile, banner + takibiRoutes + routesByOperationId(takibiRoutes));

const types = astToString(await openapiTS(new URL(`file://${specPath}`), { exportType: true }));
fs.writeFileSync(path.join(outDir, 'api-types.ts'), banner + types);

/**
 * hono-takibi makes every parameter that is not required `.exactOptional()`, even one with a
 * `default`, so its value is typed as possibly absent although the schema always gives it (the
 * default). Without the wrapper the schema reads an absent parameter the same way (zod-openapi
 * still documents it as optional) and types it as always there: a handler needs no `!`.
 */
function withDefaultsPresent(routes: string): string {
  const defaulted = /(\.default\([^()]*\))\s*\.exactOptional\(\)/g;
  return routes.replace(defaulted, '$1');
}

/**
 * hono-takibi names a route after its path (`getApiV1DomainRoute`); the service knows each
 * operation by its operationId, so every route is exported under that name too
 * (`getDomainSummaryRoute`): one name per operation, from the file to the handler.
 */
function routesByOperationId(routes: string): string {
  const exports: string[] = [];
  const route = /^export const (\w+) = createRoute\(\{[\s\S]*?^ {2}operationId: '(\w+)',/gm;
  for (const [, name, operationId] of routes.matchAll(route)) {
    if (name !== `${operationId}Route`) exports.push(`export const ${operationId}Route = ${name}`);
  }
  if (exports.length === 0) throw new Error('hono-takibi wrote no route with an operationId');
  return `\n// Each route under its operationId.\n${exports.join('\n')}\n`;
}

if (check) {
  const stale = ['openapi.json', 'routes.ts', 'api-types.ts'].filter((file) => {
    const current = path.join(generatedDir, file);
    return (
      !fs.existsSync(current) || fs.readFileSync(current, 'utf8') !== fs.readFileSync(path.join(outDir, file), 'utf8')
    );
  });
  fs.rmSync(outDir, { recursive: true, force: true });
  if (stale.length > 0) {
    console.error(`generated/ is stale (${stale.join(', ')}): run \`npm run generate\` and commit the result.`);
    process.exit(1);
  }
  console.log('generated/ is up to date with openapi.yaml');
} else {
  console.log(`generated/ written from openapi.yaml`);
}
