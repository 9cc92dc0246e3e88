// How the engine words its steps for people: labels instead of ids, money in the book's
// currency. Receipts keep the engine's own wording (RECEIPT_WORDING); views that explain a price
// compile the same book with this one, so the steps are the same and only the words differ.
import { RECEIPT_WORDING, type Wording } from '@/lib/pricing/evaluate';
import { formatMoney } from './receipt-view';

function list(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

function percent(basisPoints: number): string {
  return `${basisPoints / 100}%`;
}

export function peopleWording(currency: string): Wording {
  const money = (amountMinor: number) => {
    try {
      return formatMoney(amountMinor, currency);
    } catch {
      return RECEIPT_WORDING.money(amountMinor);
    }
  };
  return {
    factor: (f) => f.label,
    option: (_, o) => `“${o.label}”`,
    optionList: (_, options) => list(options.map((o) => `“${o.label}”`)),
    offering: (o) => o.label,
    offeringList: (offerings) => list(offerings.map((o) => o.label)),
    rule: (r) => `“${r.label}”`,
    money,
    percent,
  };
}
