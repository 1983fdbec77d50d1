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
  type RouteConfig,
  type SimulateConfig,
} from './schema';
export * from './defaults';
