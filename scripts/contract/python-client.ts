import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../src/config.ts';
import type { FuzzKeys } from './keys.ts';
import type { PythonEnv } from './python-env.ts';

/** Anything the generator says about the document beyond its progress line is a finding. */
const WARNING = /warn|error|could not|unable|skipp|unsupported|invalid/i;

/**
 * Generates the Python client from openapi.yaml with openapi-python-client (the command
 * docs/clients.md gives customers) and calls every operation of the live service through it.
 */
export async function generatePythonClient(
  python: PythonEnv,
  outputDir: string,
): Promise<{ packageDir: string; problems: string[] }> {
  const packageDir = path.join(outputDir, 'alk_client');
  fs.rmSync(outputDir, { recursive: true, force: true });
  fs.mkdirSync(outputDir, { recursive: true });
  const result = await run(
    python.bin('openapi-python-client'),
    ['generate', '--path', path.join(projectRoot, 'openapi.yaml'), '--output-path', packageDir, '--meta', 'none'],
    { cwd: outputDir, env: python.env() },
  );
  const problems: string[] = [];
  if (result.code !== 0) problems.push(`openapi-python-client exited with ${result.code}:\n${result.output}`);
  const findings = result.output.split('\n').filter((line) => WARNING.test(line));
  if (findings.length > 0) problems.push(`openapi-python-client reported:\n${findings.join('\n')}`);
  return { packageDir, problems };
}

export async function runPythonClient(
  python: PythonEnv,
  packageDir: string,
  baseUrl: string,
  keys: FuzzKeys,
): Promise<boolean> {
  const result = await run(
    python.bin('python'),
    [path.join(projectRoot, 'test', 'clients', 'python', 'check_client.py')],
    {
      cwd: projectRoot,
      env: python.env({
        PYTHONPATH: path.dirname(packageDir),
        ALK_BASE_URL: baseUrl,
        ALK_FUZZ_KEYS: JSON.stringify(keys),
      }),
    },
  );
  process.stdout.write(result.output);
  return result.code === 0;
}

/**
 * The MCP endpoint through the MCP Python SDK (`mcp` from PyPI), a client independent of the
 * TypeScript SDK the tests use (docs/product-rules.md R21.3, R21.4): test/clients/python/check_mcp.py.
 */
export async function runPythonMcpClient(python: PythonEnv, baseUrl: string, keys: FuzzKeys): Promise<boolean> {
  const result = await run(
    python.bin('python'),
    [path.join(projectRoot, 'test', 'clients', 'python', 'check_mcp.py')],
    {
      cwd: projectRoot,
      env: python.env({ ALK_BASE_URL: baseUrl, ALK_FUZZ_KEYS: JSON.stringify(keys) }),
    },
  );
  process.stdout.write(result.output);
  return result.code === 0;
}

/**
 * Asynchronous on purpose: this process also relays the service's database connections
 * (db-proxy.ts), so blocking its event loop would stall the service the client is calling.
 */
function run(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code: code ?? 1, output: `${output.trim()}\n` }));
  });
}

export function pythonClientDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'alk-python-client-'));
}
