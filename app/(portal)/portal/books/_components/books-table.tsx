import { IntentLink } from '../../../../_components/intent-link';
import type { BookSummary } from '../../../_components/queries';
import { ENVIRONMENT_LABEL } from '../../../_components/ui';
import { TableHead } from '../../../_components/table-head';
import { BookBadges, PublishedVersion } from './book-badges';

/** Books with what is published where: the Price books page and the Overview show the same table. */
export function BooksTable({ books, ariaLabel }: { books: BookSummary[]; ariaLabel: string }) {
  return (
    <table className="cards" aria-label={ariaLabel}>
      <TableHead columns={['Book', 'Key', ENVIRONMENT_LABEL.test, ENVIRONMENT_LABEL.live, 'Latest version']} />
      <tbody>
        {books.map((b) => (
          <tr key={b.id}>
            <td data-label="Book">
              <IntentLink href={`/portal/books/${b.id}`}>{b.name}</IntentLink> <BookBadges isPrimary={b.isPrimary} hasDraft={b.hasDraft} />
            </td>
            <td data-label="Key">
              <code>{b.key}</code>
            </td>
            <td data-label={ENVIRONMENT_LABEL.test}>
              <PublishedVersion publication={b.publications.test} />
            </td>
            <td data-label={ENVIRONMENT_LABEL.live}>
              <PublishedVersion publication={b.publications.live} />
            </td>
            <td data-label="Latest version">{b.latestVersion ? `v${b.latestVersion}` : <span className="muted">none yet</span>}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
