/**
 * The base protocol's framing over a byte stream (`--stdio`): header lines `Name: value\r\n`, a
 * blank line, then a body of exactly `Content-Length` bytes. Strict: a header line without a
 * colon, a missing, non-numeric, negative or oversized Content-Length, a charset other than UTF-8
 * or a header block that never ends is a `FramingError`. After one, the stream cannot be trusted
 * to find the next message's start (a body may hold anything that looks like a header), so the
 * server exits instead of staying alive and deaf.
 */
import { AbstractMessageReader, type DataCallback, type Disposable, type Message } from 'vscode-jsonrpc/node';

/** A message body larger than this is refused (a V8 string holds about 512 Mi characters). */
export const MAX_MESSAGE_BYTES = 256 << 20;
/** A header block longer than this is no header. */
const MAX_HEADER_BYTES = 8 * 1024;

export class FramingError extends Error {}

const CRLF2 = Buffer.from('\r\n\r\n');

/** Cuts a byte stream into message bodies (UTF-8 text); `push` each chunk as it arrives. */
export class FrameParser {
  /** What arrived and is not yet cut: chunks joined only when a header or a whole body is there (one copy per message). */
  private chunks: Buffer[] = [];
  private size = 0;
  /** The body length of the message being read, once its header is read. */
  private bodyLength = -1;

  constructor(private readonly maxBody = MAX_MESSAGE_BYTES) {}

  /** The bodies complete after `chunk`; throws `FramingError` when the stream breaks the framing. */
  push(chunk: Uint8Array): string[] {
    this.chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    this.size += chunk.byteLength;
    const out: string[] = [];
    for (;;) {
      if (this.bodyLength < 0) {
        const pending = this.joined();
        const end = pending.indexOf(CRLF2);
        if (end < 0) {
          if (pending.length > MAX_HEADER_BYTES) throw new FramingError(`a header block longer than ${MAX_HEADER_BYTES} bytes`);
          return out;
        }
        if (end > MAX_HEADER_BYTES) throw new FramingError(`a header block longer than ${MAX_HEADER_BYTES} bytes`);
        this.bodyLength = this.header(pending.subarray(0, end).toString('latin1'));
        this.keep(pending.subarray(end + CRLF2.length));
      }
      if (this.size < this.bodyLength) return out;
      const pending = this.joined();
      out.push(pending.subarray(0, this.bodyLength).toString('utf8'));
      this.keep(pending.subarray(this.bodyLength));
      this.bodyLength = -1;
    }
  }

  private joined(): Buffer {
    if (this.chunks.length !== 1) this.chunks = [Buffer.concat(this.chunks, this.size)];
    return this.chunks[0];
  }

  private keep(rest: Buffer): void {
    this.chunks = rest.length ? [rest] : [];
    this.size = rest.length;
  }

  /** The body length a header block declares. */
  private header(block: string): number {
    let length: number | undefined;
    for (const line of block.split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon <= 0) throw new FramingError(`a header line without a name and a colon: ${JSON.stringify(line.slice(0, 80))}`);
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (name === 'content-length') {
        if (!/^\d{1,10}$/.test(value)) throw new FramingError(`Content-Length ${JSON.stringify(value.slice(0, 40))} is not a byte count`);
        length = Number(value);
        if (length > this.maxBody) throw new FramingError(`Content-Length ${length} is above the ${this.maxBody}-byte limit`);
      } else if (name === 'content-type' && /charset=/i.test(value) && !/charset=["']?utf-?8/i.test(value)) {
        throw new FramingError(`Content-Type ${JSON.stringify(value.slice(0, 80))}: only UTF-8 is read`);
      }
    }
    if (length === undefined) throw new FramingError('a header without Content-Length');
    return length;
  }
}

/**
 * The JSON-RPC reader of `--stdio`: messages cut by `FrameParser` from stdin. A framing error is
 * reported through `onError` (the server then exits); a body that is not JSON is skipped and a
 * message the connection cannot take logged, the framing being intact.
 */
export class StdioReader extends AbstractMessageReader {
  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly log: (line: string) => void,
  ) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    const parser = new FrameParser();
    const onData = (chunk: Buffer): void => {
      let bodies: string[];
      try {
        bodies = parser.push(chunk);
      } catch (e) {
        this.fireError(e);
        return;
      }
      for (const body of bodies) {
        let message: unknown;
        try {
          message = JSON.parse(body);
        } catch {
          this.log(`a message body that is not JSON was skipped (${body.length} characters)`);
          continue;
        }
        try {
          callback(message as Message);
        } catch (e) {
          this.log(`a message could not be handled: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
    };
    this.input.on('data', onData);
    this.input.on('end', () => this.fireClose());
    this.input.on('error', (e: unknown) => this.fireError(e));
    return { dispose: () => void this.input.off('data', onData) };
  }
}
