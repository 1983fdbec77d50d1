import { rmSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { Registry } from 'prom-client';
import { alertsOf } from '../../src/alerts/lifecycle';
import type { ExchangeClient } from '../../src/exchange/client';
import { COINS_PATH, TICKER_PATH } from '../../src/exchange/dialects/spot-v3/wire';
import { manualClock } from '../../src/lib/clock';
import { Exposition, type FamilySource } from '../../src/metrics/exposition';
import { NETWORK_FAMILIES, renderNetworks, renderTickers, TICKER_FAMILIES } from '../../src/metrics/render';
import { fetchInput } from '../../src/poll/fetch';
import { PollPath } from '../../src/poll/path';
import { Persist } from '../../src/poll/persist';
import { configure, initialState, type StepSettings } from '../../src/poll/state';
import { COIN_FIELDS, fieldsOf, NETWORK_FIELDS, TICKER_FIELDS } from '../../src/snapshot/fields';
import type { GuardOptions } from '../../src/snapshot/guard';
import type { Endpoint, Snapshot } from '../../src/snapshot/model';
import { testClient } from '../exchange/test-client';
import { answerShape, answerText, BARE, RAW, rawRecord, recordPool, type AnswerShape } from '../support/answer-texts';
import { closeServer, listenLoopback } from '../support/loopback';
import { networkRecord, tickerRecord } from '../support/records';
import { rulesFrom } from '../support/rules-harness';
import { openTempStore, type TempStore } from '../support/temp-store';
import { DEFAULT_SETTINGS } from '../support/poll-settings';

/**
 * Work follows change, over the whole poll path: one client kept for every answer (an answer
 * whose bytes are the last one's comes back as the records it decoded to then), the merge that
 * keeps an unchanged record's object and an unchanged part's map, `step` that only moves in time
 * the rules of a part it judged when the part is that very map (carry), the store written with
 * what changed, and an exposition that asks for the families of a part only when its map
 * changed: for any sequence of answers, exactly what the same path gives when every answer is
 * read afresh and nothing is known by identity: the snapshots, the decisions and their changes,
 * what is told, the exchanges' /metrics families, the alerts and samples, and what the store holds.
 *
 * The afresh line is a new client per poll over a deep copy of its own snapshot, its settings
 * given again before each poll (so every rule is judged: nothing carried): a new client alone
 * would not do, because merge keeps the previous map, and each previous record, when a record
 * is field for field the one it had (merge.ts). Its path, store and exposition persist across
 * polls (alert lifecycle and samples are state); its /metrics must also be what an exposition
 * made from nothing shows, and each line's store must hold the coins its snapshot holds, so
 * that a skip that is wrong on both sides alike still shows. notes/follow.md has the mutations
 * the first version of this test was checked against.
 */

const EXCHANGE = 'main';
const START = 1_700_000_000_000;

const RULES = rulesFrom(`
rules:
  - { alert: WithdrawClosed, state: withdraw_disabled, severity: critical }
  - { alert: DepositClosedFor, state: deposit_disabled, for: 1m }
  - { alert: AllWithdrawalsClosed, state: withdraw_all_disabled, match: { coin: "BTC|ETH" } }
  - { alert: AllDepositsClosed, state: deposit_all_disabled, keep_firing_for: 2m }
  - { alert: WithdrawMessage, state: withdraw_desc_present }
  - { alert: DepositMessage, state: deposit_desc_present, repeat_interval: 3m }
  - alert: MessageChanged
    change: [deposit_desc_set, deposit_desc_changed, deposit_desc_cleared, withdraw_desc_set, withdraw_desc_changed, withdraw_desc_cleared]
    annotations: { description: "{{coin}} on {{network}}: {{before}} -> {{after}}" }
  - alert: FlagChanged
    change: [deposit_disabled, deposit_enabled, withdraw_disabled, withdraw_enabled, deposit_all_disabled, deposit_all_enabled, withdraw_all_disabled, withdraw_all_enabled]
  - { alert: FeeChanged, change: [withdraw_fee_changed, withdraw_min_changed, min_confirm_changed, default_network_changed] }
  - { alert: Listing, change: [coin_listed, coin_delisted, network_added, network_removed, symbol_listed, symbol_delisted] }
  - { alert: FastMove, ticker: move_percent, window: 5m, above: 3, below: -3 }
  - { alert: StaleTicker, ticker: stale_for, above: 2m }
  - { alert: PriceAbove, ticker: last_price, above: 2, for: 1m }
  - { alert: WideSpread, ticker: spread_bps, above: 50, hysteresis: 10 }
  - { alert: DailyMove, ticker: change_24h_percent, above: 15, repeat_interval: 5m }
  - { alert: SymbolMissing, ticker: missing, match: { symbol: "BTCUSDT|ETHUSDT" } }
`);

/** Held as suspect when a list shrinks by half, taken once it persisted two polls and 20 s. */
const GUARD: GuardOptions = { maxShrink: 0.5, confirmPolls: 2, confirmMs: 20_000 };
const SETTINGS: StepSettings = { ...DEFAULT_SETTINGS, rules: RULES, guards: new Map([[EXCHANGE, GUARD]]), expectedSymbols: new Map([[EXCHANGE, new Set(['BTCUSDT', 'ETHUSDT'])]]) };

// --- Answers --------------------------------------------------------------------------

const desc = fc.constantFrom<string | null>(null, null, '', 'maintenance', 'upgrade <b>');

const goodNetwork = (coin: string): fc.Arbitrary<Record<string, unknown>> =>
  fc
    .record({
      network: fc.constantFrom('ERC20', 'TRC20', 'BEP20'),
      isDefault: fc.boolean(),
      depositEnable: fc.boolean(),
      withdrawEnable: fc.boolean(),
      withdrawFee: fc.constantFrom('0.1', '0.2', '1E-8'),
      minConfirm: fc.constantFrom(12, 64),
      depositDesc: desc,
      withdrawDesc: desc,
    })
    .map((n) => ({ ...networkRecord({ coin, ...n }) }));

/** A network whose fields are any raw values, mostly under a network key the good ones use (so a previous value is kept in its place). */
const fuzzedNetwork = (coin: string): fc.Arbitrary<unknown> =>
  fc.record(Object.fromEntries(fieldsOf(NETWORK_FIELDS).map(([k, f]) => [k, k === 'coin' ? fc.constant(coin) : k === 'network' ? fc.constantFrom<unknown>('ERC20', 'TRC20', 'BEP20', null) : RAW[f.type]])));

/** A network of a coin: mostly good, now and then malformed or not an object. */
const anyNetwork = (coin: string): fc.Arbitrary<unknown> => rawRecord(NETWORK_FIELDS, { coin: fc.constant(coin) }, goodNetwork(coin));

const goodCoin = (coin: string): fc.Arbitrary<Record<string, unknown>> =>
  fc.record({
    coin: fc.constant(coin),
    name: fc.constant(coin),
    depositAllEnable: fc.boolean(),
    withdrawAllEnable: fc.boolean(),
    // A good coin with a malformed network: the coin is taken, the network kept at its previous value.
    networkList: fc.array(fc.oneof({ weight: 3, arbitrary: goodNetwork(coin) }, { weight: 1, arbitrary: fuzzedNetwork(coin) }), { maxLength: 3 }),
  });

/** A coin as the spec writes it, now and then with fuzzed fields or networks, or not an object. */
const coinRecordRaw = fc
  .constantFrom('BTC', 'ETH', 'TRX', 'SOL')
  .chain((coin) => rawRecord(COIN_FIELDS, { coin: fc.constant(coin), networkList: fc.array(anyNetwork(coin), { maxLength: 3 }) }, goodCoin(coin)));

const goodTicker = (symbol: string): fc.Arbitrary<Record<string, unknown>> =>
  fc
    .record({
      lastPrice: fc.constantFrom('1.50', '1.52', '1.60', '2.50', '3E-7', '1'),
      openPrice: fc.constantFrom('1', '1.5'),
      bidPrice: fc.constantFrom('1.49', '1.40'),
      askPrice: fc.constantFrom('1.51', '1.60'),
      volume: fc.constantFrom('1000', '1001'),
      count: fc.constantFrom(42, 43),
    })
    .map((t) => ({ ...tickerRecord(symbol, t) }));

const tickerRecordRaw = fc.constantFrom('BTCUSDT', 'ETHUSDT', 'TRXUSDT', 'SOLUSDT').chain((symbol) => rawRecord(TICKER_FIELDS, { symbol: fc.constant(symbol) }, goodTicker(symbol)));

/**
 * What the exchange answers to one poll: the last body again (often), the last body with one
 * digit changed (a record changed in its place, the answer's length unchanged: only its bytes
 * tell), the last body with one record broken in its place (a flag or price made null: set
 * aside, kept at its previous value), a new one from the pool, or a refusal.
 */
type Served = { kind: 'same' } | { kind: 'digit'; at: number } | { kind: 'break'; at: number } | { kind: 'new'; shape: AnswerShape } | { kind: 'refused' };

interface Step {
  endpoint: Endpoint;
  served: Served;
  /** How the body travels: gzipped or not, written in pieces of this many bytes (the client compares bytes as they arrive). */
  wire: { gzip: boolean; piece: number };
  /** How far the clock moves before the poll. */
  advanceMs: number;
}

const served = (poolSize: number): fc.Arbitrary<Served> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant<Served>({ kind: 'same' }) },
    { weight: 2, arbitrary: fc.nat().map((at): Served => ({ kind: 'digit', at })) },
    { weight: 2, arbitrary: fc.nat().map((at): Served => ({ kind: 'break', at })) },
    { weight: 4, arbitrary: answerShape(poolSize).map((shape): Served => ({ kind: 'new', shape })) },
    { weight: 1, arbitrary: fc.constant<Served>({ kind: 'refused' }) },
  );

