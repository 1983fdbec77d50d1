import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

export interface Mail {
  from: string;
  to: string[];
  raw: string;
  headers: Record<string, string>;
  text: string;
  html: string;
}

/** How the server answers the next messages: accept, or an SMTP error code. */
export type MailReply = { code: number; message: string } | { hangMs: number } | 'ok';

/** A real SMTP server on loopback (the smtp-server package) that keeps what it receives. */
export class SmtpSink {
  readonly mails: Mail[] = [];
  readonly replies: MailReply[] = [];
  private server: SMTPServer | undefined;
  port = 0;

  async start(options: Partial<SMTPServerOptions> = {}): Promise<this> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const reply = this.replies.shift() ?? 'ok';
          if (reply !== 'ok' && 'hangMs' in reply) {
            setTimeout(() => callback(), reply.hangMs);
            return;
          }
          if (reply !== 'ok') {
            const err = Object.assign(new Error(reply.message), { responseCode: reply.code });
            callback(err);
            return;
          }
          const raw = Buffer.concat(chunks).toString('utf8');
          this.mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
            ...parse(raw),
          });
          callback();
        });
      },
      ...options,
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.port = ((this.server as unknown as { server: { address(): AddressInfo } }).server.address()).port;
    return this;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

/** RFC 2047 encoded words (`=?UTF-8?Q?...?=`, `=?UTF-8?B?...?=`) back to text. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_m, enc: string, text: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8'),
    );
}

function unfold(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of block.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).toLowerCase()] = decodeWords(line.slice(i + 1).trim());
  }
  return headers;
}

function decodeBody(body: string, encoding: string | undefined): string {
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

/** Enough MIME for our own mails: top headers, and the text/plain and text/html parts. */
function parse(raw: string): { headers: Record<string, string>; text: string; html: string } {
  const split = raw.indexOf('\r\n\r\n');
  const headers = unfold(raw.slice(0, split));
  const boundary = /boundary="?([^";]+)"?/.exec(headers['content-type'] ?? '')?.[1];
  const out = { headers, text: '', html: '' };
  const parts = boundary ? raw.slice(split + 4).split(`--${boundary}`) : [raw.slice(split + 4)];
  for (const part of parts) {
    const i = part.indexOf('\r\n\r\n');
    if (i < 0) continue;
    const h = unfold(part.slice(0, i).replace(/^\r\n/, ''));
    const body = decodeBody(part.slice(i + 4).replace(/\r\n$/, ''), h['content-transfer-encoding']);
    const type = h['content-type'] ?? (boundary ? '' : headers['content-type'] ?? '');
    if (type.startsWith('text/plain')) out.text = body;
    if (type.startsWith('text/html')) out.html = body;
  }
  return out;
}
