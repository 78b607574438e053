/**
 * The `refrain` command: `serve`, `import <files…>`, `index`, `generate`, `keys create|list|revoke`,
 * and the OAuth administration: `clients create|list|revoke`, `users create|list|disable`,
 * `oauth-keys rotate`; the feeds: `feeds build|list|prune` and `sync` (a replica); the review of
 * users' lyrics and feedback: `contributions list|show|approve|reject`; `loadtest` of a running server.
 * Every option comes from the one schema in src/config.ts; `--help` is generated from it. A
 * command's module is loaded when that command runs, so `--version`, `--help` and a small command
 * do not pay for the server's (uWS, the index pool, OAuth) or the load tester's modules.
 */
import { COMMANDS, helpText, parseCommand, type CommandName } from '../config.js';
import { isError, RefrainError } from '../errors.js';
import { fileProblem, isFileError } from '../util/file-errors.js';
import { packageRoot } from '../util/package-root.js';

const USAGE = `usage: refrain <command> [options]

Commands:
${(Object.keys(COMMANDS) as CommandName[]).map((c) => `  ${c.padEnd(18)} ${COMMANDS[c].summary}`).join('\n')}

Run \`refrain <command> --help\` for a command's options, \`refrain --version\` for the version.`;

/** The command the words name: two words (`keys create`) or one (`serve`). */
function commandOf(argv: string[]): { name: CommandName; rest: string[] } | undefined {
  const two = `${argv[0]} ${argv[1]}`;
  if (argv.length >= 2 && Object.hasOwn(COMMANDS, two)) return { name: two as CommandName, rest: argv.slice(2) };
  if (argv[0] && Object.hasOwn(COMMANDS, argv[0])) return { name: argv[0] as CommandName, rest: argv.slice(1) };
  return undefined;
}

/** Command words as typed, for "unknown command": `keys dance` when `keys` is a group, else one word. */
function typedCommand(argv: string[]): string {
  const group = (Object.keys(COMMANDS) as string[]).some((c) => c.startsWith(`${argv[0]} `));
  return group && argv[1] && !argv[1].startsWith('-') ? `${argv[0]} ${argv[1]}` : argv[0];
}

export async function main(argv: string[]): Promise<number> {
  if (argv[0] === '--version' || argv[0] === '-V' || argv[0] === 'version') {
    process.stdout.write(`${packageRoot()?.version ?? 'unknown'}\n`);
    return 0;
  }
  const command = commandOf(argv);
  if (!command) {
    if (argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    // No command at all is a usage error too (exit 2), so a script that lost its arguments fails.
    const what = argv.length === 0 ? 'no command given' : `unknown command '${typedCommand(argv)}'`;
    process.stderr.write(`refrain: ${what}\n\n${USAGE}\n`);
    return 2;
  }
  if (command.rest.includes('--help') || command.rest.includes('-h')) {
    process.stdout.write(`${helpText(command.name)}\n`);
    return 0;
  }
  try {
    switch (command.name) {
      case 'serve': {
        const { config, explicit } = parseCommand('serve', command.rest);
        const { runServe } = await import('./serve.js');
        return await runServe(config, explicit);
      }
      case 'import': {
        const { config, positionals } = parseCommand('import', command.rest);
        return await (await import('./commands.js')).runImport(config, positionals);
      }
      case 'generate':
        return await (await import('./commands.js')).runGenerate(parseCommand('generate', command.rest).config);
      case 'index':
        return await (await import('./commands.js')).runIndex(parseCommand('index', command.rest).config);
      case 'clients create':
      case 'clients list':
      case 'clients revoke': {
        const { joinRepeatedFlag, runClients } = await import('./oauth-commands.js');
        const { config, positionals } = parseCommand(command.name, joinRepeatedFlag(command.rest, 'redirect-uri'));
        return await runClients(command.name.split(' ')[1], config, positionals);
      }
      case 'users create':
      case 'users list':
      case 'users disable': {
        const { config, positionals } = parseCommand(command.name, command.rest);
        return await (await import('./oauth-commands.js')).runUsers(command.name.split(' ')[1], config, positionals);
      }
      case 'feeds build':
      case 'feeds list':
      case 'feeds prune':
        return await (await import('./feeds-commands.js')).runFeeds(command.name.split(' ')[1], parseCommand(command.name, command.rest).config);
      case 'sync':
        return await (await import('./feeds-commands.js')).runSync(parseCommand('sync', command.rest).config);
      case 'contributions list':
      case 'contributions show':
      case 'contributions approve':
      case 'contributions reject': {
        const { config, positionals } = parseCommand(command.name, command.rest);
        return await (await import('./contributions-commands.js')).runContributions(command.name.split(' ')[1], config, positionals);
      }
      case 'oauth-keys rotate':
        return await (await import('./oauth-commands.js')).runOAuthKeys(parseCommand('oauth-keys rotate', command.rest).config);
      case 'loadtest': {
        const { runLoadtestCommand } = await import('./loadtest-command.js');
        return await runLoadtestCommand(parseCommand('loadtest', command.rest).config);
      }
      default: {
        const { config, positionals } = parseCommand(command.name, command.rest);
        return await (await import('./commands.js')).runKeys(command.name.split(' ')[1], config, positionals);
      }
    }
  } catch (e) {
    if (isError(e, 'usage')) {
      process.stderr.write(`refrain ${command.name}: ${e.hint}\n\n${helpText(command.name)}\n`);
      return 2;
    }
    if (e instanceof RefrainError) {
      process.stderr.write(`refrain ${command.name}: ${e.hint}\n`);
      return 1;
    }
    // Anything else still gets one line, not a stack trace (issue 11 #17); REFRAIN_DEBUG=1 shows it.
    if (process.env.REFRAIN_DEBUG) process.stderr.write(`${(e as Error)?.stack ?? String(e)}\n`);
    const where = typeof (e as { path?: unknown })?.path === 'string' ? `${(e as { path: string }).path}: ` : '';
    const hint = process.env.REFRAIN_DEBUG ? '' : ' (REFRAIN_DEBUG=1 shows the stack trace)';
    process.stderr.write(`refrain ${command.name}: ${where}${fileProblem(e)}${isFileError(e) ? '' : hint}\n`);
    return 1;
  }
}

const code = await main(process.argv.slice(2));
if (code !== 0 || !['serve'].includes(process.argv[2] ?? '')) process.exitCode = code;
