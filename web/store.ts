import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

export type CheckState = 'queued' | 'running' | 'done' | 'failed';

/** What a history needs of a report without reading it: each rule's verdict, and the rules that fail. */
export interface CheckSummary {
  /** Rule code → the worst of its live verdict and static severity, as pass, warn, fail, skip or error. */
  rules: Record<string, string>;
  failing: string[];
  /** Why the report is incomplete (the lint did not finish, a check could not judge), as adr-check's exit code 2; absent when complete. */
  incomplete?: string;
}

/** One check as kept: never a credential; the report redacted before it is kept. */
export interface CheckRecord {
  id: string;
  kind: 'live' | 'static';
  /** The base URL, or the name of an uploaded description. */
  target: string;
  state: CheckState;
  createdAt: string;
  finishedAt?: string;
  /** The report as JSON, redacted (render 'json'). */
  report?: string;
  /** Why no report: the target could not be checked at all. */
  error?: string;
  summary?: CheckSummary;
  /** An uploaded or pasted description, until the retention period ends. */
  description?: string;
  batchId?: string;
  /**
   * Made with a token: the report holds what the token opened (excerpts of protected responses),
   * so it is reached only through its permalink, never linked from the base URL's history.
   */
  withToken?: boolean;
}

export interface BatchRecord { id: string; createdAt: string; checkIds: string[] }

/** The web checker's storage: one small interface, so that a shared server database can take its place later. */
export interface Store {
  insert(record: CheckRecord): void;
  update(id: string, patch: Partial<Omit<CheckRecord, 'id'>>): void;
  get(id: string): CheckRecord | undefined;
  /** A base URL's checks, newest first, without their reports and descriptions. */
  history(target: string, limit: number): CheckRecord[];
  insertBatch(batch: BatchRecord): void;
  getBatch(id: string): BatchRecord | undefined;
  /** Forgets uploaded descriptions kept since before `before`; returns how many. */
  purgeDescriptions(before: Date): number;
  /** Checks left queued or running by a server that stopped: failed, with the reason. */
  failUnfinished(reason: string): number;
  close(): void;
}

/** The part of node:sqlite's DatabaseSync and better-sqlite3's Database the store uses: they agree on it. */
interface Statement {
  run(...parameters: unknown[]): { changes: number | bigint };
  get(...parameters: unknown[]): unknown;
  all(...parameters: unknown[]): unknown[];
}
interface Database {
  exec(sql: string): void;
  prepare(sql: string): Statement;
  close(): void;
}

/**
 * SQLite through node:sqlite where Node has it unflagged (22.13 and later: nothing to install or
 * build), else better-sqlite3 (Node 20; an optional dependency with prebuilt binaries).
 * process.getBuiltinModule reaches node:sqlite without going through a module loader that may not know it.
 */
