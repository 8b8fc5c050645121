import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BREAK_SWITCHES, isBreakSwitch, startReferenceApi, type BreakSwitch, type ReferenceApiOptions } from './server.js';

/**
 * npm run reference-api -- [--port 8443] [--host 127.0.0.1] [--http-port 8080]
 *   [--break <switch>]... [--cors-origin <origin>]... [--cert f --key f [--ca f]]
 *
 * Starts the reference API and prints its base URL and the file holding the PEM a client
 * should trust (for adr-check: --ca <file>, or NODE_EXTRA_CA_CERTS=<file>).
 */

const USAGE = 'usage: npm run reference-api -- [--port N] [--host H] [--http-port N] [--break SWITCH]... [--cors-origin ORIGIN]... [--cert FILE --key FILE [--ca FILE]] [--help]';

class UsageError extends Error {}

function portOf(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new UsageError(`${flag} must be a port number from 0 to 65535, not "${value}"`);
  return port;
}

function breaksOf(values: string[]): BreakSwitch[] {
  return values.map((value) => {
    if (!isBreakSwitch(value)) throw new UsageError(`unknown --break switch "${value}"; known: ${BREAK_SWITCHES.join(', ')}`);
    return value;
  });
}

function originsOf(values: string[]): string[] {
  return values.map((value) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new UsageError(`--cors-origin must be an origin such as https://app.example.nl, not "${value}"`);
    }
    if (url.origin !== value) throw new UsageError(`--cors-origin must be an origin (scheme, host, port; no path), not "${value}"`);
    return value;
  });
}

function readPem(file: string, flag: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    throw new UsageError(`${flag}: cannot read ${file}`);
  }
}

function parsedArgs(args: string[]) {
  try {
    return parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'http-port': { type: 'string' },
        break: { type: 'string', multiple: true },
        'cors-origin': { type: 'string', multiple: true },
        cert: { type: 'string' },
        key: { type: 'string' },
        ca: { type: 'string' },
        help: { type: 'boolean' },
      },
    }).values;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

function optionsFrom(args: string[]): ReferenceApiOptions | 'help' {
  const values = parsedArgs(args);
  if (values.help === true) return 'help';
  if ((values.cert === undefined) !== (values.key === undefined)) throw new UsageError('--cert and --key go together');
  if (values.ca !== undefined && values.cert === undefined) throw new UsageError('--ca needs --cert and --key');
  const port = portOf(values.port, '--port');
  const httpPort = portOf(values['http-port'], '--http-port');
  const tls = values.cert === undefined || values.key === undefined ? undefined : {
    cert: readPem(values.cert, '--cert'),
    key: readPem(values.key, '--key'),
    ...(values.ca === undefined ? {} : { ca: readPem(values.ca, '--ca') }),
  };
  return {
    ...(values.host === undefined ? {} : { host: values.host }),
    ...(port === undefined ? {} : { port }),
    ...(httpPort === undefined ? {} : { httpPort }),
    breaks: breaksOf(values.break ?? []),
    ...(values['cors-origin'] === undefined ? {} : { corsAllowlist: originsOf(values['cors-origin']) }),
    ...(tls === undefined ? {} : { tls }),
  };
}

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
    process.stdout.write(`${USAGE}\nfault switches: ${BREAK_SWITCHES.join(', ')}\n`);
    return;
  }
  const api = await startReferenceApi(options);
  const caFile = join(mkdtempSync(join(tmpdir(), 'nlgov-adr-reference-api-')), 'ca.pem');
  writeFileSync(caFile, api.caPem);
  const breaks = options.breaks?.length ? options.breaks.join(', ') : 'none';
  process.stdout.write([
    `reference API: ${api.baseUrl}`,
    `trust this CA: ${caFile}`,
    ...(api.httpOrigin === undefined ? [] : [`plain HTTP:    ${api.httpOrigin} (redirects to HTTPS)`]),
    `fault switches: ${breaks}`,
    `try: curl --cacert ${caFile} ${api.baseUrl}/monumenten`,
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