interface Scenario {
  pools: Record<Endpoint, string[]>;
  steps: Step[];
}

const scenario: fc.Arbitrary<Scenario> = fc
  .record({ coins: recordPool(coinRecordRaw, BARE.coins, 10), tickers: recordPool(tickerRecordRaw, BARE.tickers, 8) })
  .chain((pools) =>
    fc
      .array(
        fc.record({
          endpoint: fc.constantFrom<Endpoint>('coins', 'tickers'),
          coins: served(pools.coins.length),
          tickers: served(pools.tickers.length),
          wire: fc.record({ gzip: fc.boolean(), piece: fc.constantFrom(7, 100, 1 << 20) }),
          advanceMs: fc.constantFrom(0, 1_000, 15_000, 30_000, 61_000, 150_000),
        }),
        { minLength: 4, maxLength: 16, size: 'medium' },
      )
      .map((raw) => ({ pools, steps: raw.map((s) => ({ endpoint: s.endpoint, served: s[s.endpoint], wire: s.wire, advanceMs: s.advanceMs })) })),
  );

// --- The exchange ---------------------------------------------------------------------

interface Answering {
  status: number;
  body: string;
  wire: Step['wire'];
}

const NOTHING_YET: Answering = { status: 200, body: '[]', wire: { gzip: false, piece: 1 << 20 } };

