/**
 * npm run check:demo: starts the reference API on loopback and runs adr-check against it, the
 * way a team would run it against their own API. Prints the report and how long the checking
 * itself took (the server start is not counted). Extra arguments go to adr-check.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReferenceApi } from '../examples/reference-api/server.js';
import { main } from '../live/main.js';

const ALLOWED_ORIGIN = 'https://app.example.nl';

async function demo(): Promise<number> {
  const api = await startReferenceApi({ httpPort: 0, corsAllowlist: [ALLOWED_ORIGIN] });
  const folder = mkdtempSync(join(tmpdir(), 'adr-check-demo-'));
  try {
    const caFile = join(folder, 'ca.pem');
    writeFileSync(caFile, api.caPem);
    const plainPort = new URL(api.httpOrigin ?? 'http://127.0.0.1:80').port || '80';
    const signingCa = join(folder, 'signing-ca.pem');
    writeFileSync(signingCa, api.signingCaPem);
    // The API's own token and --unsafe: the OAuth check then also probes a protected write (no GET needs a token).
    const args = [api.baseUrl, '--ca', caFile, '--cors-origin', ALLOWED_ORIGIN, '--plain-http-port', plainPort, '--signing-ca', signingCa, '--unsafe', '--header', `Authorization: Bearer ${api.writeToken}`, ...process.argv.slice(2)];
    console.log(`$ adr-check ${args.join(' ')}\n`);
    const started = process.hrtime.bigint();
    const code = await main(args);
    const milliseconds = Number(process.hrtime.bigint() - started) / 1e6;
    console.log(`\ncheck:demo: the checking took ${milliseconds.toFixed(0)} ms (exit ${code})`);
    return code;
  } finally {
    rmSync(folder, { recursive: true, force: true });
    await api.close();
  }
}

demo().then((code) => { process.exitCode = code; }, (error: Error) => {
  console.error(`check:demo: ${error.message}`);
  process.exitCode = 2;
});
