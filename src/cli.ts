#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { parseHostPort, type HostPort } from './lib/host-port';
import { MAX_SIMULATED_COINS } from './lib/simulated-market';
import { checkConfigFile, pollOnce, replay, runDaemon, runSimulator, testNotify, type Io } from './commands';
import { isSimulatorDialect, SIMULATOR_DIALECTS, type SimCredentials, type SimulatorDialect } from './simulator';

const USAGE = `usage: spotwatch <command> [options]

commands:
  run          [--config FILE] [--record DIR]
                                          watch the configured exchanges (the daemon);
                                          --record: keep every answer in DIR, for replay
  simulate     [--listen HOST:PORT] [--scenario FILE] [--coins N] [--seed N]
               [--dialect NAME] [--api-key K --api-secret S [--passphrase P]]
                                          serve the reference exchange (in NAME's API)
  check-config [--config FILE]            check the config and its rules file
  once         [--config FILE] [--json]   poll every exchange once and print what was seen
  test-notify  --receiver NAME [--config FILE]
                                          send a test notification through a receiver
  replay       DIR [--config FILE] [--rules FILE] [--json]
                                          run a recording (run --record DIR) through the
                                          rules again and print each change and alert

The config file is --config, else $SPOTWATCH_CONFIG, else config/spotwatch.yaml.
spotwatch COMMAND --help (or spotwatch help COMMAND) shows a command's options.`;

const CONFIG_OPTION = `  -c, --config FILE   the config file (else $SPOTWATCH_CONFIG, else config/spotwatch.yaml)`;

/** `spotwatch COMMAND --help`: what the command does and every option it takes. */
const HELP: Record<string, string> = {
  run: `usage: spotwatch run [--config FILE] [--record DIR]

Watch the configured exchanges: poll, diff, evaluate the rules, notify, and serve /metrics,
/healthz, /readyz, /api/v1 and the status page on server.listen. Runs until SIGTERM or SIGINT;
SIGHUP reloads the config.

options:
${CONFIG_OPTION}
      --record DIR    also keep every raw answer in DIR, for spotwatch replay
  -h, --help          show this help`,
  simulate: `usage: spotwatch simulate [--listen HOST:PORT] [--scenario FILE] [--coins N] [--seed N]
                          [--dialect NAME] [--api-key K --api-secret S [--passphrase P]]

Serve the reference exchange (the spec's interface, or another exchange's API with --dialect,
notice sources included), with its admin API under /-/sim/ and a Statuspage under
/-/statuspage/. Runs until SIGTERM or SIGINT.

options:
      --listen HOST:PORT  where to listen (default 127.0.0.1:8080; port 0: any free port)
      --scenario FILE     play the scripted scenario in FILE
      --coins N           how many coins the market has (default 4000, at most 20000)
      --seed N            seed of the generated market (default 1)
      --dialect NAME      the API to speak: ${SIMULATOR_DIALECTS.join(', ')} (default spot-v3)
      --api-key K         the key signed requests must carry (with --api-secret)
      --api-secret S      the secret they are signed with
      --passphrase P      okx's passphrase
  -h, --help              show this help`,
  'check-config': `usage: spotwatch check-config [--config FILE]

Check the config and its rules file. Exit 0 when valid; otherwise exit 1 and print each
problem as FILE:LINE:COL: message.

options:
${CONFIG_OPTION}
  -h, --help          show this help`,
  once: `usage: spotwatch once [--config FILE] [--json]

Poll every configured exchange once and print what was seen (exit 1 when a poll failed).

options:
${CONFIG_OPTION}
      --json          print the coins and tickers of every exchange, in the spec's field names
  -h, --help          show this help`,
  'test-notify': `usage: spotwatch test-notify --receiver NAME [--config FILE]

Send a test notification through the receiver NAME of the config.

options:
      --receiver NAME the receiver to send through (required)
${CONFIG_OPTION}
  -h, --help          show this help`,
  replay: `usage: spotwatch replay DIR [--config FILE] [--rules FILE] [--json]

Run a recording (spotwatch run --record DIR) through the rules again and print each change
and alert transition in order.

options:
${CONFIG_OPTION}
      --rules FILE    use these rules instead of the config's rules_file
      --json          one JSON object a line
  -h, --help          show this help`,
};

/** Whether the arguments ask for help (before a `--`, where an option could stand). */
function asksHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

class UsageError extends Error {}

function configPath(values: { config?: string | undefined }, env: NodeJS.ProcessEnv): string {
  return values.config ?? env.SPOTWATCH_CONFIG ?? 'config/spotwatch.yaml';
}