/** What the loopback exchange answers now, per endpoint. */
const exchange: Record<Endpoint, Answering> = { coins: NOTHING_YET, tickers: NOTHING_YET };
/** The last 200 body per endpoint: what `same` serves again. */
const lastBody: Record<Endpoint, string> = { coins: '[]', tickers: '[]' };

function serve(pools: Scenario['pools'], step: Step): void {
  const { endpoint, served: s, wire } = step;
  if (s.kind === 'refused') {
    exchange[endpoint] = { status: 500, body: '{"code":-1000,"msg":"busy"}', wire };
    return;
  }
  if (s.kind === 'new') lastBody[endpoint] = answerText(pools[endpoint], s.shape);
  if (s.kind === 'digit') lastBody[endpoint] = anotherDigit(lastBody[endpoint], s.at);
  if (s.kind === 'break') lastBody[endpoint] = broken(lastBody[endpoint], s.at);
  exchange[endpoint] = { status: 200, body: lastBody[endpoint], wire };
}

/** `text` with its (at mod count)-th digit changed to the next one (a leading 9 may make a number JSON does not take: a broken answer too). */
function anotherDigit(text: string, at: number): string {
  const digits = [...text.matchAll(/\d/g)];
  const d = digits[at % Math.max(1, digits.length)];
  if (d?.index === undefined) return text;
  return `${text.slice(0, d.index)}${(Number(d[0]) + 1) % 10}${text.slice(d.index + 1)}`;
}

