import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findNginx, freeLoopbackPort, nginxPreamble, NGINX_MISSING_MESSAGE } from '../../tools/tls-profiles.js';

/**
 * Debian's nginx on loopback with its default behaviour in front of an upstream (a reverse proxy,
 * plain HTTP): its own error pages (405 for TRACE, 502 when the upstream is gone) are what a proxy
 * in front of a real API sends.
 */
export interface NginxProxy {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  port: number;
  close(): Promise<void>;
}

export async function startNginxProxy(upstreamPort: number): Promise<NginxProxy> {
  const nginx = findNginx();
  if (nginx === undefined) throw new Error(NGINX_MISSING_MESSAGE);
  const prefix = mkdtempSync(join(tmpdir(), 'adr-nginx-proxy-'));
  const port = await freeLoopbackPort();
  const inPrefix = (name: string) => join(prefix, name);
  writeFileSync(inPrefix('nginx.conf'), [
    ...nginxPreamble(prefix),
    '  server {',
    `    listen 127.0.0.1:${port};`,
    `    location / { proxy_pass http://127.0.0.1:${upstreamPort}; }`,
    '  }',
    '}',
    '',
  ].join('\n'));
  const child: ChildProcess = spawn(nginx, ['-p', prefix, '-c', inPrefix('nginx.conf')], { stdio: 'ignore' });
  await waitForPort(port);
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    close: async () => {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}

async function waitForPort(port: number): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => { socket.destroy(); resolve(true); });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nginx did not listen on 127.0.0.1:${port}`);
}
