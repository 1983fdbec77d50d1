/**
 * The recording of the engine (poll/recording/recorder.ts), read back by the reader: every
 * input given to step with its time, in order, from the state it began with; bounded by size
 * and age, oldest segments first; a failing disk logged once, never thrown.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Alert } from '../../../src/alerts/alert';
import { createLogger, type Logger } from '../../../src/lib/logger';
import { readRecording, type Read } from '../../../src/poll/recording/reader';
import { Recorder, RETRY_AFTER_MS, type RecordOptions } from '../../../src/poll/recording/recorder';
import { listSegments } from '../../../src/poll/recording/segments';
import { initialState, type PollState } from '../../../src/poll/state';
import type { StepInput } from '../../../src/poll/step';
import { applyCoins } from '../../../src/snapshot/merge';
import { emptySnapshot } from '../../../src/snapshot/model';
import { coinRecord } from '../../support/records';
import { Sink } from '../../support/sink';
import { waitFor } from '../../support/wait';
import { DEFAULT_SETTINGS } from '../../support/poll-settings';

const HOUR = 3_600_000;
const USDT = coinRecord('USDT', [{ network: 'TRX', withdrawEnable: false }]);
const FIRING: Alert = {
  fingerprint: 'f1',
  ruleId: 'r1',
  entity: 'USDT\u0000TRX',
  labels: { alertname: 'WithdrawDisabled', exchange: 'main', coin: 'USDT', network: 'TRX' },
  annotations: {},
  status: 'firing',
  activeAt: 500,
  startsAt: 500,
  endsAt: null,
  lastActiveAt: 500,
  lastNotifiedAt: 500,
  value: null,
  event: false,
};

/** What a daemon restarted from a store holding USDT closed on TRX (and its alert) starts from. */
const RESTORED: PollState = initialState(DEFAULT_SETTINGS, new Map([['main', { snapshot: applyCoins(emptySnapshot('main'), { records: [USDT], issues: [] }, 500) }]]), [FIRING]);

let dir: string;
let sink: Sink;
let logger: Logger;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'spotwatch-record-'));
  sink = new Sink();
  logger = createLogger({ level: 'debug', format: 'json', destination: sink });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function options(over: Partial<RecordOptions> = {}): RecordOptions {
  return { dir: join(dir, 'rec'), maxBytes: 1_000_000_000, maxAgeMs: 7 * 24 * HOUR, watched: [{ name: 'main', dialect: 'spot-v3' }], ...over };
}

function logged(): { level: number; msg: string }[] {
  return sink.text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { level: number; msg: string });
}

async function reads(from = join(dir, 'rec')): Promise<Read[]> {
  const out: Read[] = [];
  for await (const r of readRecording(from)) out.push(r);
  return out;
}

/** Each read as a line: the record's type and time, an answer's bodies as text. */
function summary(all: Read[]): string[] {
  return all.map((r) => (r.kind === 'end' ? `end ${r.complete}` : `${r.record.t} ${r.record.at}${r.answers.map((a) => ` ${a.path}=${a.body.toString()}`).join('')}`));
}

/** A coins answer as step takes it (what the recording keeps of it is its bytes, given beside it). */
const COINS: StepInput = { type: 'answer', exchange: 'main', endpoint: 'coins', answer: { records: [], issues: [] } };

