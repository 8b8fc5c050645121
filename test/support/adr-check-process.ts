import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * adr-check as a user runs it against servers that attack it: a child process under GNU time (for
 * its peak memory), with a secret in its environment and stdin an open pipe that never sends
 * (reading it would block). Shared by the hostile-server test files.
 */

export const DEADLINE_SECONDS = 6;

/** tsx itself needs a second or two to start; the checking must stay within the deadline. */
export const STARTUP_ALLOWANCE = 8;

/** The environment secret a `$ref` to /proc/self/environ would expose. */
export const ENVIRONMENT_SECRET = 'hunter2-environment-secret';

export interface Outcome { code: number; stdout: string; stderr: string; seconds: number; peakMb: number }

export interface AdrCheckOptions {
  /** --deadline in seconds (default DEADLINE_SECONDS). */
  deadline?: number;
  /** Killed (whole process group) after this many ms; default 30 s. */
  killAfterMs?: number;
  env?: NodeJS.ProcessEnv;
}

export async function adrCheck(url: string, extra: string[] = [], options: AdrCheckOptions = {}): Promise<Outcome> {
  const started = Date.now();
  const folder = mkdtempSync(join(tmpdir(), 'adr-check-hostile-'));
  const timeFile = join(folder, 'time');
  const deadline = options.deadline ?? DEADLINE_SECONDS;
  const args = ['-o', timeFile, '-f', '%M', process.execPath, '--import', 'tsx', 'live/cli.ts', url, '--timeout', '1500', '--deadline', String(deadline), '--max-body', '100000', ...extra];
  const killAfter = options.killAfterMs ?? 30000;
  const env = { FAKE_DB_PASSWORD: ENVIRONMENT_SECRET, ...process.env, ...options.env };
  const result = await new Promise<Omit<Outcome, 'seconds' | 'peakMb'>>((done) => {
    // Its own process group, killed whole at the time limit: killing GNU time alone would leave adr-check running.
    const child = spawn('/usr/bin/time', args, { cwd: process.cwd(), env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString('utf8'); });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString('utf8'); });
    const timer = setTimeout(() => process.kill(-(child.pid ?? 0), 'SIGKILL'), killAfter);
    child.on('close', (code) => { clearTimeout(timer); done({ code: code ?? -1, stdout, stderr }); });
  });
  let peakMb = Number.NaN;
  try {
    peakMb = Number(readFileSync(timeFile, 'utf8').trim().split('\n').pop()) / 1024;
  } catch {
    // Killed before GNU time wrote it: the peak stays unknown (NaN fails every bound).
  }
  rmSync(folder, { recursive: true, force: true });
  return { ...result, seconds: (Date.now() - started) / 1000, peakMb };
}

/** Within the deadline (plus tsx's start), and no stack trace printed. */
export function expectBounded(outcome: Outcome, deadlineSeconds = DEADLINE_SECONDS): void {
  expect(outcome.seconds).toBeLessThan(deadlineSeconds + STARTUP_ALLOWANCE);
  expect(`${outcome.stdout}${outcome.stderr}`).not.toMatch(/\n\s+at .+:\d+:\d+/);
}

export interface JsonReport {
  results: Array<{ code: string; verdict: string; summary: string; details: string[]; evidence: Array<{ method: string; url: string; status?: number; bodyExcerpt?: string; note?: string }> }>;
  staticFindings: Array<{ code: string; severity: string; path: string; message: string; source?: string }>;
  lint: { status: string };
  notices: string[];
}

export function jsonReport(outcome: Outcome): JsonReport {
  return JSON.parse(outcome.stdout) as JsonReport;
}

export interface OffTarget {
  /** `http://127.0.0.1:<another port>`: the same host, another port. */
  otherPort: string;
  /** `http://127.0.0.2:<the target's port>`: another address, the target's port. */
  otherAddress: string;
  /** Every request either listener got, `METHOD origin/path`, with whether it carried credentials. */
  requests: Array<{ line: string; authorization?: string }>;
  close(): Promise<void>;
}

/**
 * Two listeners that count what adr-check sends where it must not: another port of the target's
 * host and another loopback address on the target's port. Each answers whatever it is asked with a
 * tempting 200 (JSON that looks like metadata), so a checker that follows is caught, not stopped.
 */
export async function startOffTarget(targetPort: number): Promise<OffTarget> {
  const requests: OffTarget['requests'] = [];
  const listeners: http.Server[] = [];
  const listen = async (host: string, port: number): Promise<string> => {
    const server = http.createServer((request, response) => {
      requests.push({ line: `${request.method ?? ''} http://${host}:${(server.address() as AddressInfo).port}${request.url ?? ''}`, ...(request.headers.authorization === undefined ? {} : { authorization: request.headers.authorization }) });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ issuer: `http://${host}`, openapi: '3.0.3', secret: 'off-target-answer' }));
    });
    listeners.push(server);
    server.listen(port, host);
    await once(server, 'listening');
    return `http://${host}:${(server.address() as AddressInfo).port}`;
  };
  const otherPort = await listen('127.0.0.1', 0);
  const otherAddress = await listen('127.0.0.2', targetPort);
  return {
    otherPort,
    otherAddress,
    requests,
    close: () => Promise.all(listeners.map((server) => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }))).then(() => undefined),
  };
}
