import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReferenceApi, type ReferenceApi } from '../../examples/reference-api/server.js';
import { serveOptions, type ServeOptions } from '../../web/options.js';
import { startWebChecker, type WebChecker } from '../../web/server.js';

/**
 * The web checker as a test starts it: on loopback, its database in a fresh folder, and an
 * allowlist that lets it reach the reference API (127.0.0.1) and nothing else private.
 */
export interface WebLab {
  checker: WebChecker;
  api: ReferenceApi;
  dataDir: string;
  stop(): Promise<void>;
}

export async function startWebLab(overrides: Partial<ServeOptions> = {}): Promise<WebLab> {
  const api = await startReferenceApi({});
  const dataDir = mkdtempSync(join(tmpdir(), 'adr-check-web-'));
  const checker = await startWebChecker(serveOptions({ port: 0, dataDir, allow: ['127.0.0.1/32'], ca: api.caPem, deadlineMs: 30_000, lintMemoryMb: 256, ...overrides }));
  return {
    checker,
    api,
    dataDir,
    async stop() {
      await checker.close();
      await api.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A server on loopback that takes connections and never answers: checks of it run until their timeouts. */
export async function startSilentServer(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => { sockets.add(socket); socket.on('error', () => undefined); });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}

/** Polls the JSON API until the check is done or failed. */
export async function waitForCheck(origin: string, id: string, timeoutMs = 60_000): Promise<Record<string, unknown>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const state = await (await fetch(`${origin}/api/v1/checks/${id}`)).json() as Record<string, unknown>;
    if (state.state === 'done' || state.state === 'failed') return state;
    if (Date.now() > until) throw new Error(`check ${id} still ${String(state.state)} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
