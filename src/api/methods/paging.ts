/** Paging of list methods: `page` from 1, `page_size` 1..100 (validated by pageParams). */
export function pageOf<T>(items: readonly T[], page: number, pageSize: number): T[] {
  return items.slice((page - 1) * pageSize, page * pageSize);
}
