/**
 * The `/api/v3/coins` body, written by hand: `withdrawIntegerMultiple` is a JSON number whose
 * text (`1E-8`, `1e-8`, `0.00000001`) must reach the client exactly, which JSON.stringify
 * cannot do. After a change only the changed coins are rendered; the others are copied from the
 * previous body, so the body is one concatenation, never a 4 MB string on the JS heap, and
 * coins are held once (as the body), not twice.
 */
import type { Market, SimCoin, SimNetwork } from './model';

const str = JSON.stringify;

function nullable(value: string | null): string {
  return value === null ? 'null' : str(value);
}

function renderNetwork(coin: string, n: SimNetwork): string {
  const multiple = n.withdrawIntegerMultiple.asString ? str(n.withdrawIntegerMultiple.text) : n.withdrawIntegerMultiple.text;
  return `{"network":${str(n.network)},"coin":${str(coin)},"name":${str(n.name)},"isDefault":${n.isDefault},`
    + `"depositEnable":${n.depositEnable},"withdrawEnable":${n.withdrawEnable},"withdrawFee":${str(n.withdrawFee)},`
    + `"withdrawMin":${str(n.withdrawMin)},"withdrawInternalMin":${nullable(n.withdrawInternalMin)},`
    + `"withdrawIntegerMultiple":${multiple},"minConfirm":${n.minConfirm},"withdrawTag":${n.withdrawTag},`
    + `"depositDust":${str(n.depositDust)},"contractAddress":${str(n.contractAddress)},`
    + `"contractAddressUrl":${str(n.contractAddressUrl)},"depositDesc":${nullable(n.depositDesc)},`
    + `"withdrawDesc":${nullable(n.withdrawDesc)}}`;
}

/** One coin object; the all-networks flags are derived, never stored, so they cannot disagree. */
export function renderCoin(c: SimCoin): string {
  const depositAll = c.networks.every((n) => n.depositEnable);
  const withdrawAll = c.networks.every((n) => n.withdrawEnable);
  const networks = c.networks.map((n) => renderNetwork(c.coin, n)).join(',');
  return `{"coin":${str(c.coin)},"name":${str(c.name)},"depositAllEnable":${depositAll},`
    + `"withdrawAllEnable":${withdrawAll},"networkList":[${networks}]}`;
}

export interface CoinsBody {
  /** One rendered JSON object per coin, in listing order: rendered on each call (faults only). */
  records(): string[];
  /** The cached answer, rendered again only after a change. */
  body(): Buffer;
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/** Where a coin's bytes sit in the current body, and which version of the coin they show. */
interface Span {
  version: number;
  start: number;
  end: number;
}

export function createCoinsBody(market: Market): CoinsBody {
  let spans = new Map<SimCoin, Span>();
  let version = -1;
  let body = Buffer.alloc(0);
  return {
    records: () => [...market.coins.values()].map(renderCoin),
    body: () => {
      if (version === market.coinsVersion) return body;
      const parts: Buffer[] = [OPEN];
      const next = new Map<SimCoin, Span>();
      let offset = OPEN.length;
      for (const c of market.coins.values()) {
        if (parts.length > 1) {
          parts.push(COMMA);
          offset += COMMA.length;
        }
        const old = spans.get(c);
        const bytes = old !== undefined && old.version === c.version ? body.subarray(old.start, old.end) : Buffer.from(renderCoin(c));
        parts.push(bytes);
        next.set(c, { version: c.version, start: offset, end: offset + bytes.length });
        offset += bytes.length;
      }
      parts.push(CLOSE);
      body = Buffer.concat(parts);
      spans = next;
      version = market.coinsVersion;
      return body;
    },
  };
}
