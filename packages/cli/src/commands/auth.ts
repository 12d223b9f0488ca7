/**
 * `tool-search auth hash-key [key]`: the `sha256:<hex>` hash to put in
 * `auth.keys[].hash`. Without a key, a new random one is made and printed
 * once with its hash; `-` reads the key from stdin (kept out of the process list).
 */
import type { Command } from 'commander';
import type { CliIO } from '../io.js';

export function registerAuthCommands(program: Command, io: CliIO): void {
  program
    .command('auth')
    .description('API keys of the gateway and serve mcp --http (config auth.keys)')
    .command('hash-key [key]')
    .description(
      'print the sha256 hash of a key for auth.keys[].hash; no key: make a new random key too; "-": read it from stdin',
    )
    .action(async (key: string | undefined) => {
      const { generateApiKey, hashApiKey } = await import('@tool-search/auth');
      const plain = key === '-' ? (await readAll(io.stdin)).trim() : key;
      if (plain !== undefined) return void io.stdout.write(`${hashApiKey(plain)}\n`);
      const made = generateApiKey();
      io.stdout.write(`key:  ${made}\nhash: ${hashApiKey(made)}\n`);
      io.stderr.write(
        'Give the key to the client (Authorization: Bearer <key>); put only the hash in auth.keys[].hash.\n',
      );
    });
}

async function readAll(stream: NodeJS.ReadableStream | undefined): Promise<string> {
  let text = '';
  for await (const chunk of stream ?? process.stdin) text += String(chunk);
  return text;
}
