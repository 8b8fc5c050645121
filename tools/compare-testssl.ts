/**
 * npm run compare:testssl -- <host:port>: runs Debian's testssl.sh (`-p -E --jsonfile`) and our
 * TLS prober on the same server, prints protocols and cipher suites side by side with both
 * times, and exits 1 when they disagree (2 on a usage error or when testssl.sh or nginx is
 * missing).
 *
 * npm run compare:testssl -- --profiles [name ...]: the same for each nginx profile of
 * tools/tls-profiles.ts (all three by default), each started and stopped here, with a summary
 * table at the end; CI runs this (.ci/run).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probeTls } from '../live/tls/prober.js';
import type { ProtocolName } from '../live/tls/grading.js';
import { IANA_CIPHER_SUITES } from '../live/tls/suites.js';
import { NGINX_PROFILE_NAMES, isNginxProfileName, startNginxProfile, type NginxProfileName } from './tls-profiles.js';
import { isMain } from './util.js';

const PROTOCOL_IDS: Record<string, ProtocolName> = { SSLv2: 'SSLv2', SSLv3: 'SSLv3', TLS1: 'TLSv1.0', TLS1_1: 'TLSv1.1', TLS1_2: 'TLSv1.2', TLS1_3: 'TLSv1.3' };
const CIPHER_PROTOCOLS: Record<string, ProtocolName> = { ssl2: 'SSLv2', ssl3: 'SSLv3', tls1: 'TLSv1.0', tls1_1: 'TLSv1.1', tls1_2: 'TLSv1.2', tls1_3: 'TLSv1.3' };

export interface Enumeration {
  protocols: Set<ProtocolName>;
  suites: Map<ProtocolName, Set<number>>;
  seconds: number;
}

interface TestsslEntry { id: string; finding: string }

/** A missing tool: reported with exit code 2, not as a disagreement. */
class MissingToolError extends Error {}

/** testssl.sh's JSON: protocol ids with "offered"/"not offered", and `cipher-tls1_2_xc030` per suite. */
export function parseTestssl(entries: TestsslEntry[], seconds: number): Enumeration {
  const enumeration: Enumeration = { protocols: new Set(), suites: new Map(), seconds };
  for (const { id, finding } of entries) {
    const protocol = PROTOCOL_IDS[id];
    if (protocol !== undefined && /^offered/i.test(finding)) enumeration.protocols.add(protocol);
    const cipher = /^cipher-(ssl2|ssl3|tls1(?:_[123])?)_x([0-9a-f]+)$/i.exec(id);
    if (cipher === null) continue;
    const cipherProtocol = CIPHER_PROTOCOLS[(cipher[1] as string).toLowerCase()] as ProtocolName;
    const suites = enumeration.suites.get(cipherProtocol) ?? new Set<number>();
    suites.add(Number.parseInt(cipher[2] as string, 16));
    enumeration.suites.set(cipherProtocol, suites);
  }
  return enumeration;
}

