import './hosted-page.css';

export default function QuotesUnavailable() {
  return (
    <div className="hosted">
      <main className="hosted-main hosted-unavailable">
        <h1>Quotes are not available for this business right now</h1>
        <p className="hosted-intro">
          The link may be out of date, or the business may not be taking online quotes at the moment. Please
          check with the business directly, or try again later.
        </p>
      </main>
    </div>
  );
}