describe('a recording', () => {
  it('begins with the state the engine starts from, then each input given to step with its time, in order', async () => {
    const rec = new Recorder(options(), logger);
    rec.start(RESTORED, 1_000);
    const body = Buffer.from('[{"coin":"USDT"}]');
    rec.record(RESTORED, [COINS, { type: 'written', exchange: 'main', error: undefined }], 2_000, { texts: { answers: [{ path: '/api/v3/coins', body }] } });
    // The client hands back the very buffer of an answer that did not change: "the same as before".
    rec.record(RESTORED, [COINS], 3_000, { texts: { answers: [{ path: '/api/v3/coins', body }] } });
    rec.record(RESTORED, [{ type: 'failure', exchange: 'main', endpoint: 'tickers', error: 'tickers: timed out after 5000 ms' }, { type: 'written', exchange: 'main', error: 'disk full' }], 4_000, { kind: 'timeout' });
    const watch = { how: 'parts', symbols: ['BTCUSDT', 'ETHUSDT'], refused: ['ETHUSDT'], reorder: true } as const;
    rec.record(RESTORED, [{ type: 'answer', exchange: 'main', endpoint: 'tickers', answer: { records: [], issues: [] } }], 5_000, { texts: { answers: [{ path: '/t?a', body: Buffer.from('[1]') }, { path: '/t?b', body: Buffer.from('[2]') }], watch } });
    rec.reload(options({ watched: [{ name: 'main', dialect: 'spot-v3' }, { name: 'other', dialect: 'binance' }] }), 6_000);
    rec.record(RESTORED, [{ type: 'drop', exchange: 'other' }], 7_000);
    await rec.close();

    const all = await reads();
    expect(summary(all)).toEqual([
      'state 1000',
      'answer 2000 /api/v3/coins=[{"coin":"USDT"}]',
      'written 2000',
      'answer 3000 /api/v3/coins=[{"coin":"USDT"}]',
      'failure 4000',
      'written 4000',
      'answer 5000 /t?a=[1] /t?b=[2]',
      'reload 6000',
      'drop 7000',
      'end true',
    ]);
    const records = all.flatMap((r) => (r.kind === 'record' ? [r.record] : []));
    expect(records).toEqual([
      {
        t: 'state',
        v: 1,
        at: 1_000,
        run: expect.stringMatching(/^[0-9a-f]{16}$/),
        continues: false,
        watched: [{ name: 'main', dialect: 'spot-v3' }],
        exchanges: [
          {
            name: 'main',
            coinsAt: 500,
            tickersAt: null,
            coins: [USDT],
            tickers: [],
            samples: [],
            suspect: {},
            failures: { coins: 0, tickers: 0 },
            storeError: null,
            savedAt: { tickers: null, samples: null },
            flaps: { coins: { poll: 0, things: [] }, tickers: { poll: 0, things: [] } },
            notices: { status: null, windows: [], announcements: [], baselined: [] },
          },
        ],
        alerts: [FIRING],
      },
      { t: 'answer', at: 2_000, exchange: 'main', endpoint: 'coins', dialect: 'spot-v3', answers: [{ path: '/api/v3/coins', bytes: 17 }] },
      { t: 'written', at: 2_000, exchange: 'main', error: null },
      { t: 'answer', at: 3_000, exchange: 'main', endpoint: 'coins', dialect: 'spot-v3', answers: [{ path: '/api/v3/coins', same: true }] },
      { t: 'failure', at: 4_000, exchange: 'main', endpoint: 'tickers', kind: 'timeout', error: 'tickers: timed out after 5000 ms' },
      { t: 'written', at: 4_000, exchange: 'main', error: 'disk full' },
      { t: 'answer', at: 5_000, exchange: 'main', endpoint: 'tickers', dialect: 'spot-v3', answers: [{ path: '/t?a', bytes: 3 }, { path: '/t?b', bytes: 3 }], watch },
      { t: 'reload', at: 6_000, watched: [{ name: 'main', dialect: 'spot-v3' }, { name: 'other', dialect: 'binance' }] },
      { t: 'drop', at: 7_000, exchange: 'other' },
    ]);
    expect(readdirSync(join(dir, 'rec'))).toEqual(['00000001-19700101T000001.000Z.rec.gz']);
  });

  it('is readable as it is written, up to the last whole record (a daemon killed with -9 loses nothing flushed)', async () => {
    const rec = new Recorder(options(), logger);
    rec.start(RESTORED, 1_000);
    rec.record(RESTORED, [COINS], 2_000, { texts: { answers: [{ path: '/api/v3/coins', body: Buffer.from('[]') }] } });
    const seen = await waitFor(async () => {
      const all = await reads();
      return summary(all).includes('answer 2000 /api/v3/coins=[]') ? all : undefined;
    }, 'the answer to reach the disk');
    expect(seen.at(-1)).toEqual({ kind: 'end', segment: expect.anything(), complete: false, reason: 'cut short (the daemon stopped while writing it, or writes it still)' });
    await rec.close();
    expect(summary(await reads())).toEqual(['state 1000', 'answer 2000 /api/v3/coins=[]', 'end true']);
  });

  it('after a restart goes on numbering its segments; the first of the new run does not continue the last of the old', async () => {
    const first = new Recorder(options(), logger);
    first.start(RESTORED, 1_000);
    await first.close();
    const second = new Recorder(options(), logger);
    second.start(RESTORED, 2_000);
    await second.close();
    const states = (await reads()).flatMap((r) => (r.kind === 'record' && r.record.t === 'state' ? [[r.segment.seq, r.record.continues, r.record.run]] : []));
    expect(states.map(([seq, continues]) => [seq, continues])).toEqual([[1, false], [2, false]]);
    expect(states[0]?.[2]).not.toBe(states[1]?.[2]);
  });
});

