import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { optionsFrom, USAGE, UsageError } from './cli-options.js';
import { clientCredentialsToken } from './oauth-client.js';
import { BREAK_DESCRIPTIONS, BREAK_SWITCHES, startReferenceApi, type ReferenceApiOptions } from './server.js';

/**
 * npm run reference-api -- [--port 8443] [--host 127.0.0.1] [--http-port 8080]
 *   [--break <switch>]... [--cors-origin <origin>]... [--cert f --key f [--ca f]] [--write-token t]
 *
 * Starts the reference API and prints its base URL, the file holding the PEM a client should
 * trust (for adr-check: --ca <file>), the CA of its payload signatures (--signing-ca <file>), the
 * bearer token writes need, its authorization server and the registered client (its private key
 * in a file), and an access token that client got by the client credentials grant.
 */

async function main(): Promise<void> {
  let options: ReferenceApiOptions | 'help';
  try {
    options = optionsFrom(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    // One line, so it reads well in CI logs; --help gives the usage.
    process.stderr.write(`reference-api: ${error.message.replace(/\s+/g, ' ')} (see --help)\n`);
    process.exit(2);
  }
  if (options === 'help') {
    const width = Math.max(...BREAK_SWITCHES.map((name) => name.length));
    const switches = BREAK_SWITCHES.map((name) => `  ${name.padEnd(width)}  ${BREAK_DESCRIPTIONS[name]}`);
    process.stdout.write(`${USAGE}\nfault switches (--break SWITCH, repeatable), each breaking one rule:\n${switches.join('\n')}\n`);
    return;
  }
  const api = await startReferenceApi(options);
  const folder = mkdtempSync(join(tmpdir(), 'nlgov-adr-reference-api-'));
  const caFile = join(folder, 'ca.pem');
  writeFileSync(caFile, api.caPem);
  const signingCaFile = join(folder, 'signing-ca.pem');
  writeFileSync(signingCaFile, api.signingCaPem);
  const clientKeyFile = join(folder, 'client-key.json');
  writeFileSync(clientKeyFile, `${JSON.stringify(api.oauth.clientPrivateJwk, null, 2)}\n`, { mode: 0o600 });
  const scope = 'monumenten:schrijven monumenten:beheren';
  const token = await clientCredentialsToken(api, scope);
  const breaks = options.breaks?.length ? options.breaks.join(', ') : 'none';
  process.stdout.write([
    `reference API: ${api.baseUrl}`,
    `trust this CA: ${caFile}`,
    `signing CA:    ${signingCaFile} (adr-check --signing-ca: issued the Payload-Signature certificate)`,
    `write token:   ${api.writeToken} (Authorization: Bearer <token> for POST, PUT, PATCH and DELETE)`,
    `OAuth issuer:  ${api.oauth.issuer} (metadata: ${api.oauth.metadataUrl})`,
    `OAuth client:  ${api.oauth.clientId}, private_key_jwt with the key in ${clientKeyFile}`,
    `access token:  ${token.access_token} (client credentials, scope ${token.scope ?? '(none)'}, ${Math.round(token.expires_in / 60)} minutes)`,
    ...(api.httpOrigin === undefined ? [] : [`plain HTTP:    ${api.httpOrigin} (redirects to HTTPS)`]),
    `fault switches: ${breaks}`,
    `try: curl --cacert ${caFile} ${api.baseUrl}/monumenten`,
    `     curl --cacert ${caFile} '${api.baseUrl}/collections/monumenten/items?limit=3&crs=http://www.opengis.net/def/crs/EPSG/0/28992'`,
    '',
  ].join('\n'));
  const stop = (): void => {
    api.close().then(() => process.exit(0), () => process.exit(1));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`reference-api: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
