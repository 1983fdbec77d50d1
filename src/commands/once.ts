import { Agent } from 'undici';
import { chainLookup } from '../runtime/settings';
import { clientFor, reach } from '../runtime/targets';
import { systemClock } from '../lib/clock';
import { createLogger } from '../lib/logger';
import { loadOrReport, write, type Io } from './io';

/** `spotwatch once`: every exchange polled once; `--json` prints the exact records. */
export async function pollOnce(path: string, options: { json: boolean }, io: Io): Promise<number> {
  const config = await loadOrReport(path, io, { rulesFile: false });
  if (config === undefined) return 1;
  const logger = createLogger({ level: config.log.level, format: config.log.format });
  const dispatcher = new Agent({ connections: 2 });
  const report: unknown[] = [];
  // dialects.md: every network object carries its canonical chain (null when unknown), last.
  const chainOf = chainLookup(config);
  let failed = 0;
  try {
    for (const ex of config.exchanges) {
      const target = await reach(ex, systemClock, logger, false);
      const client = clientFor(target, systemClock, dispatcher, logger);
      try {
        // Each endpoint on its own: tickers that fail must not take the coins with them.
        const coins = await attempt(() => client.fetchCoins());
        const tickers = await attempt(() => client.fetchTickers(ex.symbols));
        const issues = [...(coins.ok ? coins.value.issues : []), ...(tickers.ok ? tickers.value.issues : [])];
        for (const issue of issues) logger.warn({ exchange: ex.name, ...issue }, 'malformed record left out');
        if (tickers.ok && tickers.value.refused !== undefined) {
          io.stderr.write(`${ex.name}: watched symbols the exchange refused (missing): ${tickers.value.refused.join(', ')}\n`);
        }
        const failures = ([['coins', coins], ['tickers', tickers]] as const).flatMap(([endpoint, r]) => (r.ok ? [] : [{ endpoint, ...r.error }]));
        // The message names the endpoint (`tickers: HTTP 400 ...`).
        for (const f of failures) io.stderr.write(`${ex.name}: poll failed (${f.kind}): ${f.message}\n`);
        if (failures.length > 0) failed++;
        if (!coins.ok && !tickers.ok) {
          report.push({ name: ex.name, error: coins.error });
          continue;
        }
        // One endpoint failed: what the other read is printed, with the error beside it.
        report.push({
          name: ex.name,
          coins: coins.ok ? coins.value.records.map((c) => ({ ...c, networkList: c.networkList.map((n) => ({ ...n, chain: chainOf(ex.name, n.network) })) })) : null,
          tickers: tickers.ok ? tickers.value.records : null,
          ...(failures[0] !== undefined && { error: failures[0] }),
        });
        if (!options.json) {
          const parts: string[] = [];
          if (coins.ok) {
            const networks = coins.value.records.reduce((n, c) => n + c.networkList.length, 0);
            const closed = coins.value.records.flatMap((c) => c.networkList).filter((n) => !n.depositEnable || !n.withdrawEnable).length;
            parts.push(`${coins.value.records.length} coins, ${networks} networks (${closed} with deposits or withdrawals closed)`);
          }
          if (tickers.ok) parts.push(`${tickers.value.records.length} tickers`);
          io.stdout.write(`${ex.name}: ${parts.join(', ')}${issues.length > 0 ? `, ${issues.length} malformed records` : ''}\n`);
        }
      } finally {
        await target.embedded?.close();
      }
    }
  } finally {
    await dispatcher.close();
  }
  if (options.json) await write(io.stdout, `${JSON.stringify({ exchanges: report })}\n`);
  return failed > 0 ? 1 : 0;
}

type Attempt<T> = { ok: true; value: T } | { ok: false; error: { kind: string; message: string } };

/** One fetch, its failure kept as a value (so the other endpoint is still read and printed). */
async function attempt<T>(run: () => Promise<T>): Promise<Attempt<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const kind = err instanceof Error && 'kind' in err ? String(err.kind) : 'error';
    return { ok: false, error: { kind, message } };
  }
}
