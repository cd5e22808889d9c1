// `npx runway <command>`: operates on the database directly (the embedded one, or DATABASE_URL).
import { ConfigError, readEnv } from '../lib/config/env';
import { UsageError } from './args';
import { commands } from './commands';
import { DEFAULT_CONFIG_FILE, loadConfigFile, takeConfigFlag } from './config-file';

const USAGE = `usage: runway [--config <file>] <command> [options]
       runway --version

Settings come from the environment and the settings file: --config <file>, else ${DEFAULT_CONFIG_FILE}
when it exists (the environment wins over the file).

commands:
${Object.entries(commands)
  .map(([name, c]) => `  ${name.padEnd(16)}${c.summary}`)
  .join('\n')}

Run \`runway <command> --help\` for a command's options.`;

export async function main(args: string[]): Promise<number> {
  let argv: string[];
  try {
    const taken = takeConfigFlag(args);
    argv = taken.argv;
    loadConfigFile(taken.file);
  } catch (err) {
    console.error(`runway: ${err instanceof Error ? err.message : String(err)}`);
    return 2;
  }
  const [given, ...rest] = argv;
  const name = given === '--version' ? 'version' : given;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(USAGE);
    return name ? 0 : 2;
  }
  const command = commands[name];
  if (!command) {
    console.error(`runway: unknown command '${name}'\n\n${USAGE}`);
    return 2;
  }
  if (rest.includes('--help')) {
    console.log(`usage: runway ${name} ${command.usage}\n\n${command.summary}`);
    return 0;
  }
  try {
    // The version is there to read even when the configuration is wrong; the doctor reports it; a restore
    // may first have to put the secret file the configuration names in place (it validates afterwards).
    if (name !== 'version' && name !== 'doctor' && name !== 'restore') readEnv();
    return await command.run(rest);
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`runway ${name}: ${err.message}\nusage: runway ${name} ${command.usage}`);
      return 2;
    }
    if (err instanceof ConfigError) {
      // A production start logs JSON only (its log collector parses every line); a person at a terminal reads text.
      const production = name === 'start' && !rest.includes('--dev') && !rest.includes('--demo');
      if (production) console.error(JSON.stringify({ time: new Date().toISOString(), level: 'error', msg: 'invalid configuration', problems: err.problems }));
      else console.error(err.message);
      return 2;
    }
    console.error(`runway ${name}: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}
