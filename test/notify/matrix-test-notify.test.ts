import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { main } from '../../src/cli';
import { MATRIX_ROOM, MATRIX_TOKEN, MatrixDouble } from '../support/doubles/matrix';

/** `spotwatch test-notify --receiver NAME` through the Matrix receiver's real path, the token from the environment. */
class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

describe('spotwatch test-notify with a matrix receiver', () => {
  let dir: string;
  let double: MatrixDouble;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'spotwatch-matrix-cli-'));
    double = await new MatrixDouble().start();
    writeFileSync(join(dir, 'c.yaml'), `exchanges:
  - name: main
log: { level: error }
notify:
  receivers:
    - name: room
      matrix: { homeserver: "${double.homeserver}", room_id: "${MATRIX_ROOM}", access_token: "\${MX_TOKEN}" }
`);
  });
  afterAll(async () => {
    await double.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function run(): Promise<{ code: number; out: string; err: string }> {
    const stdout = new Sink();
    const stderr = new Sink();
    const code = await main(['test-notify', '--receiver', 'room', '--config', join(dir, 'c.yaml')], { stdout, stderr, env: { SPOTWATCH_LOG_LEVEL: 'silent', MX_TOKEN: MATRIX_TOKEN } });
    return { code, out: stdout.text, err: stderr.text };
  }

  it('sends a marked test event, and prints Matrix\'s exact refusal without the token', async () => {
    expect(await run()).toEqual({ code: 0, out: 'test notification delivered to room (matrix)\n', err: '' });
    expect(String(double.events[0]?.content.body).split('\n')[1]).toBe('🔵 spotwatch test notification: ignore me');
    expect(double.events[0]?.content['m.mentions']).toEqual({});
    double.forced.push({ status: 403, body: { errcode: 'M_FORBIDDEN', error: `${MATRIX_TOKEN} may not send here` } });
    expect(await run()).toEqual({ code: 1, out: '', err: 'test notification to room (matrix) failed [client_error]: Matrix answered HTTP 403: M_FORBIDDEN: <redacted> may not send here\n' });
    double.rateLimit(2500);
    expect((await run()).err).toBe('test notification to room (matrix) failed [rate_limited, would be retried]: Matrix answered HTTP 429: M_LIMIT_EXCEEDED: Too Many Requests\n');
  });
});
