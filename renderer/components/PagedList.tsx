import type { ReactNode } from 'react';
import type { Paging } from '../store/paging';
import { Card } from './Card';
import { Pager } from './Pager';

interface Props<T extends { id: string }> {
  title: string;
  subtitle: string;
  /** data-testid of the card */
  testId: string;
  /** filter controls and search box, in the list's toolbar */
  toolbar: ReactNode;
  items: T[];
  /** the rows belong to the scope on screen (otherwise none are shown, the card stays) */
  current: boolean;
  /** the items are the answer to the filter, search and page on screen */
  loaded: boolean;
  /** the text shown when the loaded page is empty, and its data-testid */
  empty: ReactNode;
  emptyTestId: string;
  /** the row's content, inside its `<li>` */
  row: (item: T) => ReactNode;
  paging: Paging;
  onPage: (direction: 'newer' | 'older') => void;
  pagerTestId: string;
}

/** A searchable, filterable, keyset-paged list card: toolbar, rows (or the empty state) and the Pager. */
export function PagedList<T extends { id: string }>(props: Props<T>) {
  const { items, paging, onPage } = props;
  return (
    <Card title={props.title} subtitle={props.subtitle} className="card-flush" testId={props.testId}>
      <div className="list-toolbar">{props.toolbar}</div>
      {props.loaded && items.length === 0 ? (
        <p className="empty" data-testid={props.emptyTestId}>
          {props.empty}
        </p>
      ) : (
        <ul className="row-list">
          {(props.current ? items : []).map((item) => (
            <li key={item.id}>{props.row(item)}</li>
          ))}
        </ul>
      )}
      <Pager
        paging={paging}
        count={items.length}
        onNewer={() => onPage('newer')}
        onOlder={() => onPage('older')}
        testId={props.pagerTestId}
      />
    </Card>
  );
}
