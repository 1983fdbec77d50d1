import type { Alert } from '../../src/alerts/alert';
import { ReadModel } from '../../src/runtime/read-model';
import type { PollReport, Question } from '../../src/runtime/protocol';

const alert = (fp: string): Alert => ({ fingerprint: fp, ruleId: 'r', entity: fp, labels: { alertname: 'W', severity: 'warning', exchange: 'main' }, annotations: {}, status: 'firing', activeAt: 0, startsAt: 0, endsAt: null, lastActiveAt: 0, lastNotifiedAt: 0, value: 1, event: false });
const polled = (coins: number): PollReport => ({ exchange: 'main', endpoint: 'coins', outcome: 'accepted', at: 5_000, durationMs: 12, bytes: 100, issues: 0, firstIssues: [], coins: 1, networks: 1, tickers: 0, down: false, weightUsed: 5, versions: { coins, tickers: 1 } });

describe('the mirror of the engine', () => {
  it('shows the alerts as of its last refresh, and refreshes when a step changed them (before the poll reports its new version)', async () => {
    const asked: Question[] = [];
    const mirror = new ReadModel(async (q) => {
      asked.push(q);
      return { parts: [] };
    }, [alert('restored')]);
    expect(mirror.refreshedAlerts()).toEqual([alert('restored')]);
    // Nothing stale: nothing asked.
    await mirror.refresh();
    expect(asked).toEqual([]);
    // A step's alerts arrive before its poll's report: the views still show the alerts of the snapshots they hold.
    mirror.applyAlerts([alert('new')], ['restored']);
    expect(mirror.refreshedAlerts()).toEqual([alert('restored')]);
    expect([...mirror.activeAlerts()]).toEqual([alert('new')]);
    await mirror.refresh();
    expect(asked).toEqual([{ q: 'parts', have: {} }]);
    expect(mirror.refreshedAlerts()).toEqual([alert('new')]);
    // A poll's new version is asked for too.
    mirror.polled(polled(3));
    await mirror.refresh();
    expect(asked).toHaveLength(2);
  });

  it('shows the alerts it has when the engine does not answer in time (the snapshots stay as they were)', async () => {
    const mirror = new ReadModel(async () => undefined, []);
    mirror.applyAlerts([alert('a')], []);
    await mirror.refresh();
    expect(mirror.refreshedAlerts()).toEqual([alert('a')]);
  });
});