function openDatabase(file: string): Database {
  const sqlite = process.getBuiltinModule?.('node:sqlite') as { DatabaseSync: new (path: string) => Database } | undefined;
  if (sqlite !== undefined) return new sqlite.DatabaseSync(file);
  let BetterSqlite: new (path: string) => Database;
  try {
    BetterSqlite = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite;
  } catch (error) {
    throw new Error(`no SQLite binding: this Node (${process.version}) has no node:sqlite and better-sqlite3 does not load (${(error as Error).message.split('\n')[0]}). Use Node 22.13 or later, or npm install better-sqlite3`);
  }
  return new BetterSqlite(file);
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS checks (
  id TEXT PRIMARY KEY, kind TEXT NOT NULL, target TEXT NOT NULL, state TEXT NOT NULL,
  created_at TEXT NOT NULL, finished_at TEXT, report TEXT, error TEXT, summary TEXT, description TEXT, batch_id TEXT, with_token INTEGER
);
CREATE INDEX IF NOT EXISTS checks_target ON checks (target, created_at);
CREATE TABLE IF NOT EXISTS batches (id TEXT PRIMARY KEY, created_at TEXT NOT NULL, check_ids TEXT NOT NULL);
`;

const COLUMNS: Record<keyof Omit<CheckRecord, 'id'>, string> = {
  kind: 'kind', target: 'target', state: 'state', createdAt: 'created_at', finishedAt: 'finished_at', report: 'report', error: 'error', summary: 'summary', description: 'description', batchId: 'batch_id', withToken: 'with_token',
};

interface Row { id: string; kind: string; target: string; state: string; created_at: string; finished_at: string | null; report: string | null; error: string | null; summary: string | null; description: string | null; batch_id: string | null; with_token?: number | null }

function fromRow(row: Row): CheckRecord {
  return {
    id: row.id,
    kind: row.kind === 'static' ? 'static' : 'live',
    target: row.target,
    state: row.state as CheckState,
    createdAt: row.created_at,
    ...(row.finished_at === null ? {} : { finishedAt: row.finished_at }),
    ...(row.report === null ? {} : { report: row.report }),
    ...(row.error === null ? {} : { error: row.error }),
    ...(row.summary === null ? {} : { summary: JSON.parse(row.summary) as CheckSummary }),
    ...(row.description === null ? {} : { description: row.description }),
    ...(row.batch_id === null ? {} : { batchId: row.batch_id }),
    ...(row.with_token === 1 ? { withToken: true } : {}),
  };
}

function column(key: keyof Omit<CheckRecord, 'id'>, value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return key === 'summary' ? JSON.stringify(value) : value;
}

export class SqliteStore implements Store {
  private readonly db: Database;

  /** `dataDir` ':memory:' keeps nothing on disk. */
  constructor(dataDir: string) {
    // Uploaded descriptions and reports are for their permalink's holders only: not for other users of the machine.
    if (dataDir !== ':memory:') mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    this.db = openDatabase(dataDir === ':memory:' ? ':memory:' : join(dataDir, 'adr-check-web.sqlite'));
    this.db.exec('PRAGMA journal_mode = WAL;');
    this.db.exec(SCHEMA);
    // A database made before with_token existed gets it; its checks count as made without a token.
    const columns = this.db.prepare('PRAGMA table_info(checks)').all() as { name: string }[];
    if (!columns.some((found) => found.name === 'with_token')) this.db.exec('ALTER TABLE checks ADD COLUMN with_token INTEGER');
  }

  insert(record: CheckRecord): void {
    const keys = Object.keys(COLUMNS) as (keyof typeof COLUMNS)[];
    this.db.prepare(`INSERT INTO checks (id, ${keys.map((key) => COLUMNS[key]).join(', ')}) VALUES (?${', ?'.repeat(keys.length)})`).run(record.id, ...keys.map((key) => column(key, record[key])));
  }

  update(id: string, patch: Partial<Omit<CheckRecord, 'id'>>): void {
    const keys = (Object.keys(patch) as (keyof typeof COLUMNS)[]).filter((key) => key in COLUMNS);
    if (keys.length === 0) return;
    this.db.prepare(`UPDATE checks SET ${keys.map((key) => `${COLUMNS[key]} = ?`).join(', ')} WHERE id = ?`).run(...keys.map((key) => column(key, patch[key])), id);
  }

  get(id: string): CheckRecord | undefined {
    const row = this.db.prepare('SELECT * FROM checks WHERE id = ?').get(id) as Row | undefined;
    return row === undefined ? undefined : fromRow(row);
  }

  history(target: string, limit: number): CheckRecord[] {
    const rows = this.db.prepare('SELECT id, kind, target, state, created_at, finished_at, NULL AS report, error, summary, NULL AS description, batch_id, with_token FROM checks WHERE target = ? AND kind = \'live\' ORDER BY created_at DESC, rowid DESC LIMIT ?').all(target, limit) as Row[];
    return rows.map(fromRow);
  }

  insertBatch(batch: BatchRecord): void {
    this.db.prepare('INSERT INTO batches (id, created_at, check_ids) VALUES (?, ?, ?)').run(batch.id, batch.createdAt, JSON.stringify(batch.checkIds));
  }

  getBatch(id: string): BatchRecord | undefined {
    const row = this.db.prepare('SELECT * FROM batches WHERE id = ?').get(id) as { id: string; created_at: string; check_ids: string } | undefined;
    return row === undefined ? undefined : { id: row.id, createdAt: row.created_at, checkIds: JSON.parse(row.check_ids) as string[] };
  }

  purgeDescriptions(before: Date): number {
    return Number(this.db.prepare('UPDATE checks SET description = NULL WHERE description IS NOT NULL AND created_at < ?').run(before.toISOString()).changes);
  }

  failUnfinished(reason: string): number {
    return Number(this.db.prepare('UPDATE checks SET state = \'failed\', error = ?, finished_at = ? WHERE state IN (\'queued\', \'running\')').run(reason, new Date().toISOString()).changes);
  }

  close(): void {
    this.db.close();
  }
}