/** `text` with the (at mod count)-th value of a network's flag or a ticker's price made null. */
function broken(text: string, at: number): string {
  const values = [...text.matchAll(/"(?:depositEnable|withdrawEnable|lastPrice)": ?(true|false|"[^"]*"|[-\d.E]+)/g)];
  const v = values[at % Math.max(1, values.length)];
  if (v?.index === undefined) return text;
  const start = v.index + v[0].length - (v[1] as string).length;
  return `${text.slice(0, start)}null${text.slice(start + (v[1] as string).length)}`;
}

function answer(res: ServerResponse, { status, body, wire }: Answering): void {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json');
  let bytes = Buffer.from(body);
  if (wire.gzip) {
    res.setHeader('content-encoding', 'gzip');
    bytes = gzipSync(bytes);
  }
  for (let i = 0; i < bytes.length; i += wire.piece) res.write(bytes.subarray(i, i + wire.piece));
  res.end();
}

// --- A line: the poll path as the engine builds it ---------------------------------

interface Line {
  temp: TempStore;
  path: PollPath;
  exposition: Exposition;
  /** What each poll decided, since it was last asked. */
  heard: unknown[];
  /** The kept client (following), or none: a new one per poll (afresh). */
  client: ExchangeClient | undefined;
}

/**
 * The exchange's families as the engine gives them to /metrics (runtime/engine-poll.ts):
 * a part rendered only when its map is not the one the exposition holds (a new version).
 */
function familiesOf(path: () => PollPath): FamilySource {
  const versions = new WeakMap<object, number>();
  let next = 0;
  const version = (map: object): number => {
    let v = versions.get(map);
    if (v === undefined) versions.set(map, (v = ++next));
    return v;
  };
  return async (have) => {
    const s = path().state.exchanges.get(EXCHANGE)?.snapshot;
    if (s === undefined) return { exchanges: [], texts: [] };
    const texts = (['coins', 'tickers'] as const).flatMap((part) => {
      const v = version(part === 'coins' ? s.coins : s.tickers);
      if (have[EXCHANGE]?.[part] === v) return [];
      const lines = part === 'coins' ? renderNetworks(s, () => true) : renderTickers(s, () => true);
      return [{ exchange: EXCHANGE, part, version: v, families: (part === 'coins' ? NETWORK_FAMILIES : TICKER_FAMILIES).map((f) => lines[f] ?? '') }];
    });
    return { exchanges: [EXCHANGE], texts };
  };
}

function openLine(client: ExchangeClient | undefined): Line {
  const temp = openTempStore('spotwatch-follow-');
  const path = new PollPath(initialState(SETTINGS), new Persist(temp.store));
  const line: Line = { temp, path, exposition: new Exposition(new Registry(), familiesOf(() => line.path)), heard: [], client };
  return line;
}

async function closeLine(line: Line): Promise<void> {
  await line.client?.close();
  line.temp.store.close();
  rmSync(line.temp.dir, { recursive: true, force: true });
}

/**
 * The test client with time to spare: a request that timed out on a loaded machine would fail
 * one side only, and the property would then shrink a difference that is no bug for minutes.
 */
function propertyClient(url: string): ReturnType<typeof testClient> {
  return testClient(url, { timeoutMs: 60_000 });
}

/** One poll of `endpoint`, as the engine makes it (poll/fetch.ts), through the path. */
async function poll(line: Line, endpoint: Endpoint, url: string, clock: ReturnType<typeof manualClock>): Promise<void> {
  const client = line.client ?? propertyClient(url);
  // Afresh: nothing of the last poll is known by identity (see the top of the file), and every
  // rule is judged (as after a reload), so even a carry that wrongly ignored identity could not run.
  if (line.client === undefined) {
    const state = line.path.state;
    const ex = state.exchanges.get(EXCHANGE);
    const exchanges = ex === undefined ? state.exchanges : new Map(state.exchanges).set(EXCHANGE, { ...ex, snapshot: structuredClone(ex.snapshot) });
    line.path.state = configure({ ...state, exchanges }, SETTINGS);
  }
  try {
    const previous = line.path.state.exchanges.get(EXCHANGE)?.snapshot ?? initialState(SETTINGS).exchanges.get(EXCHANGE)?.snapshot;
    const fetched = await fetchInput(client, EXCHANGE, endpoint, [], previous ?? { exchange: EXCHANGE, coinsAt: null, tickersAt: null, coins: new Map(), tickers: new Map() });
    if (fetched.input.type === 'answer' && line.client !== undefined && (fetched.input.answer as { unchanged?: boolean }).unchanged === true) exercised.unchanged += 1;
    const { results } = line.path.decide(fetched.input, clock.now());
    // Within a step, alerts are told in the order of the part's records when judged, and of the
    // alerts' first firing when only time moved them (carried): the same alerts, in an order of their own.
    const inOrder = <T extends { fingerprint: string }>(list: readonly T[], key: (x: T) => string = (x) => x.fingerprint): T[] => [...list].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    line.heard.push(
      ...results.map((r) =>
        structuredClone({
          outcome: r.outcome,
          changes: r.changes,
          transitions: inOrder(r.transitions.map((t) => ({ ...t, fingerprint: `${t.alert.fingerprint} ${t.to}` }))),
          tell: inOrder(r.effects.tell),
          log: r.effects.log,
        }),
      ),
    );
  } finally {
    if (line.client === undefined) await client.close();
  }
}

/** A snapshot as plain data, map entries in their order. */
function plain(s: Snapshot | undefined): unknown {
  if (s === undefined) return undefined;
  return { ...s, coins: [...s.coins], tickers: [...s.tickers], unknownCoins: s.unknownCoins && [...s.unknownCoins], unknownSymbols: s.unknownSymbols && [...s.unknownSymbols] };
}

async function metricsText(exposition: Exposition): Promise<string[]> {
  return (await exposition.render()).split('\n').filter((l) => l.startsWith('spotwatch_'));
}

function byKey<T>(records: ReadonlyMap<string, T> | undefined): [string, T][] {
  return [...(records ?? [])].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Everything a line shows after a poll. */
async function seen(line: Line): Promise<Record<string, unknown>> {
  const { store } = line.temp;
  const metrics = await metricsText(line.exposition);
  const ex = line.path.state.exchanges.get(EXCHANGE);
  const snapshot = ex?.snapshot as Snapshot;
  if (line.client === undefined) {
    // The afresh line's /metrics is what an exposition made now from its snapshot shows (as at a
    // restart): a family skipped wrongly shows on neither side otherwise.
    expect(metrics).toEqual(await metricsText(new Exposition(new Registry(), familiesOf(() => line.path))));
  }
  // Coins are written when they change: the store holds the coins the snapshot holds (a write
  // skipped wrongly would be skipped on both sides alike).
  const stored = store.loadSnapshot(EXCHANGE);
  if (snapshot.coinsAt !== null) expect(byKey(stored?.coins)).toEqual(byKey(snapshot.coins));
  return {
    heard: line.heard.splice(0),
    snapshot: plain(snapshot),
    alerts: [...alertsOf(line.path.state.alerts)].sort((a, b) => (a.fingerprint < b.fingerprint ? -1 : 1)),
    samples: structuredClone([...(ex?.samples ?? [])]),
    metrics,
    stored: { snapshot: plain(stored), alerts: [...store.loadAlerts()].sort(([a], [b]) => (a < b ? -1 : 1)), history: store.loadHistory(EXCHANGE) },
  };
}

/** How often the following line took the ways that skip work (so the property is not vacuous). */
const exercised = { unchanged: 0, keptMap: 0 };

/** Runs a scenario through both lines, comparing them after every poll. */
async function sameBothWays(url: string, { pools, steps }: Scenario): Promise<void> {
  exchange.coins = NOTHING_YET;
  exchange.tickers = NOTHING_YET;
  lastBody.coins = '[]';
  lastBody.tickers = '[]';
  const clock = manualClock(START);
  const following = openLine(propertyClient(url));
  const afresh = openLine(undefined);
  try {
    for (const [i, step] of steps.entries()) {
      clock.advance(step.advanceMs);
      serve(pools, step);
      const before = following.path.state.exchanges.get(EXCHANGE)?.snapshot;
      await poll(following, step.endpoint, url, clock);
      await poll(afresh, step.endpoint, url, clock);
      const after = following.path.state.exchanges.get(EXCHANGE)?.snapshot;
      // A new snapshot whose part is the very map of the last one: what step carries and the exposition skips.
      if (after !== undefined && before !== undefined && after !== before && after[step.endpoint] === before[step.endpoint]) exercised.keptMap += 1;
      expect({ step: i, ...(await seen(following)) }).toEqual({ step: i, ...(await seen(afresh)) });
    }
  } finally {
    await closeLine(following);
    await closeLine(afresh);
  }
}

describe('the change-following poll path', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const endpoint: Endpoint | undefined = req.url === COINS_PATH ? 'coins' : req.url?.startsWith(TICKER_PATH) === true ? 'tickers' : undefined;
      if (endpoint === undefined) {
        res.statusCode = 404;
        res.end('{"code":-1000,"msg":"unknown path"}');
        return;
      }
      answer(res, exchange[endpoint]);
    });
    url = await listenLoopback(server);
  });
  afterAll(() => closeServer(server));

  it('gives, for any sequence of answers, exactly the snapshots, changes, alerts, metrics and stored state of a path that reads every answer afresh', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, (sc) => sameBothWays(url, sc)),
      // About 0.25 s a run on this 2-core machine. FOLLOW_RUNS and FOLLOW_SEED explore further, or replay a failure.
      { numRuns: Number(process.env.FOLLOW_RUNS ?? 60), ...(process.env.FOLLOW_SEED !== undefined && { seed: Number(process.env.FOLLOW_SEED) }) },
    );
    expect(exercised.unchanged).toBeGreaterThan(0);
    expect(exercised.keptMap).toBeGreaterThan(0);
    // Room for fast-check to shrink a failure (70-90 s seen) before Jest gives up on the test.
  }, 300_000);

  // Found by the first version of the property above (fixed in merge.ts): merged afresh, the
  // same answer gave a new map each time, so the afresh side stored its coins again (a later
  // taken_at) where the kept client's side, finding the bytes unchanged, wrote nothing.
  it.each([
    ['a network set aside (kept at its previous value)', { withdrawFee: 'abc' }],
    ['a network that is not an object', 7],
  ])('the same answer twice with %s: the same stored state both ways', async (_name, broken) => {
    const good = networkRecord({ coin: 'BTC', network: 'ERC20' });
    const other = networkRecord({ coin: 'BTC', network: 'TRC20' });
    const coin = (nets: unknown[], depositAllEnable = true): string => JSON.stringify({ coin: 'BTC', name: 'BTC', depositAllEnable, withdrawAllEnable: true, networkList: nets });
    const malformed = typeof broken === 'number' ? broken : { ...good, ...broken };
    const coins = [coin([good, other]), coin([malformed, other], false)];
    const shape = (picks: number[]): Served => ({ kind: 'new', shape: { picks, sep: ',', envelope: false, cut: undefined } });
    const wire = { gzip: false, piece: 1 << 20 };
    await sameBothWays(url, {
      pools: { coins, tickers: [] },
      steps: [
        { endpoint: 'coins', served: shape([0]), wire, advanceMs: 0 },
        { endpoint: 'coins', served: shape([1]), wire, advanceMs: 1_000 },
        { endpoint: 'coins', served: { kind: 'same' }, wire, advanceMs: 1_000 },
        { endpoint: 'coins', served: { kind: 'same' }, wire, advanceMs: 1_000 },
      ],
    });
  });
});
