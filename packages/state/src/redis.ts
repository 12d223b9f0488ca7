/**
 * The Redis store, on `@redis/client` (node-redis, the client Redis itself
 * maintains; the `redis` package minus the module commands we do not use).
 * Every key is prefixed (default `tool-search:`), so replicas of one
 * deployment share state and other deployments on the same server do not.
 *
 * Fail closed: the offline queue is off and every command has a deadline,
 * so while Redis is down a command throws `STATE_UNAVAILABLE` at once instead
 * of waiting for a reconnect; the client keeps reconnecting in the background.
 * Subscriptions use a second connection (Redis requires it) and are restored
 * by the client after a reconnect.
 */
import { randomUUID } from 'node:crypto';
import { createClient, type RedisClientType } from '@redis/client';
import { ToolSearchError, errorMessage } from '@tool-search/kernel';
import { DEFAULT_COMMAND_TIMEOUT_MS, DEFAULT_KEY_PREFIX, type RedisStateOptions } from './redis-options.js';
import type { BoundOptions, SetOptions, StateListener, StateStore } from './types.js';
import { StateErrors } from './errors.js';

export class RedisStateStore implements StateStore {
  readonly kind = 'redis' as const;
  readonly replicaId: string;
  readonly #client: RedisClientType;
  readonly #prefix: string;
  readonly #timeoutMs: number;
  readonly #url: string;
  #subscriber: RedisClientType | undefined;
  #closed = false;

