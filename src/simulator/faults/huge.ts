/**
 * A valid JSON array of exactly `bytes` bytes, streamed in 64 KiB blocks with backpressure,
 * never held whole in memory: the client's body-size cap must stop it, not the server.
 */
import type { ServerResponse } from 'node:http';

const UNIT = ',{"coin":"PAD","name":"Padding","depositAllEnable":true,"withdrawAllEnable":true,"networkList":[]}';
const BLOCK = Buffer.from(UNIT.repeat(Math.floor(65_536 / UNIT.length)));

function writeOrWait(res: ServerResponse, chunk: Buffer | string): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false);
  if (res.write(chunk)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ok: boolean): void => {
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(ok);
    };
    const onDrain = (): void => done(true);
    const onClose = (): void => done(false);
    res.on('drain', onDrain);
    res.on('close', onClose);
  });
}

export async function streamHuge(res: ServerResponse, bytes: number): Promise<void> {
  // '[' + first record (without its comma) + blocks + single records + spaces + ']'
  let left = bytes - 2;
  const first = UNIT.slice(1);
  if (!(await writeOrWait(res, '['))) return;
  if (left >= first.length) {
    if (!(await writeOrWait(res, first))) return;
    left -= first.length;
    while (left >= BLOCK.length) {
      if (!(await writeOrWait(res, BLOCK))) return;
      left -= BLOCK.length;
    }
    const singles = Math.floor(left / UNIT.length);
    if (singles > 0 && !(await writeOrWait(res, UNIT.repeat(singles)))) return;
    left -= singles * UNIT.length;
  }
  if (left > 0 && !(await writeOrWait(res, ' '.repeat(left)))) return;
  res.end(']');
}
