// `npx runway <command>`: operates on the database directly (the embedded one, or DATABASE_URL).
import { ConfigError, readEnv } from '../lib/config/env';
import { UsageError } from './args';
import { commands } from './commands';

const USAGE = `usage: runway <command> [options]
       runway --version

commands:
${Object.entries(commands)
  .map(([name, c]) => `  ${name.padEnd(16)}${c.summary}`)
  .join('\n')}

Run \`runway <command> --help\` for a command's options.`;

export async function main(argv: string[]): Promise<number> {
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
    // The version is there to read even when the configuration is wrong.
    if (name !== 'version') readEnv();
    return await command.run(rest);
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`runway ${name}: ${err.message}\nusage: runway ${name} ${command.usage}`);
      return 2;
    }
    if (err instanceof ConfigError) {
      console.error(err.message);
      return 2;
    }
    console.error(`runway ${name}: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}
