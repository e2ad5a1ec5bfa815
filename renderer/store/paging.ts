/**
 * Keyset paging as the control API's lists offer it (newest first, `starting_after` = the last id
 * of the page before). A slice keeps the cursors of the pages it came through, so "Newer" pops one
 * and "Older" pushes the last id shown; it asks for one row more than it shows to know whether an
 * older page exists.
 */
export const PAGE_SIZE = 20;

export interface Paging {
  /** the `starting_after` of each page walked through; empty on the first page */
  cursors: string[];
  /** an older page exists */
  hasMore: boolean;
}

export const FIRST_PAGE: Paging = { cursors: [], hasMore: false };

/** The query of the page to read: one more row than shown. */
export const pageQuery = (paging: Paging) => ({
  limit: PAGE_SIZE + 1,
  starting_after: paging.cursors[paging.cursors.length - 1],
});

/** The rows to show and whether an older page exists, from an answer to `pageQuery`. */
export function pageOf<T>(rows: T[]): { rows: T[]; hasMore: boolean } {
  return { rows: rows.slice(0, PAGE_SIZE), hasMore: rows.length > PAGE_SIZE };
}

export const older = (paging: Paging, lastId: string): Paging => ({
  cursors: [...paging.cursors, lastId],
  hasMore: false,
});

export const newer = (paging: Paging): Paging => ({ cursors: paging.cursors.slice(0, -1), hasMore: true });

/** Page number, from 1, for the pager's label. */
export const pageNumber = (paging: Paging) => paging.cursors.length + 1;
