/**
 * A local HTTPS webhook receiver for `bench:watches`, in a process of its own as a customer's
 * receiver is (sharing the load generator's event loop would slow the lookups it measures):
 * answers 200 to every post. Started with the key and certificate paths as arguments; tells its
 * parent the port, then the posts received so far whenever asked.
 */
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

const [key, cert] = process.argv.slice(2);
let posts = 0;
const server = https.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (request, response) => {
  request.resume();
  request.on('end', () => {
    posts += 1;
    response.writeHead(200).end();
  });
});
server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
process.on('message', () => process.send?.({ posts }));
process.on('disconnect', () => process.exit(0));