function runTestssl(target: string): Enumeration {
  const folder = mkdtempSync(join(tmpdir(), 'compare-testssl-'));
  try {
    const jsonFile = join(folder, 'testssl.json');
    const started = Date.now();
    const run = spawnSync('testssl', ['--quiet', '--warnings', 'off', '--color', '0', '--jsonfile', jsonFile, '-p', '-E', target], { encoding: 'utf8', timeout: 600_000 });
    if (run.error !== undefined) throw new MissingToolError(`testssl.sh did not run: ${run.error.message} (apt-get install -y testssl.sh)`);
    return parseTestssl(JSON.parse(readFileSync(jsonFile, 'utf8')) as TestsslEntry[], (Date.now() - started) / 1000);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

async function runProber(host: string, port: number): Promise<Enumeration> {
  const started = Date.now();
  const result = await probeTls({ host, port, timeoutMs: 5000, deadline: Date.now() + 60_000, concurrency: 8 });
  const enumeration: Enumeration = { protocols: new Set(), suites: new Map(), seconds: (Date.now() - started) / 1000 };
  for (const protocol of result.protocols) {
    if (!protocol.accepted) continue;
    enumeration.protocols.add(protocol.protocol);
    enumeration.suites.set(protocol.protocol, new Set(protocol.suites));
  }
  return enumeration;
}

function suiteName(code: number): string {
  return IANA_CIPHER_SUITES.get(code) ?? `0x${code.toString(16).padStart(4, '0')}`;
}

/** Lines of the side-by-side table and the number of disagreements. */
export function compare(ours: Enumeration, theirs: Enumeration): { lines: string[]; disagreements: number } {
  const lines: string[] = [];
  let disagreements = 0;
  const protocols: ProtocolName[] = ['SSLv2', 'SSLv3', 'TLSv1.0', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'];
  for (const protocol of protocols) {
    const same = ours.protocols.has(protocol) === theirs.protocols.has(protocol);
    if (!same) disagreements += 1;
    lines.push(`${protocol.padEnd(8)} ours: ${ours.protocols.has(protocol) ? 'offered' : 'no'}`.padEnd(30) + `testssl: ${theirs.protocols.has(protocol) ? 'offered' : 'no'}${same ? '' : '   <- DIFFERS'}`);
    const codes = new Set([...(ours.suites.get(protocol) ?? []), ...(theirs.suites.get(protocol) ?? [])]);
    for (const code of [...codes].sort((a, b) => a - b)) {
      const inOurs = ours.suites.get(protocol)?.has(code) === true;
      const inTheirs = theirs.suites.get(protocol)?.has(code) === true;
      if (inOurs !== inTheirs) disagreements += 1;
      lines.push(`    ${inOurs ? 'x' : ' '} ${inTheirs ? 'x' : ' '}  ${suiteName(code)}${inOurs === inTheirs ? '' : '   <- DIFFERS'}`);
    }
  }
  return { lines, disagreements };
}

/** The outcome of one target, for the summary of a --profiles run. */
export interface TargetComparison {
  label: string;
  disagreements: number;
  oursSeconds: number;
  testsslSeconds: number;
}

/** Both tools on one target, the table printed; testssl.sh first so the prober is not timed against its load. */
async function compareTarget(label: string, host: string, port: number): Promise<TargetComparison> {
  const target = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  const theirs = runTestssl(target);
  const ours = await runProber(host, port);
  const { lines, disagreements } = compare(ours, theirs);
  console.log(`${label}: suites marked ours | testssl.sh`);
  for (const line of lines) console.log(line);
  console.log(`time: ours ${ours.seconds.toFixed(2)} s, testssl.sh ${theirs.seconds.toFixed(1)} s (${ratio(theirs.seconds, ours.seconds)})`);
  console.log(disagreements === 0 ? 'agree' : `${disagreements} disagreement(s)`);
  return { label, disagreements, oursSeconds: ours.seconds, testsslSeconds: theirs.seconds };
}

function ratio(testsslSeconds: number, oursSeconds: number): string {
  return `${(testsslSeconds / Math.max(oursSeconds, 0.001)).toFixed(0)}x`;
}

/** The markdown table docs/tls-prober.md quotes. */
export function summaryTable(comparisons: readonly TargetComparison[]): string[] {
  return [
    '| profile | agree | prober | testssl.sh | ratio |',
    '| --- | --- | --- | --- | --- |',
    ...comparisons.map((entry) => `| ${entry.label} | ${entry.disagreements === 0 ? 'yes' : `no (${entry.disagreements})`} | ${entry.oursSeconds.toFixed(2)} s | ${entry.testsslSeconds.toFixed(1)} s | ${ratio(entry.testsslSeconds, entry.oursSeconds)} |`),
  ];
}

async function compareProfiles(names: readonly NginxProfileName[]): Promise<number> {
  const comparisons: TargetComparison[] = [];
  for (const name of names) {
    const server = await startNginxProfile(name);
    try {
      console.log(`== nginx profile ${name}: ${server.profile.description}`);
      comparisons.push(await compareTarget(`nginx ${name}`, server.host, server.port));
    } finally {
      await server.stop();
    }
  }
  console.log('');
  for (const line of summaryTable(comparisons)) console.log(line);
  return comparisons.every((entry) => entry.disagreements === 0) ? 0 : 1;
}

const USAGE = 'compare:testssl: usage: npm run compare:testssl -- <host:port> | --profiles [' + NGINX_PROFILE_NAMES.join('|') + ' ...]';

async function main(argv: string[]): Promise<number> {
  try {
    if (argv[0] === '--profiles') {
      const names = argv.length > 1 ? argv.slice(1) : NGINX_PROFILE_NAMES;
      const unknown = names.filter((name) => !isNginxProfileName(name));
      if (unknown.length > 0) {
        console.error(`compare:testssl: unknown profile ${unknown.join(', ')}\n${USAGE}`);
        return 2;
      }
      return await compareProfiles(names.filter(isNginxProfileName));
    }
    const match = argv[0] === undefined ? null : /^([^:\s]+|\[[^\]]+\]):(\d+)$/.exec(argv[0]);
    if (match === null) {
      console.error(USAGE);
      return 2;
    }
    const { disagreements } = await compareTarget(argv[0] as string, (match[1] as string).replace(/^\[|\]$/g, ''), Number(match[2]));
    return disagreements === 0 ? 0 : 1;
  } catch (error) {
    // A missing testssl.sh, nginx or openssl is a setup error (2), not a disagreement (1).
    console.error(`compare:testssl: ${(error as Error).message}`);
    return error instanceof MissingToolError || /not found on PATH/.test((error as Error).message) ? 2 : 1;
  }
}

if (isMain(import.meta.url)) {
  main(process.argv.slice(2)).then((code) => { process.exitCode = code; });
}
