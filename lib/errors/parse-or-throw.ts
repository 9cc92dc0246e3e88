import type { z } from 'zod';
import { ServiceError, type ErrorCode } from './service-error';

/** Zod issues as `details.fields` of spec 2.1: dotted field path -> messages. */
export function issuesByField(error: z.ZodError, where: string): Record<string, string[]> {
  // No prototype: a field may be called `toString` or `constructor` (clients send anything).
  const fields: Record<string, string[]> = Object.create(null);
  const add = (field: string, message: string) => (fields[field] ??= []).push(message);
  for (const issue of error.issues) {
    const path = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add(path ? `${path}.${key}` : key, 'is not an allowed field');
    } else {
      add(path || where, issue.message);
    }
  }
  return fields;
}

/** Parses with a contract schema; failures become `code` with `details.fields` (spec 2.1). */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, code: ErrorCode, where: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const fields = issuesByField(result.error, where);
  const [first] = Object.keys(fields);
  throw new ServiceError(code, `Invalid ${where}: ${first}: ${fields[first][0]}`, {
    details: { fields },
    param: first === where ? '' : first,
  });
}
