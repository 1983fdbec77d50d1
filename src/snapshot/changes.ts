/** The change kinds of DESIGN.md section 3 (contract: they appear in events, labels and templates). */
export const CHANGE_KINDS = [
  'coin_listed', 'coin_delisted', 'network_added', 'network_removed',
  'deposit_disabled', 'deposit_enabled', 'withdraw_disabled', 'withdraw_enabled',
  'deposit_all_disabled', 'deposit_all_enabled', 'withdraw_all_disabled', 'withdraw_all_enabled',
  'deposit_desc_set', 'deposit_desc_changed', 'deposit_desc_cleared',
  'withdraw_desc_set', 'withdraw_desc_changed', 'withdraw_desc_cleared',
  'withdraw_fee_changed', 'withdraw_min_changed', 'min_confirm_changed',
  'default_network_changed', 'contract_address_changed', 'withdraw_tag_changed',
  'symbol_listed', 'symbol_delisted',
] as const;

export type ChangeKind = (typeof CHANGE_KINDS)[number];

export type ChangeValue = string | number | boolean | null;

/** One upstream change, with the values before and after. */
export interface Change {
  kind: ChangeKind;
  exchange: string;
  coin?: string;
  network?: string;
  symbol?: string;
  before: ChangeValue;
  after: ChangeValue;
  /** When the snapshot that showed it was taken (ms since epoch). */
  at: number;
}

export function isChangeKind(text: string): text is ChangeKind {
  return (CHANGE_KINDS as readonly string[]).includes(text);
}
