import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateCertificate } from './tls-profiles.js';

/**
 * The TLS enumeration of /core/transport/tls against a plain `https.createServer` with Node's
 * defaults (which stops answering after 3 client-initiated renegotiations), median of --runs.
 * `--checkout DIR` runs another work tree's prober (a `git worktree` of an older commit) in the
 * same command, for a before/after ratio.
 *
 *   npm run --silent bench:tls-node -- [--runs 5] [--checkout DIR]
 */

type Probe = (options: { host: string; port: number; timeoutMs: number; deadline: number; concurrency: number }) => Promise<{ durationMs: number; renegotiation?: { accepted: number; refusal?: string } }>;

async function medianMs(probe: Probe, port: number, runs: number): Promise<{ median: number; renegotiation: string }> {
  const times: number[] = [];
  let renegotiation = '';
  for (let run = 0; run < runs; run += 1) {
    const started = Date.now();
    const result = await probe({ host: '127.0.0.1', port, timeoutMs: 5000, deadline: Date.now() + 20000, concurrency: 8 });
    times.push(Date.now() - started);
    renegotiation = `${result.renegotiation?.accepted ?? '?'} accepted, then ${result.renegotiation?.refusal ?? 'none refused'}`;
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)] ?? 0, renegotiation };
}

async function main(argv: string[]): Promise<void> {
  const option = (name: string) => { const at = argv.indexOf(name); return at >= 0 ? argv[at + 1] : undefined; };
  const runs = Number(option('--runs') ?? 5);
  const checkout = option('--checkout');
  const folder = mkdtempSync(join(tmpdir(), 'bench-tls-node-'));
  const { certificate, key } = generateCertificate(folder, 'leaf', ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256']);
  const server = createServer({ cert: readFileSync(certificate), key: readFileSync(key) }, (_request, response) => response.end('ok'));
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  try {
    const trees = [...(checkout === undefined ? [] : [['before', resolve(checkout)]]), ['this tree', resolve('.')]];
    const medians: number[] = [];
    for (const [label, tree] of trees) {
      const module = (await import(pathToFileURL(join(tree as string, 'live/tls/prober.ts')).href)) as { probeTls: Probe };
      const { median, renegotiation } = await medianMs(module.probeTls, port, runs);
      medians.push(median);
      console.log(`${label}: median ${median} ms over ${runs} runs (renegotiation: ${renegotiation})`);
    }
    if (medians.length === 2) console.log(`ratio before / this tree: ${((medians[0] ?? 0) / (medians[1] ?? 1)).toFixed(1)}x`);
  } finally {
    server.closeAllConnections();
    server.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`bench-tls-node: ${(error as Error).message}`);
  process.exitCode = 2;
});
