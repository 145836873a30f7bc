import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, Level } from 'pino';

/** A logger that can tell whether a level would be written (pino's can). */
interface Leveled {
  isLevelEnabled?: (level: string) => boolean;
}

/**
 * A request's logger that becomes its real child logger (its `reqId` bound) the first time it
 * writes at an enabled level. Pino makes a child eagerly and runs the redaction over its
 * bindings; at the production level most requests never log, so most never pay for it.
 */
class LazyChild implements FastifyBaseLogger {
  #real: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger & Leveled,
    private readonly bindings: Bindings,
  ) {}

  #child(): FastifyBaseLogger {
    return (this.#real ??= this.parent.child(this.bindings));
  }

  /** The real child when it exists or `level` would be written, else nothing to do. */
  #to(level: Level): FastifyBaseLogger | undefined {
    if (this.#real) return this.#real;
    return this.parent.isLevelEnabled!(level) ? this.#child() : undefined;
  }

  get level(): string {
    return this.#real?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.#child().level = level;
  }

  #write(level: Level, args: unknown[]): void {
    const to = this.#to(level);
    if (to) to[level](...(args as [unknown]));
  }

  fatal(...args: unknown[]): void {
    this.#write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.#write('error', args);
  }
  warn(...args: unknown[]): void {
    this.#write('warn', args);
  }
  info(...args: unknown[]): void {
    this.#write('info', args);
  }
  debug(...args: unknown[]): void {
    this.#write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.#write('trace', args);
  }
  silent(): void {
    // Writes nothing, as pino's.
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#child().child(bindings, options);
  }
}

/**
 * Fastify's childLoggerFactory: each request's logger is made lazily (LazyChild). A route with
 * its own log level or serializers, or a logger that cannot tell its levels, gets the eager
 * child Fastify would make.
 */
export function lazyChildLoggerFactory(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  const leveled = logger as FastifyBaseLogger & Leveled;
  if (options.level !== undefined || options.serializers || !leveled.isLevelEnabled) {
    return logger.child(bindings, options);
  }
  return new LazyChild(leveled, bindings);
}
