import { Writable } from 'node:stream';

/** A stream that keeps what is written to it (a command's stdout or stderr in a test). */
export class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}
