import { createServer } from 'node:http';
import { spotV3 } from '../../src/exchange/dialects/spot-v3';
import { closeServer, listenLoopback } from '../support/loopback';
import { pacer, readSource } from '../../src/notices/fetch';
import { manualClock } from '../../src/lib/clock';
import { stableId } from '../../src/notices/sources/read';
import { OkxStatusBoard, type OkxWindow } from '../support/doubles/okx-status';
import { NoticeError } from '../../src/notices/source';
import { okxAnnouncements, okxStatus } from '../../src/notices/sources/okx';
import { LoopbackExchange, loopbackClient, type Answer, type Asked } from '../exchange/dialects/loopback-exchange';
import { recorded } from './sources/recorded';

/** OKX on loopback: the recorded answers, or what `fault` says for every request. */
class NoticeExchange extends LoopbackExchange {
  fault: Answer | undefined;

  protected respond({ path }: Asked): Answer {
    if (this.fault !== undefined) return this.fault;
    return { body: recorded('okx', path.includes('announcements') ? 'announcements.json' : 'status.json') };
  }
}

/** The client of any dialect sends a notice request; spot-v3 needs no credentials. */
describe('notice sources through the real client', () => {
  let exchange: NoticeExchange;
  beforeEach(async () => {
    exchange = await new NoticeExchange().start();
  });
  afterEach(async () => {
    await exchange.stop();
  });

  it('reads under base_url with the source headers, spending its weights', async () => {
    const client = loopbackClient(spotV3, `${exchange.url}/proxy`);
    const read = await readSource(client, okxAnnouncements, { open: [] }, () => 0);
    expect(read.read.announcements?.length).toBe(6);
    expect(exchange.asked.map((a) => [a.path, a.headers['accept-language']])).toEqual([
      ['/proxy/api/v5/support/announcements?annType=announcements-delistings&page=1', 'en-US'],
      ['/proxy/api/v5/support/announcements?annType=announcements-new-listings&page=1', 'en-US'],
      ['/proxy/api/v5/support/announcements?annType=announcements-deposit-withdrawal-suspension-resumption&page=1', 'en-US'],
    ]);
    expect(client.usedWeight()).toBe(3);
    await client.close();
  });

  it.each([
    ['an error answer', { body: '{"code":"50001","msg":"busy","data":[]}' }, 'error_answer'],
    ['HTTP 503', { status: 503, body: '' }, 'http'],
    ['HTTP 429', { status: 429, body: '{"code":"50011","msg":"Too Many Requests"}', headers: { 'retry-after': '1' } }, 'rate_limited'],
    ['a wrong shape', { body: '{"code":"0","data":"none"}' }, 'schema'],
    ['a body over its cap', { body: 'x'.repeat(5000) }, 'body_too_large'],
  ] as const)('turns %s into a NoticeError of its kind, never a partial read', async (_what, fault, kind) => {
    exchange.fault = fault;
    const client = loopbackClient(spotV3, exchange.url, { maxBodyBytes: 4096 });
    const err = await readSource(client, okxStatus, { open: [] }, () => 0).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(NoticeError);
    expect([(err as NoticeError).kind, (err as NoticeError).source]).toEqual([kind, 'okx-status']);
    await client.close();
  });

  it('turns an answer that never comes into a NoticeError of kind timeout', async () => {
    // Headers sent, the body never finished.
    const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).write('{'));
    const url = await listenLoopback(server);
    const client = loopbackClient(spotV3, url, { timeoutMs: 200 });
    const err = await readSource(client, okxStatus, { open: [] }, () => 0).then(() => undefined, (e: unknown) => e);
    expect([(err as NoticeError).kind, (err as NoticeError).source]).toEqual(['timeout', 'okx-status']);
    await client.close();
    await closeServer(server);
  });
});

/**
 * OKX's list drops a window once it is over: the read that no longer lists a known window asks
 * the completed and canceled lists (the likelier first, the other only while some are still
 * missing), each request 5 s after the one before on the monotonic clock, and takes from them
 * only the windows it asked about.
 */
