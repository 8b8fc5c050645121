import dgram from 'node:dgram';
import { once } from 'node:events';

/**
 * A DNS server on loopback (UDP) for rebinding tests: each name has a list of IPv4 answers, given
 * in turn to successive A queries (the last one repeated), with a TTL of 0 so that no cache may
 * keep them. AAAA and other queries get an empty NOERROR answer. It records every question.
 * Hand-written because the test needs an answer that changes per query, which no resolver
 * configuration gives, and the wire format for one A record is small (RFC 1035 section 4).
 */
export interface DnsServer {
  /** `127.0.0.1:PORT`, as --dns-server takes it. */
  address: string;
  /** Every question received: `A api.example.test`. */
  questions: string[];
  close(): Promise<void>;
}

export async function startDnsServer(answers: Record<string, string[]>): Promise<DnsServer> {
  const questions: string[] = [];
  const asked = new Map<string, number>();
  const socket = dgram.createSocket('udp4');
  socket.on('message', (message, peer) => {
    const question = parseQuestion(message);
    if (question === undefined) return;
    const type = question.type === 1 ? 'A' : question.type === 28 ? 'AAAA' : `TYPE${question.type}`;
    questions.push(`${type} ${question.name}`);
    const list = answers[question.name.toLowerCase()] ?? [];
    let address: string | undefined;
    if (question.type === 1 && list.length > 0) {
      const index = asked.get(question.name) ?? 0;
      asked.set(question.name, index + 1);
      address = list[Math.min(index, list.length - 1)];
    }
    socket.send(answer(message, question.end, address, list.length === 0), peer.port, peer.address);
  });
  socket.bind(0, '127.0.0.1');
  await once(socket, 'listening');
  return {
    address: `127.0.0.1:${socket.address().port}`,
    questions,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

function parseQuestion(message: Buffer): { name: string; type: number; end: number } | undefined {
  if (message.length < 17 || message.readUInt16BE(4) !== 1) return undefined;
  const labels: string[] = [];
  let offset = 12;
  while (offset < message.length) {
    const length = message[offset] ?? 0;
    offset += 1;
    if (length === 0) break;
    labels.push(message.subarray(offset, offset + length).toString('ascii'));
    offset += length;
  }
  if (offset + 4 > message.length) return undefined;
  return { name: labels.join('.'), type: message.readUInt16BE(offset), end: offset + 4 };
}

/** The query's header and question echoed back as a response, with one A record when there is an address. */
function answer(query: Buffer, questionEnd: number, address: string | undefined, unknownName: boolean): Buffer {
  const header = Buffer.from(query.subarray(0, 12));
  // QR=1, opcode from the query, AA=1, RD copied, RA=1; RCODE 3 (NXDOMAIN) for names it does not know.
  header.writeUInt16BE(0x8400 | (query.readUInt16BE(2) & 0x7900) | 0x0080 | (unknownName ? 3 : 0), 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(address === undefined ? 0 : 1, 6);
  header.writeUInt16BE(0, 8);
  header.writeUInt16BE(0, 10);
  const question = query.subarray(12, questionEnd);
  if (address === undefined) return Buffer.concat([header, question]);
  const record = Buffer.alloc(16);
  record.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
  record.writeUInt16BE(1, 2); // A
  record.writeUInt16BE(1, 4); // IN
  record.writeUInt32BE(0, 6); // TTL 0: nothing may cache it
  record.writeUInt16BE(4, 10);
  address.split('.').forEach((part, index) => record.writeUInt8(Number(part), 12 + index));
  return Buffer.concat([header, question, record]);
}
