'use client';

import { describeIssuePlace } from '../_lib/describe-change';
import styles from './books.module.css';

/**
 * Validation problems by field path. Each is a button that selects the field in the editor,
 * so a person can jump from the message to the place in the JSON.
 */
export function IssueList({
  issues,
  artifact,
  onReveal,
  label,
}: {
  issues: Record<string, string[]>;
  artifact: unknown;
  onReveal: (path: string) => void;
  label: string;
}) {
  const entries = Object.entries(issues).flatMap(([path, messages]) => messages.map((message) => ({ path, message })));
  return (
    <ul className={styles.issues} aria-label={label}>
      {entries.map(({ path, message }, i) => {
        const place = describeIssuePlace(artifact, path);
        // `artifact` is how the API names the document itself (not one of its fields).
        const shownPath = path === 'artifact' ? 'the whole book' : path;
        return (
          <li key={`${path}-${i}`}>
            <button type="button" className={styles.issue} onClick={() => onReveal(path)} title="Show this place in the editor">
              <code>{shownPath}</code>: {message}
              {place && <span className="muted"> — in {place}</span>}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