describe('the bounds of a recording', () => {
  /** `n` answers an hour apart, each of `size` bytes that do not compress; every segment holds one (its state, then the answer). */
  async function recordHours(rec: Recorder, n: number, size: number): Promise<void> {
    rec.start(RESTORED, 0);
    for (let h = 1; h <= n; h++) {
      rec.record(RESTORED, [COINS], h * HOUR, { texts: { answers: [{ path: '/api/v3/coins', body: randomBytes(size) }] } });
    }
    await rec.close();
  }

  it('max_size: the oldest segments are deleted, the rest stay within it and replay from the state the first begins with', async () => {
    // Seven segments of about 5.6 KB fit (39 KB), eight do not (45 KB).
    const maxBytes = 42_000;
    await recordHours(new Recorder(options({ maxBytes, maxAgeMs: 365 * 24 * HOUR }), logger), 30, 5_000);
    const segments = await listSegments(join(dir, 'rec'));
    const total = segments.reduce((n, s) => n + statSync(s.file).size, 0);
    expect(total).toBeLessThanOrEqual(maxBytes);
    // Each segment holds about 5 KB: seven of them fit, the newest, numbered on from the first of 31.
    expect(segments.map((s) => s.seq)).toEqual([25, 26, 27, 28, 29, 30, 31]);
    const all = await reads();
    expect(all[0]).toMatchObject({ kind: 'record', record: { t: 'state', at: 24 * HOUR, continues: true } });
    expect(summary(all).filter((l) => l.startsWith('end'))).toEqual(Array(7).fill('end true'));
  });

  it('max_age: a segment goes once every record in it is older than max_age', async () => {
    await recordHours(new Recorder(options({ maxAgeMs: 16 * HOUR }), logger), 40, 10);
    const segments = await listSegments(join(dir, 'rec'));
    // The last record is at 40 h: the segments begun at 23 h and before end by 24 h, 16 h before it.
    expect(segments.map((s) => s.startedAt / HOUR)).toEqual([24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40]);
  });
});

describe('a disk that fails', () => {
  it('is logged once, never stops the engine, and recording starts again (from the state reached) a minute after', async () => {
    writeFileSync(join(dir, 'rec'), 'a file where the directory should be');
    const rec = new Recorder(options(), logger);
    rec.start(RESTORED, 1_000);
    for (let at = 2_000; at < 1_000 + RETRY_AFTER_MS; at += 10_000) rec.record(RESTORED, [COINS], at, { texts: { answers: [{ path: '/api/v3/coins', body: Buffer.from('[]') }] } });
    expect(logged().filter((l) => l.level >= 40).map((l) => l.msg)).toEqual(['cannot write the recording; polling goes on, unrecorded, and recording is tried again in a minute']);

    rmSync(join(dir, 'rec'));
    rec.record(RESTORED, [COINS], 61_000, { texts: { answers: [{ path: '/api/v3/coins', body: Buffer.from('[]') }] } });
    await waitFor(async () => summary(await reads()).includes('answer 61000 /api/v3/coins=[]'), 'the first record after the failure');
    rec.record(RESTORED, [COINS], 71_000, { texts: { answers: [{ path: '/api/v3/coins', body: Buffer.from('[]') }] } });
    await rec.close();
    expect(logged().map((l) => l.msg).filter((m) => m.startsWith('cannot') || m.startsWith('recording again'))).toEqual([
      'cannot write the recording; polling goes on, unrecorded, and recording is tried again in a minute',
      'recording again',
    ]);
    const all = await reads();
    expect(summary(all)).toEqual(['state 61000', 'answer 61000 /api/v3/coins=[]', 'answer 71000 /api/v3/coins=[]', 'end true']);
    expect(all[0]).toMatchObject({ record: { continues: false } });
  });
});
