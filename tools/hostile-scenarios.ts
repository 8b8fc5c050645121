import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  catastrophicPattern, deepDescription, description, manyEndlessPaths, manyPathsDescription, pathTemplateBomb, servingDescription, startHostile, type HostileServer,
} from '../test/support/hostile-servers.js';

/**
 * The hostile scenarios of issue 16, each run through adr-check as a user would run it (a child
 * process), with wall time, peak memory (GNU time's maximum resident set) and exit code.
 * `--checkout DIR` runs the adr-check of another work tree (a `git worktree` of an older commit)
 * for a before/after table. A scenario is killed after --kill seconds (default 60).
 *
 *   npm run --silent hostile -- [--checkout DIR] [--kill 60] [name ...]
 */

const SECRET_ENV = 'hunter2-environment-secret';
const SECRET_TOKEN = 'SECRET123"\\x';

interface Scenario {
  name: string;
  server: () => Promise<HostileServer>;
  args?: string[];
  /** Text that must not appear in the output (a leak). */
  leak?: string;
}

const refTo = (target: string) => () => startHostile(servingDescription(JSON.stringify(description({ servers: [{ url: { $ref: target } }] }))));

const SCENARIOS: Scenario[] = [
  { name: '1 $ref to ../../../../proc/self/environ', server: refTo('../../../../proc/self/environ'), leak: SECRET_ENV },
  { name: '1 $ref to file:///proc/self/environ', server: refTo('file:///proc/self/environ'), leak: SECRET_ENV },
  { name: '1 $ref to ../../../../dev/zero', server: refTo('../../../../dev/zero') },
  { name: '1 $ref to ../../../../dev/stdin', server: refTo('../../../../dev/stdin') },
  { name: '2 path template, 20 variables', server: () => startHostile(pathTemplateBomb(20)) },
  { name: '2 path template, 50 variables', server: () => startHostile(pathTemplateBomb(50)) },
  { name: '3 description nested 2,000 levels', server: () => startHostile(servingDescription(deepDescription(2000))) },
  { name: '4 catastrophic pattern (680 bytes)', server: () => startHostile(servingDescription(catastrophicPattern())) },
  { name: '4 46 MB description (200,000 paths)', server: () => startHostile(servingDescription(manyPathsDescription(200_000))), args: ['--max-body', '60000000'] },
  {
    name: '5 server echoes the token',
    server: () => startHostile(servingDescription(JSON.stringify(description()), (request, response) => {
      const token = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
      response.writeHead(302, { location: `https://127.0.0.1/login?token=${encodeURIComponent(token)}`, 'content-type': 'text/plain' });
      response.end(`invalid token ${token}`);
    })),
    args: ['--header', `Authorization: Bearer ${SECRET_TOKEN}`],
    leak: 'SECRET123',
  },
  {
    name: '6 terminal escapes in bodies and headers',
    server: () => startHostile(servingDescription(JSON.stringify(description({ servers: [{ url: '\u001b]0;pwned\u0007\u001b[2J' }] })), (_request, response) => {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('\u001b[2J\u001b[HPASS  /core/everything  all good\u001b]52;c;cm0gLXJmIH4=\u0007');
    })),
    leak: '\u001b',
  },
  { name: '7 25 paths with endless bodies', server: () => startHostile(manyEndlessPaths(25)) },
  { name: '7 25 paths with endless bodies, --unsafe', server: () => startHostile(manyEndlessPaths(25)), args: ['--unsafe'] },
];

interface Outcome { seconds: number; peakMb: number; exit: string; leaked: boolean }

function runAdrCheck(checkout: string, url: string, args: string[], killSeconds: number): Promise<{ exit: string; output: string; seconds: number; peakMb: number }> {
  const timeFile = join(tmpdir(), `hostile-time-${process.pid}-${Date.now()}`);
  const started = Date.now();
  const child = spawn('/usr/bin/time', ['-o', timeFile, '-f', '%M', process.execPath, '--import', 'tsx', join(checkout, 'live/cli.ts'), url, '--deadline', '20', ...args], {
    cwd: checkout,
    env: { FAKE_DB_PASSWORD: SECRET_ENV, ...process.env },
    // stdin stays an open pipe that never sends: a checker that reads it blocks.
    stdio: ['pipe', 'pipe', 'pipe'],
    // Its own process group: killing GNU time alone would leave the checker running.
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => { if (output.length < 5_000_000) output += chunk.toString('utf8'); });
  child.stderr.on('data', (chunk: Buffer) => { if (output.length < 5_000_000) output += chunk.toString('utf8'); });
  let killed = false;
  const timer = setTimeout(() => { killed = true; process.kill(-(child.pid ?? 0), 'SIGKILL'); }, killSeconds * 1000);
  return new Promise((done) => {
    child.on('exit', (code) => {
      clearTimeout(timer);
      const seconds = (Date.now() - started) / 1000;
      let peakMb = Number.NaN;
      try {
        const kilobytes = Number(readFileSync(timeFile, 'utf8').trim().split('\n').pop());
        if (kilobytes > 0) peakMb = kilobytes / 1024;
      } catch { /* killed before time wrote it */ }
      rmSync(timeFile, { force: true });
      const crashed = /\n\s+at .+:\d+:\d+/.test(output) ? ' (stack trace)' : '';
      done({ exit: killed ? `killed at ${killSeconds} s` : `${code ?? 'signal'}${crashed}`, output, seconds, peakMb });
    });
  });
}

async function runScenario(scenario: Scenario, checkout: string, killSeconds: number): Promise<Outcome> {
  const server = await scenario.server();
  try {
    const { exit, output, seconds, peakMb } = await runAdrCheck(checkout, server.baseUrl, scenario.args ?? [], killSeconds);
    return { seconds, peakMb, exit, leaked: scenario.leak !== undefined && output.includes(scenario.leak) };
  } finally {
    await server.close();
  }
}

async function main(argv: string[]): Promise<void> {
  const checkoutAt = argv.indexOf('--checkout');
  const checkout = resolve(checkoutAt >= 0 ? argv[checkoutAt + 1] ?? '.' : '.');
  const killAt = argv.indexOf('--kill');
  const killSeconds = killAt >= 0 ? Number(argv[killAt + 1]) : 60;
  const flagValues = new Set([checkoutAt + 1, killAt + 1]);
  const names = argv.filter((arg, index) => !arg.startsWith('--') && !flagValues.has(index));
  const chosen = SCENARIOS.filter((scenario) => names.length === 0 || names.some((name) => scenario.name.includes(name)));
  console.log(`checkout: ${checkout}`);
  console.log('| scenario | time | peak memory | exit | leaked |');
  console.log('|---|---|---|---|---|');
  for (const scenario of chosen) {
    const outcome = await runScenario(scenario, checkout, killSeconds);
    const leak = scenario.leak === undefined ? '' : outcome.leaked ? 'LEAKED' : 'no';
    console.log(`| ${scenario.name} | ${outcome.seconds.toFixed(1)} s | ${Number.isNaN(outcome.peakMb) ? '?' : `${Math.round(outcome.peakMb)} MB`} | ${outcome.exit} | ${leak} |`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`hostile-scenarios: ${(error as Error).message}`);
  process.exitCode = 2;
});
