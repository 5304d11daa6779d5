import type { ReactNode } from 'react';

/**
 * A table of rows that scrolls sideways on its own at phone width (the page does not). A column
 * named with an empty string holds row actions: its heading is there for screen readers only.
 */
export function Table({ label, columns, children }: { label: string; columns: string[]; children: ReactNode }) {
  return (
    <div className="table-wrap">
      <table aria-label={label}>
        <thead>
          <tr>
            {columns.map((column, index) => (
              <th key={index} scope="col">
                {column || <span className="visually-hidden">Actions</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
