import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { writeTokenProblem } from './auth.js';
import { BREAK_SWITCHES, isBreakSwitch, type BreakSwitch, type ReferenceApiOptions } from './server.js';

/** The command line of `npm run reference-api`, turned into options for startReferenceApi. */

export const USAGE = 'usage: npm run reference-api -- [--port N] [--host H] [--http-port N] [--break SWITCH]... [--cors-origin ORIGIN]... [--cert FILE --key FILE [--ca FILE]] [--write-token TOKEN] [--help]';

export class UsageError extends Error {}

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

function writeTokenOf(value: string | undefined): string | undefined {
  const refused = value === undefined ? undefined : writeTokenProblem(value);
  if (refused !== undefined) throw new UsageError(`--write-token: ${refused}`);
  return value;
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
        'write-token': { type: 'string' },
        help: { type: 'boolean' },
      },
    }).values;
  } catch (error) {
    // Not `instanceof Error`: parseArgs's errors may come from another realm (a test's vm).
    const message = typeof error === 'object' && error !== null && 'message' in error ? String(error.message) : String(error);
    throw new UsageError(message);
  }
}

export function optionsFrom(args: string[]): ReferenceApiOptions | 'help' {
  const values = parsedArgs(args);
  if (values.help === true) return 'help';
  if ((values.cert === undefined) !== (values.key === undefined)) throw new UsageError('--cert and --key go together');
  if (values.ca !== undefined && values.cert === undefined) throw new UsageError('--ca needs --cert and --key');
  const port = portOf(values.port, '--port');
  const httpPort = portOf(values['http-port'], '--http-port');
  const writeToken = writeTokenOf(values['write-token']);
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
    ...(writeToken === undefined ? {} : { writeToken }),
  };
}
