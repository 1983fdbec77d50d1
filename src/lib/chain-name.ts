/** A canonical chain name (dialects.md section 3): lower-case letters, digits and `-` (`tron`, `avalanche-c`). */
export const CHAIN_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export const CHAIN_NAME_MESSAGE = 'a chain name is lower-case letters, digits and - (tron, avalanche-c)';
