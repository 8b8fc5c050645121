import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * Warm lint workers, kept between the jobs of one process (the web checker runs many; the CLI
 * one). Starting a worker loads Spectral and the ruleset again (seconds); a kept one answers the
 * next job of the same kind at once. What a worker may carry from job to job is bounded:
 * - a worker is kept only for jobs of its key (the kind of job, its heap limit and its ruleset):
 *   `resourceLimits` are fixed when a worker starts, and concurrent jobs never share a ruleset
 *   through module state;
 * - a worker that ran out of memory or time, failed, or whose job may have left state behind
 *   (worker.ts, `reusable`) is terminated, never reused; so is one that has done MAX_JOBS jobs;
 * - at most `maxIdle` workers wait (the web checker keeps as many as it runs checks at once), the
 *   one idle longest ending first, each for IDLE_MS at most, unref'd: an idle worker never keeps
 *   a process alive.
 */

/** Jobs one worker does at most: what the modules it shares between jobs cache (ajv's patterns) stays bounded. */
const MAX_JOBS = 50;
/** An idle worker's heap (Spectral and the ruleset, ~100 MB) is given back after this long without a job. */
const IDLE_MS = 60_000;
const DEFAULT_MAX_IDLE = 2;

export interface PooledWorker {
  readonly worker: Worker;
  readonly key: string;
  /** Whether it has said `ready` (started and loaded its entry): a job's own time counts from then. */
  ready: boolean;
  jobs: number;
  idleTimer?: NodeJS.Timeout;
}

/**
 * Built: dist/lint-worker.js next to dist/adr-check.js. From source (tsx, jest): a bootstrap that
 * registers tsx in the worker (Node 20 does not pass the main thread's loader hooks on), then
 * imports the TypeScript entry.
 */
function startWorker(options: ConstructorParameters<typeof Worker>[1]): Worker {
  const built = new URL('./lint-worker.js', import.meta.url);
  if (existsSync(built)) return new Worker(built, options);
  const tsxApi = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
  const entry = new URL('./worker.ts', import.meta.url).href;
  const bootstrap = `(async () => { const { register } = await import(${JSON.stringify(tsxApi)}); register(); await import(${JSON.stringify(entry)}); })();`;
  return new Worker(bootstrap, { ...options, eval: true });
}

class LintWorkerPool {
  private readonly idle: PooledWorker[] = [];
  private maxIdle = DEFAULT_MAX_IDLE;
  private started = 0;

  /** A worker for a job of this key: an idle one, else a new one with this heap limit. It is ref'd while the job runs. */
  take(key: string, memoryMb: number): PooledWorker {
    const index = this.idle.findIndex((pooled) => pooled.key === key);
    const pooled = index >= 0 ? this.idle.splice(index, 1)[0] as PooledWorker : this.start(key, memoryMb);
    clearTimeout(pooled.idleTimer);
    pooled.jobs += 1;
    pooled.worker.ref();
    return pooled;
  }

  /** Back after a job: kept idle when the job said it may be, else terminated. */
  give(pooled: PooledWorker, reusable: boolean): void {
    if (!reusable || pooled.jobs >= MAX_JOBS || this.maxIdle === 0) {
      void pooled.worker.terminate();
      return;
    }
    // The worker idle longest makes room: the one just used is the likeliest to be asked for next.
    for (const oldest of this.idle.slice(0, Math.max(0, this.idle.length - this.maxIdle + 1))) void this.retire(oldest);
    pooled.worker.unref();
    pooled.idleTimer = setTimeout(() => this.retire(pooled), IDLE_MS).unref();
    this.idle.push(pooled);
  }

  /** At most this many idle workers from now on (the web checker: its checks at once); extra ones end. */
  keepIdle(max: number): void {
    this.maxIdle = Math.max(0, max);
    for (const pooled of this.idle.slice(0, Math.max(0, this.idle.length - this.maxIdle))) void this.retire(pooled);
  }

  /** Workers started by this process so far. */
  get starts(): number {
    return this.started;
  }

  /** Ends every idle worker (a server that stops; tests). */
  async close(): Promise<void> {
    await Promise.all([...this.idle].map(async (pooled) => this.retire(pooled)));
  }

  private start(key: string, memoryMb: number): PooledWorker {
    const worker = startWorker({ stdin: false, resourceLimits: { maxOldGenerationSizeMb: memoryMb, stackSizeMb: 8 } });
    this.started += 1;
    const pooled: PooledWorker = { worker, key, ready: false, jobs: 0 };
    // Between jobs no job listens: an idle worker that fails or stops is only dropped.
    worker.on('error', () => undefined);
    worker.on('exit', () => this.drop(pooled));
    return pooled;
  }

  private retire(pooled: PooledWorker): Promise<number> {
    this.drop(pooled);
    return pooled.worker.terminate();
  }

  private drop(pooled: PooledWorker): void {
    clearTimeout(pooled.idleTimer);
    const index = this.idle.indexOf(pooled);
    if (index >= 0) this.idle.splice(index, 1);
  }
}

/** The process's lint workers. */
export const lintWorkers = new LintWorkerPool();
