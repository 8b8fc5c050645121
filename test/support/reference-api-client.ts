import type { IncomingHttpHeaders } from 'node:http';
import { Agent, request } from 'node:https';

/** HTTPS requests to a reference API on loopback, trusting its CA, over one keep-alive agent per CA. */

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  /** Name, value, name, value ...: repeated fields stay apart. */
  rawHeaders: string[];
  bytes: Buffer;
  body: string;
}

export interface Call {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

const agents = new Map<string, Agent>();

function agentFor(caPem: string): Agent {
  let agent = agents.get(caPem);
  if (agent === undefined) {
    agent = new Agent({ keepAlive: true, ca: caPem, maxSockets: 8 });
    agents.set(caPem, agent);
  }
  return agent;
}

/** Closes the kept-alive connections, so a server can stop. */
export function closeAgents(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}

export function send(caPem: string, url: string, { method = 'GET', headers = {}, body }: Call = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method, headers, agent: agentFor(caPem) }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const bytes = Buffer.concat(chunks);
        resolve({ status: response.statusCode ?? 0, headers: response.headers, rawHeaders: response.rawHeaders, bytes, body: bytes.toString('utf8') });
      });
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

export const json = (answer: Answer): Record<string, unknown> => JSON.parse(answer.body) as Record<string, unknown>;

export const postJson = (body: unknown, headers: Record<string, string> = {}): Call => ({ method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