  constructor(options: RedisStateOptions) {
    this.replicaId = options.replicaId ?? randomUUID().slice(0, 8);
    this.#prefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
    this.#timeoutMs = options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
    this.#url = redactedUrl(options.url);
    this.#client = createClient({
      url: options.url,
      disableOfflineQueue: true,
      commandOptions: { timeout: this.#timeoutMs },
      socket: { connectTimeout: this.#timeoutMs, reconnectStrategy: (retries) => Math.min(50 * 2 ** retries, 2_000) },
    }) as RedisClientType;
    const report =
      options.onError ??
      ((error: Error) =>
        void process.stderr.write(
          `state: redis at ${this.#url}: ${error.message} (reconnecting; state-dependent calls fail closed meanwhile)\n`,
        ));
    // One report per outage: the client retries (and errors) every few hundred ms until Redis is back.
    let reported = false;
    // Without a listener an 'error' event would crash the process.
    this.#client.on('error', (error: Error) => {
      if (reported) return;
      reported = true;
      report(error);
    });
    this.#client.on('ready', () => (reported = false));
  }

  async connect(): Promise<void> {
    try {
      await withDeadline(this.#client.connect(), this.#timeoutMs * 2, 'connect');
    } catch (error) {
      await this.#client.destroy();
      throw this.#unavailable('connect', error);
    }
  }

  async get(key: string): Promise<string | undefined> {
    return (await this.#run('GET', () => this.#client.get(this.#key(key)))) ?? undefined;
  }

  async set(key: string, value: string, options: SetOptions): Promise<boolean> {
    const reply = await this.#run('SET', () =>
      this.#client.set(this.#key(key), value, {
        expiration: { type: 'PX', value: ttl(options.ttlMs) },
        ...(options.ifAbsent ? { condition: 'NX' as const } : {}),
      }),
    );
    return reply === 'OK';
  }

  async take(key: string): Promise<string | undefined> {
    return (await this.#run('GETDEL', () => this.#client.getDel(this.#key(key)))) ?? undefined;
  }

  async delete(key: string): Promise<boolean> {
    return (await this.#run('DEL', () => this.#client.del(this.#key(key)))) > 0;
  }

  async touch(key: string, ttlMs: number): Promise<boolean> {
    return (await this.#run('PEXPIRE', () => this.#client.pExpire(this.#key(key), ttl(ttlMs)))) === 1;
  }

  async increment(key: string, field: string, by: number, ttlMs: number): Promise<number> {
    const k = this.#key(key);
    const [value] = await this.#run('HINCRBY', () =>
      this.#client.multi().hIncrBy(k, field, by).pExpire(k, ttl(ttlMs)).exec(),
    );
    return Number(value);
  }

  async counters(key: string): Promise<Record<string, number>> {
    const all = await this.#run('HGETALL', () => this.#client.hGetAll(this.#key(key)));
    return Object.fromEntries(Object.entries(all).map(([field, value]) => [field, Number(value)]));
  }

  async append(key: string, values: readonly string[], options: BoundOptions): Promise<number> {
    const k = this.#key(key);
    if (!values.length) return Number(await this.#run('LLEN', () => this.#client.lLen(k)));
    const [length] = await this.#run('RPUSH', () =>
      this.#client
        .multi()
        .rPush(k, [...values])
        .lTrim(k, -options.max, -1)
        .pExpire(k, ttl(options.ttlMs))
        .exec(),
    );
    return Math.min(Number(length), options.max);
  }

  async range(key: string, limit?: number): Promise<string[]> {
    return this.#run('LRANGE', () => this.#client.lRange(this.#key(key), limit === undefined ? 0 : -limit, -1));
  }

  async index(key: string, member: string, score: number, options: BoundOptions): Promise<void> {
    const k = this.#key(key);
    await this.#run('ZADD', () =>
      this.#client
        .multi()
        .zAdd(k, { score, value: member })
        .zRemRangeByRank(k, 0, -(options.max + 1))
        .pExpire(k, ttl(options.ttlMs))
        .exec(),
    );
  }

  async members(key: string, limit?: number): Promise<string[]> {
    return this.#run('ZRANGE', () =>
      this.#client.zRange(this.#key(key), 0, limit === undefined ? -1 : limit - 1, { REV: true }),
    );
  }

  async unindex(key: string, member: string): Promise<void> {
    await this.#run('ZREM', () => this.#client.zRem(this.#key(key), member));
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.#run('PUBLISH', () => this.#client.publish(this.#key(channel), message));
  }

  async subscribe(channel: string, listener: StateListener): Promise<() => Promise<void>> {
    const subscriber = await this.#subscriberClient();
    const own = (message: string) => listener(message);
    const name = this.#key(channel);
    await this.#run('SUBSCRIBE', () => subscriber.subscribe(name, own));
    return async () => {
      if (this.#closed || !subscriber.isOpen) return;
      await this.#run('UNSUBSCRIBE', () => subscriber.unsubscribe(name, own)).catch(() => undefined); // the subscriber connection is down: its subscriptions went with it
    };
  }

  async ping(): Promise<boolean> {
    try {
      return (await this.#run('PING', () => this.#client.ping())) === 'PONG';
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all(
      [this.#client, this.#subscriber].map((client) =>
        client?.isOpen ? client.close().catch(() => client.destroy()) : client?.destroy(),
      ),
    );
  }

  async #subscriberClient(): Promise<RedisClientType> {
    if (this.#subscriber) return this.#subscriber;
    const subscriber = this.#client.duplicate() as RedisClientType;
    subscriber.on('error', () => undefined); // the main client reports connection trouble once
    this.#subscriber = subscriber;
    try {
      await withDeadline(subscriber.connect(), this.#timeoutMs * 2, 'connect');
    } catch (error) {
      this.#subscriber = undefined;
      await subscriber.destroy();
      throw this.#unavailable('SUBSCRIBE', error);
    }
    return subscriber;
  }

  #key(key: string): string {
    return this.#prefix + key;
  }

  async #run<T>(command: string, send: () => Promise<T>): Promise<T> {
    if (this.#closed)
      throw new ToolSearchError(StateErrors.STATE_UNAVAILABLE, `state store closed (${command})`, {
        details: { command },
      });
    try {
      return await withDeadline(send(), this.#timeoutMs, command);
    } catch (error) {
      throw this.#unavailable(command, error);
    }
  }

  #unavailable(command: string, error: unknown): ToolSearchError {
    if (ToolSearchError.isInstance(error)) return error;
    const reason = errorMessage(error);
    return new ToolSearchError(
      StateErrors.STATE_UNAVAILABLE,
      `state store (redis at ${this.#url}) did not answer ${command}: ${reason}`,
      {
        details: { command, url: this.#url, replica: this.replicaId },
        cause: error,
      },
    );
  }
}

/** Redis refuses a non-positive TTL; a key must live at least a millisecond. */
function ttl(ms: number): number {
  return Math.max(1, Math.ceil(ms));
}

/** The URL without its password, for messages and logs. */
function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'an invalid URL';
  }
}

async function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer to ${what} within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
