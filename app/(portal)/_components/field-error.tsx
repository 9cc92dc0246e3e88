'use client';

/**
 * The message under a form field the API refused (`details.fields`). `explanation` says it in
 * the portal's words; without one the API's own messages are shown.
 */
export function FieldError({ id, messages, explanation }: { id: string; messages: string[] | undefined; explanation?: string }) {
  if (!messages?.length) return null;
  return (
    <p id={id} className="field-error">
      {explanation ?? messages.join(' ')}
    </p>
  );
}

/** Props that tie an input to its FieldError for assistive technology. */
export function describedBy(id: string, messages: string[] | undefined) {
  return messages?.length ? { 'aria-invalid': true as const, 'aria-describedby': id } : {};
}
