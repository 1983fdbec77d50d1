/**
 * An answer read again from the bytes it came in (a replay of a recording), as the client read
 * it: each answer through the dialect's decode or, when its bytes equal the last answer to the
 * same request, that answer's records again (LastAnswers, as the client does); a watch list's
 * parts joined, or picked out of the answer for every symbol, by the client's own functions.
 * What a decode throws goes on: the answer was read when it came, so a throw here means the
 * dialect reads it differently now.
 */
import type { CoinRecord, TickerRecord } from '../snapshot/model';
import type { Dialect } from './dialect';
import type { LastAnswers } from './last-answers';
import type { Parsed } from './read';
import { joinParts, pickWatched, type AnswerText, type AnswerTexts, type Watched } from './watch-list';

export function rereadCoins(texts: AnswerTexts, dialect: Dialect, previous: ReadonlyMap<string, CoinRecord>, last: LastAnswers): Parsed<CoinRecord> {
  const [only] = each(texts.answers, (text) => dialect.decode.coins(text, previous), last);
  return only ?? { records: [], issues: [] };
}

export function rereadTickers(texts: AnswerTexts, dialect: Dialect, previous: ReadonlyMap<string, TickerRecord>, last: LastAnswers): Watched {
  const parts = each(texts.answers, (text) => dialect.decode.tickers(text, previous), last);
  const watch = texts.watch;
  if (watch === undefined) return parts[0] ?? { records: [], issues: [] };
  if (watch.how === 'parts') return joinParts(watch.symbols, parts, watch.refused, watch.reorder);
  return pickWatched(watch.symbols, parts[parts.length - 1] ?? { records: [], issues: [] });
}

/** Each answer's records, as the client's fetch has them: every answer is decoded or remembered, used or not, so the next one compares as it did. */
function each<T>(answers: readonly AnswerText[], decode: (text: string) => Parsed<T>, last: LastAnswers): Parsed<T>[] {
  return answers.map(({ path, body }) => {
    const kept = last.get(path);
    if (kept !== undefined && kept.raw.equals(body)) {
      const same = kept.result as Parsed<T>;
      return { records: [...same.records], issues: [...same.issues] };
    }
    const result = decode(body.toString('utf8'));
    last.keep(path, result, body);
    return result;
  });
}