describe('okx-status follow-ups through the real client', () => {
  const H = 3_600_000;
  const T0 = Date.UTC(2026, 10, 27, 12);
  const STATUS = '/api/v5/system/status';
  const clock = manualClock(T0);
  const board = new OkxStatusBoard(() => clock.monotonic());
  class Okx extends LoopbackExchange {
    protected respond({ path }: Asked): Answer {
      const a = board.answer(path);
      return a === undefined ? { status: 404, body: '{}' } : { status: a.status, body: a.body };
    }
  }
  let okx: Okx;
  beforeAll(async () => {
    okx = await new Okx().start();
  });
  afterAll(() => okx.stop());
  beforeEach(() => {
    board.windows = [];
    board.asked.length = 0;
    // Each test a read of its own: the last one's request is 5 s past.
    clock.advance(5_000);
  });

  const idOf = (title: string, serviceType = '5'): string => stableId('okx', [title, serviceType, '1']);
  const known = (title: string, state: 'scheduled' | 'ongoing', begins: number, ends: number) => ({ id: idOf(title), state, begins, ends });
  /** A pace that lets the time pass on the manual clock instead of sleeping. */
  const pace = () => pacer(5_000, () => clock.monotonic(), async (ms) => clock.advance(ms));
  const read = async (open: ReturnType<typeof known>[], p = pace()) => {
    const client = loopbackClient(spotV3, okx.url);
    try {
      return await readSource(client, okxStatus, { open }, () => clock.now(), { pace: p });
    } finally {
      await client.close();
    }
  };
  const asked = (): [string, number, number][] => board.asked.map((a) => [a.path, a.at - board.asked[0]!.at, a.status]);
  const states = (r: Awaited<ReturnType<typeof read>>): [string, string][] => (r.read.maintenance ?? []).map((w) => [w.title, w.state]);

  it('asks the completed list in the read that no longer lists an ongoing window, 5 s after the plain list, and not the canceled one once it is found', async () => {
    const w: OkxWindow = { title: 'Spot system upgrade', state: 'completed', begin: T0 - H, end: T0 - 60_000 };
    board.windows = [w];
    const r = await read([known(w.title, 'ongoing', T0 - H, T0 + H)]);
    expect(asked()).toEqual([[STATUS, 0, 200], [`${STATUS}?state=completed`, 5_000, 200]]);
    expect(r.read.maintenance).toEqual([
      { id: idOf(w.title), title: 'Spot system upgrade', state: 'completed', begins: T0 - H, ends: T0 - 60_000, origin: 'planned', scope: 'trading', coins: [], symbols: [], url: null, source: 'okx-status' },
    ]);
    expect([r.failed, r.read.unsettled]).toEqual([undefined, undefined]);
  });

  it('waits out the whole gap when a timer fires early (libuv counts whole ms): never a request 4,999.6 ms after the last', async () => {
    const early = pacer(5_000, () => clock.monotonic(), async (ms) => clock.advance(ms - 0.4));
    const sent: number[] = [];
    for (let i = 0; i < 3; i++) await early(async () => sent.push(clock.monotonic()));
    const gaps = sent.slice(1).map((t, i) => t - sent[i]!);
    // 4,999.6 ms slept, then the 0.4 ms left as a 1 ms timer (fired early too: 0.6 ms).
    expect(gaps.map((g) => Math.round(g * 10) / 10)).toEqual([5_000.2, 5_000.2]);
  });

  it('asks the canceled list first for a window that had not begun, and both when one of each left', async () => {
    const p = pace();
    board.windows = [{ title: 'Unified account upgrade', state: 'canceled', begin: T0 + 2 * H, end: T0 + 3 * H }];
    await read([known('Unified account upgrade', 'scheduled', T0 + 2 * H, T0 + 3 * H)], p);
    expect(asked()).toEqual([[STATUS, 0, 200], [`${STATUS}?state=canceled`, 5_000, 200]]);

    board.asked.length = 0;
    board.windows = [
      { title: 'Spot system upgrade', state: 'completed', begin: T0 - H, end: T0 },
      { title: 'Unified account upgrade', state: 'canceled', begin: T0 + 2 * H, end: T0 + 3 * H },
      { title: 'Block trading upgrade', state: 'scheduled', begin: T0 + 5 * H, end: T0 + 6 * H, serviceType: '6' },
    ];
    const r = await read([known('Spot system upgrade', 'ongoing', T0 - H, T0 + H), known('Unified account upgrade', 'scheduled', T0 + 2 * H, T0 + 3 * H)], p);
    expect(asked()).toEqual([[STATUS, 0, 200], [`${STATUS}?state=completed`, 5_000, 200], [`${STATUS}?state=canceled`, 10_000, 200]]);
    expect(states(r)).toEqual([['Block trading upgrade', 'scheduled'], ['Spot system upgrade', 'completed'], ['Unified account upgrade', 'canceled']]);
  });

  it('takes from a finished list only the windows it asked about, never an older window of the same title', async () => {
    board.windows = [
      // Last month's window of the same title (OKX gives none an id: both hash alike).
      { title: 'Spot system upgrade', state: 'completed', begin: T0 - 30 * 24 * H, end: T0 - 30 * 24 * H + H },
      { title: 'Spot system upgrade', state: 'canceled', begin: T0 + H, end: T0 + 2 * H },
      { title: 'Options upgrade', state: 'completed', begin: T0 - 2 * H, end: T0 - H },
    ];
    const r = await read([known('Spot system upgrade', 'ongoing', T0 - 60_000, T0 + 2 * H)]);
    expect(asked().map(([p]) => p)).toEqual([STATUS, `${STATUS}?state=completed`, `${STATUS}?state=canceled`]);
    expect(r.read.maintenance?.map((w) => [w.title, w.state, w.begins])).toEqual([['Spot system upgrade', 'canceled', T0 + H]]);
  });

  it('keeps 5 s from one read to the next, and a follow-up refused leaves the read standing with its windows unsettled', async () => {
    const p = pace();
    await read([], p);
    await read([], p);
    expect(asked()).toEqual([[STATUS, 0, 200], [STATUS, 5_000, 200]]);

    // Without a pace, the follow-up comes at once: OKX refuses it (429), the plain list stands.
    board.asked.length = 0;
    clock.advance(5_000);
    const client = loopbackClient(spotV3, okx.url);
    const r = await readSource(client, okxStatus, { open: [known('Spot system upgrade', 'ongoing', T0 - H, T0 + H)] }, () => clock.now());
    await client.close();
    expect(asked()).toEqual([[STATUS, 0, 200], [`${STATUS}?state=completed`, 0, 429]]);
    expect([r.read.maintenance, r.read.unsettled, r.failed?.kind]).toEqual([[], [idOf('Spot system upgrade')], 'rate_limited']);
  });
});
