/** docs/configuration.md, generated from the one option table (scripts/docs-config.ts writes it). */
import { optionsMarkdown } from './config.js';

export function configurationDoc(): string {
  return `# Configuration

Every option of every \`refrain\` command, generated from the zod schema in \`src/config.ts\` (the same
schema validates the flags and environment and prints \`--help\`). Flags win over environment
variables, which win over defaults. Booleans accept \`--flag\`, \`--flag=true|false|1|0\`.

${optionsMarkdown()}
`;
}
