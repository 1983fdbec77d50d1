/** Word pools for generated coins and the status messages real deployments show. */

export const NAME_STARTS = [
  'Astra', 'Nova', 'Quant', 'Hyper', 'Lumen', 'Orbit', 'Zen', 'Vertex', 'Aero', 'Cypher', 'Delta',
  'Echo', 'Flux', 'Gala', 'Helio', 'Ion', 'Jade', 'Kite', 'Luna', 'Meta', 'Nexa', 'Omni', 'Pixel',
  'Quasar', 'Radi', 'Sol', 'Terra', 'Ultra', 'Vela', 'Wave', 'Xeno', 'Yield', 'Zeta', 'Aqua',
  'Blaze', 'Coral', 'Drift', 'Ember', 'Frost', 'Glint', 'Harbor', 'Iris', 'Karma', 'Lyra', 'Mosaic',
  'Neon', 'Onyx', 'Prism', 'Rune', 'Sable', 'Tidal', 'Umbra', 'Vortex', 'Wisp', 'Arc', 'Bolt',
];

export const NAME_ENDS = [
  'Chain', 'Protocol', 'Network', 'Finance', 'Token', 'AI', 'Swap', 'DAO', 'Labs', 'Coin', 'Verse',
  'Fi', 'X', 'Pay', 'Link', 'Bridge', 'Cash', 'Play', 'World', 'Data', 'Games', 'Vault',
];

export const WITHDRAW_DISABLED_MESSAGES = [
  'Wallet maintenance, withdrawals suspended',
  'Withdrawals suspended due to network congestion',
  'Network upgrade in progress; withdrawals will resume once the network is stable',
  'Withdrawals suspended pending token swap',
  'Withdrawals temporarily closed for wallet upgrade',
];

export const DEPOSIT_DISABLED_MESSAGES = [
  'Wallet maintenance, deposits suspended',
  'Deposits suspended: network upgrade (hard fork) in progress',
  'Deposits paused due to node synchronisation issues',
  'Deposits suspended pending token migration',
];

/** Messages shown while the flag stays enabled: real deployments do this, and they are events too. */
export const DEPOSIT_NOTICE_MESSAGES = [
  'Please include the memo when depositing, otherwise your funds may be lost',
  'Deposits may be credited late due to network congestion',
  'Deposits are credited after 64 block confirmations',
];

export const WITHDRAW_NOTICE_MESSAGES = [
  'Withdrawals may be delayed due to network congestion',
  'Withdrawals are processed in batches every 30 minutes',
];
