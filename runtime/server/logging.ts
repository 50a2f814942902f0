// Log levels, ordered by severity as in RFC 5424 §6.2.1, which MCP's
// LoggingLevel follows (server/utilities/logging#log-levels); and the server's
// own diagnostics sink (stderr by default), which is not the MCP log stream.
import type { LoggingLevel } from "../protocol/handler-revision.js";

const SEVERITY: Readonly<Record<LoggingLevel, number>> = {
  debug: 0,
  info: 1,
  notice: 2,
  warning: 3,
  error: 4,
  critical: 5,
  alert: 6,
  emergency: 7,
};

export function isLoggingLevel(value: unknown): value is LoggingLevel {
  return typeof value === "string" && Object.hasOwn(SEVERITY, value);
}

/** Whether a message at `level` passes a threshold (undefined: everything passes). */
export function passes(level: LoggingLevel, threshold: LoggingLevel | undefined): boolean {
  return threshold === undefined || SEVERITY[level] >= SEVERITY[threshold];
}

/** Where the server reports on itself: rejected messages, lossy conversions, handler failures. */
export type ServerLogger = (level: LoggingLevel, message: string, data?: unknown) => void;

/** The default sink: one line per entry on stderr (never stdout, which may carry the protocol), from `minimum` up. */
export function stderrLogger(minimum: LoggingLevel): ServerLogger {
  return (level, message, data) => {
    if (!passes(level, minimum)) return;
    const detail = data === undefined ? "" : ` ${safeJson(data)}`;
    console.error(`mcpgen [${level}] ${message}${detail}`);
  };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
