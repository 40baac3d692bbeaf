import type { TestEventListing } from '../data/alert-test-events.ts';
import { formatTime } from './format.ts';
import { Notice } from './layout.tsx';

/** How a test event ended, in a few words. */
function resultOf(event: TestEventListing): string {
  if (event.doneAt === null) return 'sending';
  if (event.error === null) return `delivered, HTTP ${event.status}`;
  return event.status === null ? `failed: ${event.error}` : `failed, HTTP ${event.status}`;
}

/** The notice after the button: the newest test event's result (docs/product-rules.md R14.16). */
export function TestEventResult({ event }: { event: TestEventListing | undefined }) {
  if (!event || event.doneAt === null) return null;
  return event.error === null ? (
    <Notice kind="success">
      The test event <code>{event.eventId}</code> was delivered: your endpoint answered HTTP {event.status}.
    </Notice>
  ) : (
    <Notice kind="error">
      The test event <code>{event.eventId}</code> was not delivered: {event.error}.
    </Notice>
  );
}

/** The account's latest test events, newest first. */
export function TestEventList({ events }: { events: TestEventListing[] }) {
  if (events.length === 0) return <p class="muted">No test event was sent yet.</p>;
  return (
    <div class="table-wrap">
      <table data-testid="test-events" class="stack">
        <thead>
          <tr>
            <th>Sent</th>
            <th>To</th>
            <th>Result</th>
          </tr>
        </thead>
        <tbody>
          {events.map((event) => (
            <tr>
              <td data-label="Sent">{formatTime(event.sentAt)}</td>
              <td data-label="To">
                <code>{event.url}</code>
              </td>
              <td data-label="Result">{resultOf(event)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
