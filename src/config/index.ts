export { loadConfigFile, parseConfig, type ConfigResult } from './load';
export { redactConfig } from './redact';
export {
  configSchema,
  LOG_LEVELS,
  type Config,
  type ExchangeConfig,
  type LogLevel,
  type NotifyConfig,
  type ReceiverConfig,
  type ReceiverKind,
  type RouteConfig,
  type SimulateConfig,
} from './schema';
export { RECEIVER_KINDS } from './checks';
export * from './defaults';
