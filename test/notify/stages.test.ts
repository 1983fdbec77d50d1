import type { Alert } from '../../src/alerts/alert';
import type { LogEntry } from '../../src/alerts/dedup';
import type { Flush } from '../../src/alerts/groups';
import { compileInhibitRules, DEFAULT_INHIBIT_RULES, InhibitionIndex } from '../../src/alerts/inhibit';
import { compileRoutes } from '../../src/alerts/route';
import { Muter } from '../../src/alerts/silence';
import { silentLogger } from '../../src/lib/logger';
import { dedupStage } from '../../src/notify/pipeline/dedup-stage';
import { inhibitStage } from '../../src/notify/pipeline/inhibit-stage';
import { muteStage } from '../../src/notify/pipeline/mute-stage';
import { outboxStage } from '../../src/notify/pipeline/outbox-stage';
import { fanOut, sequence, type Stage, type StageContext } from '../../src/notify/pipeline/stage';

const S = 1000;
const [route] = compileRoutes([], { receivers: ['hook', 'pager'], group_by: ['exchange'], group_wait: 0, group_interval: 60 * S, repeat_interval: 3_600 * S }).root;
if (route === undefined) throw new Error('no root route');

function alert(fingerprint: string, status: Alert['status'] = 'firing', labels: Record<string, string> = {}): Alert {
  return { fingerprint, ruleId: 'r', entity: fingerprint, labels: { alertname: 'W', exchange: 'main', network: 'N', ...labels }, annotations: {}, status, activeAt: 0, startsAt: 0, endsAt: status === 'resolved' ? 5 * S : null, lastActiveAt: 0, lastNotifiedAt: 0, value: null, event: false };
}

function group(alerts: Alert[]): Flush {
  return { key: '{}:{exchange="main"}', route: route as Flush['route'], labels: { exchange: 'main' }, alerts, version: 1 };
}

function context(alerts: Alert[], over: Partial<StageContext> = {}): StageContext {
  return { receiver: 'hook', sendResolved: true, group: group(alerts), now: 100 * S, sources: new InhibitionIndex([], []), ...over };
}

const fps = (alerts: readonly Alert[] | undefined): string[] | 'stop' => (alerts === undefined ? 'stop' : alerts.map((a) => `${a.fingerprint}:${a.status}`));

describe('sequence', () => {
  const keep = (fp: string): Stage => ({ name: `keep ${fp}`, exec: (_ctx, alerts) => alerts.filter((a) => a.fingerprint !== fp) });
  const stop: Stage = { name: 'stop', exec: () => undefined };

  it('runs each stage on what the one before let through, and names itself by its stages', () => {
    const both = sequence(keep('a'), keep('b'));
    expect(both.name).toBe('keep a -> keep b');
    expect(fps(both.exec(context([]), [alert('a'), alert('b'), alert('c')]))).toEqual(['c:firing']);
  });

  it('stops at the first stage with nothing more to do; the later ones do not run', () => {
    let ran = false;
    const later: Stage = { name: 'later', exec: (_ctx, alerts) => ((ran = true), alerts) };
    expect(fps(sequence(stop, later).exec(context([]), [alert('a')]))).toBe('stop');
    expect(ran).toBe(false);
  });
});

describe('fanOut', () => {
  it('runs the stage once per receiver of the route with its own send_resolved, skipping a receiver no longer configured', () => {
    const seen: string[] = [];
    const record: Stage = {
      name: 'record',
      exec: (ctx, alerts) => {
        seen.push(`${ctx.receiver} sendResolved=${ctx.sendResolved}`);
        ctx.item = { receiver: ctx.receiver, groupKey: ctx.group.key, delivery: undefined, entry: undefined };
        return alerts;
      },
    };
    const items = fanOut(record, { group: group([alert('a')]), now: 0, sources: new InhibitionIndex([], []) }, new Map([['pager', { sendResolved: false }]]));
    expect(seen).toEqual(['pager sendResolved=false']);
    expect(items).toEqual([{ receiver: 'pager', groupKey: '{}:{exchange="main"}', delivery: undefined, entry: undefined }]);
  });
});

