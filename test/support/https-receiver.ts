import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import { type AddressInfo, isIP } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface ReceivedPost {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A webhook receiver on https://127.0.0.1 with a self-signed certificate made for the test. */
export interface HttpsReceiver {
  url: string;
  port: number;
  /** The certificate, for the sender's `ca`. */
  ca: string;
  received: ReceivedPost[];
  /** The statuses it answers, in turn (0: it takes the post and never answers); 200 once they are used up. */
  answers: number[];
  close(): Promise<void>;
}

/**
 * `alsoNamed`: more names and addresses its certificate is valid for (for a test that sends the
 * connection to a public address or name here, so the sender checks the certificate as it would there).
 */
export async function startHttpsReceiver({ alsoNamed = [] }: { alsoNamed?: string[] } = {}): Promise<HttpsReceiver> {
  const subjectAltNames = ['127.0.0.1', ...alsoNamed].map((name) => (isIP(name) ? `IP:${name}` : `DNS:${name}`));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'receiver-'));
  const [key, cert] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      `subjectAltName=${subjectAltNames.join(',')}`,
    ],
    { stdio: 'ignore' },
  );
  const ca = fs.readFileSync(cert, 'utf8');
  const received: ReceivedPost[] = [];
  const answers: number[] = [];
  const server = https.createServer({ key: fs.readFileSync(key), cert: ca }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = answers.shift() ?? 200;
      if (status !== 0) response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  fs.rmSync(dir, { recursive: true });
  return {
    url: `https://127.0.0.1:${port}/hooks/balance`,
    port,
    ca,
    received,
    answers,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
