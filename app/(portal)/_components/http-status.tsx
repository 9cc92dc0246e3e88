'use client';

const MEANING: Record<string, string> = {
  '2': 'succeeded',
  '3': 'redirected',
  '4': 'refused: a problem with the request',
  '5': 'failed on our side',
};

/** An HTTP status coloured by its class; the meaning is in the title, not only the colour. */
export function HttpStatus({ status }: { status: number }) {
  const statusClass = `${String(status)[0]}xx`;
  return (
    <span className={`status status-${statusClass}`} title={`${status}: ${MEANING[String(status)[0]] ?? 'unusual status'}`}>
      {status}
    </span>
  );
}
