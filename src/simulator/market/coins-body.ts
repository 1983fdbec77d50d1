/**
 * The `/api/v3/coins` body, written by hand: `withdrawIntegerMultiple` is a JSON number whose
 * text (`1E-8`, `1e-8`, `0.00000001`) must reach the client exactly, which JSON.stringify
 * cannot do. The body is cached and rendered again only after a change.
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
  /** One rendered JSON object per coin, in listing order. */
  records(): readonly string[];
  body(): Buffer;
}

export function createCoinsBody(market: Market): CoinsBody {
  let version = -1;
  let records: string[] = [];
  let body = Buffer.alloc(0);
  const refresh = (): void => {
    if (version === market.coinsVersion) return;
    records = [...market.coins.values()].map(renderCoin);
    body = Buffer.from(`[${records.join(',')}]`);
    version = market.coinsVersion;
  };
  return {
    records: () => {
      refresh();
      return records;
    },
    body: () => {
      refresh();
      return body;
    },
  };
}
