/**
 * Splitting a byte stream of PostgreSQL's frontend protocol into what the embedded database host
 * hands to PGlite. Only framing: PGlite itself speaks the protocol.
 */

const SSL_REQUEST = 80877103;
const GSS_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;
const SYNC = 0x53; // 'S'
const QUERY = 0x51; // 'Q'
const FLUSH = 0x48; // 'H'
const TERMINATE = 0x58; // 'X'
/** A startup packet or a message longer than this is not from our driver: the connection is dropped. */
export const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

export type Frame =
  /** SSLRequest or GSSENCRequest: answered 'N' (no encryption on a private Unix socket). */
  | { kind: 'encryption-request' }
  | { kind: 'cancel-request' }
  /** The StartupMessage, with its parameters (application_name says the connection's kind). */
  | { kind: 'startup'; bytes: Uint8Array; params: Record<string, string> }
  /**
   * Whole regular messages, in order, to run as one batch; `complete` when the last is a Sync or
   * Query (the client then gets ReadyForQuery), not when it is a Flush.
   */
  | { kind: 'messages'; bytes: Uint8Array; complete: boolean }
  /** Terminate ('X'): the client is leaving. */
  | { kind: 'terminate' };

export class FramingError extends Error {}

/** Buffers the bytes of one connection and yields whole frames. */
export class WireFramer {
  private buffer: Buffer = Buffer.alloc(0);
  private started = false;

  push(chunk: Buffer): Frame[] {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const frames: Frame[] = [];
    while (this.buffer.length > 0) {
      const frame = this.started ? this.regular() : this.beforeStartup();
      if (!frame) break;
      frames.push(frame);
      if (frame.kind === 'terminate') break;
    }
    return frames;
  }

  /** Packets without a type byte: encryption or cancel requests, then the startup message. */
  private beforeStartup(): Frame | undefined {
    if (this.buffer.length < 8) return undefined;
    const length = this.buffer.readInt32BE(0);
    const code = this.buffer.readInt32BE(4);
    if (length < 8 || length > 64 * 1024) throw new FramingError(`bad startup packet length ${length}`);
    if (this.buffer.length < length) return undefined;
    const packet = this.buffer.subarray(0, length);
    this.buffer = this.buffer.subarray(length);
    if (code === SSL_REQUEST || code === GSS_REQUEST) return { kind: 'encryption-request' };
    if (code === CANCEL_REQUEST) return { kind: 'cancel-request' };
    if (code !== PROTOCOL_3) throw new FramingError(`unsupported protocol ${code}`);
    this.started = true;
    return { kind: 'startup', bytes: new Uint8Array(packet), params: startupParams(packet) };
  }

  /**
   * The whole messages up to the last point where the client waits for answers: Sync or Query
   * (its statement is complete) or Flush (it waits mid-statement; the connection keeps the session
   * until its Sync). Messages after that point wait for more bytes: another connection's statement
   * must never run between a Parse and its Sync, or it would replace the unnamed statement.
   */
  private regular(): Frame | undefined {
    let offset = 0;
    let end = 0;
    let complete = false;
    while (this.buffer.length - offset >= 5) {
      const type = this.buffer[offset];
      if (type === TERMINATE) {
        if (end > 0) break;
        this.buffer = Buffer.alloc(0);
        return { kind: 'terminate' };
      }
      const length = this.buffer.readInt32BE(offset + 1);
      if (length < 4 || length > MAX_MESSAGE_BYTES) throw new FramingError(`bad message length ${length}`);
      if (this.buffer.length - offset < 1 + length) break;
      offset += 1 + length;
      if (type === SYNC || type === QUERY || type === FLUSH) {
        end = offset;
        complete = type !== FLUSH;
      }
    }
    if (end === 0) return undefined;
    // A copy: the batch outlives the next chunk, which may reuse the buffer.
    const bytes = new Uint8Array(this.buffer.subarray(0, end));
    this.buffer = this.buffer.subarray(end);
    return { kind: 'messages', bytes, complete };
  }
}

/** The startup message's parameters: after length and version, NUL-terminated name/value pairs. */
function startupParams(packet: Buffer): Record<string, string> {
  const parts = packet.subarray(8).toString('utf8').split('\0');
  const params: Record<string, string> = {};
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const name = parts[i];
    if (name) params[name] = parts[i + 1] ?? '';
  }
  return params;
}
