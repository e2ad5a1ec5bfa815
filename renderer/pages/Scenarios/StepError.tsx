import { describeFailure } from './labels';

/**
 * A failed step's message: wrapped, cut to a summary when long, with the full message — expected
 * and actual side by side when it says both — one click away. A long one never widens the page.
 */
export function StepError({ message }: { message: string }) {
  const failure = describeFailure(message);
  return (
    <div className="scenario-step-error" data-testid="scenario-step-error">
      <p className="scenario-step-summary">{failure.summary}</p>
      {!failure.complete && (
        <details className="scenario-step-details" data-testid="scenario-step-details">
          <summary>Full message</summary>
          {failure.diff ? (
            <div className="scenario-diff">
              <span className="scenario-diff-where">{failure.diff.where}</span>
              <span className="scenario-diff-label">Expected</span>
              <pre className="scenario-diff-value">{failure.diff.expected}</pre>
              <span className="scenario-diff-label">Actual</span>
              <pre className="scenario-diff-value" data-testid="scenario-diff-actual">
                {failure.diff.actual}
              </pre>
            </div>
          ) : (
            <pre className="scenario-diff-value">{message}</pre>
          )}
        </details>
      )}
    </div>
  );
}
