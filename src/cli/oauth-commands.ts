/**
 * The OAuth administration commands (docs/oauth.md "Operations"): `clients create|list|revoke`,
 * `users create|list|disable`, `oauth-keys rotate`. Secrets are printed once (client secrets) or
 * never taken from the command line (passwords: standard input or the environment, since `ps`
 * shows every process's arguments).
 */
import type { CommandConfig } from '../config.js';
import { Catalog } from '../catalog/store.js';
import { ClientStore, clientSpecProblem, type ClientRecord, type NewClient } from '../oauth/clients.js';
import { SigningKeys } from '../oauth/signing-keys.js';
import { UserStore, userSpecProblem, type UserRecord } from '../oauth/users.js';
import { emit } from './output.js';
import { RefrainError } from '../errors.js';

const PASSWORD_ENV = 'REFRAIN_USER_PASSWORD';

/**
 * `--redirect-uri a --redirect-uri b` → `--redirect-uri a,b`: the option parser keeps one value
 * per flag, and the option splits on commas.
 */
export function joinRepeatedFlag(argv: string[], flag: string): string[] {
  const values: string[] = [];
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    if (arg.startsWith(`--${flag}=`)) values.push(arg.slice(flag.length + 3));
    else if (arg === `--${flag}` && argv[i + 1] !== undefined) values.push(argv[++i]);
    else rest.push(arg);
  }
  return values.length ? [`--${flag}`, values.join(','), ...rest] : rest;
}

export async function withCatalog<T>(dataDir: string, fn: (catalog: Catalog) => Promise<T> | T): Promise<T> {
  const catalog = Catalog.open(dataDir);
  try {
    return await fn(catalog);
  } finally {
    await catalog.close();
  }
}

const describeClient = (r: ClientRecord): string =>
  `${r.client_id}  "${r.name}"  ${r.plan} quota ${r.quota || 'unlimited'}/day  rate ${r.rate || 'unlimited'}/min` +
  `${r.country ? `  country ${r.country}` : ''}${r.revoked ? `  REVOKED ${r.revoked}` : ''}\n` +
  `    grant types ${r.grant_types.join(', ')}; scopes ${r.scopes.join(' ')}` +
  `${r.redirect_uris.length ? `\n    redirect URIs ${r.redirect_uris.join(' ')}` : ''}`;

type ClientsConfig = CommandConfig<'clients list'> & Partial<CommandConfig<'clients create'>>;

export async function runClients(action: string, config: ClientsConfig, args: string[]): Promise<number> {
  let spec: NewClient | undefined;
  if (action === 'create') {
    spec = {
      name: config.name ?? '',
      redirectUris: config.redirectUri ?? [],
      grantTypes: config.grantTypes ?? [],
      scopes: config.scopes ?? [],
      plan: config.plan ?? 'free',
      quota: config.quota,
      rate: config.rate,
      country: config.country,
    };
    const problem = clientSpecProblem(spec);
    if (problem) throw new RefrainError('usage', problem);
  } else if (action === 'revoke' && args.length !== 1) {
    throw new RefrainError('usage', 'name the client_id to revoke (see `refrain clients list`)');
  }
  return withCatalog(config.data, (catalog) => {
    const clients = new ClientStore(catalog.root);
    if (spec) {
      const { clientSecret, record } = clients.create(spec);
      const { client_id, ...rest } = record;
      emit(config.json, { client_id, client_secret: clientSecret, ...rest }, () =>
        `client_id      ${record.client_id}\nclient_secret  ${clientSecret}\n${describeClient(record)}\n` +
        '(the secret is shown only now: store it)',
      );
    } else if (action === 'list') {
      const list = clients.list();
      emit(config.json, { clients: list }, () => (list.length ? list.map(describeClient).join('\n') : 'no clients'));
    } else {
      const record = clients.revoke(args[0]);
      emit(config.json, record, () => `revoked ${describeClient(record)}`);
    }
    return 0;
  });
}

const describeUser = (r: UserRecord): string =>
  `${r.user_id}  ${r.email}  "${r.name}"  created ${r.created}${r.disabled ? `  DISABLED ${r.disabled}` : ''}`;

/** All of standard input, without the one line break `echo` or a here-document adds. */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

type UsersConfig = CommandConfig<'users list'> & Partial<CommandConfig<'users create'>>;

export async function runUsers(action: string, config: UsersConfig, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let spec: { email: string; name: string; password: string } | undefined;
  if (action === 'create') {
    let password: string;
    if (config.passwordStdin) password = await readStdin();
    else if (env[PASSWORD_ENV]) password = env[PASSWORD_ENV];
    else throw new RefrainError('usage', `give the password on standard input with --password-stdin, or in ${PASSWORD_ENV}`);
    spec = { email: config.email ?? '', name: config.name ?? '', password };
    const problem = userSpecProblem(spec);
    if (problem) throw new RefrainError('usage', problem);
  } else if (action === 'disable' && args.length !== 1) {
    throw new RefrainError('usage', 'name the user_id or e-mail to disable (see `refrain users list`)');
  }
  return withCatalog(config.data, async (catalog) => {
    const users = new UserStore(catalog.root);
    if (spec) {
      const record = await users.create(spec);
      emit(config.json, record, () => `created ${describeUser(record)}`);
    } else if (action === 'list') {
      const list = users.list();
      emit(config.json, { users: list }, () => (list.length ? list.map(describeUser).join('\n') : 'no users'));
    } else {
      const record = users.disable(args[0]);
      emit(config.json, record, () => `disabled ${describeUser(record)}`);
    }
    return 0;
  });
}

export async function runOAuthKeys(config: CommandConfig<'oauth-keys rotate'>): Promise<number> {
  const result = await SigningKeys.rotate(config.data, { retire: config.retire });
  emit(config.json, result, () => `new signing key ${result.kid}; the JWKS now serves ${result.kids.join(', ')}`);
  return 0;
}
