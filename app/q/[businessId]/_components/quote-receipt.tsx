import { useEffect, useRef } from 'react';
import { formatMoney, ReceiptSummary } from '@/app/_components/receipt-view';
import type { QuoteResult } from '@/lib/quotes/schemas';
import type { Answers, Offering } from './answers';

type Props = {
  result: QuoteResult;
  offering: Offering | undefined;
  answers: Answers;
  onStartAgain(): void;
};

/** A priced quote as the customer sees it: the total first, then how it adds up. */
export function QuoteReceipt({ result, offering, answers, onStartAgain }: Props) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const computation = result.quoteReceipt.computation!;
  const { currency, totalMinor, paymentTerms } = computation;
  return (
    <section className="quote-receipt" aria-labelledby="quote-receipt-heading">
      <h2 id="quote-receipt-heading" ref={heading} tabIndex={-1}>
        Your price{offering ? ` for ${offering.label.toLowerCase()}` : ''}
      </h2>
      <div className="quote-headline">
        <span className="quote-headline-total">{formatMoney(totalMinor, currency)}</span>
        {paymentTerms.depositMinor > 0 && (
          <span className="quote-headline-deposit">
            {formatMoney(paymentTerms.depositMinor, currency)} deposit to book
          </span>
        )}
      </div>
      <h3>How your price adds up</h3>
      <ReceiptSummary computation={computation} />
      {offering && <AnswerList offering={offering} answers={answers} />}
      <p className="quote-reference">
        Quote reference <code data-testid="quote-reference">{result.quoteIntent.id}</code>
      </p>
      <button type="button" className="primary" onClick={onStartAgain}>
        Start again
      </button>
    </section>
  );
}

function AnswerList({ offering, answers }: { offering: Offering; answers: Answers }) {
  const answered = offering.factors.filter((factor) => factor.id in answers.factors);
  if (answered.length === 0) return null;
  return (
    <>
      <h3>What you told us</h3>
      <dl className="answer-list">
        {answered.map((factor) => {
          const answer = answers.factors[factor.id];
          return (
            <div key={factor.id}>
              <dt>{factor.label}</dt>
              <dd>{answer === null ? 'Not sure' : (factor.options.find((o) => o.id === answer)?.label ?? answer)}</dd>
            </div>
          );
        })}
      </dl>
    </>
  );
}