function int(name: string, text: string | undefined, min = 0, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) throw new UsageError(`--${name} takes a whole number, got "${text}"`);
  if (Number(text) < min) throw new UsageError(`--${name} takes a whole number from ${min}, got "${text}"`);
  if (Number(text) > max) throw new UsageError(`--${name} takes a whole number up to ${max}, got "${text}"`);
  return Number(text);
}

function listen(text: string | undefined): HostPort | undefined {
  if (text === undefined) return undefined;
  const hp = parseHostPort(text);
  if (hp === undefined) throw new UsageError(`--listen takes HOST:PORT, got "${text}"`);
  return hp;
}

function dialect(text: string | undefined): SimulatorDialect | undefined {
  if (text === undefined) return undefined;
  if (!isSimulatorDialect(text)) throw new UsageError(`--dialect takes one of ${SIMULATOR_DIALECTS.join(', ')}, got "${text}"`);
  return text;
}

/** The key a signed dialect accepts: --api-key and --api-secret together, --passphrase for okx. */
function credentials(values: { 'api-key'?: string | undefined; 'api-secret'?: string | undefined; passphrase?: string | undefined }): SimCredentials | undefined {
  const { 'api-key': apiKey, 'api-secret': apiSecret, passphrase } = values;
  if (apiKey === undefined && apiSecret === undefined && passphrase === undefined) return undefined;
  if (apiKey === undefined || apiSecret === undefined) throw new UsageError('--api-key and --api-secret go together');
  return { apiKey, apiSecret, ...(passphrase !== undefined && { passphrase }) };
}

/** Runs one command; resolves to the process exit code. */
export async function main(argv: string[], io: Io): Promise<number> {
  const [command, ...rest] = argv;
  const help = command === 'help' && rest[0] !== undefined ? HELP[rest[0]] : command !== undefined && asksHelp(rest) ? HELP[command] : undefined;
  if (help !== undefined) {
    io.stdout.write(`${help}\n`);
    return 0;
  }
  try {
    switch (command) {
      case 'run': {
        const { values } = parseArgs({ args: rest, options: { config: { type: 'string', short: 'c' }, record: { type: 'string' } } });
        return await runDaemon(configPath(values, io.env), io, { record: values.record });
      }
      case 'simulate': {
        const { values } = parseArgs({
          args: rest,
          options: {
            listen: { type: 'string' }, scenario: { type: 'string' }, coins: { type: 'string' }, seed: { type: 'string' },
            dialect: { type: 'string' }, 'api-key': { type: 'string' }, 'api-secret': { type: 'string' }, passphrase: { type: 'string' },
          },
        });
        return await runSimulator(
          {
            listen: listen(values.listen), scenario: values.scenario, coins: int('coins', values.coins, 1, MAX_SIMULATED_COINS), seed: int('seed', values.seed),
            dialect: dialect(values.dialect), credentials: credentials(values),
          },
          io,
        );
      }
      case 'check-config': {
        const { values } = parseArgs({ args: rest, options: { config: { type: 'string', short: 'c' } } });
        return await checkConfigFile(configPath(values, io.env), io);
      }
      case 'once': {
        const { values } = parseArgs({ args: rest, options: { config: { type: 'string', short: 'c' }, json: { type: 'boolean' } } });
        return await pollOnce(configPath(values, io.env), { json: values.json ?? false }, io);
      }
      case 'test-notify': {
        const { values } = parseArgs({ args: rest, options: { config: { type: 'string', short: 'c' }, receiver: { type: 'string' } } });
        if (values.receiver === undefined) throw new UsageError('test-notify needs --receiver NAME');
        return await testNotify(configPath(values, io.env), values.receiver, io);
      }
      case 'replay': {
        const { values, positionals } = parseArgs({
          args: rest,
          allowPositionals: true,
          options: { config: { type: 'string', short: 'c' }, rules: { type: 'string' }, json: { type: 'boolean' } },
        });
        const [dir, ...more] = positionals;
        if (dir === undefined) throw new UsageError('replay needs the recording\'s directory: spotwatch replay DIR');
        if (more.length > 0) throw new UsageError(`replay takes one directory, got also "${more.join(' ')}"`);
        return await replay(dir, configPath(values, io.env), { rules: values.rules, json: values.json ?? false }, io);
      }
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        io.stdout.write(`${USAGE}\n`);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (err) {
    if (err instanceof UsageError || (err instanceof TypeError && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS'))) {
      io.stderr.write(`spotwatch: ${err.message}\n\n${(command !== undefined && HELP[command]) || USAGE}\n`);
      return 2;
    }
    throw err;
  }
}

if (require.main === module) {
  main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env }).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`spotwatch: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
