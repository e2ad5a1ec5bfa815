import type { ReactNode } from 'react';
import { CopyButton } from './CopyButton';
import { Private, usePresenting } from './Private';

interface Props {
  title: ReactNode;
  titleTestId: string;
  /** a status badge beside the title */
  badge?: ReactNode;
  /** the identifier shown under the title (the id, or e.g. an invoice number) */
  code: string;
  codeTestId: string;
  /** what the copy button copies: the record's id */
  copyValue: string;
  /** the amount (and actions) on the right */
  amount?: ReactNode;
}

/** The head of a record's detail card: title (with its status), the copyable id, the amount. */
export function DetailHead({ title, titleTestId, badge, code, codeTestId, copyValue, amount }: Props) {
  const presenting = usePresenting();
  const heading = (
    <h2 className="detail-title" data-testid={titleTestId}>
      {title}
    </h2>
  );
  return (
    <div className="detail-head">
      <div className="detail-head-text">
        {badge ? (
          <div className="detail-title-row">
            {heading}
            {badge}
          </div>
        ) : (
          heading
        )}
        {/* A raw id is developer material; a number people quote (an invoice's) stays. */}
        {!(presenting && code === copyValue) && (
          <div className="merchant-id">
            <code className="mono" data-testid={codeTestId}>
              {code}
            </code>
            <Private>
              <CopyButton value={copyValue} label="Copy id" />
            </Private>
          </div>
        )}
      </div>
      {amount && <div className="detail-amount">{amount}</div>}
    </div>
  );
}

/** One label and value of a `<dl className="facts">`. */
export function Fact({
  label,
  testId,
  title,
  children,
}: {
  label: ReactNode;
  testId?: string;
  /** hover text of the value */
  title?: string;
  children: ReactNode;
}) {
  return (
    <div>
      <dt>{label}</dt>
      <dd data-testid={testId} title={title}>
        {children}
      </dd>
    </div>
  );
}
