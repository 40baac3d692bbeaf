import { AsyncLocalStorage } from 'node:async_hooks';
import type { MiddlewareHandler } from 'hono';
import type { OperatorSettings } from '../config.ts';

/** The operator of the request being answered: every page's footer names them without each page passing them on. */
const pageOperator = new AsyncLocalStorage<OperatorSettings>();

/** Middleware: the pages rendered while answering this request see `operator`. */
export function withOperator(operator: OperatorSettings): MiddlewareHandler {
  return (_c, next) => pageOperator.run(operator, next);
}

/** How to reach support: a mailto link of the operator's address. */
export function SupportLink({ operator }: { operator: OperatorSettings }) {
  return <a href={`mailto:${operator.supportEmail}`}>{operator.supportEmail}</a>;
}

/** Every page's footer: who runs the service, where to write, their terms (when set). */
export function OperatorFooter() {
  const operator = pageOperator.getStore();
  if (!operator) return null;
  return (
    <footer class="site muted">
      <p>
        {operator.companyName} · Questions? Write to <SupportLink operator={operator} />
        {operator.termsUrl !== undefined && (
          <>
            {' '}
            · <a href={operator.termsUrl}>Terms of service</a>
          </>
        )}
      </p>
    </footer>
  );
}