describe('inhibitStage and muteStage', () => {
  it('drops what a firing source inhibits', () => {
    const down = alert('down', 'firing', { alertname: 'ExchangeDown', endpoint: 'coins' });
    const sources = new InhibitionIndex([down], compileInhibitRules(DEFAULT_INHIBIT_RULES));
    const other = alert('other', 'firing', { exchange: 'backup' });
    expect(fps(inhibitStage().exec(context([], { sources }), [alert('a'), other]))).toEqual(['other:firing']);
  });

  it('drops what a silence mutes at the flush\'s now, not later', () => {
    const muter = new Muter();
    muter.setSilences([{ id: 's', matchers: [{ label: 'network', pattern: 'N' }], startsAt: 0, endsAt: 100 * S, comment: '', createdBy: 't' }]);
    const stage = muteStage(muter, silentLogger());
    expect(fps(stage.exec(context([], { now: 99 * S }), [alert('a')]))).toEqual([]);
    expect(fps(stage.exec(context([], { now: 100 * S }), [alert('a')]))).toEqual(['a:firing']);
  });
});

describe('dedupStage', () => {
  const entry = (firing: string[], resolved: string[], at: number): LogEntry => ({ firing, resolved, at });

  it.each<{ name: string; told: LogEntry | undefined; alerts: Alert[]; sendResolved?: boolean; out: string[] | 'stop'; entry?: LogEntry | undefined }>([
    { name: 'a new group: every alert', told: undefined, alerts: [alert('a'), alert('b')], out: ['a:firing', 'b:firing'], entry: entry(['a', 'b'], [], 100 * S) },
    { name: 'nothing new, repeat not due: stop, the log unchanged', told: entry(['a'], [], 90 * S), alerts: [alert('a')], out: 'stop' },
    { name: 'a new alert: the whole group again', told: entry(['a'], [], 90 * S), alerts: [alert('a'), alert('b')], out: ['a:firing', 'b:firing'], entry: entry(['a', 'b'], [], 100 * S) },
    { name: 'the repeat interval passed', told: entry(['a'], [], 100 * S - 3_600 * S), alerts: [alert('a')], out: ['a:firing'], entry: entry(['a'], [], 100 * S) },
    { name: 'a resolution it was told was firing', told: entry(['a', 'b'], [], 90 * S), alerts: [alert('a', 'resolved'), alert('b')], out: ['a:resolved', 'b:firing'], entry: entry(['b'], ['a'], 100 * S) },
    {
      name: 'a resolution, to a receiver without send_resolved: nothing to tell, the log forgets it',
      told: entry(['a', 'b'], [], 90 * S), alerts: [alert('a', 'resolved'), alert('b')], sendResolved: false, out: [], entry: entry(['b'], [], 90 * S),
    },
    { name: 'everything gone (inhibited, say): nothing to tell, the entry goes', told: entry(['a'], [], 90 * S), alerts: [], out: [], entry: undefined },
  ])('$name', ({ told, alerts, sendResolved = true, out, entry: after }) => {
    const ctx = context(alerts, { sendResolved });
    const got = dedupStage(() => told).exec(ctx, alerts);
    expect(fps(got)).toEqual(out);
    expect(ctx.told).toEqual(told);
    if (out !== 'stop') expect(ctx.entry).toEqual(after);
  });
});

describe('outboxStage', () => {
  it('makes the notification of what is left to tell, with the log entry decided', () => {
    const ctx = context([alert('a')], { entry: { firing: ['a'], resolved: [], at: 100 * S } });
    outboxStage(() => 'http://sw').exec(ctx, [alert('a')]);
    expect(ctx.item?.entry).toEqual({ firing: ['a'], resolved: [], at: 100 * S });
    expect(ctx.item?.delivery?.notification).toMatchObject({ receiver: 'hook', groupKey: '{}:{exchange="main"}', status: 'firing', externalURL: 'http://sw' });
    expect(ctx.item?.delivery?.notification.alerts.map((a) => a.fingerprint)).toEqual(['a']);
  });

  it('with nothing left to tell, commits the log entry alone', () => {
    const ctx = context([], { entry: undefined });
    outboxStage(() => 'http://sw').exec(ctx, []);
    expect(ctx.item).toEqual({ receiver: 'hook', groupKey: '{}:{exchange="main"}', delivery: undefined, entry: undefined });
  });
});
