import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeLoopbackPort } from '../../../tools/tls-profiles.js';
import { LAB_FIXTURES } from './fixtures.js';
import { startLabNginx, stopChild, waitForListener } from './nginx.js';
import { issueLabPki } from './tls.js';

/**
 * A FastAPI app at the framework's defaults (test/fixtures/lab/fastapi_app.py), run by Debian's
 * uvicorn (python3-fastapi, python3-uvicorn) as its documentation shows, `python3 -m uvicorn
 * fastapi_app:app`: directly on plain HTTP, or behind Debian's nginx with TLS and a default
 * reverse proxy (`location / { proxy_pass ...; }`).
 */
export type FastApiMode = 'direct' | 'nginx';

export interface LabFastApi {
  /** `http://127.0.0.1:PORT/v1` (direct) or `https://127.0.0.1:PORT/v1` (behind nginx). */
  baseUrl: string;
  /** Behind nginx: the CA to give adr-check and the plain-HTTP port that redirects. */
  caCertificate?: string;
  plainPort?: number;
  /** What uvicorn logged: its access log, one line a request, and any error. */
  log(): string;
  close(): Promise<void>;
}

/** Debian's interpreter, where python3-fastapi is installed (a python3 earlier on PATH, pyenv's say, lacks it). */
export const DEBIAN_PYTHON = '/usr/bin/python3';

export async function startFastApi(mode: FastApiMode): Promise<LabFastApi> {
  const port = await freeLoopbackPort();
  const uvicorn = spawn(DEBIAN_PYTHON, ['-m', 'uvicorn', '--app-dir', LAB_FIXTURES, '--host', '127.0.0.1', '--port', String(port), 'fastapi_app:app'], {
    // No .pyc files written into the fixtures directory.
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', PYTHONDONTWRITEBYTECODE: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => { output = `${output}${chunk.toString('utf8')}`.slice(-50_000); };
  uvicorn.stdout?.on('data', keep);
  uvicorn.stderr?.on('data', keep);
  const stopApp = () => stopChild(uvicorn);
  try {
    await waitForListener(uvicorn, port, () => `uvicorn did not start the FastAPI app (tools/system-packages.sh installs python3-fastapi and python3-uvicorn): ${output}`);
  } catch (error) {
    await stopApp();
    throw error;
  }
  if (mode === 'direct') return { baseUrl: `http://127.0.0.1:${port}/v1`, log: () => output, close: stopApp };
  const prefix = mkdtempSync(join(tmpdir(), 'adr-lab-fastapi-'));
  try {
    const pki = issueLabPki(prefix);
    const nginx = await startLabNginx(prefix, pki, [`location / { proxy_pass http://127.0.0.1:${port}; }`]);
    return {
      baseUrl: `${nginx.origin}/v1`,
      caCertificate: pki.caCertificate,
      plainPort: nginx.plainPort,
      log: () => output,
      close: async () => {
        await nginx.close();
        await stopApp();
        rmSync(prefix, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await stopApp();
    rmSync(prefix, { recursive: true, force: true });
    throw error;
  }
}
