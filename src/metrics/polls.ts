import type { Rule } from '../rules/model';
import type { Metrics } from './metrics';

/** How many alerts fire, by alertname and severity. */
export interface FiringCount {
  alertname: string;
  severity: string;
  n: number;
}

/** What a poll tells the metrics (a success as the engine judged it, or a failure). */
export interface PollOutcome {
  exchange: string;
  endpoint: 'coins' | 'tickers';
  at: number;
  durationMs: number;
}

/** The poll counters and gauges: what each poll adds, and the gauges that follow every poll. */
export class PollMetrics {
  constructor(private readonly metrics: Metrics) {}

  /** An answer: `issues` records set aside; the engine's outcome; the coins kept when taken. */
  answered(poll: PollOutcome, issues: number, outcome: 'accepted' | 'held' | 'empty', coins: number): void {
    const labels = { exchange: poll.exchange, endpoint: poll.endpoint };
    this.metrics.pollDuration.observe(labels, poll.durationMs / 1000);
    if (issues > 0) {
      // A record set aside (malformed, or sent twice with different values) is a schema error of that poll.
      this.metrics.malformedRecords.inc(labels, issues);
      this.metrics.pollErrors.inc({ ...labels, kind: 'schema' });
    }
    // An empty list is never taken as real: a failure of that poll, of kind `schema`.
    if (outcome === 'empty') this.metrics.pollErrors.inc({ ...labels, kind: 'schema' });
    if (outcome !== 'accepted') return;
    this.metrics.lastSuccess.set(labels, poll.at / 1000);
    if (poll.endpoint === 'coins') this.metrics.coins.set({ exchange: poll.exchange }, coins);
  }

  failed(poll: PollOutcome, kind: string): void {
    const labels = { exchange: poll.exchange, endpoint: poll.endpoint };
    this.metrics.pollErrors.inc({ ...labels, kind });
    this.metrics.pollDuration.observe(labels, poll.durationMs / 1000);
  }

  /** Gauges that follow every poll, successful or not. */
  after(exchange: string, state: { up: boolean; weightUsed: number; rules: readonly Rule[]; firing: Iterable<Readonly<FiringCount>> }): void {
    this.metrics.up.set({ exchange }, state.up ? 1 : 0);
    this.metrics.weightUsed.set({ exchange }, state.weightUsed);
    // Every rule's alertname and severity at 0, then the counts the mirror keeps (no walk over the alerts).
    const firing = new Map<string, { alertname: string; severity: string; n: number }>();
    for (const r of state.rules) firing.set(`${r.alert}\u0000${r.severity}`, { alertname: r.alert, severity: r.severity, n: 0 });
    for (const f of state.firing) {
      const k = `${f.alertname}\u0000${f.severity}`;
      if (f.n > 0 || firing.has(k)) firing.set(k, { alertname: f.alertname, severity: f.severity, n: f.n });
    }
    this.metrics.alertsFiring.reset();
    for (const f of firing.values()) this.metrics.alertsFiring.set({ alertname: f.alertname, severity: f.severity }, f.n);
  }
}
