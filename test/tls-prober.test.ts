import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { probeTls } from '../live/tls/prober.js';

/** The prober bounded against servers that stall, reset, send garbage or are not there. */
async function listen(onConnection: (socket: net.Socket) => void): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    onConnection(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

const outcomes = async (port: number, timeoutMs = 300, deadlineMs = 5000) => {
  const started = Date.now();
  const result = await probeTls({ host: '127.0.0.1', port, timeoutMs, deadline: Date.now() + deadlineMs, concurrency: 4 });
  return { elapsed: Date.now() - started, result, outcomes: Object.fromEntries(result.protocols.map((protocol) => [protocol.protocol, protocol.outcome])) };
};

test('a server that accepts and never answers: every probe times out, bounded by the timeout', async () => {
  const server = await listen(() => undefined);
  try {
    const { elapsed, result, outcomes: byProtocol } = await outcomes(server.port);
    expect(Object.values(byProtocol)).toEqual(Array(6).fill('no answer within the timeout'));
    expect(result.protocols.every((protocol) => !protocol.accepted)).toBe(true);
    expect(result.notes).toContain('TLSv1.3: no answer within the timeout');
    // Six probes, four at a time, 300 ms each, plus the Node TLS attempt for the chain.
    expect(elapsed).toBeLessThan(2000);
  } finally {
    await server.close();
  }
});

test('a server that resets the connection', async () => {
  const server = await listen((socket) => socket.once('data', () => socket.resetAndDestroy()));
  try {
    const { outcomes: byProtocol } = await outcomes(server.port);
    expect(Object.values(byProtocol)).toEqual(Array(6).fill('connection reset'));
  } finally {
    await server.close();
  }
});

test('a server that answers with HTTP, or closes at once', async () => {
  const http = await listen((socket) => socket.once('data', () => socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n')));
  const closing = await listen((socket) => socket.end());
  try {
    const fromHttp = await outcomes(http.port);
    expect(fromHttp.outcomes['TLSv1.2']).toMatch(/^unparseable answer \(not a TLS record: 485454502f312e31/);
    expect(fromHttp.outcomes.SSLv2).toMatch(/^unparseable answer/);
    const fromClosing = await outcomes(closing.port);
    expect(Object.values(fromClosing.outcomes)).toEqual(Array(6).fill('connection closed without an answer'));
  } finally {
    await http.close();
    await closing.close();
  }
});

test('a server that trickles a valid record header and stalls: the timeout still ends it', async () => {
  const server = await listen((socket) => socket.once('data', () => socket.write(Buffer.from([22, 3, 3, 0x40, 0x00, 2]))));
  try {
    const { elapsed, outcomes: byProtocol } = await outcomes(server.port);
    expect(byProtocol['TLSv1.2']).toBe('no answer within the timeout');
    expect(elapsed).toBeLessThan(2000);
  } finally {
    await server.close();
  }
});

test('nothing listening, and an overall deadline shorter than the timeout', async () => {
  const server = await listen(() => undefined);
  const port = server.port;
  await server.close();
  const refused = await outcomes(port);
  expect(refused.outcomes['TLSv1.3']).toMatch(/^ECONNREFUSED/);
  const stalled = await listen(() => undefined);
  try {
    const { elapsed, outcomes: byProtocol } = await outcomes(stalled.port, 5000, 200);
    expect(Object.values(byProtocol).every((outcome) => outcome === 'not probed: overall deadline passed')).toBe(true);
    expect(elapsed).toBeLessThan(1000);
  } finally {
    await stalled.close();
  }
});
